/**
 * `npm run bench:harness`: the engine's own overhead, in headless Chromium.
 *  1. The engine's median for WASM AES-128-GCM and ChaCha20-Poly1305 at 1 MiB against a bare
 *     in-WASM loop, and its Web Crypto AES-128-GCM (sequential) against a bare `await` loop,
 *     both timed in the same page, alternating, 3 times. Target ≥ 0.97.
 *  2. The quick preset's wall time (target ≤ 30 s here).
 *  3. The spread of the engine's 1 MiB medians over the 3 runs (target ≤ 3 %).
 *   RUNS=3 SIZE=1M ROUNDS=5 QUICK='preset=quick' npm run bench:harness   (the defaults)
 */
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { BROWSER_ARGS, findBrowser } from './browsers.ts';
import { serveStatic } from './serve.ts';
import { median } from '../web/core/stats.ts';
import { formatSize, parseSize } from '../web/core/params.ts';
import type { ResultDocument } from '../web/core/schema.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const SIZE = process.env.SIZE ?? '1M';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** The run whose wall time is reported (the whole quick preset by default). */
const QUICK = process.env.QUICK ?? 'preset=quick';
const SIZE_BYTES = parseSize(SIZE);
const CASES = [
  { label: `WASM AES-128-GCM ${formatSize(SIZE_BYTES)}`, kind: 'wasm' as const, algorithm: 'aes-128-gcm', impl: 'rustcrypto-wasm' },
  { label: `WASM ChaCha20-Poly1305 ${formatSize(SIZE_BYTES)}`, kind: 'wasm' as const, algorithm: 'chacha20-poly1305', impl: 'rustcrypto-wasm' },
  { label: `Web Crypto AES-128-GCM ${formatSize(SIZE_BYTES)} (sequential)`, kind: 'webcrypto' as const, algorithm: 'aes-128-gcm', impl: 'webcrypto' },
];

const server = await serveStatic({ dir: 'dist', port: 0, host: '127.0.0.1' });
const { port } = server.address() as AddressInfo;
const browser = await chromium.launch({ executablePath: findBrowser('chromium').path, args: BROWSER_ARGS });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${port}/harness.html`);
await page.waitForFunction(() => document.body.dataset.ready === 'true');

const engineMedians: Record<string, number[]> = {};
const bareMedians: Record<string, number[]> = {};
/** Mean ns per operation: total time over total operations, what a caller waits for. */
const engineMeans: Record<string, number[]> = {};
const bareMeans: Record<string, number[]> = {};
const search = `preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm,webcrypto&webcrypto=sequential&sizes=${SIZE}&rounds=${ROUNDS}&samples=6&reruns=0&minSampleMs=20`;
for (let run = 0; run < RUNS; run++) {
  for (const order of run % 2 ? ['engine', 'bare'] : ['bare', 'engine']) {
    if (order === 'engine') {
      const doc = (await page.evaluate((s) => window.harness!.engine(s), search)) as ResultDocument;
      for (const c of CASES) {
        const r = doc.cases.find((x) => x.algorithm === c.algorithm && x.implementation === c.impl)!;
        (engineMedians[c.label] ??= []).push(r.summary.median);
        (engineMeans[c.label] ??= []).push(r.summary.mean);
      }
    } else {
      for (const c of CASES) {
        // Same shape as the engine's sample: ≥ 20 ms of work per sample, 30 samples after warm-up.
        const atOneMiB = c.kind === 'wasm' ? (c.algorithm === 'aes-128-gcm' ? 3 : 10) : 12;
        const iterations = Math.max(1, Math.round((atOneMiB * (1 << 20)) / SIZE_BYTES));
        const samples = await page.evaluate((spec) => window.harness!.bare(spec), { kind: c.kind, algorithm: c.algorithm, sizeBytes: SIZE_BYTES, iterations, samples: 30, warmupMs: 300 });
        (bareMedians[c.label] ??= []).push(median(samples));
        (bareMeans[c.label] ??= []).push(samples.reduce((a, x) => a + x, 0) / samples.length);
      }
    }
  }
  process.stderr.write(`run ${run + 1}/${RUNS} done\n`);
}

const t0 = Date.now();
const quick = (await page.evaluate((s) => window.harness!.engine(s), QUICK)) as ResultDocument;
const quickWallS = (Date.now() - t0) / 1000;
await browser.close();
server.close();

console.log(`\nbench:harness — headless Chromium, ${RUNS} alternating runs; MB/s from medians of ns/op`);
console.log('case'.padEnd(44) + 'engine MB/s'.padStart(12) + 'bare MB/s'.padStart(12) + 'engine/bare'.padStart(13) + `${formatSize(SIZE_BYTES)} spread`.padStart(14));
for (const c of CASES) {
  const e = median(engineMedians[c.label]!);
  const b = median(bareMedians[c.label]!);
  const xs = engineMedians[c.label]!;
  const spread = (Math.max(...xs) - Math.min(...xs)) / e;
  console.log(c.label.padEnd(44) + (SIZE_BYTES / e * 1e3).toFixed(1).padStart(12) + (SIZE_BYTES / b * 1e3).toFixed(1).padStart(12) + (b / e).toFixed(3).padStart(13) + `${(spread * 100).toFixed(1)} %`.padStart(14));
}
console.log(`\nthe same, as total bytes / total time of each loop (the samples' mean; the engine's totalBytesPerSecond)`);
for (const c of CASES) {
  const e = median(engineMeans[c.label]!);
  const b = median(bareMeans[c.label]!);
  console.log(c.label.padEnd(44) + (SIZE_BYTES / e * 1e3).toFixed(1).padStart(12) + (SIZE_BYTES / b * 1e3).toFixed(1).padStart(12) + (b / e).toFixed(3).padStart(13));
}
console.log(`\n${QUICK}: ${quick.cases.length} cases, wall time ${quickWallS.toFixed(1)} s (engine's own durationMs ${(quick.durationMs / 1000).toFixed(1)} s; target ≤ 30 s)`);
console.log('targets: engine/bare ≥ 0.97; 1 MiB spread over runs ≤ 3 %');
