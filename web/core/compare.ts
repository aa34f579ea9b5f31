/**
 * Two results side by side (`aeadbench compare A.json B.json` and the site's Compare view): the
 * ratio of B to A per case with its interval, and whether the difference is real — larger than
 * the two runs' 95 % confidence intervals of the median, i.e. the intervals do not overlap.
 * Two runs share no sampling cycles, so these ratios cannot be paired. What a CI job uses to
 * catch a regression.
 * @module
 */
import { formatSize } from './params.ts';
import type { CaseResult, ResultDocument } from './schema.ts';
import { summarize } from './stats.ts';

export type Verdict = 'faster' | 'slower' | 'same' | 'noisy';

export interface ComparedCase {
  key: string;
  /** Throughput of B over A: > 1 means B is faster. */
  ratio: number;
  /** The ratio's bounds from the two medians' 95 % intervals (not paired: two runs). */
  low: number;
  high: number;
  aMbps: number;
  bMbps: number;
  verdict: Verdict;
}

const key = (c: CaseResult) => `${c.algorithm} · ${c.implementation} (${c.variant}) · ${c.operation} · ${formatSize(c.sizeBytes)}${c.aadBytes ? ` · AAD ${c.aadBytes}` : ''}`;

/**
 * Intervals that do not overlap: a real difference. Overlapping intervals with a ratio beyond
 * `noiseRatio` are `noisy` (probably real, not proven); otherwise `same`. Summaries are
 * recomputed from the raw samples.
 */
export function compareResults(a: ResultDocument, b: ResultDocument, noiseRatio = 1.05): { cases: ComparedCase[]; onlyInA: string[]; onlyInB: string[] } {
  const mapA = new Map(a.cases.map((c) => [key(c), c]));
  const mapB = new Map(b.cases.map((c) => [key(c), c]));
  const cases: ComparedCase[] = [];
  for (const [k, ca] of mapA) {
    const cb = mapB.get(k);
    if (!cb) continue;
    const sa = summarize(ca.samples);
    const sb = summarize(cb.samples);
    const ratio = sa.median / sb.median; // ns/op: A's time over B's = B's throughput over A's
    let verdict: Verdict;
    if (sb.ciHigh < sa.ciLow) verdict = 'faster';
    else if (sb.ciLow > sa.ciHigh) verdict = 'slower';
    else verdict = ratio > noiseRatio || ratio < 1 / noiseRatio ? 'noisy' : 'same';
    cases.push({ key: k, ratio, low: sa.ciLow / sb.ciHigh, high: sa.ciHigh / sb.ciLow, aMbps: (ca.sizeBytes * 1e3) / sa.median, bMbps: (cb.sizeBytes * 1e3) / sb.median, verdict });
  }
  return { cases, onlyInA: [...mapA.keys()].filter((k) => !mapB.has(k)), onlyInB: [...mapB.keys()].filter((k) => !mapA.has(k)) };
}

const MARK: Record<Verdict, string> = { faster: '▲ faster', slower: '▼ SLOWER', same: '', noisy: '? noisy' };

export function compareTable(r: ReturnType<typeof compareResults>): string {
  const width = Math.max(4, ...r.cases.map((c) => c.key.length));
  const lines = [`${'case'.padEnd(width)}  B/A throughput`];
  for (const c of r.cases) lines.push(`${c.key.padEnd(width)}  ${c.ratio.toFixed(3).padStart(8)}  ${MARK[c.verdict]}`);
  if (r.onlyInA.length) lines.push(`only in A: ${r.onlyInA.length} cases`);
  if (r.onlyInB.length) lines.push(`only in B: ${r.onlyInB.length} cases`);
  const n = (v: Verdict) => r.cases.filter((c) => c.verdict === v).length;
  lines.push(`${r.cases.length} cases compared: ${n('faster')} faster, ${n('slower')} slower, ${n('noisy')} noisy, ${n('same')} within noise`);
  return lines.join('\n');
}
