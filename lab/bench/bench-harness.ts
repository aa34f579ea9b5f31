/**
 * `npm run bench:harness`: is what the engine reports what a plain loop gets? Per engine and
 * size, in one page (harness.html), alternating, RUNS times:
 *  1. the engine's WASM AES-128-GCM and ChaCha20-Poly1305 against a bare in-WASM loop, and its
 *     Web Crypto AES-128-GCM (sequential) against a bare `await` loop written apart from the
 *     engine (lab/harness/bare.worker.ts: one key, the same buffer, sequential encrypts);
 *  2. as medians of batches, and as total bytes over total time (the engine's
 *     totalBytesPerSecond, the samples' mean): a caller waits for the slow calls too;
 *  3. the wall time of one run of QUICK (the whole quick preset by default), and that run's own
 *     Web Crypto figure at each size against the same plain loops: what a visitor is shown.
 * Target: engine / bare between 0.97 and 1.03.
 *   RUNS=3 SIZES=1k,16k,1M BROWSERS=chromium,firefox,webkit ROUNDS=3 QUICK='preset=quick' npm run bench:harness
 */
import type { BrowserName } from '../../cli/browser-run.ts';
import { bareLoop, openHarness, settled } from './harness-page.ts';
import { median } from '../../web/core/stats.ts';
import { formatSize, parseSize } from '../../web/core/params.ts';
import type { ResultDocument } from '../../web/core/schema.ts';
import { evidence, recordPage } from './measured.ts';

recordPage('harness', {
  title: "The engine's own overhead",
  about: "What the engine reports against a plain loop written apart from it, in headless browsers, and the quick preset's wall time.",
});

const RUNS = Number(process.env.RUNS ?? 3);
const SIZES = (process.env.SIZES ?? process.env.SIZE ?? '1k,16k,1M').split(',').map((s) => parseSize(s));
const BROWSERS = (process.env.BROWSERS ?? 'chromium,firefox,webkit').split(',') as BrowserName[];
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** The run whose wall time is reported (the whole quick preset by default). */
const QUICK = process.env.QUICK ?? 'preset=quick';
const CASES = [
  { name: 'WASM AES-128-GCM', kind: 'wasm' as const, algorithm: 'aes-128-gcm', impl: 'rustcrypto-wasm' },
  { name: 'WASM ChaCha20-Poly1305', kind: 'wasm' as const, algorithm: 'chacha20-poly1305', impl: 'rustcrypto-wasm' },
  { name: 'Web Crypto AES-128-GCM (sequential)', kind: 'webcrypto' as const, algorithm: 'aes-128-gcm', impl: 'webcrypto' },
];
/** ns per operation of each loop, per case label: medians of batches and means (total time / total operations). */
type Figures = Record<string, { median: number[]; mean: number[] }>;
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
/** MB/s of `ns` per operation on `size`-byte messages. */
const mbps = (size: number, ns: number) => (size / ns) * 1e3;

const figures = evidence('harness');
console.log(`bench:harness — ${RUNS} alternating runs per engine and size; MB/s; engine/bare = engine's throughput over the plain loop's`);
for (const name of BROWSERS) {
  let page: Awaited<ReturnType<typeof openHarness>>;
  try {
    page = await openHarness(name);
  } catch (e) {
    console.log(`\n${name}: not measured — ${(e as Error).message.split('\n')[0]}`);
    continue;
  }
  try {
    const engine: Figures = {};
    const bare: Figures = {};
    const add = (f: Figures, label: string, samples: { median: number; mean: number }) => {
      (f[label] ??= { median: [], mean: [] }).median.push(samples.median);
      f[label]!.mean.push(samples.mean);
    };
    const label = (c: (typeof CASES)[number], size: number) => `${c.name} ${formatSize(size)}`;
    for (const size of SIZES) {
      const search = `preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm,webcrypto&webcrypto=sequential&sizes=${size}&rounds=${ROUNDS}&samples=6&reruns=0&minSampleMs=20`;
      for (let run = 0; run < RUNS; run++) {
        for (const order of run % 2 ? ['engine', 'bare'] : ['bare', 'engine']) {
          if (order === 'engine') {
            const doc = (await settled(page, `window.harness.engine(${JSON.stringify(search)})`)) as ResultDocument;
            for (const c of CASES) {
              const r = doc.cases.find((x) => x.algorithm === c.algorithm && x.implementation === c.impl)!;
              add(engine, label(c, size), { median: r.summary.median, mean: r.summary.mean });
            }
          } else {
            for (const c of CASES) {
              const samples = await bareLoop(page, c.kind, c.algorithm, size);
              add(bare, label(c, size), { median: median(samples), mean: mean(samples) });
            }
          }
        }
      }
      process.stderr.write(`${name} ${formatSize(size)} done\n`);
    }
    const t0 = Date.now();
    const quick = (await settled(page, `window.harness.engine(${JSON.stringify(QUICK)})`)) as ResultDocument;
    const quickWallS = (Date.now() - t0) / 1000;
    console.log(`\n${name} (${quick.environment.browser.name} ${quick.environment.browser.version})`);
    console.log(
      'case'.padEnd(46) +
        'engine MB/s'.padStart(12) +
        'bare MB/s'.padStart(11) +
        'engine/bare'.padStart(13) +
        '   as total bytes / total time:' +
        'engine'.padStart(9) +
        'bare'.padStart(9) +
        'engine/bare'.padStart(13),
    );
    for (const size of SIZES)
      for (const c of CASES) {
        const l = label(c, size);
        const [em, bm, ea, ba] = [median(engine[l]!.median), median(bare[l]!.median), median(engine[l]!.mean), median(bare[l]!.mean)];
        figures.row('engine-over-bare', {
          browser: name,
          case: c.name,
          sizeBytes: size,
          engineMbps: mbps(size, em),
          bareMbps: mbps(size, bm),
          ratio: bm / em,
          engineTotalMbps: mbps(size, ea),
          bareTotalMbps: mbps(size, ba),
          totalRatio: ba / ea,
        });
        console.log(
          l.padEnd(46) +
            mbps(size, em).toFixed(1).padStart(12) +
            mbps(size, bm).toFixed(1).padStart(11) +
            (bm / em).toFixed(3).padStart(13) +
            ' '.repeat(31) +
            mbps(size, ea).toFixed(1).padStart(9) +
            mbps(size, ba).toFixed(1).padStart(9) +
            (ba / ea).toFixed(3).padStart(13),
        );
      }
    figures.row('quick-run', { browser: name, cases: quick.cases.length, wallSeconds: quickWallS, engineSeconds: quick.durationMs / 1000 });
    console.log(
      `${QUICK}: ${quick.cases.length} cases, wall time ${quickWallS.toFixed(1)} s (engine's own durationMs ${(quick.durationMs / 1000).toFixed(1)} s)`,
    );
    // The figure a visitor is shown comes from that run, whose workers ran every case's warm-up
    // before sampling; the short engine runs above sample each worker's first second, in which
    // Chromium's Web Crypto runs slower (docs/methodology.md). Held against the same plain loops.
    const web = CASES.find((c) => c.kind === 'webcrypto')!;
    for (const size of SIZES) {
      const q = quick.cases.find(
        (x) =>
          x.implementation === web.impl &&
          x.variant === 'sequential' &&
          x.algorithm === web.algorithm &&
          x.operation === 'encrypt' &&
          x.aadBytes === 0 &&
          x.sizeBytes === size,
      );
      const l = label(web, size);
      if (!q || !bare[l]) {
        console.log(`${QUICK}'s own ${l}: not in that run`);
        continue;
      }
      const [em, ea] = [q.bytesPerSecond / 1e6, (q.totalBytesPerSecond ?? 0) / 1e6];
      const [bm, ba] = [mbps(size, median(bare[l]!.median)), mbps(size, median(bare[l]!.mean))];
      figures.row('quick-run-over-bare', { browser: name, case: web.name, sizeBytes: size, mbps: em, ratio: em / bm, totalMbps: ea, totalRatio: ea / ba });
      console.log(
        `${QUICK}'s own ${l}: median ${em.toFixed(1)} MB/s, engine/bare ${(em / bm).toFixed(3)}; all calls ${ea.toFixed(1)} MB/s, engine/bare ${(ea / ba).toFixed(3)} (one run)`,
      );
    }
  } finally {
    await page.close();
  }
}
console.log('\ntarget: engine/bare between 0.97 and 1.03, as medians and as totals');
