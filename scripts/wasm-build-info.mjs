// Writes build-info.json beside each built variant and prints a summary: crate versions from
// Cargo.lock, the flags used, .wasm sizes (raw and gzip), and the backend every crate compiled
// to as reported by the module itself (buildInfo()).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [outDir, bindgenVersion, wasmOptFlags] = process.argv.slice(2);
// Node 20 compiles relaxed SIMD only behind this flag (later versions ship it, and ignore it).
setFlagsFromString('--experimental-wasm-relaxed-simd');
const lock = readFileSync('Cargo.lock', 'utf8');
// Cargo.lock's packages: name, version and direct dependencies (a dependency may carry its version).
const packages = new Map(
  lock
    .split('[[package]]')
    .slice(1)
    .map((block) => {
      const name = /name = "([^"]+)"/.exec(block)[1];
      const version = /version = "([^"]+)"/.exec(block)[1];
      const deps = [...(/dependencies = \[([\s\S]*?)\]/.exec(block)?.[1] ?? '').matchAll(/"([^" ]+)/g)].map((m) => m[1]);
      return [name, { version, deps }];
    }),
);
const variants = readdirSync(outDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
// The crates the Rust algorithm table names (wasm/src/algorithm.rs, as a built module reports
// them), the crates those use directly, and wasm-bindgen: derived, so a new row brings its crates.
const tableCrates = await (async () => {
  const dir = join(outDir, variants[0]);
  const glue = await import(pathToFileURL(join(dir, 'cores.js')).href);
  glue.initSync({ module: readFileSync(join(dir, 'cores_bg.wasm')) });
  return [...new Set(JSON.parse(glue.algorithms()).flatMap((a) => a.crate.split('+')))];
})();
const crates = {};
for (const name of [...tableCrates, ...tableCrates.flatMap((c) => packages.get(c)?.deps ?? []), 'wasm-bindgen'].sort()) {
  const p = packages.get(name);
  if (p) crates[name] = p.version;
}
const rows = [];
const codeSize = JSON.parse(readFileSync(join(outDir, 'code-size.json'), 'utf8'));
for (const variant of variants) {
  const dir = join(outDir, variant);
  const wasm = readFileSync(join(dir, 'cores_bg.wasm'));
  const glue = await import(pathToFileURL(join(dir, 'cores.js')).href);
  glue.initSync({ module: wasm });
  const module = JSON.parse(glue.buildInfo());
  const info = {
    variant,
    // As scripts/build-wasm recorded them for this variant.
    ...JSON.parse(readFileSync(join(dir, 'build-flags.json'), 'utf8')),
    wasmOpt: wasmOptFlags || 'off',
    wasmBindgen: bindgenVersion,
    crates,
    wasmBytes: wasm.length,
    wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
    // What each algorithm's code weighs on its own (scripts/code-size.mjs, simd128 flags).
    codeBytesPerAlgorithm: codeSize.algorithms,
    ...module,
  };
  writeFileSync(join(dir, 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
  // The same as a module, so the engine imports it in any bundler or in Node without JSON imports.
  writeFileSync(join(dir, 'build-info.js'), `/** Written by scripts/build-wasm. */\nexport default ${JSON.stringify(info, null, 2)};\n`);
  writeFileSync(join(dir, 'build-info.d.ts'), 'declare const info: Record<string, unknown>;\nexport default info;\n');
  rows.push(info);
}
console.error(`${'variant'.padEnd(22)} wasm KB  gzip KB  backends`);
for (const r of rows) {
  const b = Object.entries(r.backends)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.error(`${r.variant.padEnd(22)} ${(r.wasmBytes / 1024).toFixed(0).padStart(7)}  ${(r.wasmGzipBytes / 1024).toFixed(0).padStart(7)}  ${b}`);
}
console.error(
  'crates: ' +
    Object.entries(crates)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
);
