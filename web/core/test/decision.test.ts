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
    for (const [lo, hi] of [
      [0.99, 1.02],
      [1.04, 1.2],
      [1.01, 1.05],
      [0.8, 0.95],
    ] as const) {
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

describe('the stop rule asks for as many samples as would resolve a case or the A/A pair', () => {
  it('an interval narrows as 1/√n: twice too wide wants four times the samples; resolved or hopeless says so', async () => {
    const { samplesToReach } = await import('../run/stop-rule.ts');
    expect(samplesToReach(12, 0.1, 0.05)).toBe(48);
    expect(samplesToReach(12, 0.04, 0.05)).toBe(12);
    expect(samplesToReach(12, 0.1, 0)).toBe(Infinity);
  });

  it('a lone unresolved case and an undecided A/A pair are listed with what they want; a resolved case is not', async () => {
    const { samplesWanted, aaTwinKey } = await import('../run/stop-rule.ts');
    const { caseKey } = await import('../schema.ts');
    const { sampleDocument } = await import('./fixtures.ts');
    const { summarize } = await import('../stats.ts');
    const doc = sampleDocument();
    const a = doc.cases[0]!;
    const b = { ...a, algorithm: 'chacha20-poly1305' as const };
    // a: 12 samples, its median's interval about ±10 %; b: tight.
    a.samples = [90, 95, 100, 105, 110, 92, 108, 97, 103, 88, 112, 100];
    a.summary = summarize(a.samples);
    b.samples = Array.from({ length: 12 }, (_, i) => 100 + (i % 2));
    b.summary = summarize(b.samples);
    const aa = {
      implementation: b.implementation,
      variant: b.variant,
      algorithm: b.algorithm,
      operation: b.operation,
      sizeBytes: b.sizeBytes,
      ratio: 1.0,
      low: 0.96,
      high: 1.04,
      decision: 'unknown' as const,
    };
    const wanted = samplesWanted({ cases: [a, b], aaCheck: aa });
    expect(wanted.get(caseKey(a))).toBeGreaterThan(12);
    // ±4 % against a ±3 % band, aiming at 80 % of it: (0.0392 / (0.8 · 0.0296))² ≈ 2.7 × 12 samples.
    expect(wanted.get(caseKey(b))).toBeGreaterThan(24);
    expect(wanted.get(aaTwinKey(caseKey(b)))).toBe(wanted.get(caseKey(b)));
    expect(samplesWanted({ cases: [b], aaCheck: { ...aa, low: 0.99, high: 1.01, decision: 'same' } }).size).toBe(0);
  });
});

describe('the stop rule plans each extra round (nextExtraRound)', () => {
  const setup = async () => {
    const { aaTwinKey } = await import('../run/stop-rule.ts');
    const { caseKey } = await import('../schema.ts');
    const { sampleDocument } = await import('./fixtures.ts');
    const { summarize } = await import('../stats.ts');
    const doc = sampleDocument();
    const a = doc.cases[0]!; // noisy: its median not pinned down
    a.samples = [90, 95, 100, 105, 110, 92, 108, 97, 103, 88, 112, 100];
    a.summary = summarize(a.samples);
    // b: three times slower (the claim between them is decided) and tight, the A/A pair's case.
    const b = { ...a, algorithm: 'chacha20-poly1305' as const, samples: Array.from({ length: 12 }, (_, i) => 300 + (i % 2)) };
    b.summary = summarize(b.samples);
    doc.cases = [a, b];
    const aaCheck: import('../schema.ts').ResultDocument['aaCheck'] = {
      implementation: b.implementation,
      variant: b.variant,
      algorithm: b.algorithm,
      operation: b.operation,
      sizeBytes: b.sizeBytes,
      ratio: 1,
      low: 0.96,
      high: 1.04,
      decision: 'unknown',
    };
    const keys = [caseKey(a), caseKey(b), aaTwinKey(caseKey(b))];
    const budget = (leftMs: number) => ({ leftMs, overheadMs: 50, sampleMs: () => 2, have: () => 12, samplesPerRound: 12 });
    return { doc: { ...doc, aaCheck }, keys, budget };
  };

  it('the A/A pair first, then a lone unresolved case, each with the samples that would resolve it within 3× a round', async () => {
    const { nextExtraRound } = await import('../run/stop-rule.ts');
    const { doc, keys, budget } = await setup();
    const r = nextExtraRound(doc as never, keys, budget(10_000))!;
    expect(r.keys).toEqual([keys[1], keys[2], keys[0]]);
    for (const k of r.keys) {
      expect(r.samplesFor[k]).toBeGreaterThan(12);
      expect(r.samplesFor[k]).toBeLessThanOrEqual(36);
    }
  });

  it('takes what fits the budget in that order, and nothing when less than two cases would fit', async () => {
    const { nextExtraRound } = await import('../run/stop-rule.ts');
    const { doc, keys, budget } = await setup();
    // Two cases of at most 50 + 36 × 2 ms fit in 250 ms; the third does not.
    expect(nextExtraRound(doc as never, keys, budget(250))!.keys).toEqual([keys[1], keys[2]]);
    expect(nextExtraRound(doc as never, keys, budget(100))).toBeNull();
    // Resolved everywhere: nothing to do.
    expect(
      nextExtraRound({ ...doc, cases: [doc.cases[1]!], aaCheck: { ...doc.aaCheck!, low: 0.99, high: 1.01, decision: 'same' } } as never, keys, budget(10_000)),
    ).toBeNull();
  });
});

describe('the stop rule spends a short budget on the lone cases it can resolve, the cheapest first', () => {
  it('takes a resolvable case before a hopeless one, and a cheap one before a dear one, whatever the plan order', async () => {
    const { nextExtraRound, samplesWanted } = await import('../run/stop-rule.ts');
    const { caseKey } = await import('../schema.ts');
    const { sampleDocument } = await import('./fixtures.ts');
    const { summarize } = await import('../stats.ts');
    const doc = sampleDocument();
    const base = doc.cases[0]!;
    const make = (sizeBytes: number, samples: number[]) => ({ ...base, sizeBytes, samples, summary: summarize(samples) });
    // One contender at every size: no claim is undecided, so only lone cases are asked for.
    const hopeless = make(64, [40, 60, 80, 100, 120, 140, 160, 70, 130, 90, 110, 100]);
    // Their medians' intervals reach ±8 %: 48 samples in all would bring them to ±4 %.
    const dear = make(16384, [88, 92, 95, 100, 105, 108, 112, 90, 110, 93, 107, 100]);
    const cheap = make(1024, [88, 92, 95, 100, 105, 108, 112, 90, 110, 93, 107, 100]);
    doc.cases = [hopeless, dear, cheap];
    delete (doc as { aaCheck?: unknown }).aaCheck;
    const keys = doc.cases.map(caseKey);
    const wanted = samplesWanted(doc);
    // The premise: one round (at most 36 samples) resolves `dear` and `cheap`, never `hopeless`.
    expect(wanted.get(keys[0]!)! - 12).toBeGreaterThan(36);
    for (const k of [keys[1]!, keys[2]!]) expect(wanted.get(k)! - 12).toBeLessThanOrEqual(36);
    const sampleMs = (k: string) => (k === keys[1] ? 5 : 2);
    const budget = (leftMs: number) => ({ leftMs, overheadMs: 50, sampleMs, have: () => 12, samplesPerRound: 12 });
    expect(nextExtraRound(doc as never, keys, budget(10_000))!.keys).toEqual([keys[2], keys[1], keys[0]]);
    // Room for two: the two a round resolves, not the hopeless one first in the plan.
    const cost = (k: string, n: number) => 50 + n * sampleMs(k);
    const r = nextExtraRound(doc as never, keys, budget(cost(keys[2]!, 36) + cost(keys[1]!, 36)))!;
    expect(r.keys).toEqual([keys[2], keys[1]]);
  });
});

describe('an A/B pair in the stop rule: two-stage sampling allots its samples per round', () => {
  /**
   * An A/B document of four rounds of 12 cycles: the head's time per cycle is the base's times
   * log-normal noise of SD `noise` (seeded) times its round's `level`.
   */
  const abDoc = async (noise: number, level: (round: number) => number) => {
    const { sampleDocument } = await import('./fixtures.ts');
    const { seededRandom } = await import('../worker/measure.ts');
    const rnd = seededRandom(7);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
    const d = sampleDocument();
    const proto = d.cases[0]!;
    const cycles = Array.from({ length: 48 }, (_, i) => Math.floor(i / 12) * 1_000_000 + (i % 12));
    const mk = (implementation: string, f: (cy: number) => number) => ({
      ...proto,
      implementation,
      variant: 'custom',
      samples: cycles.map((cy) => 1000 * f(cy)),
      cycles,
    });
    d.params = { ...d.params, ab: { base: 'base', head: 'head', margin: 0.05 } } as typeof d.params;
    d.cases = [mk('base', () => 1), mk('head', (cy) => Math.exp(noise * gauss()) * level(Math.floor(cy / 1_000_000)))] as typeof d.cases;
    return d;
  };
  // A fresh worker costs each case about a second here, a sample 10 ms (an A/B's floor).
  const budget = { leftMs: 100_000, overheadMs: 1000, sampleMs: () => 10, have: () => 48, samplesPerRound: 12 };

  it("rounds that vary by no more than their cycles' noise: both sides take all a round may hold (3× a round's)", async () => {
    const { nextExtraRound } = await import('../run/stop-rule.ts');
    const { roundVariances } = await import('../stats.ts');
    const { caseKey } = await import('../schema.ts');
    const doc = await abDoc(0.3, () => 1);
    const keys = doc.cases.map(caseKey);
    const v = roundVariances(doc.cases[0]!, doc.cases[1]!)!;
    expect(v.withinVar).toBeGreaterThan(0.5 * (Math.PI / 2) * 0.09);
    expect(v.withinVar).toBeLessThan(2 * (Math.PI / 2) * 0.09);
    const r = nextExtraRound(doc as never, keys, budget)!;
    expect(r.keys).toEqual(keys);
    expect(r.samplesFor).toEqual({ [keys[0]!]: 36, [keys[1]!]: 36 });
  });

  it("rounds whose workers' levels dominate their cycles' noise: another worker helps more, so a round's 12 samples", async () => {
    const { nextExtraRound } = await import('../run/stop-rule.ts');
    const { roundVariances, optimalPerRound } = await import('../stats.ts');
    const { caseKey } = await import('../schema.ts');
    const doc = await abDoc(0.01, (round) => [1, 1.2, 0.85, 1.1][round]!);
    const keys = doc.cases.map(caseKey);
    const v = roundVariances(doc.cases[0]!, doc.cases[1]!)!;
    expect(v.betweenVar).toBeGreaterThan(0.01);
    // A round costs 2 × 1000 ms of overhead, a cycle 2 × 10 ms: 100 cycles' time.
    expect(optimalPerRound(v, 100)).toBeLessThan(12);
    const r = nextExtraRound(doc as never, keys, budget)!;
    expect(r.samplesFor).toEqual({ [keys[0]!]: 12, [keys[1]!]: 12 });
  });

  it('optimalPerRound is √(cost ratio × within / between), and unbounded when the rounds vary only by their noise', async () => {
    const { optimalPerRound } = await import('../stats.ts');
    expect(optimalPerRound({ withinVar: 0.04, betweenVar: 0.0001 }, 100)).toBeCloseTo(200, 9);
    expect(optimalPerRound({ withinVar: 0.04, betweenVar: 0 }, 100)).toBe(Infinity);
  });
});
