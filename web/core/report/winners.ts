/**
 * Who wins at each size: the picture above the results table. For each payload size of the
 * run's main operation, the contenders ranked by median throughput, and how the first stands
 * against the second by the verdict's rule (ratio.ts, decision.ts): ahead, a tie (within the
 * verdict's margin), or not told apart yet. Pure: the page draws it, a test reads it.
 * @module
 */
import { isContender } from '../tables/algorithms.ts';
import type { CaseResult } from '../schema.ts';
import { decide } from '../decision.ts';
import { VERDICT_MARGIN, byPrintedEstimate, contenderLabel, ratioOf } from './ratio.ts';

export interface SizeWinner {
  sizeBytes: number;
  /** The leader's label (contenderLabel), and its implementation, for its colour. */
  leader: string;
  implementation: string;
  mbps: number;
  /** `ahead`: faster than the runner-up by the verdict's rule; `tie`: within its margin; `open`: not told apart yet. */
  standing: 'ahead' | 'tie' | 'open' | 'alone';
  runnerUp: string | null;
  /** time(runner-up) / time(leader), with its 95 % interval. */
  ratio: { value: number; low: number; high: number } | null;
}

/** One entry per size of the run's operation (encrypt where it was measured), smallest first. */
export function winnersBySize(cases: readonly CaseResult[]): SizeWinner[] {
  const operation = cases.some((c) => c.operation === 'encrypt') ? 'encrypt' : cases[0]?.operation;
  const mine = cases.filter((c) => c.operation === operation && c.aadBytes === (cases[0]?.aadBytes ?? 0) && isContender(c));
  const sizes = [...new Set(mine.map((c) => c.sizeBytes))].sort((a, b) => a - b);
  return sizes.map((sizeBytes) => {
    // Led by the estimate printed beside it (the paired ratio), as the verdict's winners are.
    const ranked = byPrintedEstimate(
      mine.filter((c) => c.sizeBytes === sizeBytes).sort((a, b) => b.bytesPerSecond - a.bytesPerSecond),
      (c) => c,
    );
    const [first, second] = ranked as [CaseResult, CaseResult | undefined];
    const r = second ? ratioOf(first, second) : null;
    const d = r ? decide(r, VERDICT_MARGIN) : null;
    return {
      sizeBytes,
      leader: contenderLabel(first),
      implementation: first.implementation,
      mbps: first.bytesPerSecond / 1e6,
      standing: !r ? 'alone' : d === 'different' ? 'ahead' : d === 'same' ? 'tie' : 'open',
      runnerUp: second ? contenderLabel(second) : null,
      ratio: r ? { value: r.value, low: r.low, high: r.high } : null,
    };
  });
}
