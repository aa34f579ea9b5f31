// The interference monitor's arithmetic on synthetic runs of known answer.
import { describe, expect, it } from 'vitest';
import { clockGhzByCycle, explainedShare, slowCycles, slowSampleShare, speedRange, speedShares } from '../run/interference.ts';
import { unstableReasons } from '../stats.ts';

// A device at full speed, then slowed to 55 % for cycles 6–9.
const probeMs = [1, 1, 1.01, 1, 1, 1.01, 1 / 0.55, 1 / 0.55, 1 / 0.6, 1 / 0.58];
const r = { opsPerProbe: 3_600_000, cycles: probeMs.map((_, i) => i), probeMs };

describe('interference monitor', () => {
  it('says how fast the device ran, as a share of its best', () => {
    expect(speedShares(r)[0]).toBe(1);
    expect(speedShares(r)[6]).toBeCloseTo(0.55, 9);
    const range = speedRange(r)!;
    expect(range.low).toBeGreaterThan(0.54);
    expect(range.low).toBeLessThan(0.57);
    expect(range.slowShare).toBeCloseTo(0.4, 9);
  });

  it('ignores a probe reading cut short by the timer instead of calling every other cycle slow', () => {
    const glitch = { ...r, probeMs: [0, ...probeMs.slice(1)] };
    expect(speedShares(glitch)[1]).toBe(1);
    expect(speedRange({ ...r, probeMs: [1, 1, 0.01, 1, 1.02, 1, 1, 1.01, 1, 1] })!.low).toBeGreaterThan(0.95);
  });

  it('marks the slow cycles and the share of a case sampled in them', () => {
    expect([...slowCycles(r)]).toEqual([6, 7, 8, 9]);
    expect(slowSampleShare({ cycles: [4, 5, 6, 7, 8] }, slowCycles(r))).toBeCloseTo(0.6, 9);
    expect(unstableReasons([1000, 1001, 999, 1000, 1002, 998], { slowShare: 0.6 })).toEqual(['interference']);
  });

  it('explains all of a case that slowed with the device, and none of one that did not', () => {
    const followed = { samples: probeMs.map((p) => 500 * p ** 0.7), cycles: r.cycles };
    expect(explainedShare(followed, r)).toBeCloseTo(1, 9);
    const unrelated = { samples: [500, 510, 490, 505, 495, 500, 510, 490, 505, 495], cycles: r.cycles };
    expect(explainedShare(unrelated, r)!).toBeLessThan(0.2);
    expect(explainedShare({ samples: [1, 2], cycles: [0, 1] }, r)).toBeNull();
  });

  it('gives the concurrent clock of each cycle', () => {
    expect(clockGhzByCycle(r).get(0)).toBeCloseTo(3.6, 9); // 3.6 M ops in 1 ms
    expect(clockGhzByCycle(r).get(6)).toBeCloseTo(1.98, 9);
  });
});
