// The repeatability standard (lab/bench/repeatability.ts): a figure is judged against how well its
// reference repeats itself, not against a fixed band.
import { describe as group, expect, it } from 'vitest';
import { againstRepeatability, describe, tallyCells } from './repeatability.ts';

const refAgain = [1.02, 0.99, 1.01, 0.98, 1.0];

group('the repeatability standard', () => {
  it('its limits are the t and F points for N runs: bias ≤ t(97.5 %, N−1)·SD/√N, spread ≤ SD·√F(95 %, N−1, N−1)', () => {
    const j = againstRepeatability([1, 1, 1, 1, 1], refAgain)!;
    const logs = refAgain.map(Math.log);
    const m = logs.reduce((a, b) => a + b) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / (logs.length - 1));
    expect(j.refSd).toBeCloseTo(sd, 12);
    expect(j.biasLimit).toBeCloseTo((2.776445 * sd) / Math.sqrt(5), 5);
    expect(j.spreadLimit).toBeCloseTo(sd * Math.sqrt(6.388233), 5);
  });

  it('a figure that moves with the reference’s own noise and no bias is within repeatability', () => {
    const j = againstRepeatability([0.99, 1.02, 1.0, 0.98, 1.01], refAgain)!;
    expect(j.within).toBe(true);
    expect(describe(j)).toMatch(/within repeatability$/);
  });

  it('a steady 4 % low that the reference’s repeatability resolves is not within, and says why', () => {
    const j = againstRepeatability([0.95, 0.97, 0.96, 0.94, 0.98], refAgain)!;
    expect(j.within).toBe(false);
    expect(describe(j)).toContain('NOT within (bias resolved)');
  });

  it('the same 4 % low beside a reference that moves ±10 % from itself is not resolved', () => {
    expect(againstRepeatability([0.95, 0.97, 0.96, 0.94, 0.98], [1.12, 0.9, 1.05, 0.92, 1.08])!.within).toBe(true);
  });

  it('a spread far wider than the reference’s is not within, even unbiased', () => {
    const j = againstRepeatability([0.8, 1.25, 0.85, 1.2, 1.0], refAgain)!;
    expect(describe(j)).toContain('spread wider');
  });

  it('a reference whose second timing reads steadily above its first is said to lean, beside the finding', () => {
    // The first plain loop of a size low, as in fresh Chromium (bench:verdict): again / first 1.10–1.16.
    const leaning = [1.12, 1.1, 1.16, 1.13, 1.11];
    const j = againstRepeatability([1.13, 1.12, 1.15, 1.14, 1.12], leaning)!;
    expect(j.refLeans).toBe(true);
    expect(describe(j)).toMatch(/; the reference's A\/A itself leans 1\.12\d× \(resolved: the reference has an order\)$/);
    // A reference centred on 1 does not lean, and its words end at the finding.
    const centred = againstRepeatability([1, 1, 1, 1, 1], refAgain)!;
    expect(centred.refLeans).toBe(false);
    expect(describe(centred)).toMatch(/within repeatability$/);
  });

  it('one run cannot be judged', () => {
    expect(againstRepeatability([1], [1])).toBeNull();
    expect(describe(null)).toContain('too few runs');
  });

  it('bench:modules’ tally: the cells each reading has within, and the run’s misses that the loop taking turns explains', () => {
    const within = againstRepeatability([0.99, 1.02, 1.0, 0.98, 1.01], refAgain);
    const low = againstRepeatability([0.95, 0.97, 0.96, 0.94, 0.98], refAgain);
    const t = tallyCells([
      { run: within, alone: within, turns: within },
      { run: low, alone: within, turns: within }, // missed alone, met against the turns
      { run: low, alone: low, turns: low }, // missed both
      { run: null, alone: null, turns: within }, // too few runs: neither within nor missed
    ]);
    expect(t).toEqual({ cells: 4, run: 1, alone: 2, turns: 3, notRun: 2, notRunTurns: 1 });
  });
});
