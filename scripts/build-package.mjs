// Builds the publishable npm package `aeadbench` into target/package/: the engine compiled to
// ESM with types, the built WASM and vectors beside it, the built site (for the CLI's browser
// runs) and the CLI. `npm pack` in that folder gives the tarball.
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEngine } from './build-engine.mjs';
import { gzipSync } from 'node:zlib';

const OUT = 'target/package';
rmSync(OUT, { recursive: true, force: true });
buildEngine(`${OUT}/dist`);
if (!existsSync('dist/index.html')) throw new Error('dist/ (the built site) is missing: run vite build first');
cpSync('dist', `${OUT}/site`, { recursive: true });

// Bundlers need the literal worker URL to point at the emitted .js file.
const browserEntry = `${OUT}/dist/web/core/browser.js`;
// tsc rewrites import specifiers, not a `new URL()` literal; a bundler must see that literal, so
// it cannot be computed. Refuse to ship an entry whose worker URL this step did not find.
const entrySource = readFileSync(browserEntry, 'utf8');
if (!entrySource.includes("'./worker/bench.worker.ts'")) throw new Error(`${browserEntry}: no './worker/bench.worker.ts' URL to point at the emitted worker`);
writeFileSync(browserEntry, entrySource.replace("'./worker/bench.worker.ts'", "'./worker/bench.worker.js'"));

const root = JSON.parse(readFileSync('package.json', 'utf8'));
// The npm packages the implementations' backends import, from their descriptions (implementations/<id>/meta.ts).
const { METAS } = await import(`./../${OUT}/dist/web/core/tables/implementations.js`);
const backendDependencies = Object.fromEntries(
  METAS.flatMap((m) => m.npm).map((name) => {
    if (!root.dependencies[name]) throw new Error(`an implementation's meta.ts names the npm package '${name}', which package.json's dependencies lack`);
    return [name, root.dependencies[name]];
  }),
);
const core = (name) => ({ types: `./dist/web/core/${name}.d.ts`, default: `./dist/web/core/${name}.js` });
const pkg = {
  name: 'aeadbench',
  version: root.version,
  description: `Measure AEAD ciphers (${METAS.map((m) => m.label).join(', ')}) where your code runs: browsers and Node.`,
  license: root.license,
  type: 'module',
  sideEffects: false,
  engines: { node: '>=20.19' },
  exports: {
    '.': {
      node: { types: './dist/web/core/node.d.ts', default: './dist/web/core/node.js' },
      types: './dist/web/core/browser.d.ts',
      default: './dist/web/core/browser.js',
    },
    './schema': core('schema'),
    './stats': core('stats'),
    './algorithms': core('tables/algorithms'),
    './params': core('params'),
    './submit': core('submit'),
    './compare': { types: './dist/cli/compare.d.ts', default: './dist/cli/compare.js' },
    // For your own Playwright tests: runs in a Page you give it (Playwright is yours, a peer).
    './playwright': { types: './dist/cli/playwright.d.ts', default: './dist/cli/playwright.js' },
    './package.json': './package.json',
  },
  bin: { aeadbench: './dist/cli/main.js' },
  files: ['dist', 'site', 'README.md'],
  dependencies: {
    valibot: root.dependencies.valibot,
    // Names the nearest option when one is misspelt (options.ts checkOptionNames).
    'fastest-levenshtein': root.dependencies['fastest-levenshtein'],
    // Each imported only when a run asks for its implementation.
    ...backendDependencies,
  },
  // esbuild bundles a module of yours for `aeadbench run --implementation FILE`.
  peerDependencies: {
    'playwright-core': root.devDependencies['playwright-core'],
    '@playwright/test': `>=1.40`,
    'selenium-webdriver': root.dependencies['selenium-webdriver'],
    esbuild: root.dependencies.esbuild,
  },
  peerDependenciesMeta: {
    'playwright-core': { optional: true },
    '@playwright/test': { optional: true },
    'selenium-webdriver': { optional: true },
    esbuild: { optional: true },
  },
  keywords: [
    'aead',
    'benchmark',
    'webassembly',
    'webcrypto',
    'aes-gcm',
    'chacha20-poly1305',
    'ascon',
    'aegis',
    'aes-gcm-siv',
    'ocb',
    'rustcrypto',
    'libsodium',
  ],
};
writeFileSync(`${OUT}/package.json`, JSON.stringify(pkg, null, 2) + '\n');
// The package README is a file of its own (web/core/README.md), followed by the result
// document's field reference generated from the schema it describes (schema-doc.ts), so the
// two cannot drift; a field without a description fails the build there.
const { fieldsMarkdown } = await import(`./../${OUT}/dist/web/core/schema-doc.js`);
const { ResultDocumentSchema, SCHEMA_VERSION } = await import(`./../${OUT}/dist/web/core/schema.js`);
writeFileSync(
  `${OUT}/README.md`,
  `${readFileSync('web/core/README.md', 'utf8').trimEnd()}\n\n## The result document\n\n` +
    `What \`runBenchmark\` resolves with, the CLI writes with \`--json\`, and the collector accepts (\`${SCHEMA_VERSION}\`; check one with \`validateResult\`). ` +
    `Every field, generated from the schema that validates it; \`[]\` marks an array's items; times are nanoseconds per operation unless a name says otherwise.\n\n` +
    `${fieldsMarkdown(ResultDocumentSchema)}\n`,
);

// Sizes: the package, and gzip of each entry with what it imports (approximate: no bundling).
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const total = walk(OUT).reduce((n, f) => n + statSync(f).size, 0);
console.error(`package: ${(total / 1024).toFixed(0)} KiB unpacked in ${OUT}`);
for (const [name, entry] of Object.entries(pkg.exports)) {
  const file = typeof entry === 'string' ? entry : (entry.default ?? entry.node?.default);
  if (!file.endsWith('.js')) continue;
  const src = readFileSync(join(OUT, file));
  console.error(
    `  ${name.padEnd(12)} ${file.padEnd(36)} ${(src.length / 1024).toFixed(1)} KiB, ${(gzipSync(src).length / 1024).toFixed(1)} KiB gzip (module alone)`,
  );
}
