/**
 * The repeatability standard for a figure held against a reference (method comparison with
 * repeatability, as Bland–Altman and ISO 5725 use it): a figure cannot be shown closer to a
 * reference than the reference is to itself. Over N runs, each giving our figure, the reference,
 * and the reference measured a second time right after (its own A/A):
 *   - the reference's repeatability: the spread (SD) of log(reference again / reference);
 *   - ours against it: the bias, the mean of log(ours / reference), and its spread (SD).
 * Within repeatability means both of:
 *   - our spread is not wider than the reference's, beyond what N runs can tell: the variance
 *     ratio under the F distribution's 95 % point with (N − 1, N − 1) degrees of freedom;
 *   - our bias is not resolved by the reference's repeatability: |bias| at most
 *     t(97.5 %, N − 1) · SD(log ref/ref) / √N, the half-width of a 95 % interval of a mean of N
 *     such differences.
 * Both are on log ratios (a bias of −0.05 is 0.951×); the words give the bias and its band as
 * ratios, the spreads as log SDs in per cent. The quantiles come from jStat.
 * The standard takes the reference's A/A to centre on 1: its second timing no faster or slower
 * than its first but for noise. Where the A/A's own mean is resolved by its spread (the same t
 * bound), the reference has an order of its own (bench-verdict.ts plainAfter: the first plain loop
 * of a size in fresh Chromium read low), and the words say so beside the
 * finding: a bias against such a reference is partly the reference's.
 * @module
 */
import jstat from 'jstat';
import { mean, sd } from '../../web/core/stats.ts';

const { jStat } = jstat as unknown as {
  jStat: { centralF: { inv(p: number, d1: number, d2: number): number }; studentt: { inv(p: number, dof: number): number } };
};

export interface Judged {
  n: number;
  /** SD of log(reference again / reference): the reference's repeatability. */
  refSd: number;
  /** Mean and SD of log(ours / reference). */
  bias: number;
  sd: number;
  /** The largest |bias| the reference's repeatability cannot resolve over these runs. */
  biasLimit: number;
  /** The widest spread not shown wider than the reference's over these runs. */
  spreadLimit: number;
  within: boolean;
  /** Mean of log(reference again / reference): the reference's own lean, and whether its spread resolves it. */
  refBias: number;
  refLeans: boolean;
}

/** `ours` and `refAgain`: per run, ours / reference and reference again / reference (ratios, not logs). */
export function againstRepeatability(ours: readonly number[], refAgain: readonly number[]): Judged | null {
  const a = ours.map(Math.log);
  const b = refAgain.map(Math.log);
  const n = Math.min(a.length, b.length);
  if (n < 2) return null;
  const refSd = sd(b);
  const biasLimit = (jStat.studentt.inv(0.975, n - 1) * refSd) / Math.sqrt(n);
  const spreadLimit = refSd * Math.sqrt(jStat.centralF.inv(0.95, n - 1, n - 1));
  const [bias, spread] = [mean(a), sd(a)];
  const refBias = mean(b);
  return {
    n,
    refSd,
    bias,
    sd: spread,
    biasLimit,
    spreadLimit,
    within: Math.abs(bias) <= biasLimit && spread <= spreadLimit,
    refBias,
    refLeans: Math.abs(refBias) > biasLimit,
  };
}

/** One cell of bench:modules judged three ways: the run and the engine alone against the loop alone, the run against the loop taking turns. */
export interface JudgedCell {
  run: Judged | null;
  alone: Judged | null;
  turns: Judged | null;
}

/**
 * How many cells each reading has within, and of the cells whose run misses the loop alone, how
 * many meet the loop taking turns: what those lack is what taking turns costs any loop.
 */
export function tallyCells(cells: readonly JudgedCell[]) {
  const within = (pick: (c: JudgedCell) => Judged | null) => cells.filter((c) => pick(c)?.within).length;
  const missed = cells.filter((c) => c.run && !c.run.within);
  return {
    cells: cells.length,
    run: within((c) => c.run),
    alone: within((c) => c.alone),
    turns: within((c) => c.turns),
    notRun: missed.length,
    notRunTurns: missed.filter((c) => c.turns?.within).length,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** One cell in words: the reference's repeatability, our bias and spread against their limits, and the finding. */
export function describe(j: Judged | null): string {
  if (!j) return 'too few runs to judge (2 or more)';
  const why = [Math.abs(j.bias) > j.biasLimit ? 'bias resolved' : '', j.sd > j.spreadLimit ? 'spread wider' : ''].filter(Boolean).join(', ');
  const band = `${Math.exp(-j.biasLimit).toFixed(3)}–${Math.exp(j.biasLimit).toFixed(3)}×`;
  const leans = j.refLeans ? `; the reference's A/A itself leans ${Math.exp(j.refBias).toFixed(3)}× (resolved: the reference has an order)` : '';
  return `ref A/A ±${pct(j.refSd)}; bias ${Math.exp(j.bias).toFixed(3)}× (unresolved within ${band}), spread ${pct(j.sd)} (limit ${pct(j.spreadLimit)}): ${j.within ? 'within repeatability' : `NOT within (${why})`}${leans}`;
}
