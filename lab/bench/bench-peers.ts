/**
 * `npm run bench:peers`: the WASM libraries a web developer would otherwise ship, side by side
 * in one browser run — RustCrypto's ChaCha20-Poly1305 and the aegis crate's AEGIS (pure Rust,
 * and its libaegis in C) against libsodium.js's — as paired ratios (sampled interleaved in one
 * worker, stats.ts pairedRatio) with their 95 % intervals. A ratio above 1 means the library
 * in the row is faster than libsodium.js.
 *   BROWSER=chromium SIZES=64,1k,16k,1M ROUNDS=3 npm run bench:peers
 */
import { runInBrowser } from '../../cli/browser-run.ts';
import type { BrowserName } from '../../cli/browsers.ts';
import type { CaseResult } from '../../web/core/schema.ts';
import { pairedRatio } from '../../web/core/stats.ts';
import { formatSize } from '../../web/core/params.ts';
import { evidence, recordPage } from './measured.ts';

recordPage('peers', {
  title: 'RustCrypto and libaegis against libsodium.js',
  about: 'Paired ratios from one browser run: above 1, the row is faster than libsodium.js.',
});

const BROWSER = (process.env.BROWSER ?? 'chromium') as BrowserName;
const SIZES = process.env.SIZES ?? '64,1k,16k,1M';
const ROUNDS = process.env.ROUNDS ?? '3';
const search = `preset=quick&algorithms=chacha20-poly1305,xchacha20-poly1305,aegis-128l-tag256,aegis-256-tag256&implementations=rustcrypto-wasm,libaegis-wasm,libsodium&sizes=${SIZES}&rounds=${ROUNDS}&samples=7&operations=encrypt,decrypt`;

const figures = evidence('peers');
const started = performance.now();
const doc = await runInBrowser({ browser: BROWSER, search, onProgress: (p) => process.stderr.write(`\r${p.done}/${p.total} cases`) });
process.stderr.write(`\n${((performance.now() - started) / 1000).toFixed(0)} s\n`);
const key = (c: CaseResult) => `${c.algorithm}/${c.operation}/${c.sizeBytes}`;
const sodium = new Map(doc.cases.filter((c) => c.implementation === 'libsodium').map((c) => [key(c), c]));

console.log(`\nbench:peers — ${doc.environment.browser.name} ${doc.environment.browser.version}, ${doc.environment.os.name}, one run of ${search}`);
console.log('paired ratio of time per operation, libsodium.js / row (above 1: the row is faster), 95 % interval\n');
console.log(
  `${'algorithm'.padEnd(20)}${'op'.padEnd(9)}${'size'.padStart(8)}  ${'implementation'.padEnd(30)}${'MB/s'.padStart(9)}  ${'libsodium MB/s'.padStart(14)}  ratio [interval]`,
);
for (const c of doc.cases.filter((x) => x.implementation !== 'libsodium').sort((a, b) => key(a).localeCompare(key(b)))) {
  const s = sodium.get(key(c));
  if (!s) continue;
  const p = pairedRatio(s, c);
  figures.row('versus-libsodium', {
    algorithm: c.algorithm,
    operation: c.operation,
    sizeBytes: c.sizeBytes,
    implementation: c.implementation,
    variant: c.variant,
    bytesPerSecond: c.bytesPerSecond,
    libsodiumBytesPerSecond: s.bytesPerSecond,
    ratio: p?.ratio ?? null,
    low: p?.ciLow ?? null,
    high: p?.ciHigh ?? null,
  });
  console.log(
    `${c.algorithm.padEnd(20)}${c.operation.padEnd(9)}${formatSize(c.sizeBytes).padStart(8)}  ${`${c.implementation}/${c.variant}`.padEnd(30)}${(c.bytesPerSecond / 1e6).toFixed(1).padStart(9)}  ${(s.bytesPerSecond / 1e6).toFixed(1).padStart(14)}  ` +
      (p ? `${p.ratio.toFixed(2)}× [${p.ciLow.toFixed(2)}–${p.ciHigh.toFixed(2)}]` : 'not paired'),
  );
}
