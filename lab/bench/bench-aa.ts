/**
 * bench:aa — one file compared with itself, as a CI job would run it: `aeadbench compare --base
 * F --head F` at the default budget and margin (cli/ab.ts), RUNS sessions per engine, with one
 * core busy (BUSY=0: quiet). It must exit 0 (every comparison SAME) or, where it cannot decide,
 * exit 2 and say so; never 1. Per session: the exit code, the comparisons by outcome, how far the
 * widest interval reaches, the run's own A/A check (the base beside its twin), and how much two
 * back-to-back samples of one code differ (the per-cycle noise that sets what can be decided).
 *   npm run bench:aa [-- --write] [-- --json FILE]
 *   ENGINES=chromium,firefox (node, webkit too)  RUNS=10  MODULE=web/core/test/modules/twin-noble.mjs
 *   BUDGET=60s  SIZES, ALGORITHMS (the compare's; its defaults when unset)  BUSY=1
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResultDocument, caseKey } from '../../web/core/schema.ts';
import { compareInRun } from '../../web/core/report/compare.ts';
import { median, pairedCycles } from '../../web/core/stats.ts';
import { jsonOutPath, recordPage } from './measured.ts';
import { burnOneCore } from './busy.ts';

recordPage('aa', {
  title: 'One file compared with itself',
  about:
    '`aeadbench compare --base F --head F` at the default budget and margin, RUNS sessions per engine, with one core busy: the exit code (0 when every comparison is SAME, 2 when some cannot be decided, never 1), the comparisons by outcome, the widest interval, the run’s A/A check, and the per-cycle noise of two back-to-back samples of one code.',
});

const ENGINES = (process.env.ENGINES ?? 'chromium,firefox').split(',');
const RUNS = Number(process.env.RUNS ?? 10);
const MODULE = process.env.MODULE ?? 'web/core/test/modules/twin-noble.mjs';
const BUDGET = process.env.BUDGET ?? '60s';
const BUSY = process.env.BUSY !== '0';
const jsonOut = jsonOutPath();

interface Session {
  engine: string;
  run: number;
  exit: number | null;
  seconds: number;
  comparisons: { same: number; unknown: number; slower: number; faster: number };
  /** How far the widest interval reaches from 1, as a fraction (0.2: ±20 %); null when one has none (fewer than three workers). */
  widest: number | null;
  aa: { ratio: number; decision: string } | null;
  /** Median over the comparisons of the per-cycle log ratio's robust spread (MAD × 1.4826): two samples of one code, back to back. */
  cycleNoise: number | null;
  error?: string;
}

/** The robust spread (MAD × 1.4826) of the base/head per-cycle log ratios of each comparison, their median. */
function cycleNoise(doc: ResultDocument): number | null {
  const spreads = compareInRun(doc).cases.flatMap((c) => {
    const [a, b] = (c.cases ?? []).map((k) => doc.cases.find((x) => caseKey(x) === k));
    if (!a || !b) return [];
    const logs = pairedCycles(a, b).map((p) => Math.log(p.ratio));
    if (logs.length < 5) return [];
    const m = median(logs);
    return [1.4826 * median(logs.map((x) => Math.abs(x - m)))];
  });
  return spreads.length ? median(spreads) : null;
}

/** ±x % for a reach from 1, ±∞ for an interval without bounds. */
const pm = (reach: number | null) => (reach === null || !Number.isFinite(reach) ? '±∞ (fewer than three workers)' : `±${(reach * 100).toFixed(1)} %`);

const dir = mkdtempSync(join(tmpdir(), 'bench-aa-'));
const sessions: Session[] = [];
const extra = [...(process.env.SIZES ? ['--sizes', process.env.SIZES] : []), ...(process.env.ALGORITHMS ? ['--algorithms', process.env.ALGORITHMS] : [])];
console.log(
  `bench:aa — ${MODULE} as base and head, ${RUNS} session(s) per engine (${ENGINES.join(', ')}), ${BUSY ? 'one core busy' : 'quiet'}; budget ${BUDGET}, the default margin${extra.length ? `; ${extra.join(' ')}` : ''}`,
);
const burner = BUSY ? burnOneCore() : null;
try {
  for (const engine of ENGINES)
    for (let run = 0; run < RUNS; run++) {
      const out = join(dir, `${engine}-${run}.json`);
      const args = [
        '--import',
        'tsx',
        'cli/main.ts',
        'compare',
        '--base',
        MODULE,
        '--head',
        MODULE,
        '--browser',
        engine,
        '--budget',
        BUDGET,
        ...extra,
        '--json',
        out,
      ];
      const started = Date.now();
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 900_000 });
      const seconds = (Date.now() - started) / 1000;
      const none = { same: 0, unknown: 0, slower: 0, faster: 0 };
      if (r.status !== 0 && r.status !== 1 && r.status !== 2) {
        const error = (r.stderr || r.stdout).trim().split('\n').at(-1) ?? `exit ${r.status}`;
        sessions.push({ engine, run, exit: r.status, seconds, comparisons: none, widest: null, aa: null, cycleNoise: null, error });
        console.log(`${engine} session ${run + 1}: did not run — ${error}`);
        continue;
      }
      const doc = JSON.parse(readFileSync(out, 'utf8')) as ResultDocument;
      const cases = compareInRun(doc).cases;
      const comparisons = { ...none };
      for (const c of cases) comparisons[c.verdict]++;
      const reach = Math.max(...cases.map((c) => Math.max(c.high - 1, 1 - c.low)));
      const widest = Number.isFinite(reach) ? reach : null;
      const aa = doc.aaCheck ? { ratio: doc.aaCheck.ratio, decision: doc.aaCheck.decision } : null;
      const s: Session = { engine, run, exit: r.status, seconds, comparisons, widest, aa, cycleNoise: cycleNoise(doc) };
      sessions.push(s);
      console.log(
        `${engine} session ${run + 1}/${RUNS}: exit ${s.exit}; SAME ${comparisons.same}, UNKNOWN ${comparisons.unknown}, SLOWER ${comparisons.slower}, FASTER ${comparisons.faster}; widest interval ${pm(widest)}; A/A ${aa ? `${aa.ratio.toFixed(3)} ${aa.decision.toUpperCase()}` : 'none'}; per-cycle noise ${s.cycleNoise === null ? '–' : `${(s.cycleNoise * 100).toFixed(1)} %`}; ${seconds.toFixed(0)} s`,
      );
    }
} finally {
  burner?.kill();
  rmSync(dir, { recursive: true, force: true });
}

console.log('');
for (const engine of ENGINES) {
  const mine = sessions.filter((s) => s.engine === engine && !s.error);
  if (!mine.length) continue;
  const exits = (x: number) => mine.filter((s) => s.exit === x).length;
  const aa = mine.flatMap((s) => (s.aa ? [s.aa.ratio] : []));
  console.log(
    `${engine}: exit 0 in ${exits(0)} of ${mine.length}, exit 2 in ${exits(2)}, exit 1 in ${exits(1)}; widest interval median ${pm(median(mine.map((s) => s.widest ?? Infinity)))}; the run's A/A median ${aa.length ? median(aa).toFixed(3) : '–'} (${aa.length ? `${Math.min(...aa).toFixed(3)}–${Math.max(...aa).toFixed(3)}` : '–'}), SAME in ${mine.filter((s) => s.aa?.decision === 'same').length}; per-cycle noise median ${(median(mine.flatMap((s) => (s.cycleNoise === null ? [] : [s.cycleNoise]))) * 100).toFixed(1)} %; median ${median(mine.map((s) => s.seconds)).toFixed(0)} s a session`,
  );
}
console.log('target: exit 0 in ≥ 19 of 20 sessions per engine with one core busy; exit 1 never');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ bench: 'aa', busy: BUSY, budget: BUDGET, module: MODULE, sessions }, null, 2));
// A session that could not run is a failed benchmark, not a figure.
if (sessions.some((s) => s.error) || sessions.length === 0) process.exit(1);
