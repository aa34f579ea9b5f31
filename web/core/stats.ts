/**
 * Pure statistics over raw samples (ns per operation). Medians and MAD lead: the noise in
 * micro-benchmarks comes from GC, JIT tier-ups and the scheduler, which only ever make a sample
 * slower, so the distribution is skewed and the mean chases outliers. The mean, SD and the 5 %
 * trimmed mean are kept too, for comparison with studies that report them.
 * @module
 */
import { T_FAMILIES, T_QUANTILES, Z_QUANTILES } from './tables/t-quantiles.ts';

function sorted(xs: readonly number[]): number[] {
  if (xs.length === 0) throw new Error('no samples');
  return [...xs].sort((a, b) => a - b);
}

/** Quantile by linear interpolation between order statistics (Hyndman & Fan type 7, R's default). */
export function quantile(xs: readonly number[], p: number): number {
  const s = sorted(xs);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('no samples');
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Sample standard deviation (n − 1). Zero for a single sample. */
export function sd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Median absolute deviation from the median, unscaled. */
export function mad(xs: readonly number[]): number {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
}

/**
 * The median and the robust CV (1.4826 · MAD / median) alone, as `summarize` computes them, in
 * one numeric sort: the collector recomputes these for thousands of cases per body. The
 * deviations from the median need no second sort: those of the samples at or below it grow
 * walking down from the middle, those above it walking up, so merging the two walks meets them
 * in order (the same numbers, since fl(m − x) = −fl(x − m)).
 */
export function medianAndRobustCv(xs: readonly number[]): { median: number; robustCv: number } {
  const n = xs.length;
  if (n === 0) throw new Error('no samples');
  const h = (n - 1) / 2;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) s[i] = xs[i]!;
  s.sort();
  const med = s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
  if (med === 0) return { median: med, robustCv: 0 };
  // s[0..lo] ≤ med ≤ s[lo+1..]: the deviations at ranks lo and hi of the merged walks.
  let down = lo;
  let up = lo + 1;
  let atLo = 0;
  let atHi = 0;
  for (let rank = 0; rank <= hi; rank++) {
    const below = down >= 0 ? med - s[down]! : Infinity;
    const above = up < n ? s[up]! - med : Infinity;
    const d = below <= above ? (down--, below) : (up++, above);
    if (rank === lo) atLo = d;
    atHi = d;
  }
  return { median: med, robustCv: (1.4826 * (atLo + (h - lo) * (atHi - atLo))) / med };
}

/**
 * Trimmed mean: drop `fraction` of the samples at each end (floor(n · fraction), at least one
 * when n ≥ 3 for the 5 % rule, as the aead-vs-etm study discards its fastest and slowest runs), then average.
 */
export function trimmedMean(xs: readonly number[], fraction = 0.05): number {
  const s = sorted(xs);
  let k = Math.floor(s.length * fraction);
  if (k === 0 && fraction > 0 && s.length >= 3) k = 1;
  return mean(s.slice(k, s.length - k));
}

/** ln Γ by Lanczos (g = 7, n = 9), for binomial probabilities without overflow. */
function lnGamma(z: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - lnGamma(1 - z);
  z -= 1;
  let x = c[0]!;
  for (let i = 1; i < 9; i++) x += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(x);
}

/** P(Binomial(n, ½) = i). */
function binomialPmf(i: number, n: number): number {
  return Math.exp(lnGamma(n + 1) - lnGamma(i + 1) - lnGamma(n - i + 1) - n * Math.LN2);
}

/**
 * Distribution-free confidence interval of the median from order statistics: the widest j with
 * P(Binomial(n, ½) < j) ≤ (1 − level)/2 gives [x(j), x(n+1−j)]. Exact coverage ≥ level, no
 * assumption about the shape of the distribution. With fewer than 6 samples no 95 % interval
 * exists this way, and the range is returned (coverage 1 − 2^(1−n)).
 */
export function medianCI(xs: readonly number[], level = 0.95): [number, number] {
  const s = sorted(xs);
  const n = s.length;
  const alpha = (1 - level) / 2;
  // The CDF accumulated term by term: linear in n (a summed-anew CDF per step was quadratic,
  // 10 s of CPU for a submission of 250 000 samples).
  let j = 0;
  let cdf = binomialPmf(0, n);
  while (j + 1 <= n && cdf <= alpha) {
    j++;
    cdf += binomialPmf(j, n);
  }
  if (j === 0) return [s[0]!, s[n - 1]!];
  return [s[j - 1]!, s[n - j]!];
}

export interface Summary {
  n: number;
  min: number;
  max: number;
  median: number;
  q1: number;
  q3: number;
  iqr: number;
  mad: number;
  mean: number;
  sd: number;
  /** Coefficient of variation, SD / mean. */
  cv: number;
  /**
   * Robust CV: 1.4826 · MAD / median. For normally distributed samples it estimates the same
   * quantity as the CV, but a single GC pause or scheduler hiccup barely moves it, just as it
   * barely moves the median that we report. The re-run rule uses it.
   */
  robustCv: number;
  trimmedMean: number;
  ciLow: number;
  ciHigh: number;
}

export function summarize(xs: readonly number[]): Summary {
  const s = sorted(xs);
  const m = mean(s);
  const q1 = quantile(s, 0.25);
  const q3 = quantile(s, 0.75);
  const med = median(s);
  const [ciLow, ciHigh] = medianCI(s);
  const deviation = sd(s);
  const madValue = mad(s);
  return {
    n: s.length,
    min: s[0]!,
    max: s[s.length - 1]!,
    median: med,
    q1,
    q3,
    iqr: q3 - q1,
    mad: madValue,
    mean: m,
    sd: deviation,
    cv: m === 0 ? 0 : deviation / m,
    robustCv: med === 0 ? 0 : (1.4826 * madValue) / med,
    trimmedMean: trimmedMean(s),
    ciLow,
    ciHigh,
  };
}

/** Throughput and latency units derived from a time per operation. */
export function derived(nsPerOp: number, sizeBytes: number) {
  return {
    bytesPerSecond: nsPerOp > 0 ? (sizeBytes * 1e9) / nsPerOp : 0,
    nsPerByte: sizeBytes > 0 ? nsPerOp / sizeBytes : 0,
    usPerOp: nsPerOp / 1e3,
    opsPerSecond: nsPerOp > 0 ? 1e9 / nsPerOp : 0,
  };
}

/**
 * The re-run rule, after OpenBenchmarking, which repeats a test until its SD is within 3.5 %
 * of the mean. A case whose spread exceeds `threshold` is measured again in a fresh worker, up
 * to a bound, and flagged if it stays above. The spread is the robust CV: in browsers, Web
 * Crypto and JS samples carry rare 2–3× spikes (GC, the crypto thread pool on a busy core)
 * that inflate the plain CV of every case while leaving the reported median untouched.
 */
export const CV_THRESHOLD = 0.035;
export function isUnstable(summary: Summary, threshold = CV_THRESHOLD): boolean {
  return summary.robustCv > threshold;
}

/** Percentile rank of `x` within `xs` (share of values ≤ x, ties counted half), 0–100. */
export function percentileRank(xs: readonly number[], x: number): number {
  if (xs.length === 0) throw new Error('no values');
  let below = 0;
  let equal = 0;
  for (const v of xs) {
    if (v < x) below++;
    else if (v === x) equal++;
  }
  return (100 * (below + equal / 2)) / xs.length;
}

export interface Mode {
  /** The median of the samples in this mode (same unit as the samples: ns per operation). */
  center: number;
  /** Its share of the samples, 0–1. */
  share: number;
}

/**
 * Two modes, or null. A device that switches between fast and slow states (big and little
 * cores, boost and throttle, a neighbour on a shared host) gives samples in two clusters; their
 * median can fall in the gap where no sample is, describing a speed the device never ran at.
 * The rule, on ln(samples) so that clusters are judged by ratio: cut at the widest gap between
 * neighbours that leaves at least 15 % (and 3 samples) on each side; call it two modes when the
 * gap exceeds 4 × the larger within-cluster MAD (at least 1 %) and the clusters' medians differ
 * by at least 15 %. A unimodal spread has no such empty stretch; a few stray samples are too few.
 */
export function detectModes(samples: readonly number[], o: { minShare?: number; minRatio?: number } = {}): [Mode, Mode] | null {
  const minShare = o.minShare ?? 0.15;
  const minRatio = o.minRatio ?? 1.15;
  const xs = samples
    .filter((x) => x > 0)
    .map(Math.log)
    .sort((a, b) => a - b);
  const n = xs.length;
  const minSide = Math.max(3, Math.ceil(n * minShare));
  if (n < 2 * minSide) return null;
  let cut = -1;
  let widest = 0;
  for (let i = minSide; i <= n - minSide; i++) {
    const gap = xs[i]! - xs[i - 1]!;
    if (gap > widest) {
      widest = gap;
      cut = i;
    }
  }
  if (cut < 0) return null;
  const lo = xs.slice(0, cut);
  const hi = xs.slice(cut);
  const spread = Math.max(mad(lo), mad(hi), 0.01);
  const [mLo, mHi] = [median(lo), median(hi)];
  if (widest < 4 * spread || Math.exp(mHi - mLo) < minRatio) return null;
  return [
    { center: Math.exp(mLo), share: lo.length / n },
    { center: Math.exp(mHi), share: hi.length / n },
  ];
}

/** Why a case is flagged: each reason a reader can act on, in the order they matter. */
export type UnstableReason = 'modes' | 'interference' | 'spread' | 'timer' | 'too-few-samples';

/**
 * The reasons behind an `unstable` flag: two modes (the median describes neither); the device
 * slowed down under a fifth or more of the samples (the interference monitor saw it); a robust
 * spread above the threshold; samples not much longer than the timer's step (the clock itself
 * is the noise); fewer than 5 samples (no 95 % interval of the median exists).
 */
export function unstableReasons(
  samples: readonly number[],
  o: { threshold?: number; sampleMs?: number; timerResolutionMs?: number; slowShare?: number } = {},
): UnstableReason[] {
  const reasons: UnstableReason[] = [];
  if (detectModes(samples)) reasons.push('modes');
  // More than a fifth of the samples taken while the device itself ran slow (interference.ts).
  if ((o.slowShare ?? 0) > 0.2) reasons.push('interference');
  if (samples.length >= 2 && summarize(samples).robustCv > (o.threshold ?? CV_THRESHOLD)) reasons.push('spread');
  if (o.sampleMs !== undefined && o.timerResolutionMs !== undefined && o.sampleMs < 20 * o.timerResolutionMs) reasons.push('timer');
  if (samples.length < 5) reasons.push('too-few-samples');
  return reasons;
}

export interface PairedRatio {
  /** Median over cycles of time(a) / time(b): how many times faster b ran than a, side by side. */
  ratio: number;
  /** Distribution-free 95 % interval of that median (medianCI over the per-cycle ratios). */
  ciLow: number;
  ciHigh: number;
  /** Cycles in which both were sampled. */
  n: number;
}

/**
 * A sample more than this many times its case's median was descheduled, not slow: the thread
 * lost the core for part of it. On a host whose cores are all taken, a sample shorter than the
 * scheduler's slice is either untouched or loses a whole slice: node:crypto's 1 KiB batches
 * read 3.7 µs a call or 23–35 µs, nothing between, and one copy of a module, hit more often
 * than its twin, read 4.6× [1.3–16.6] of it (docs/decisions/009-descheduled-samples.md).
 * A slow second (a boost ending, a neighbour's burst) slows both samples of a cycle by far
 * less and stays in; a garbage collection costs its case a few tenths of a sample, and stays.
 */
export const DESCHEDULED = 3;

/**
 * The cycles two cases were both sampled in, each with time(a) / time(b), leaving out a cycle
 * in which either sample was descheduled (DESCHEDULED): one side's lost slice is no part of
 * either code's cost, and read as a ratio it is a 5–10× difference of nothing. Only when more
 * than 5 pairs remain; otherwise every pair (a run too busy for the rule to leave evidence).
 */
export function pairedCycles(
  a: { samples: readonly number[]; cycles?: readonly number[] },
  b: { samples: readonly number[]; cycles?: readonly number[] },
): { cycle: number; ratio: number }[] {
  if (!a.cycles || !b.cycles) return [];
  const bByCycle = new Map<number, number>();
  b.cycles.forEach((c, i) => bByCycle.set(c, b.samples[i]!));
  const limitA = DESCHEDULED * median(a.samples);
  const limitB = DESCHEDULED * median(b.samples);
  const all: { cycle: number; ratio: number; kept: boolean }[] = [];
  a.cycles.forEach((c, i) => {
    const tb = bByCycle.get(c);
    const ta = a.samples[i]!;
    if (tb !== undefined && tb > 0) all.push({ cycle: c, ratio: ta / tb, kept: ta <= limitA && tb <= limitB });
  });
  const kept = all.filter((p) => p.kept);
  return (kept.length > 5 ? kept : all).map(({ cycle, ratio }) => ({ cycle, ratio }));
}

/**
 * The paired ratio of two cases sampled interleaved (measure.ts measureInterleaved): each
 * cycle's two samples were taken back to back, so a slow second slows both and cancels in
 * their ratio — what an independent median per case cannot do on a noisy device; a cycle in
 * which either was descheduled is left out (pairedCycles). Null when the cases share fewer
 * than 5 cycles (not sampled together: compare medians instead).
 */
export function pairedRatio(
  a: { samples: readonly number[]; cycles?: readonly number[] },
  b: { samples: readonly number[]; cycles?: readonly number[] },
): PairedRatio | null {
  return pooledRatio(pairedCycles(a, b));
}

/** pairedRatio over pairs already taken (pairedCycles). */
function pooledRatio(pairs: readonly { ratio: number }[]): PairedRatio | null {
  const ratios = pairs.map((p) => p.ratio);
  if (ratios.length < 5) return null;
  const [ciLow, ciHigh] = medianCI(ratios);
  return { ratio: median(ratios), ciLow, ciHigh, n: ratios.length };
}

/**
 * How much a paired ratio moves from one fresh worker to the next, as a standard deviation of
 * its logarithm, when a run has too few workers to say: measured in Chromium 156 on this kind
 * of machine (quick preset, 5 workers per run, two runs), WASM vs WASM 2–5 %, Web Crypto
 * AES-128 vs AES-256-GCM 2–6 %, Web Crypto vs WASM 3–10 % (docs/methodology.md).
 */
export const WORKER_SPREAD = 0.04;
/** How many workers' worth of evidence WORKER_SPREAD counts for beside a run's own (workerAwareRatio). */
export const PRIOR_DF = 4;

/**
 * The paired ratio a verdict may decide on, with the worker counted: within one worker the
 * ratio's samples agree (the pooled interval is narrow) but the worker's own level moves it by
 * a few per cent, so a claim decided on one worker's samples came out DIFFERENT in one run and
 * SAME in the next. The interval adds the spread between workers to the pooled one (in
 * quadrature, on logarithms), divided by √workers since each worker is one independent draw
 * of that level. The spread is WORKER_SPREAD until the run has workers of its own to show it;
 * then what they show, pooled with WORKER_SPREAD as if that were PRIOR_DF workers' worth (three
 * workers that happen to agree do not make a spread of zero; ten that disagree outweigh it).
 * Null when the two share fewer than 5 cycles.
 */
export function workerAwareRatio(
  a: { samples: readonly number[]; cycles?: readonly number[] },
  b: { samples: readonly number[]; cycles?: readonly number[] },
  spread = WORKER_SPREAD,
): (PairedRatio & { workers: number }) | null {
  // One pairing for the pooled ratio and the rounds' (each takes its cases' medians).
  const pairs = pairedCycles(a, b);
  const pooled = pooledRatio(pairs);
  if (!pooled) return null;
  const logs = roundLogRatios(ratiosByRound(pairs));
  const k = Math.max(1, logs.length);
  const meanLog = logs.length >= 2 ? logs.reduce((t, x) => t + x, 0) / logs.length : Math.log(pooled.ratio);
  const squares = logs.reduce((t, x) => t + (x - meanLog) ** 2, 0);
  const between = Math.sqrt((squares + PRIOR_DF * spread ** 2) / (k - 1 + PRIOR_DF));
  const within = Math.max(Math.log(pooled.ratio / pooled.ciLow), Math.log(pooled.ciHigh / pooled.ratio));
  const half = Math.sqrt(within ** 2 + (1.96 * between) ** 2 / k);
  return { ratio: Math.exp(meanLog), ciLow: Math.exp(meanLog - half), ciHigh: Math.exp(meanLog + half), n: pooled.n, workers: logs.length };
}

/** Cycle ids of round r start at r × this (runner.ts), so a sample's cycle names its worker. */
export const CYCLES_PER_ROUND = 1_000_000;

/** Each round's per-cycle ratios time(a) / time(b) (pairedCycles), by round (a cycle's id names its worker). */
function ratiosByRound(pairs: readonly { cycle: number; ratio: number }[]): Map<number, number[]> {
  const byRound = new Map<number, number[]>();
  for (const { cycle, ratio } of pairs) {
    const r = Math.floor(cycle / CYCLES_PER_ROUND);
    byRound.set(r, [...(byRound.get(r) ?? []), ratio]);
  }
  return byRound;
}

/** The log of each round's median ratio, for rounds with at least 3 shared cycles. */
function roundLogRatios(byRound: Map<number, number[]>): number[] {
  return [...byRound.values()].filter((xs) => xs.length >= 3).map((xs) => Math.log(median(xs)));
}

/**
 * The two-sided quantile of Student's t with `df` degrees of freedom for one of a family of
 * `family` comparisons (Bonferroni: each at 1 − 0.05 / (2 · family)), so that a family of
 * 95 % intervals errs anywhere at most 5 % of the time; from the generated table
 * (tables/t-quantiles.ts), a family between two rows taking the larger.
 */
export function tQuantile(df: number, family = 1): number {
  if (df < 1) return Infinity;
  const row = T_FAMILIES.findIndex((m) => m >= family);
  if (row < 0) throw new Error(`a family of ${family} comparisons is more than the table holds (${T_FAMILIES.at(-1)})`);
  return T_QUANTILES[row]![df - 1] ?? Z_QUANTILES[row]!;
}
export const tQuantile975 = (df: number): number => tQuantile(df, 1);

/**
 * The paired ratio with each worker as one observation: every round runs in a fresh worker,
 * and within one worker the two cases' ratio is steady but its level is the worker's — two
 * copies of one JavaScript module read anywhere from 0.84 to 1.18 of each other from worker to
 * worker in Chromium, while within each worker the ratio barely moved. Pooling every cycle as
 * if independent then gives an interval far too narrow, and calls the same code SLOWER. Here
 * each round contributes the median of its cycles' ratios, and the interval is Student's t over
 * the rounds' logarithms, so it narrows only as independent workers agree. Fewer than
 * `minRounds` rounds with at least 3 shared cycles each: nothing can be decided (0 to ∞).
 */
export function pairedRatioAcrossRounds(
  a: { samples: readonly number[]; cycles?: readonly number[] },
  b: { samples: readonly number[]; cycles?: readonly number[] },
  minRounds = 3,
  /** How many comparisons the caller decides together (a compare's cases): the interval is the family's (tQuantile). */
  family = 1,
): (PairedRatio & { rounds: number }) | null {
  if (!a.cycles || !b.cycles) return null;
  const byRound = ratiosByRound(pairedCycles(a, b));
  const logs = roundLogRatios(byRound);
  const n = [...byRound.values()].reduce((k, xs) => k + xs.length, 0);
  if (logs.length === 0) return null;
  const m = logs.reduce((s, x) => s + x, 0) / logs.length;
  if (logs.length < Math.max(2, minRounds)) return { ratio: Math.exp(m), ciLow: 0, ciHigh: Infinity, n, rounds: logs.length };
  const sdLog = Math.sqrt(logs.reduce((s, x) => s + (x - m) ** 2, 0) / (logs.length - 1));
  const half = (tQuantile(logs.length - 1, family) * sdLog) / Math.sqrt(logs.length);
  return { ratio: Math.exp(m), ciLow: Math.exp(m - half), ciHigh: Math.exp(m + half), n, rounds: logs.length };
}

/**
 * What varies in a paired ratio across rounds, split as two-stage sampling splits it (Cochran,
 * Sampling Techniques, 10.6): `withinVar`, one cycle's log ratio around its round's median
 * (robustly, from the MAD of those residuals), times π/2 so that withinVar / n is what the
 * median of n cycles carries; `betweenVar`, what the rounds' log medians vary beyond that (each
 * worker's own level; 0 when the cycles' noise explains it all). Null below `minRounds` rounds
 * of at least 3 shared cycles.
 */
export function roundVariances(
  a: { samples: readonly number[]; cycles?: readonly number[] },
  b: { samples: readonly number[]; cycles?: readonly number[] },
  minRounds = 3,
): { withinVar: number; betweenVar: number } | null {
  const byRound = ratiosByRound(pairedCycles(a, b));
  const logs = [...byRound.values()].filter((xs) => xs.length >= 3).map((xs) => xs.map(Math.log));
  if (logs.length < Math.max(2, minRounds)) return null;
  // The rounds' medians the interval is taken over (pairedRatioAcrossRounds), in the same order.
  const meds = roundLogRatios(byRound);
  const withinVar = (Math.PI / 2) * (1.4826 * median(logs.flatMap((xs, i) => xs.map((x) => Math.abs(x - meds[i]!))))) ** 2;
  const expected = mean(logs.map((xs) => withinVar / xs.length));
  return { withinVar, betweenVar: Math.max(0, sd(meds) ** 2 - expected) };
}

/**
 * Two-stage sampling's optimal samples per round (Cochran 10.6): n = √((C_round / C_sample) ·
 * (S²_within / S²_between)), for a round that costs `costRatio` samples' time before its first
 * sample. Infinite when the rounds vary by no more than their samples' noise: then every
 * sample a round can hold narrows the interval for less than another round would.
 */
export function optimalPerRound(v: { withinVar: number; betweenVar: number }, costRatio: number): number {
  return v.betweenVar > 0 ? Math.sqrt((costRatio * v.withinVar) / v.betweenVar) : Infinity;
}

/** A cycle's level is read only from at least this many cases sampled in it (fewer: left at 1). */
export const MIN_CASES_PER_CYCLE = 5;

/**
 * How slow the device ran in each cycle, read from every case sampled in it: on a shared
 * machine a neighbour, a lost boost or a busy sibling core slows every case of a stretch of
 * cycles alike (measured here: all 23 cases of six cycles in a row at 1.4–1.5× their usual
 * time, then back). Cycles are the blocks of a blocked design, and this is Tukey's median
 * polish on log times: a case's level is the median over its cycles, a cycle's level the
 * median over its cases of time / that case's level, alternated until they settle. A cycle
 * with fewer than MIN_CASES_PER_CYCLE cases keeps level 1 (too few to tell the device from the
 * code). The levels are relative to the device's typical state (the median cycle), not its best,
 * so dividing them out moves no case towards a best case; and a paired ratio is unchanged, since
 * both of its samples share the cycle's level.
 */
export function cycleLevels(cases: readonly { samples: readonly number[]; cycles?: readonly number[] }[], rounds = 3): Map<number, number> {
  const levels = new Map<number, number>();
  const usable = cases.filter((c) => c.cycles && c.cycles.length === c.samples.length && c.samples.length > 0);
  const count = new Map<number, number>();
  for (const c of usable) for (const cy of new Set(c.cycles)) count.set(cy, (count.get(cy) ?? 0) + 1);
  const blocks = new Set([...count].filter(([, n]) => n >= MIN_CASES_PER_CYCLE).map(([cy]) => cy));
  if (blocks.size === 0) return levels;
  const logs = usable.map((c) => c.samples.map((x) => Math.log(x)));
  const rowOf = (cy: number) => levels.get(cy) ?? 0;
  for (let r = 0; r < rounds; r++) {
    // Each case's level with the cycles' levels taken out, then each cycle's from what is left.
    const caseLevel = usable.map((c, i) => median(logs[i]!.map((x, j) => x - rowOf(c.cycles![j]!))));
    const residuals = new Map<number, number[]>();
    usable.forEach((c, i) =>
      c.cycles!.forEach((cy, j) => {
        if (!blocks.has(cy)) return;
        (residuals.get(cy) ?? residuals.set(cy, []).get(cy)!).push(logs[i]![j]! - caseLevel[i]!);
      }),
    );
    for (const [cy, xs] of residuals) levels.set(cy, median(xs));
    // Centred on the typical cycle: a level of 0 (×1) is how the device usually ran.
    const centre = median([...levels.values()]);
    for (const [cy, x] of levels) levels.set(cy, x - centre);
  }
  return new Map([...levels].map(([cy, x]) => [cy, Math.exp(x)]));
}

/** A case's samples with each cycle's level (cycleLevels) divided out: what it took in the device's usual state. */
export function levelled(c: { samples: readonly number[]; cycles?: readonly number[] }, levels: ReadonlyMap<number, number>): number[] {
  if (!c.cycles || c.cycles.length !== c.samples.length || levels.size === 0) return [...c.samples];
  return c.samples.map((x, j) => x / (levels.get(c.cycles![j]!) ?? 1));
}

type Sampled = { samples: readonly number[]; cycles?: readonly number[] };
const steadyMemo = new WeakMap<readonly Sampled[], Map<Sampled, Summary>>();

/**
 * Each case's statistics as a result records them (run/document.ts toCaseResult), recomputed from the
 * raw samples of all the given cases — one document's: its samples with each cycle's level
 * (cycleLevels) divided out. Kept per array, so a report that asks for every case reads the
 * levels once.
 */
export function steadySummaries<T extends Sampled>(cases: readonly T[]): Map<T, Summary> {
  let out = steadyMemo.get(cases) as Map<T, Summary> | undefined;
  if (!out) {
    const levels = cycleLevels(cases);
    out = new Map(cases.map((c) => [c, summarize(levelled(c, levels))]));
    steadyMemo.set(cases, out as Map<Sampled, Summary>);
  }
  return out;
}
