// The npm package as a user gets it: packed, installed from the tarball into a fresh project,
// imported from Node, and bundled by Vite into a page that runs in Chromium.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic } from '../server/serve.ts';
import { ALGORITHMS } from '../web/core/tables/algorithms.ts';
import { validateResult } from '../web/core/schema.ts';
import { expect, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });
test.skip(({ browserName }) => browserName !== 'chromium', 'the package is proven once, in Chromium and Node');

let project = '';

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const pkgDir = resolve('target/package');
  // The file this pack wrote, as npm names it: not whichever tarball an earlier build left there.
  const tarball = join(pkgDir, execFileSync('npm', ['pack', '--silent'], { cwd: pkgDir, encoding: 'utf8' }).trim().split('\n').pop()!);
  project = mkdtempSync(join(tmpdir(), 'aeadbench-user-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, 'vite@8.3.8'], { cwd: project, stdio: 'pipe' });
});

test('the packed package installs and runs from Node', async () => {
  writeFileSync(
    join(project, 'run.mjs'),
    `import { runBenchmark, listAvailable, validateResult, ALGORITHMS } from 'aeadbench';
import { median } from 'aeadbench/stats';
const { available } = await listAvailable();
const offered = available.map((a) => a.implementation + ':' + a.algorithms.length);
const doc = await runBenchmark({ algorithms: ['aes-128-gcm', 'ascon-aead128'], implementations: ['rustcrypto-wasm', 'node-crypto'], sizes: [64, 1024], rounds: 1, maxReruns: 0 });
console.log(JSON.stringify({ ok: validateResult(doc).ok, algorithms: ALGORITHMS.length, cases: doc.cases.length, runtime: doc.environment.runtime,
  excluded: doc.validation.filter((v) => v.excluded).length, impls: [...new Set(doc.cases.map((c) => c.implementation))].sort(), m: median([3, 1, 2]), offered }));`,
  );
  const out = JSON.parse(execFileSync('node', ['run.mjs'], { cwd: project, encoding: 'utf8', timeout: 120_000 }).trim().split('\n').pop()!);
  const { offered, ...rest } = out;
  const all = ALGORITHMS.length; // the package exposes the repository's own table
  expect(rest).toEqual({ ok: true, algorithms: all, cases: 6, runtime: 'node', excluded: 0, impls: ['node-crypto', 'rustcrypto-wasm'], m: 2 });
  // Both WASM builds with every algorithm; noble's six, libsodium's four, OpenSSL's seven in
  // Node (AES-OCB included), libaegis's strict-SIMD build with its four AEGIS ids.
  expect(offered).toEqual(expect.arrayContaining([`rustcrypto-wasm:${all}`, 'noble:6', 'libsodium:4', 'node-crypto:7', 'libaegis-wasm:4']));
  expect(offered.filter((o: string) => o === `rustcrypto-wasm:${all}`)).toHaveLength(2);
});

test('the packed package measures in plain worker threads: started under tsx, a module of yours leaves typed arrays on their fast path', async () => {
  // V8 prints a line when an isolate's "array buffer detaching" protector falls; once fallen,
  // every typed-array access in that thread is checked. tsx's own start falls it in the main
  // thread (before 'start'); the engine's workers (gate, validation, measuring) must not, though
  // SJCL loaded through tsx's hooks did, and the WASM cores' memory growing did (wasm/heap).
  writeFileSync(
    join(project, 'protector.mjs'),
    `import { runBenchmark } from 'aeadbench';
console.log('start');
const doc = await runBenchmark({ algorithms: ['aes-128-gcm'], implementations: ['rustcrypto-wasm', 'noble', ${JSON.stringify(resolve('examples/modules/sjcl-gcm/index.mjs'))}], sizes: [1024, 1048576], rounds: 1, maxReruns: 0, samplesPerRound: 3 });
console.log('done ' + doc.cases.map((c) => c.implementation).filter((x, i, a) => a.indexOf(x) === i).sort().join(','));`,
  );
  const tsx = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
  const out = execFileSync('node', ['--trace-protector-invalidation', '--import', tsx, 'protector.mjs'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
  const lines = out
    .trim()
    .split('\n')
    .map((l) => l.trim());
  expect(lines.slice(lines.indexOf('start'))).toEqual(['start', 'done noble,rustcrypto-wasm,sjcl-gcm']);
});

test("the packed package exports aeadbench/playwright for a team's own Playwright tests", async () => {
  writeFileSync(join(project, 'pw.mjs'), `import * as pw from 'aeadbench/playwright';\nconsole.log(JSON.stringify(Object.keys(pw).sort()));`);
  const names = JSON.parse(execFileSync('node', ['pw.mjs'], { cwd: project, encoding: 'utf8', timeout: 60_000 }).trim());
  expect(names).toEqual(expect.arrayContaining(['assertNoRegression', 'compareInPage', 'runBenchmarkInPage', 'PageError']));
});

test('the installed aeadbench command runs in Node and compares two results', async () => {
  const run = (out: string) =>
    execFileSync('npx', ['aeadbench', 'run', '--browser', 'node', '--algorithms', 'ascon-aead128', '--sizes', '64', '--rounds', '1', '--json', out], {
      cwd: project,
      encoding: 'utf8',
      timeout: 120_000,
    });
  expect(run('a.json')).toContain('ascon-aead128');
  run('b.json');
  const r = spawnSync('npx', ['aeadbench', 'compare', 'a.json', 'b.json'], { cwd: project, encoding: 'utf8' });
  expect(r.stdout).toContain('cases compared with a margin of ±3 %');
  // Two one-round runs: SAME, SLOWER or, with intervals this wide, UNKNOWN — never an error (3).
  expect([0, 1, 2], r.stderr).toContain(r.status);
});

test('a Vite page that imports the package runs it in Chromium', async ({ page }) => {
  writeFileSync(join(project, 'index.html'), '<!doctype html><meta charset="utf-8"><title>user page</title><script type="module" src="./main.js"></script>');
  writeFileSync(
    join(project, 'main.js'),
    `import { runBenchmark } from 'aeadbench';
runBenchmark({ algorithms: ['chacha20-poly1305'], implementations: ['rustcrypto-wasm', 'noble'], sizes: [1024], rounds: 1, maxReruns: 0 })
  .then((doc) => { window.__result = doc; }, (e) => { window.__error = String(e); });`,
  );
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: project, stdio: 'pipe' });
  const server = await serveStatic({ dir: join(project, 'dist'), port: 0, host: '127.0.0.1' });
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(
      () => (window as unknown as { __result?: unknown; __error?: unknown }).__result || (window as unknown as { __error?: unknown }).__error,
      null,
      { timeout: 120_000 },
    );
    const { result, error } = await page.evaluate(() => ({
      result: (window as unknown as { __result?: unknown }).__result,
      error: (window as unknown as { __error?: unknown }).__error,
    }));
    expect(error).toBeUndefined();
    const checked = validateResult(result);
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.value.environment.runtime).toBe('browser');
      expect(new Set(checked.value.cases.map((c) => c.implementation))).toEqual(new Set(['rustcrypto-wasm', 'noble']));
      expect(checked.value.validation.every((v) => !v.excluded && v.vectorsPassed > 300)).toBe(true);
    }
  } finally {
    server.close();
  }
});

/** A fenced block of the packed package's README, by its info string (```js node, ```js browser). */
function readmeExample(kind: 'node' | 'browser'): string {
  const readme = readFileSync(resolve('target/package/README.md'), 'utf8');
  const m = readme.match(new RegExp('```js ' + kind + '\\n([\\s\\S]*?)```'));
  if (!m) throw new Error(`the package README has no \`\`\`js ${kind} example`);
  return m[1]!;
}

test('the package README documents every result field, and its Node example runs as written', async () => {
  test.setTimeout(180_000);
  const readme = readFileSync(resolve('target/package/README.md'), 'utf8');
  for (const field of ['`cases[].totalBytesPerSecond`', '`cases[].unstable`', '`aaCheck.decision`', '`environment.crossOriginIsolated`'])
    expect(readme).toContain(field);
  // Saved under the name its first line gives, in a folder whose package.json is what `npm init -y`
  // writes (no "type": CommonJS), where a .js file of ESM would fail.
  const example = readmeExample('node');
  const file = /^\/\/ (\S+\.mjs)\n/.exec(example)?.[1];
  expect(file, 'the Node example names its file (.mjs) on its first line').toBeTruthy();
  const cjs = join(project, 'cjs-user');
  mkdirSync(cjs, { recursive: true });
  writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-user', version: '1.0.0', main: 'index.js', license: 'ISC' }));
  writeFileSync(join(cjs, file!), example);
  const out = execFileSync('node', [file!], { cwd: cjs, encoding: 'utf8', timeout: 150_000 });
  // Two algorithms × two sizes, each with its winner, MB/s and interval.
  const lines = out
    .trim()
    .split('\n')
    .filter((l) => / MB\/s \[/.test(l));
  expect(lines, out).toHaveLength(4);
  for (const alg of ['aes-128-gcm', 'chacha20-poly1305'])
    for (const size of ['64 B', '16384 B'])
      expect(
        lines.some((l) => l.startsWith(`${alg} ${size}:`)),
        out,
      ).toBe(true);
  // The verdict, exported: a sentence for small messages, and a decided or undecided claim for each class measured.
  expect(out).toMatch(/^Fastest for small messages \(≤ 1 KiB\): /m);
  expect(out).toMatch(/^claim fastest\/small: .+ \((different|same|unknown)\)$/m);
  expect(out).toMatch(/^claim fastest\/medium: .+ \((different|same|unknown)\)$/m);
});

test("the package README's browser example runs as written in a Vite page, one line per case", async ({ page }) => {
  test.setTimeout(180_000);
  const dir = join(project, 'readme-page');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>readme example</title><script type="module" src="./main.js"></script>');
  writeFileSync(join(dir, 'main.js'), readmeExample('browser'));
  execFileSync('npx', ['vite', 'build', 'readme-page', '--logLevel', 'warn'], { cwd: project, stdio: 'pipe' });
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  const server = await serveStatic({ dir: join(dir, 'dist'), port: 0, host: '127.0.0.1' });
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // AES-128-GCM in one WASM build and Web Crypto's two variants, at two sizes: six cases.
    await expect.poll(() => logs.filter((l) => l.includes('MB/s')).length, { timeout: 150_000 }).toBe(6);
    const final = logs.filter((l) => l.includes('MB/s'));
    // Each line names its variant, so no two lines read alike (the old example printed Web Crypto twice).
    expect(new Set(final.map((l) => l.split(':')[0])).size, final.join('\n')).toBe(6);
    expect(final.filter((l) => l.includes('webcrypto (sequential)'))).toHaveLength(2);
    expect(final.filter((l) => l.includes('webcrypto (pipelined)'))).toHaveLength(2);
    // onCase fired for each case as it finished, before the summary lines.
    expect(logs.filter((l) => l.startsWith('measured ')).length).toBeGreaterThanOrEqual(6);
    expect(logs.findIndex((l) => l.startsWith('measured '))).toBeLessThan(logs.findIndex((l) => l.includes('MB/s')));
  } finally {
    server.close();
  }
});
