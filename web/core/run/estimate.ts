/**
 * How long a run has left, as a visitor reads it under the progress bar: the pass under way at
 * the rate its finished cases went, plus what the stop rule will likely measure after it, never
 * past the run's budget.
 * @module
 */

/** What the runner has seen so far that the estimate learns from. */
export interface PassHistory {
  /** Of the cases finished in the first rounds: how many, and how many were unresolved on their own samples. */
  firstPass: { done: number; unresolved: number };
  /** Cases measured in each pass so far: the first rounds', then each extra round's. */
  passCases: number[];
}

export interface EstimateInput {
  phase: 'measuring' | 'rerunning';
  /** The pass's round (1-based; extra rounds follow the first `rounds`). */
  round: number;
  rounds: number;
  maxReruns: number;
  /** Cases of this pass finished, and in all. */
  done: number;
  total: number;
  /** Since this pass began. */
  elapsedMs: number;
  history: PassHistory;
  /** Until the run's budget ends (Infinity without one). */
  untilDeadlineMs: number;
}

/**
 * What the stop rule will likely measure after the current pass (`passMs`, its whole estimated
 * length). During the first rounds: a share of them that grows with the share of cases left
 * unresolved (the extra rounds of the quick preset cost 0.55 of its first round in Chromium on a
 * quiet host, 0.8 on a busy one, about 1.0 in Firefox, where the budget cut them). During an
 * extra round: the rounds still allowed, each shrinking as this one shrank from the last (q), so
 * passMs × (q + q² + …). Without the first term the estimate said "until the budget", and a run
 * that resolved early ended with a third of it still showing; without the second it said "done"
 * a round too soon.
 */
export function laterMs(passMs: number, o: Pick<EstimateInput, 'phase' | 'round' | 'rounds' | 'maxReruns' | 'history'>): number {
  if (o.maxReruns === 0) return 0;
  const { firstPass, passCases } = o.history;
  // The share of this pass's finished cases still unresolved on their own samples, once a few
  // have finished (else a prior of a half): an extra round costs about 0.65 of a first-round
  // case per case measured again, and the rounds after it about as much again (× 1.3 in all).
  if (o.phase !== 'rerunning') return ((firstPass.done >= 8 ? firstPass.unresolved / firstPass.done : 0.5) * 1.3 * passMs) / o.rounds;
  const left = o.maxReruns - (o.round - o.rounds);
  const [prev, cur] = passCases.slice(-2);
  const q = prev && cur ? Math.min(1, Math.max(0.2, cur / prev)) : 0.5;
  let sum = 0;
  for (let j = 1, f = q; j <= left; j++, f *= q) sum += f;
  return passMs * sum;
}

/** The run's remaining time (ms): this pass at its rate so far, what follows it, within the budget. */
export function remainingMs(o: EstimateInput): number {
  const atThisRate = (o.elapsedMs / Math.max(1, o.done)) * Math.max(0, o.total - o.done);
  const estimate = atThisRate + laterMs(o.elapsedMs + atThisRate, o);
  return o.untilDeadlineMs === Infinity ? estimate : Math.max(0, Math.min(estimate, o.untilDeadlineMs));
}
