/**
 * bench:twins — the same code reads the same wherever it runs. Each built-in whose calls a module
 * of the contract can make (node:crypto, Web Crypto, @noble/ciphers, libsodium.js) is timed beside
 * its twin (web/core/test/modules/twin-*.mjs: the built-in's own calls under another id), in one
 * run through the CLI as a user starts it, RUNS runs per engine, with one core busy (BUSY=0: quiet).
 * Per engine, pair and size: the paired ratio (twin's time over the built-in's) and the verdict's
 * decision at its ±5 % margin, over the runs; a twin must read SAME or UNKNOWN, never DIFFERENT.
 *   npm run bench:twins [-- --write] [-- --json FILE]
 *   ENGINES=node,chromium,firefox (webkit too)  RUNS=10  SIZES=1k,16k,1M  BUDGET=20s  BUSY=1
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultDocument } from '../../web/core/schema.ts';
import { VERDICT_MARGIN, ratioOf } from '../../web/core/report/ratio.ts';
import { type Decision, decide } from '../../web/core/decision.ts';
import { formatSize, parseSize } from '../../web/core/params.ts';
import { DESCHEDULED, median, medianCI, pairedCycles } from '../../web/core/stats.ts';
import { evidence, jsonOutPath, recordPage } from './measured.ts';
import { burnOneCore } from './busy.ts';

recordPage('twins', {
  title: 'Twins: a module making a built-in’s calls, timed beside that built-in',
  about:
    'Each built-in beside a module of the contract that makes exactly its calls, in one run per engine, RUNS times, with one core busy: the paired ratio (twin over built-in) and the decision at the verdict’s ±5 % margin. The same code must read SAME or UNKNOWN, never DIFFERENT.',
});

const ENGINES = (process.env.ENGINES ?? 'node,chromium,firefox').split(',');
const RUNS = Number(process.env.RUNS ?? 10);
const SIZES = (process.env.SIZES ?? '1k,16k,1M').split(',').map((s) => parseSize(s));
const BUDGET = process.env.BUDGET ?? '20s';
const BUSY = process.env.BUSY !== '0';
const jsonOut = jsonOutPath();

/** The built-ins a twin is made for, the algorithm each is compared on, and where each runs. */
const PAIRS = [
  { builtIn: 'node-crypto', twin: 'twin-node-crypto', algorithm: 'aes-128-gcm', engines: ['node'] },
  { builtIn: 'webcrypto', twin: 'twin-webcrypto', algorithm: 'aes-128-gcm', engines: ['chromium', 'firefox', 'webkit'] },
  { builtIn: 'noble', twin: 'twin-noble', algorithm: 'aes-128-gcm', engines: ['node', 'chromium', 'firefox', 'webkit'] },
  { builtIn: 'libsodium', twin: 'twin-libsodium', algorithm: 'chacha20-poly1305', engines: ['node', 'chromium', 'firefox', 'webkit'] },
] as const;

interface Cell {
  engine: string;
  builtIn: string;
  sizeBytes: number;
  ratios: number[];
  decisions: Decision[];
  /** The run's cycles pooled, every cycle kept and with descheduled ones left out (decision 009): the rule's effect alone. */
  everyCycle: Decision[];
  descheduledOut: Decision[];
  /** Cycles left out as descheduled, of all those paired. */
  leftOut: number;
  paired: number;
}

type Sampled = { samples: readonly number[]; cycles?: readonly number[] };
/** The pooled paired ratio of b over a (median per-cycle ratio, its 95 % interval) decided at the margin, over `pairs`. */
function pooledDecision(ratios: number[]): Decision {
  const [low, high] = medianCI(ratios);
  return decide({ value: median(ratios), low, high }, VERDICT_MARGIN);
}
/** Every cycle both were sampled in, as the pairing was before decision 009. */
function everyPair(a: Sampled, b: Sampled): number[] {
  const byCycle = new Map(a.cycles?.map((c, i) => [c, a.samples[i]!]));
  return (b.cycles ?? []).flatMap((c, i) => (byCycle.has(c) ? [b.samples[i]! / byCycle.get(c)!] : []));
}
interface RunNote {
  engine: string;
  run: number;
  seconds: number;
  aa: Decision | null;
  error?: string;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-twins-'));
const cells: Cell[] = [];
const runs: RunNote[] = [];
console.log(
  `bench:twins — ${RUNS} run(s) per engine (${ENGINES.join(', ')}), ${BUSY ? 'one core busy' : 'quiet'}; sizes ${SIZES.map(formatSize).join(', ')}; budget ${BUDGET}; ratio = twin's time / the built-in's, paired; decision at ±${VERDICT_MARGIN * 100} %`,
);
const burner = BUSY ? burnOneCore() : null;
try {
  for (const engine of ENGINES) {
    const pairs = PAIRS.filter((p) => (p.engines as readonly string[]).includes(engine));
    for (let run = 0; run < RUNS; run++) {
      const out = join(dir, `${engine}-${run}.json`);
      const args = [
        '--import',
        'tsx',
        'cli/main.ts',
        'run',
        '--browser',
        engine,
        '--algorithms',
        [...new Set(pairs.map((p) => p.algorithm))].join(','),
        '--implementations',
        pairs.map((p) => p.builtIn).join(','),
        ...pairs.flatMap((p) => ['--implementation', `web/core/test/modules/${p.twin}.mjs`]),
        '--sizes',
        SIZES.join(','),
        '--operations',
        'encrypt',
        '--budget',
        BUDGET,
        '--json',
        out,
      ];
      const started = Date.now();
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 600_000 });
      const seconds = (Date.now() - started) / 1000;
      if (r.status !== 0) {
        runs.push({ engine, run, seconds, aa: null, error: (r.stderr || r.stdout).trim().split('\n').at(-1) ?? `exit ${r.status}` });
        console.log(`${engine} run ${run + 1}: did not run — ${runs.at(-1)!.error}`);
        continue;
      }
      const doc = JSON.parse(readFileSync(out, 'utf8')) as ResultDocument;
      runs.push({ engine, run, seconds, aa: doc.aaCheck?.decision ?? null });
      for (const p of pairs)
        for (const sizeBytes of SIZES) {
          const at = (impl: string) => doc.cases.find((c) => c.implementation === impl && c.algorithm === p.algorithm && c.sizeBytes === sizeBytes);
          const a = at(p.builtIn);
          const b = at(p.twin);
          if (!a || !b) continue;
          const ratio = ratioOf(a, b);
          let cell = cells.find((c) => c.engine === engine && c.builtIn === p.builtIn && c.sizeBytes === sizeBytes);
          if (!cell)
            cells.push(
              (cell = { engine, builtIn: p.builtIn, sizeBytes, ratios: [], decisions: [], everyCycle: [], descheduledOut: [], leftOut: 0, paired: 0 }),
            );
          cell.ratios.push(ratio.value);
          cell.decisions.push(decide(ratio, VERDICT_MARGIN));
          const every = everyPair(a, b);
          const kept = pairedCycles(b, a).map((x) => x.ratio);
          cell.everyCycle.push(pooledDecision(every));
          cell.descheduledOut.push(pooledDecision(kept));
          cell.paired += every.length;
          cell.leftOut += every.length - kept.length;
        }
      process.stderr.write(`${engine} run ${run + 1}/${RUNS} in ${seconds.toFixed(0)} s\n`);
    }
  }
} finally {
  burner?.kill();
  rmSync(dir, { recursive: true, force: true });
}

const count = (ds: Decision[], d: Decision) => ds.filter((x) => x === d).length;
console.log('\nengine     built-in      size      median  min–max        SAME  UNKNOWN  DIFFERENT  within 0.9–1.1');
for (const c of cells) {
  const within = c.ratios.filter((r) => r >= 0.9 && r <= 1.1).length;
  console.log(
    `${c.engine.padEnd(10)} ${c.builtIn.padEnd(13)} ${formatSize(c.sizeBytes).padEnd(9)} ${median(c.ratios).toFixed(3)}   ${Math.min(...c.ratios).toFixed(2)}–${Math.max(...c.ratios).toFixed(2)}    ${String(count(c.decisions, 'same')).padStart(4)}  ${String(count(c.decisions, 'unknown')).padStart(7)}  ${String(count(c.decisions, 'different')).padStart(9)}  ${within} of ${c.ratios.length}`,
  );
}
console.log(
  `\nthe run's cycles pooled, decided at ±${VERDICT_MARGIN * 100} %: every cycle kept, and with a cycle left out where either sample took over ${DESCHEDULED}× its case's median (decision 009)`,
);
console.log('engine     built-in      size      left out          every cycle: SAME UNKNOWN DIFFERENT   descheduled out: SAME UNKNOWN DIFFERENT');
for (const c of cells)
  console.log(
    `${c.engine.padEnd(10)} ${c.builtIn.padEnd(13)} ${formatSize(c.sizeBytes).padEnd(9)} ${`${c.leftOut} of ${c.paired}`.padEnd(16)}  ${String(count(c.everyCycle, 'same')).padStart(17)} ${String(count(c.everyCycle, 'unknown')).padStart(7)} ${String(count(c.everyCycle, 'different')).padStart(9)}   ${String(count(c.descheduledOut, 'same')).padStart(21)} ${String(count(c.descheduledOut, 'unknown')).padStart(7)} ${String(count(c.descheduledOut, 'different')).padStart(9)}`,
  );
const different = cells.reduce((n, c) => n + count(c.decisions, 'different'), 0);
const all = cells.reduce((n, c) => n + c.decisions.length, 0);
console.log(
  `\ntwins read DIFFERENT in ${different} of ${all} comparisons; ratios within 0.9–1.1 in ${cells.reduce((n, c) => n + c.ratios.filter((r) => r >= 0.9 && r <= 1.1).length, 0)} of ${all}`,
);
for (const e of ENGINES) {
  const mine = runs.filter((r) => r.engine === e && !r.error);
  if (mine.length)
    console.log(
      `${e}: ${mine.length} run(s), median ${median(mine.map((r) => r.seconds)).toFixed(0)} s a run; A/A SAME in ${mine.filter((r) => r.aa === 'same').length} of ${mine.length}`,
    );
}
if (jsonOut)
  writeFileSync(
    jsonOut,
    JSON.stringify(
      {
        bench: 'twins',
        busy: BUSY,
        margin: VERDICT_MARGIN,
        runs,
        cells: cells.map((c) => ({ ...c, median: median(c.ratios) })),
      },
      null,
      2,
    ),
  );
// A run that could not run is a failed benchmark, not a figure.
if (runs.some((r) => r.error) || cells.length === 0) process.exit(1);
