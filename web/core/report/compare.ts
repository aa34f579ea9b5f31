/**
 * Two results side by side (`aeadbench compare A.json B.json` and the site's Compare view): the
 * throughput of B over A per case with its interval, decided by the project's one rule
 * (decision.ts) against an equivalence margin: FASTER or SLOWER only beyond the margin, SAME
 * within it, UNKNOWN when the interval straddles an edge. Two runs share no sampling cycles, so
 * these ratios cannot be paired: the interval is the conservative one from the two medians'
 * 95 % intervals. What a CI job uses to catch a regression without false alarms.
 * @module
 */
import { DEFAULT_MARGIN, type Interval, decide } from '../decision.ts';
import { formatSize } from '../params.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { pairedRatioAcrossRounds, steadySummaries } from '../stats.ts';
import { caseKey, placeKey } from '../schema.ts';

export type CompareVerdict = 'faster' | 'slower' | 'same' | 'unknown';

export interface ComparedCase {
  key: string;
  /** Throughput of B over A: > 1 means B is faster. */
  ratio: number;
  /** The ratio's bounds from the two medians' 95 % intervals (not paired: two runs). */
  low: number;
  high: number;
  aMbps: number;
  bMbps: number;
  verdict: CompareVerdict;
  /** In an A/B run, the base's and the head's case keys (what the stop rule measures again while undecided). */
  cases?: [string, string];
  /** In an A/B run, the workers its interval is over (stats.ts pairedRatioAcrossRounds; absent: from the medians). */
  rounds?: number;
}

export interface Comparison {
  margin: number;
  /**
   * How many comparisons are decided together (an A/B session's cases): each interval is then
   * the family's (stats.ts tQuantile), so that one of many is not called SLOWER by chance alone.
   * Absent: each interval on its own (two result files, unpaired).
   */
  family?: number;
  cases: ComparedCase[];
  onlyInA: string[];
  onlyInB: string[];
}

/** A case as comparisons name it: algorithm · implementation (variant) · operation · size[ · AAD]. */
export const caseLabel = (c: CaseResult) =>
  `${c.algorithm} · ${c.implementation} (${c.variant}) · ${c.operation} · ${formatSize(c.sizeBytes)}${c.aadBytes ? ` · AAD ${c.aadBytes}` : ''}`;

/** A's time over B's (= B's throughput over A's) from two medians, the interval from their 95 % intervals (unpaired). */
function ofMedians(sa: { median: number; ciLow: number; ciHigh: number }, sb: { median: number; ciLow: number; ciHigh: number }): Interval {
  return { value: sa.median / sb.median, low: sa.ciLow / sb.ciHigh, high: sa.ciHigh / sb.ciLow };
}

/** The decision rule (decision.ts) in a comparison's words: a difference above 1 is B faster. */
function verdictOf(r: Interval, margin: number): CompareVerdict {
  const d = decide(r, margin);
  return d === 'same' ? 'same' : d === 'unknown' ? 'unknown' : r.value > 1 ? 'faster' : 'slower';
}

/** Compares every case the two documents share; summaries are recomputed from the raw samples (stats.ts steadySummaries). */
export function compareResults(a: ResultDocument, b: ResultDocument, o: { margin?: number } = {}): Comparison {
  const margin = o.margin ?? DEFAULT_MARGIN;
  const mapA = new Map(a.cases.map((c) => [caseLabel(c), c]));
  const mapB = new Map(b.cases.map((c) => [caseLabel(c), c]));
  const cases: ComparedCase[] = [];
  for (const [k, ca] of mapA) {
    const cb = mapB.get(k);
    if (!cb) continue;
    const sa = steadySummaries(a.cases).get(ca)!;
    const sb = steadySummaries(b.cases).get(cb)!;
    const interval = ofMedians(sa, sb);
    cases.push({
      key: k,
      ratio: interval.value,
      low: interval.low,
      high: interval.high,
      aMbps: (ca.sizeBytes * 1e3) / sa.median,
      bMbps: (cb.sizeBytes * 1e3) / sb.median,
      verdict: verdictOf(interval, margin),
    });
  }
  return { margin, cases, onlyInA: [...mapA.keys()].filter((k) => !mapB.has(k)), onlyInB: [...mapB.keys()].filter((k) => !mapA.has(k)) };
}

/** One A/B comparison of a run: the head's case and the base's at the same algorithm, operation, size and AAD. */
export interface AbPair {
  base: CaseResult;
  head: CaseResult;
}

/** The base's and the head's cases of an A/B run (`params.ab`), paired case by case. */
export function abPairs(doc: Pick<ResultDocument, 'cases' | 'params'>): AbPair[] {
  const ab = doc.params.ab;
  if (!ab) return [];
  const at = placeKey;
  const base = new Map(doc.cases.filter((c) => c.implementation === ab.base).map((c) => [at(c), c]));
  return doc.cases.filter((c) => c.implementation === ab.head).flatMap((head) => (base.has(at(head)) ? [{ base: base.get(at(head))!, head }] : []));
}

/**
 * An A/B run (`aeadbench compare --base A --head B`): the head's throughput over the base's per
 * case, from samples taken side by side in one session, so the ratio is paired cycle by cycle
 * and the machine's swings cancel; its interval is over workers, not cycles (stats.ts
 * pairedRatioAcrossRounds), since a worker's own state moves the ratio more than the machine.
 * Decided by the same rule and margin as two files (`params.ab.margin` unless given).
 */
export function compareInRun(doc: Pick<ResultDocument, 'cases' | 'params'>, o: { margin?: number } = {}): Comparison {
  const margin = o.margin ?? doc.params.ab?.margin ?? DEFAULT_MARGIN;
  const pairs = abPairs(doc);
  // Decided together: a CI job reads one exit code for all of them (docs/decisions/007-a-family-of-comparisons.md).
  const family = Math.max(1, pairs.length);
  const cases: ComparedCase[] = pairs.map(({ base, head }) => {
    // The base's time over the head's, cycle by cycle = head's throughput over the base's; each
    // worker one observation (stats.ts pairedRatioAcrossRounds): undecided below three workers.
    const p = pairedRatioAcrossRounds(base, head, 3, family);
    const sa = steadySummaries(doc.cases).get(base)!;
    const sb = steadySummaries(doc.cases).get(head)!;
    const interval = p ? { value: p.ratio, low: p.ciLow, high: p.ciHigh } : ofMedians(sa, sb);
    const verdict = verdictOf(interval, margin);
    const k = `${head.algorithm} · ${head.operation} · ${formatSize(head.sizeBytes)}${head.aadBytes ? ` · AAD ${head.aadBytes}` : ''}`;
    return {
      key: k,
      ratio: interval.value,
      low: interval.low,
      high: interval.high,
      aMbps: (base.sizeBytes * 1e3) / sa.median,
      bMbps: (head.sizeBytes * 1e3) / sb.median,
      verdict,
      cases: [caseKey(base), caseKey(head)] as [string, string],
      ...(p ? { rounds: p.rounds } : {}),
    };
  });
  const ab = doc.params.ab;
  const ids = (id: string | undefined) =>
    doc.cases.filter((c) => c.implementation === id).map((c) => `${c.algorithm} · ${c.operation} · ${formatSize(c.sizeBytes)}`);
  const paired = new Set(cases.map((c) => c.key));
  return { margin, family, cases, onlyInA: ids(ab?.base).filter((k) => !paired.has(k)), onlyInB: ids(ab?.head).filter((k) => !paired.has(k)) };
}

/**
 * The exit code a CI job reads: 0 nothing slower beyond the margin, 1 something is, 2 nothing
 * slower but something undecided, 3 nothing to compare (no case in common, or none measured).
 */
export function compareExitCode(r: Comparison): 0 | 1 | 2 | 3 {
  if (r.cases.length === 0) return 3;
  if (r.cases.some((c) => c.verdict === 'slower')) return 1;
  if (r.cases.some((c) => c.verdict === 'unknown')) return 2;
  return 0;
}

/**
 * What would decide the UNKNOWN comparisons of `r`, for a CI job that exits 2 on them (empty
 * when there are none): how wide their intervals are against the margin, and the moves that
 * narrow them or widen it. `inRun`: an A/B of one session (its budget can grow); otherwise two
 * result files, whose unpaired intervals carry the machine's drift between the two runs.
 */
export function unknownAdvice(r: Comparison, o: { inRun: boolean; budgetSeconds?: number }): string[] {
  const unknown = r.cases.filter((c) => c.verdict === 'unknown');
  if (unknown.length === 0) return [];
  const slower = r.cases.filter((c) => c.verdict === 'slower').length;
  const widest = Math.max(...unknown.map((c) => (c.high - c.low) / 2 / c.ratio));
  const pct = (x: number) => `±${+(x * 100).toFixed(1)} %`;
  // The smallest difference the undecided comparisons could have shown: the largest factor their intervals leave open.
  const seen = Math.max(...unknown.map((c) => Math.max(c.high / c.ratio, c.ratio / c.low))) - 1;
  const bounded = Number.isFinite(seen) && Number.isFinite(widest);
  const lines = bounded
    ? [
        `${unknown.length} of ${r.cases.length} comparisons are UNKNOWN: their intervals reach ${pct(widest)} against a margin of ${pct(r.margin)}, so neither SAME nor a difference is proven.`,
        `This run could not have seen a difference smaller than about ${+(seen * 100).toFixed(0)} % in them: the device was too busy, or the run too short, to separate less. ${
          slower ? `${slower} other comparison${slower > 1 ? 's' : ''} read SLOWER (above).` : 'Nothing here is SLOWER beyond that either.'
        }`,
      ]
    : [
        `${unknown.length} of ${r.cases.length} comparisons are UNKNOWN: the run took too few rounds for an interval (a paired ratio needs three workers), so it could not bound a difference of any size.`,
      ];
  lines.push('What would decide them:');
  if (o.inRun) {
    lines.push(
      `- a longer budget: --budget ${Math.min(3600, Math.max(120, 2 * (o.budgetSeconds ?? 60)))}s (the stop rule measures only the undecided comparisons again)`,
    );
  } else {
    lines.push(
      "- both builds in one session, interleaved and paired: aeadbench compare --base A.js --head B.js (two runs apart carry the machine's drift between them)",
    );
    lines.push('- more rounds in each run (--rounds), so each median is known more closely');
  }
  // A margin is worth suggesting only where one that matters would hold the intervals (at most ±50 %).
  const margin = Math.max(r.margin * 2, Math.ceil(widest * 100) / 100);
  if (!bounded) return lines;
  if (margin <= 0.5) lines.push(`- a wider margin, if a difference that small does not matter to you: --margin ${+(margin * 100).toFixed(0)}%`);
  else lines.push(`- a quieter machine: intervals of ${pct(widest)} are wider than any margin that would still catch a regression`);
  return lines;
}

const MARK: Record<CompareVerdict, string> = { faster: '▲ FASTER', slower: '▼ SLOWER', same: 'SAME', unknown: '? UNKNOWN' };

export function compareTable(r: Comparison): string {
  const width = Math.max(4, ...r.cases.map((c) => c.key.length));
  const pct = `±${+(r.margin * 100).toFixed(1)} %`;
  const together = (r.family ?? 1) > 1 ? `, ${r.family} together` : '';
  const lines = [`${'case'.padEnd(width)}  B/A throughput  [95 % interval${together}]`];
  for (const c of r.cases)
    lines.push(`${c.key.padEnd(width)}  ${c.ratio.toFixed(3).padStart(8)}  [${c.low.toFixed(3)}–${c.high.toFixed(3)}]  ${MARK[c.verdict]}`);
  if (r.onlyInA.length) lines.push(`only in A: ${r.onlyInA.length} cases`);
  if (r.onlyInB.length) lines.push(`only in B: ${r.onlyInB.length} cases`);
  const n = (v: CompareVerdict) => r.cases.filter((c) => c.verdict === v).length;
  lines.push(
    `${r.cases.length} cases compared with a margin of ${pct}: ${n('faster')} faster, ${n('slower')} slower, ${n('same')} same, ${n('unknown')} unknown`,
  );
  if ((r.family ?? 1) > 1)
    lines.push(`the ${r.family} intervals hold together: the chance that any of them calls a difference that is not there is at most 5 %`);
  if (r.cases.length === 0) lines.push('no case in common: nothing was compared');
  return lines.join('\n');
}
