/**
 * How two cases compare, said one way wherever it is said: the verdict, the results table's
 * speedups, the studies and the embedder summary all take a ratio of two cases from `ratioOf`
 * and name a contender with `contenderLabel`.
 * @module
 */
import { CUSTOM_VARIANT, IMPLEMENTATIONS, algorithm, variantNamed } from '../tables/algorithms.ts';
import { type CaseResult, caseKey } from '../schema.ts';
import { WORKER_SPREAD, workerAwareRatio } from '../stats.ts';

export interface Ratio {
  value: number;
  low: number;
  high: number;
  paired: boolean;
  sizeBytes: number;
  /** The two cases compared (caseKey), a's then b's. */
  cases: [string, string];
}

export function contenderLabel(c: Pick<CaseResult, 'implementation' | 'variant' | 'algorithm'>): string {
  const impl = IMPLEMENTATIONS.find((i) => i.id === c.implementation)?.label ?? c.implementation;
  const variant = c.variant === CUSTOM_VARIANT ? ' (your module)' : variantNamed(c) ? ` (${c.variant})` : '';
  return `${algorithm(c.algorithm).label} in ${impl}${variant}`;
}

/**
 * The verdict's equivalence margin: two contenders within ±5 % are a tie. Not the A/A check's or
 * an A/B's ±3 %: those compare within one worker, where the worker's own level cancels; the
 * verdict compares across the workers of a run, and with a worker's level moving a ratio by
 * about 4 % (stats.ts WORKER_SPREAD), ±3 % could be shown only with seven or more workers, so
 * every tie read "too close to call". A difference under 5 % does not choose a cipher anyway.
 */
export const VERDICT_MARGIN = 0.05;

/**
 * time(b) / time(a): paired when the two were sampled side by side, with the spread between
 * workers counted (stats.ts workerAwareRatio); else a ratio of medians with their intervals,
 * widened as much, since each median is some worker's too.
 */
export function ratioOf(a: CaseResult, b: CaseResult): Ratio {
  const p = workerAwareRatio(b, a);
  const cases: [string, string] = [caseKey(a), caseKey(b)];
  if (p) return { value: p.ratio, low: p.ciLow, high: p.ciHigh, paired: true, sizeBytes: a.sizeBytes, cases };
  const w = Math.exp(1.96 * WORKER_SPREAD);
  return {
    value: b.summary.median / a.summary.median,
    low: b.summary.ciLow / a.summary.ciHigh / w,
    high: (b.summary.ciHigh / a.summary.ciLow) * w,
    paired: false,
    sizeBytes: a.sizeBytes,
    cases,
  };
}

/**
 * `items` (ranked fastest first by median) with the leader chosen by the estimate the page prints
 * beside it: the paired ratio. A median ranking and a paired ratio can disagree (the median of
 * each side against the median of cycle-by-cycle ratios), and a winner named by one while the
 * other is printed read "ahead at 0.94×". The leader is moved to whichever contender its ratio
 * says is faster until none is (at most once per contender: paired ratios need not be
 * transitive); the rest follow closest first, by their ratio to the leader.
 */
export function byPrintedEstimate<T>(items: readonly T[], caseOf: (t: T) => CaseResult): T[] {
  if (items.length < 2) return [...items];
  let lead = 0;
  const seen = new Set([0]);
  for (;;) {
    const a = caseOf(items[lead]!);
    let next = -1;
    let best = 1;
    items.forEach((it, i) => {
      if (i === lead) return;
      const v = ratioOf(a, caseOf(it)).value;
      if (v < best) [best, next] = [v, i];
    });
    if (next < 0 || seen.has(next)) break;
    seen.add(next);
    lead = next;
  }
  const leader = caseOf(items[lead]!);
  const rest = items
    .filter((_, i) => i !== lead)
    .map((it) => ({ it, v: ratioOf(leader, caseOf(it)).value }))
    .sort((x, y) => x.v - y.v)
    .map((x) => x.it);
  return [items[lead]!, ...rest];
}

/** A ratio as the page prints it: "1.13× [1.03–1.23, paired]". */
export const timesText = (r: Pick<Ratio, 'value' | 'low' | 'high'> & { paired?: boolean }) =>
  `${r.value.toFixed(2)}× [${r.low.toFixed(2)}–${r.high.toFixed(2)}${r.paired ? ', paired' : ''}]`;

/** Whether a ratio as printed (two decimals) says the first is faster: no "ahead" at 1.00× or below. */
export const printedAhead = (r: Pick<Ratio, 'value'>) => Number(r.value.toFixed(2)) > 1;
