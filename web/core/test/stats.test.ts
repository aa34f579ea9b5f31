import { describe, expect, it } from 'vitest';
import {
  cycleLevels,
  derived,
  detectModes,
  levelled,
  steadySummaries,
  isUnstable,
  mad,
  mean,
  median,
  medianAndRobustCv,
  medianCI,
  percentileRank,
  quantile,
  sd,
  summarize,
  trimmedMean,
  pairedRatio,
  unstableReasons,
  DESCHEDULED,
  pairedRatioAcrossRounds,
} from '../stats.ts';
import { overheadBytes } from '../tables/algorithms.ts';

describe('statistics against hand-computed values', () => {
  const xs = [5, 1, 4, 2, 3]; // sorted 1 2 3 4 5

  it('median of odd and even counts', () => {
    expect(median(xs)).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('quartiles interpolate between order statistics (type 7)', () => {
    expect(quantile(xs, 0.25)).toBe(2);
    expect(quantile(xs, 0.75)).toBe(4);
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75); // h = 0.75 → 1 + 0.75·(2 − 1)
  });

  it('mean, sample SD and CV', () => {
    expect(mean(xs)).toBe(3);
    expect(sd(xs)).toBeCloseTo(Math.sqrt(2.5), 12); // Σ(x−3)² = 10, / (5 − 1)
    expect(summarize(xs).cv).toBeCloseTo(Math.sqrt(2.5) / 3, 12);
    expect(sd([7])).toBe(0);
  });

  it('MAD is the median of absolute deviations from the median', () => {
    expect(mad([1, 2, 3, 4, 100])).toBe(1); // deviations 2 1 0 1 97 → median 1
  });

  it('5 % trimmed mean drops one sample at each end of a small set (the aead-vs-etm study rule)', () => {
    expect(trimmedMean([1, 2, 3, 4, 100])).toBe(3);
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    twenty[19] = 1000; // floor(20 · 0.05) = 1 → drop 1 and 1000
    expect(trimmedMean(twenty)).toBeCloseTo(mean(twenty.slice(1, 19)), 12);
    expect(trimmedMean([1, 2, 3, 4, 100], 0)).toBe(22);
  });

  it('95 % CI of the median from order statistics', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    // n = 10: P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024 → j = 2 → [x(2), x(9)]
    expect(medianCI(ten)).toEqual([2, 9]);
    // too few samples for 95 %: the range
    expect(medianCI([3, 1, 2])).toEqual([1, 3]);
  });

  it('derived units from ns per operation', () => {
    const d = derived(1000, 1024); // 1 µs per KiB
    expect(d.bytesPerSecond).toBeCloseTo(1.024e9, 3);
    expect(d.nsPerByte).toBeCloseTo(1000 / 1024, 12);
    expect(d.usPerOp).toBe(1);
    expect(d.opsPerSecond).toBe(1e6);
  });

  it('robust CV is 1.4826 · MAD / median', () => {
    expect(summarize([90, 100, 110]).robustCv).toBeCloseTo((1.4826 * 10) / 100, 12);
  });

  it('flags a case whose spread exceeds the threshold, but not one lone spike', () => {
    expect(isUnstable(summarize([100, 100, 100, 101]))).toBe(false);
    expect(isUnstable(summarize([100, 130, 90, 140]))).toBe(true);
    const spike = [100, 101, 99, 100, 300, 100, 101, 99];
    expect(summarize(spike).cv).toBeGreaterThan(0.5); // the plain CV is wrecked by it
    expect(isUnstable(summarize(spike))).toBe(false);
  });

  it('percentile rank counts ties as half', () => {
    expect(percentileRank([1, 2, 3, 4], 3)).toBe(62.5);
    expect(percentileRank([1, 2, 3, 4], 10)).toBe(100);
  });

  it('ciphertext overhead: AES-GCM 28 bytes (the doc-encryption study), CBC pads to the block', () => {
    expect(overheadBytes('aes-128-gcm', 1000)).toBe(28);
    expect(overheadBytes('xchacha20-poly1305', 5)).toBe(40);
    expect(overheadBytes('aes-128-cbc-hmac-sha256', 16)).toBe(16 + 16 + 16);
    expect(overheadBytes('aes-128-cbc-hmac-sha256', 15)).toBe(16 + 16 + 1);
  });

  it('refuses empty input rather than returning NaN', () => {
    expect(() => median([])).toThrow('no samples');
  });
});

describe('medianAndRobustCv: what summarize gives, in one sort', () => {
  it('gives the same median and robust CV, bit for bit, at every length to 200, with ties and a zero median', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 1; n <= 200; n++) {
      for (const draw of [() => 1000 * (1 + rand()) ** 3, () => Math.round(4 * rand()) * 250, () => (rand() < 0.6 ? 0 : rand())]) {
        const xs = Array.from({ length: n }, draw);
        const s = summarize(xs);
        expect(medianAndRobustCv(xs), `n = ${n}: ${xs.join(', ')}`).toEqual({ median: s.median, robustCv: s.robustCv });
      }
    }
  });
});

describe('detectModes and unstableReasons', () => {
  // Deterministic "noise": a fixed pseudo-random sequence, so every run tests the same samples.
  const rand = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const around = (center: number, n: number, spread: number, r: () => number) => Array.from({ length: n }, () => center * (1 + (r() - 0.5) * 2 * spread));

  it('finds two modes with their centers and shares (the 46 / 92 MB/s case of a noisy VM)', () => {
    const r = rand(7);
    // ns per op for 16 KiB at 46 and 92 MB/s: 356 µs and 178 µs; 40 % slow, 60 % fast.
    const xs = [...around(356_000, 40, 0.04, r), ...around(178_000, 60, 0.04, r)];
    const modes = detectModes(xs)!;
    expect(modes).not.toBeNull();
    expect(modes[0].center).toBeCloseTo(178_000, -4);
    expect(modes[1].center).toBeCloseTo(356_000, -4);
    expect(modes[0].share).toBeCloseTo(0.6, 5);
    expect(modes[1].share).toBeCloseTo(0.4, 5);
    expect(unstableReasons(xs)).toContain('modes');
  });

  it('finds none in a unimodal spread, a few stray samples, or two clusters 5 % apart', () => {
    const r = rand(11);
    expect(detectModes(around(1000, 60, 0.15, r))).toBeNull();
    expect(detectModes([...around(1000, 57, 0.02, r), 3000, 3100, 2900])).toBeNull();
    expect(detectModes([...around(1000, 30, 0.005, r), ...around(1050, 30, 0.005, r)])).toBeNull();
    expect(detectModes([1, 2, 3])).toBeNull();
  });

  it('names each reason a case is unstable, and none for a steady one', () => {
    const r = rand(3);
    expect(unstableReasons(around(1000, 30, 0.01, r), { sampleMs: 10, timerResolutionMs: 0.005 })).toEqual([]);
    expect(unstableReasons(around(1000, 30, 0.3, r))).toEqual(['spread']);
    expect(unstableReasons(around(1000, 30, 0.01, r), { sampleMs: 0.05, timerResolutionMs: 0.005 })).toEqual(['timer']);
    expect(unstableReasons([1000, 1001, 999])).toEqual(['too-few-samples']);
  });
});

describe('pairedRatio', () => {
  it('cancels a machine that slows both sides of every cycle alike', () => {
    // The machine's speed moves 2× from cycle to cycle; b is always 1.5× faster than a.
    const speed = [1, 2, 1.2, 1.9, 1, 1.1, 2, 1.5, 1.3, 1.8];
    const a = { samples: speed.map((s) => 3000 * s), cycles: speed.map((_, i) => i) };
    const b = { samples: speed.map((s) => 2000 * s), cycles: speed.map((_, i) => i) };
    const r = pairedRatio(a, b)!;
    expect(r.ratio).toBeCloseTo(1.5, 12);
    expect(r.ciLow).toBeCloseTo(1.5, 12);
    expect(r.ciHigh).toBeCloseTo(1.5, 12);
    expect(r.n).toBe(10);
    // Independent medians see the same 1.5 only by luck of the draw; here their intervals overlap widely.
    expect(summarize(a.samples).ciHigh / summarize(b.samples).ciLow).toBeGreaterThan(2);
  });

  it('leaves out a cycle in which either side lost the core: one code twice reads 1, a real 2× reads 2, on a host where a third of the samples lose a slice', () => {
    // Samples of ~3.7 µs a call, a third of them (independently on each side) descheduled for
    // 5–10× as long, as node:crypto's 1 KiB batches read beside two busy processes.
    const rand = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const r1 = rand(7);
    const side = (base: number) => Array.from({ length: 24 }, () => base * (1 + (r1() - 0.5) * 0.04) * (r1() < 1 / 3 ? 5 + 5 * r1() : 1));
    const cycles = Array.from({ length: 24 }, (_, i) => i);
    const same = pairedRatio({ samples: side(3700), cycles }, { samples: side(3700), cycles })!;
    expect(same.ratio).toBeGreaterThan(0.97);
    expect(same.ratio).toBeLessThan(1.03);
    // The interval is the clean cycles' (every pair: 0.1–10 by chance of who was hit).
    expect(same.ciHigh / same.ciLow).toBeLessThan(1.1);
    const twice = pairedRatio({ samples: side(7400), cycles }, { samples: side(3700), cycles })!;
    expect(twice.ratio).toBeGreaterThan(1.94);
    expect(twice.ratio).toBeLessThan(2.06);
    // Across rounds the same pairs are left out.
    const rounds = pairedRatioAcrossRounds(
      { samples: [...side(3700), ...side(3700), ...side(3700)], cycles: [0, 1, 2].flatMap((r) => cycles.map((c) => r * 1_000_000 + c)) },
      { samples: [...side(3700), ...side(3700), ...side(3700)], cycles: [0, 1, 2].flatMap((r) => cycles.map((c) => r * 1_000_000 + c)) },
    )!;
    expect(Math.abs(Math.log(rounds.ratio))).toBeLessThan(0.03);
    expect(DESCHEDULED).toBe(3);
  });

  it('keeps every cycle when fewer than six would be left', () => {
    const cycles = [0, 1, 2, 3, 4, 5, 6];
    // Two cycles 10× slow on both sides (the machine stalled): the ratio is the same in them, and they stay.
    const a = { samples: [10, 10, 100, 10, 100, 10, 10], cycles };
    const b = { samples: [5, 5, 50, 5, 50, 5, 5], cycles };
    expect(pairedRatio(a, b)).toMatchObject({ ratio: 2, n: 7 });
  });

  it('pairs by cycle id, ignoring cycles only one side has, and gives up below 5 shared cycles', () => {
    const a = { samples: [10, 20, 30, 40, 50, 60, 70], cycles: [0, 1, 2, 3, 4, 5, 9] };
    const b = { samples: [5, 10, 15, 20, 25, 35], cycles: [0, 1, 2, 3, 4, 7] };
    expect(pairedRatio(a, b)).toMatchObject({ ratio: 2, n: 5 });
    expect(pairedRatio({ samples: [1, 2], cycles: [0, 1] }, { samples: [1, 2], cycles: [0, 1] })).toBeNull();
    expect(pairedRatio({ samples: [1, 2, 3, 4, 5] }, { samples: [1, 2, 3, 4, 5] })).toBeNull(); // no cycles: never paired
  });
});

describe('cycleLevels: what slowed every case of a cycle alike is divided out', () => {
  // A deterministic wobble of ±2 % per sample, different for every case and cycle.
  const wobble = (i: number, k: number) => 1 + 0.02 * Math.sin(i * 7.3 + k * 3.1);
  const run = (cases: number, cycles: number, slow: (i: number, k: number) => number) =>
    Array.from({ length: cases }, (_, i) => ({
      samples: Array.from({ length: cycles }, (_, k) => (1000 + 100 * i) * wobble(i, k) * slow(i, k)),
      cycles: Array.from({ length: cycles }, (_, k) => k),
    }));
  const precision = (s: { median: number; ciLow: number; ciHigh: number }) => Math.max(s.median - s.ciLow, s.ciHigh - s.median) / s.median;

  it('a stretch of cycles in which every case ran 1.5× slower: found, divided out, and the case resolves', () => {
    const cases = run(20, 24, (_, k) => (k >= 8 && k < 18 ? 1.5 : 1));
    const levels = cycleLevels(cases);
    for (let k = 0; k < 24; k++) expect(levels.get(k)).toBeCloseTo(k >= 8 && k < 18 ? 1.5 : 1, 1);
    const raw = summarize(cases[3]!.samples);
    const steady = steadySummaries(cases).get(cases[3]!)!;
    expect(precision(raw)).toBeGreaterThan(0.05); // ten of 24 samples slow: the raw median is not pinned down
    expect(precision(steady)).toBeLessThan(0.03);
    expect(steady.median / 1300).toBeGreaterThan(0.98);
    expect(steady.median / 1300).toBeLessThan(1.02);
  });

  it('one case slow on its own is the code, not the device: left as it is', () => {
    const cases = run(20, 24, (i, k) => (i === 5 && k % 3 === 0 ? 1.5 : 1));
    const levels = cycleLevels(cases);
    for (const x of levels.values()) expect(Math.abs(x - 1)).toBeLessThan(0.02);
    const own = levelled(cases[5]!, levels);
    own.forEach((x, k) => expect(x / cases[5]!.samples[k]!).toBeCloseTo(1, 1));
  });

  it('levels are relative to the usual state, not the best: a device slow in most cycles keeps its slow figure', () => {
    const cases = run(20, 24, (_, k) => (k < 17 ? 1.5 : 1));
    const steady = steadySummaries(cases).get(cases[0]!)!;
    expect(steady.median / 1500).toBeGreaterThan(0.98);
    expect(steady.median / 1500).toBeLessThan(1.02);
  });

  it('a paired ratio is unchanged, and cycles with too few cases to tell device from code keep level 1', () => {
    const cases = run(20, 24, (_, k) => (k % 4 === 0 ? 1.4 : 1));
    const levels = cycleLevels(cases);
    const [a, b] = [levelled(cases[1]!, levels), levelled(cases[2]!, levels)];
    a.forEach((x, k) => expect(x / b[k]!).toBeCloseTo(cases[1]!.samples[k]! / cases[2]!.samples[k]!, 12));
    expect(cycleLevels(cases.slice(0, 4)).size).toBe(0);
    expect(cycleLevels([{ samples: [1, 2, 3] }]).size).toBe(0); // no cycles recorded
  });
});
