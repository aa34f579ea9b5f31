/**
 * Two results side by side (`aeadbench compare A.json B.json` and the site's Compare view): the
 * throughput of B over A per case with its interval, decided by the project's one rule
 * (decision.ts) against an equivalence margin: FASTER or SLOWER only beyond the margin, SAME
 * within it, UNKNOWN when the interval straddles an edge. Two runs share no sampling cycles, so
 * these ratios cannot be paired: the interval is the conservative one from the two medians'
 * 95 % intervals. What a CI job uses to catch a regression without false alarms.
 * @module
 */
import { DEFAULT_MARGIN, decide } from './decision.ts';
import { formatSize } from './params.ts';
import type { CaseResult, ResultDocument } from './schema.ts';
import { summarize } from './stats.ts';

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
}

export interface Comparison {
  margin: number;
  cases: ComparedCase[];
  onlyInA: string[];
  onlyInB: string[];
}

const key = (c: CaseResult) => `${c.algorithm} · ${c.implementation} (${c.variant}) · ${c.operation} · ${formatSize(c.sizeBytes)}${c.aadBytes ? ` · AAD ${c.aadBytes}` : ''}`;

/** Compares every case the two documents share; summaries are recomputed from the raw samples. */
export function compareResults(a: ResultDocument, b: ResultDocument, o: { margin?: number } = {}): Comparison {
  const margin = o.margin ?? DEFAULT_MARGIN;
  const mapA = new Map(a.cases.map((c) => [key(c), c]));
  const mapB = new Map(b.cases.map((c) => [key(c), c]));
  const cases: ComparedCase[] = [];
  for (const [k, ca] of mapA) {
    const cb = mapB.get(k);
    if (!cb) continue;
    const sa = summarize(ca.samples);
    const sb = summarize(cb.samples);
    const ratio = sa.median / sb.median; // ns/op: A's time over B's = B's throughput over A's
    const interval = { value: ratio, low: sa.ciLow / sb.ciHigh, high: sa.ciHigh / sb.ciLow };
    const d = decide(interval, margin);
    const verdict: CompareVerdict = d === 'same' ? 'same' : d === 'unknown' ? 'unknown' : ratio > 1 ? 'faster' : 'slower';
    cases.push({ key: k, ratio, low: interval.low, high: interval.high, aMbps: (ca.sizeBytes * 1e3) / sa.median, bMbps: (cb.sizeBytes * 1e3) / sb.median, verdict });
  }
  return { margin, cases, onlyInA: [...mapA.keys()].filter((k) => !mapB.has(k)), onlyInB: [...mapB.keys()].filter((k) => !mapA.has(k)) };
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

const MARK: Record<CompareVerdict, string> = { faster: '▲ FASTER', slower: '▼ SLOWER', same: 'SAME', unknown: '? UNKNOWN' };

export function compareTable(r: Comparison): string {
  const width = Math.max(4, ...r.cases.map((c) => c.key.length));
  const pct = `±${+(r.margin * 100).toFixed(1)} %`;
  const lines = [`${'case'.padEnd(width)}  B/A throughput  [95 % interval]`];
  for (const c of r.cases) lines.push(`${c.key.padEnd(width)}  ${c.ratio.toFixed(3).padStart(8)}  [${c.low.toFixed(3)}–${c.high.toFixed(3)}]  ${MARK[c.verdict]}`);
  if (r.onlyInA.length) lines.push(`only in A: ${r.onlyInA.length} cases`);
  if (r.onlyInB.length) lines.push(`only in B: ${r.onlyInB.length} cases`);
  const n = (v: CompareVerdict) => r.cases.filter((c) => c.verdict === v).length;
  lines.push(`${r.cases.length} cases compared with a margin of ${pct}: ${n('faster')} faster, ${n('slower')} slower, ${n('same')} same, ${n('unknown')} unknown`);
  if (r.cases.length === 0) lines.push('no case in common: nothing was compared');
  return lines.join('\n');
}
