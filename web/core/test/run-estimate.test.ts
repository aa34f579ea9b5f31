// The run's remaining time (run/estimate.ts): the pass under way at its rate, what the stop
// rule will likely add, never past the budget.
import { describe, expect, it } from 'vitest';
import { laterMs, remainingMs } from '../run/estimate.ts';

const first = { phase: 'measuring' as const, round: 1, rounds: 1, maxReruns: 4, untilDeadlineMs: Infinity };

describe('the run estimate', () => {
  it('extrapolates the pass at its rate, and adds extra rounds in proportion to what is still unresolved', () => {
    // Half of 20 cases in 5 s: 5 s more of this pass; then 1.3 × its 10 s × the unresolved share.
    const allResolved = remainingMs({ ...first, done: 10, total: 20, elapsedMs: 5000, history: { firstPass: { done: 10, unresolved: 0 }, passCases: [20] } });
    const halfUnresolved = remainingMs({
      ...first,
      done: 10,
      total: 20,
      elapsedMs: 5000,
      history: { firstPass: { done: 10, unresolved: 5 }, passCases: [20] },
    });
    expect(allResolved).toBeCloseTo(5000);
    expect(halfUnresolved).toBeCloseTo(5000 + 0.5 * 1.3 * 10_000);
  });

  it('takes a prior of a half until eight cases have finished, and adds nothing when no extra round is allowed', () => {
    const early = { ...first, done: 2, total: 20, elapsedMs: 1000, history: { firstPass: { done: 2, unresolved: 0 }, passCases: [20] } };
    expect(remainingMs(early)).toBeCloseTo(9000 + 0.5 * 1.3 * 10_000);
    expect(remainingMs({ ...early, maxReruns: 0 })).toBeCloseTo(9000);
  });

  it('in an extra round, the rounds still allowed, each shrinking as this one shrank from the last', () => {
    // Round 3 of 1 + 4 extra: 2 more allowed; this pass has 10 cases after 40, so q = 0.25.
    const o = { phase: 'rerunning' as const, round: 3, rounds: 1, maxReruns: 4, history: { firstPass: { done: 40, unresolved: 10 }, passCases: [40, 20, 10] } };
    expect(laterMs(1000, o)).toBeCloseTo(1000 * (0.5 + 0.25));
  });

  it('never says more than the budget left, nor less than zero', () => {
    const o = { ...first, done: 1, total: 100, elapsedMs: 1000, history: { firstPass: { done: 1, unresolved: 1 }, passCases: [100] } };
    expect(remainingMs({ ...o, untilDeadlineMs: 3000 })).toBe(3000);
    expect(remainingMs({ ...o, untilDeadlineMs: -50 })).toBe(0);
  });
});
