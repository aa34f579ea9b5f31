import { describe, expect, it } from 'vitest';
import { CROWD_MAX_CASES, CROWD_MAX_SAMPLES, DEVICE_FAMILY_NAMES, SubmitError, crowdRefusal, deviceFamily, submissionBody, submitResult } from '../submit.ts';
import { summarizeResult } from '../report/summary.ts';
import { CYCLES_PER_ROUND } from '../stats.ts';
import { VERDICT_MARGIN } from '../report/ratio.ts';
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

describe('what the crowd takes, said before sending', () => {
  const withCases = (n: number, samples: number): ResultDocument => {
    const doc = sampleDocument() as ResultDocument;
    const c = doc.cases[0]!;
    doc.cases = Array.from({ length: n }, (_, i) => ({ ...c, sizeBytes: 16 + i, samples: new Array(samples).fill(1000) }));
    return doc;
  };

  it("names a run too large by its cases or samples, and takes one of a standard run's size", () => {
    expect(crowdRefusal(withCases(1240, 63))).toBeNull();
    expect(crowdRefusal(withCases(CROWD_MAX_CASES + 1, 5))).toBe(
      `this run has 1,501 cases; the crowd takes runs of up to 1,500 (a standard run's size): export the file instead`,
    );
    expect(crowdRefusal(withCases(1000, CROWD_MAX_SAMPLES / 1000 + 1))).toBe(
      `this run has 81,000 samples; the crowd takes runs of up to 80,000: export the file instead`,
    );
    expect(crowdRefusal(withCases(0, 1))).toBe('a run with no finished case has nothing to submit');
  });

  it('sends nothing for a run it would refuse', async () => {
    let sent = 0;
    const fetch = (async () => (sent++, new Response('{}'))) as typeof globalThis.fetch;
    const refused = submitResult('http://127.0.0.1:9/', withCases(CROWD_MAX_CASES + 1, 5), { deviceClass: 'laptop', fetch });
    await expect(refused).rejects.toBeInstanceOf(SubmitError);
    await expect(refused).rejects.toThrow(/1,501 cases/);
    expect(sent).toBe(0);
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
