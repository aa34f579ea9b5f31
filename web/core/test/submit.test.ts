import { describe, expect, it } from 'vitest';
import { DEVICE_FAMILY_NAMES, deviceFamily, submissionBody } from '../submit.ts';
import { summarizeResult } from '../summary.ts';
import { CYCLES_PER_ROUND } from '../stats.ts';
import { VERDICT_MARGIN } from '../verdict.ts';
import type { ResultDocument } from '../schema.ts';
import { sampleDocument } from './fixtures.ts';

describe('device families', () => {
  it.each([
    ['Pixel 8', 'Google Pixel'],
    ['SM-A546E', 'Samsung Galaxy'],
    ['Redmi Note 12', 'Xiaomi, Redmi, POCO'],
    ['23021RAA2Y', 'Xiaomi, Redmi, POCO'],
    ['CPH2591', 'OPPO'],
    ['RMX3710', 'realme'],
    ['V2254', 'vivo'],
    ['Infinix X6833B', 'Infinix, TECNO, itel'],
    ['iPhone', 'iPhone'],
    ['Google Pixel', 'Google Pixel'],
  ])('puts the model %s in the family %s', (model, family) => {
    expect(deviceFamily(model)).toBe(family);
  });

  it('knows no family for free text, so nothing is sent', () => {
    expect(deviceFamily("Anna's Pixel 8")).toBeNull();
    expect(deviceFamily('=HYPERLINK("x")')).toBeNull();
    expect(deviceFamily('')).toBeNull();
  });

  it('sends the family instead of the model, and nothing for an unknown model', () => {
    const doc = sampleDocument() as ResultDocument;
    expect(submissionBody(doc, { deviceClass: 'phone', deviceModel: 'Pixel 8' }).deviceModel).toBe('Google Pixel');
    expect(submissionBody(doc, { deviceClass: 'phone', deviceModel: "Anna's phone" })).not.toHaveProperty('deviceModel');
    expect(new Set(DEVICE_FAMILY_NAMES).size).toBe(DEVICE_FAMILY_NAMES.length);
  });
});

describe('the embedder summary', () => {
  /** Two implementations of one case, sampled side by side in `workers` workers of 20 cycles: `b` takes `slower` times as long. */
  const doc = (slower: number, workers = 1) => {
    const d = sampleDocument() as ResultDocument;
    const c = d.cases[0]!;
    const samples = Array.from({ length: 20 * workers }, (_, i) => 1000 * (1 + 0.01 * Math.sin(i)));
    const cycles = samples.map((_, i) => Math.floor(i / 20) * CYCLES_PER_ROUND + (i % 20));
    d.cases = [
      { ...c, implementation: 'rustcrypto-wasm', variant: 'simd128', samples, cycles, unstable: false },
      { ...c, implementation: 'noble', variant: 'js', samples: samples.map((s) => s * slower), cycles, unstable: true },
    ];
    return d;
  };

  it('gives the fastest with its interval and flag, and its lead over the runner-up as a decision', () => {
    const [f] = summarizeResult(doc(1.5)).fastest;
    expect(f).toMatchObject({ implementation: 'rustcrypto-wasm', unstable: false, runnerUp: { implementation: 'noble', paired: true, decision: 'different' } });
    expect(f!.low).toBeLessThanOrEqual(f!.megabytesPerSecond);
    expect(f!.high).toBeGreaterThanOrEqual(f!.megabytesPerSecond);
    expect(f!.runnerUp!.ratio).toBeCloseTo(1.5, 2);
    expect(String(f!.megabytesPerSecond).replace(/^0\.0*|\./g, '').length).toBeLessThanOrEqual(4); // no 15-digit floats
  });

  it(`calls two implementations within ±${VERDICT_MARGIN * 100} % a tie, not a win, once several workers agree (one alone cannot tell)`, () => {
    expect(summarizeResult(doc(1.01, 5)).fastest[0]!.runnerUp!.decision).toBe('same');
    expect(summarizeResult(doc(1.01)).fastest[0]!.runnerUp!.decision).toBe('unknown');
  });
});
