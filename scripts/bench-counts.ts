/**
 * `npm run bench:counts`: what an exact count says beside time. One run per engine of every
 * RustCrypto id in both WASM builds (baseline and simd128, `wasm=both`), counted and timed in
 * the same run; per algorithm and size, the builds' count ratio (WebAssembly operations per
 * message, baseline / simd128: exact) beside their time ratio (simd128's throughput over
 * baseline's, paired), so a reader sees where counting agrees with time and where it parts
 * (a v128 operation counts one, as an i32 one does; the engine's code generation and caches are
 * invisible to a count). Then whether the engines counted the same: a count is the module's, so
 * any difference is a failure, and the command exits 1.
 *   ENGINES=node,chromium,firefox SIZES=64,1k,16k ALGORITHMS=… npm run bench:counts
 */
import { runInBrowser } from '../cli/browser-run.ts';
import type { BrowserName } from '../cli/browsers.ts';
import { runBenchmark } from '../web/core/node.ts';
import { formatSize } from '../web/core/params.ts';
import { type CaseResult, type ResultDocument } from '../web/core/schema.ts';
import { pairedRatio } from '../web/core/stats.ts';
import { ALGORITHM_IDS } from '../web/core/tables/algorithms.ts';
import { recordPage } from './measured.ts';

recordPage('counts', {
  title: 'Exact counts beside time',
  about:
    "Every RustCrypto id in both WASM builds, counted and timed in one run per engine: the builds' count ratio (operations per message, baseline / simd128, exact) beside their time ratio (simd128 over baseline, paired), and whether the engines counted alike.",
});

const ENGINES = (process.env.ENGINES ?? 'node,chromium,firefox').split(',').filter(Boolean);
const SIZES = process.env.SIZES ?? '64,1k,16k';
const ALGORITHMS = process.env.ALGORITHMS ?? ALGORITHM_IDS.join(',');
const ROUNDS = process.env.ROUNDS ?? '1';
const search = `preset=quick&implementations=rustcrypto-wasm&wasm=both&algorithms=${ALGORITHMS}&sizes=${SIZES}&rounds=${ROUNDS}&operations=encrypt`;

const docs: { engine: string; doc: ResultDocument }[] = [];
for (const engine of ENGINES) {
  const started = performance.now();
  const doc =
    engine === 'node'
      ? await runBenchmark({
          implementations: ['rustcrypto-wasm'],
          wasm: 'both',
          algorithms: ALGORITHMS.split(',') as never,
          sizes: SIZES.split(',').map((s) => (s.endsWith('k') ? Number(s.slice(0, -1)) * 1024 : Number(s))),
          rounds: Number(ROUNDS),
          operations: ['encrypt'],
        })
      : await runInBrowser({ browser: engine as BrowserName, search });
  process.stderr.write(`[${engine}] ${doc.cases.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  docs.push({ engine, doc });
}

const where = (c: CaseResult) => `${c.algorithm}/${c.sizeBytes}`;
console.log(`\nbench:counts — ${search}`);
console.log(
  'ops/B: executed WebAssembly operations per byte (exact); count ratio = baseline / simd128 operations; time ratio = simd128 / baseline throughput, paired, 95 % interval\n',
);
for (const { engine, doc } of docs) {
  const env = doc.environment;
  console.log(`${engine}: ${env.browser.name} ${env.browser.version}`);
  console.log(
    `${'algorithm'.padEnd(26)}${'size'.padStart(7)}  ${'ops/B baseline'.padStart(14)}  ${'ops/B simd128'.padStart(13)}  ${'count ratio'.padStart(11)}  time ratio [interval]`,
  );
  const base = new Map(doc.cases.filter((c) => c.variant === 'baseline').map((c) => [where(c), c]));
  for (const s of doc.cases.filter((c) => c.variant === 'simd128')) {
    const b = base.get(where(s));
    if (!b?.ops || !s.ops) continue;
    const p = pairedRatio(b, s);
    console.log(
      `${s.algorithm.padEnd(26)}${formatSize(s.sizeBytes).padStart(7)}  ${b.ops.perByte.toFixed(2).padStart(14)}  ${s.ops.perByte.toFixed(2).padStart(13)}  ${(b.ops.perMessage / s.ops.perMessage).toFixed(3).padStart(11)}  ` +
        (p ? `${p.ratio.toFixed(3)} [${p.ciLow.toFixed(3)}–${p.ciHigh.toFixed(3)}]` : 'not paired'),
    );
  }
  console.log('');
}

// A count belongs to the module, not to the engine: every engine must give every case the same.
const key = (c: CaseResult) => `${c.algorithm}/${c.variant}/${c.sizeBytes}`;
const first = docs[0];
let disagree = 0;
let compared = 0;
if (first) {
  const reference = new Map(first.doc.cases.filter((c) => c.ops).map((c) => [key(c), c.ops!.perMessage]));
  for (const { engine, doc } of docs.slice(1)) {
    for (const c of doc.cases) {
      const r = reference.get(key(c));
      if (r === undefined || !c.ops) continue;
      compared++;
      if (c.ops.perMessage !== r) {
        disagree++;
        console.log(`MISMATCH ${engine} ${key(c)}: ${c.ops.perMessage} operations per message, ${first.engine} ${r}`);
      }
    }
  }
}
const counted = docs.reduce((n, d) => n + d.doc.cases.filter((c) => c.ops).length, 0);
console.log(
  `engines agree: ${compared - disagree} of ${compared} cases counted in ${docs.length} engines (${ENGINES.join(', ')}) give ${first?.engine ?? '–'}'s count; ${counted} counts in all`,
);
if (disagree || counted === 0) process.exitCode = 1;
