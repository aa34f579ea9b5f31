/**
 * The stop rule: after a run's rounds, what is still worth measuring, and when a case counts as
 * resolved. One rule for the site, the package and the CLI (they all run through runner.ts).
 *
 * Two things can be unresolved:
 *  - a case, whose median is not yet pinned down: its 95 % interval (stats.ts medianCI) reaches
 *    further than ±CASE_PRECISION from it;
 *  - a claim of the verdict (verdict.ts Claim) that is neither SAME nor DIFFERENT yet
 *    (decision.ts): both of the cases it compares.
 * The runner re-measures exactly these, interleaved in a fresh worker, while the run's budget
 * lasts, so time is spent on what is undecided and not on what is already clear (tachometer
 * samples the same way, until each interval is clear of its horizons). A case still unresolved
 * when the budget is spent is flagged: that, and only that, is what ⚠ means.
 * @module
 */
import type { CaseResult, ResultDocument, RunParams } from './schema.ts';
import { caseKey } from './schema.ts';
import { verdict } from './verdict.ts';
import { DEFAULT_MARGIN } from './decision.ts';

/** The A/A twin's key (runner.ts aaTwin): its original's, marked. */
export const aaTwinKey = (key: string): string => `${key}#aa`;
export const isAaTwin = (key: string): boolean => key.endsWith('#aa');

/** An extra round of the stop rule samples each claim's cases for about this long (runner.ts)… */
export const EXTRA_ROUND_SAMPLE_MS = 72;
/** … a lone unresolved case or the A/A pair as many times as would resolve it (samplesWanted), for at most this long… */
export const EXTRA_ROUND_MAX_MS = 300;
/** … and any case at most this many times a round's samples (what the collector takes: mostSamples). */
export const EXTRA_ROUND_SAMPLES = 3;

/** The most samples one case of a run can hold: its rounds', and every extra round's at most. */
export function mostSamples(p: Pick<RunParams, 'rounds' | 'samplesPerRound' | 'maxReruns'>): number {
  return p.samplesPerRound * (p.rounds + EXTRA_ROUND_SAMPLES * p.maxReruns);
}

/** A case is resolved when its median's 95 % interval lies within ±5 % of it. */
export const CASE_PRECISION = 0.05;

/** How far the median's 95 % interval reaches from it, as a fraction of it: the flag's statistic. */
export function medianPrecision(c: Pick<CaseResult, 'summary'>): number {
  const { median, ciLow, ciHigh } = c.summary;
  if (!(median > 0)) return Infinity;
  return Math.max(median - ciLow, ciHigh - median) / median;
}

export function caseResolved(c: Pick<CaseResult, 'summary'>): boolean {
  return medianPrecision(c) <= CASE_PRECISION;
}

/** The A/A pair (runner.ts aaTwin) until it is decided: its original, and the twin beside it. */
export function aaPending(doc: Pick<ResultDocument, 'cases' | 'aaCheck'>): string[] {
  if (doc.aaCheck?.decision !== 'unknown') return [];
  const aa = doc.aaCheck;
  const original = doc.cases.find((c) => c.implementation === aa.implementation && c.variant === aa.variant && c.algorithm === aa.algorithm && c.operation === aa.operation && c.sizeBytes === aa.sizeBytes);
  return original ? [caseKey(original), aaTwinKey(caseKey(original))] : [];
}

/** The keys of every case the stop rule would measure again: unresolved cases and both sides of undecided claims. */
export function pendingCases(doc: Pick<ResultDocument, 'cases' | 'aaCheck'>): Set<string> {
  const out = new Set<string>(aaPending(doc));
  for (const c of doc.cases) if (!caseResolved(c)) out.add(caseKey(c));
  for (const claim of verdict(doc).claims) if (claim.decision === 'unknown') for (const k of claim.cases) out.add(k);
  return out;
}

/**
 * Samples in all that would narrow an interval reaching `now` from its estimate (as a fraction,
 * from `n` samples) to `target`: an interval narrows as 1/√n. Infinity when no width will do.
 */
export function samplesToReach(n: number, now: number, target: number): number {
  if (!(now > target)) return n;
  if (!(target > 0) || !Number.isFinite(now)) return Infinity;
  return Math.ceil(n * (now / target) ** 2);
}

/** Aim this far inside the mark, so that an estimate of the width from few samples still gets there. */
const AIM = 0.8;

/**
 * How many samples in all each case the stop rule would measure again wants, where more samples
 * of one worker decide it: a lone case until its median's interval lies within ±CASE_PRECISION,
 * the A/A pair (pooled over cycles, decision.ts with the default margin) until its interval fits
 * inside the band or clears it. Claims count workers as well as samples (stats.ts
 * workerAwareRatio): for them an extra round is what helps, and they are not listed.
 */
export function samplesWanted(doc: Pick<ResultDocument, 'cases' | 'aaCheck'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of doc.cases) if (!caseResolved(c)) out.set(caseKey(c), samplesToReach(c.summary.n, medianPrecision(c), AIM * CASE_PRECISION));
  const aa = doc.aaCheck;
  const [original, twin] = aaPending(doc);
  if (aa && original && twin) {
    const n = doc.cases.find((c) => caseKey(c) === original)!.summary.n;
    const now = Math.max(Math.log(aa.high / aa.ratio), Math.log(aa.ratio / aa.low));
    // SAME needs the interval inside the band, DIFFERENT clear of it: either way, the distance to its edge.
    const edge = Math.abs(Math.log(1 + DEFAULT_MARGIN) - Math.abs(Math.log(aa.ratio)));
    const want = samplesToReach(n, now, AIM * edge);
    out.set(original, Math.max(out.get(original) ?? 0, want));
    out.set(twin, want);
  }
  return out;
}
