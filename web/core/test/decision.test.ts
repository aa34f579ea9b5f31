import { describe, expect, it } from 'vitest';
import { decide, whatWouldDecide } from '../decision.ts';

const r = (low: number, high: number) => ({ value: (low + high) / 2, low, high });

describe('decide: SAME / DIFFERENT / UNKNOWN against an equivalence margin', () => {
  it('calls an interval wholly inside the ±3 % band SAME, even one that excludes 1', () => {
    expect(decide(r(0.99, 1.01))).toBe('same');
    expect(decide(r(1.005, 1.02))).toBe('same'); // a real 1 % difference is still a tie
  });
  it('calls an interval wholly beyond the band DIFFERENT, on either side', () => {
    expect(decide(r(1.04, 1.2))).toBe('different');
    expect(decide(r(0.5, 0.96))).toBe('different');
  });
  it('calls an interval that straddles an edge of the band UNKNOWN', () => {
    expect(decide(r(1.01, 1.05))).toBe('unknown');
    expect(decide(r(0.9, 1.1))).toBe('unknown');
  });
  it('is symmetric: A against B and B against A get the same answer', () => {
    for (const [lo, hi] of [[0.99, 1.02], [1.04, 1.2], [1.01, 1.05], [0.8, 0.95]] as const) {
      expect(decide(r(1 / hi, 1 / lo))).toBe(decide(r(lo, hi)));
    }
  });
  it('takes the margin it is given', () => {
    expect(decide(r(1.03, 1.06), 0.02)).toBe('different');
    expect(decide(r(1.03, 1.06), 0.1)).toBe('same');
  });
  it('never decides on an interval that is not one', () => {
    expect(decide({ value: NaN, low: NaN, high: NaN })).toBe('unknown');
    expect(decide(r(1.2, 1.1))).toBe('unknown');
    expect(() => decide(r(1, 1), -0.1)).toThrow("Invalid margin: '-0.1'");
  });
  it('says what would decide an UNKNOWN, and nothing for a decided one', () => {
    expect(whatWouldDecide(r(0.9, 1.1))).toContain('wider than the ±3 % band');
    expect(whatWouldDecide(r(1.01, 1.05))).toContain('straddles the edge');
    expect(whatWouldDecide(r(0.99, 1.01))).toBeNull();
  });
});
