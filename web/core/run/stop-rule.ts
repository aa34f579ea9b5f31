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
 * when the budget is spent is flagged: that, and only that, is what ⚠ means. A run that spends its
 * budget with more than a tenth of its cases unresolved, or a claim undecided, may go on for its
 * overtime, only while that is so (wantsOvertime).
 * @module
 */
import type { CaseResult, ResultDocument, RunParams } from '../schema.ts';
import { caseKey } from '../schema.ts';
import { verdict } from '../report/verdict.ts';
import { compareInRun } from '../report/compare.ts';
import { DEFAULT_MARGIN } from '../decision.ts';
import { optimalPerRound, roundVariances } from '../stats.ts';

export { otherSide } from '../worker/groups.ts';

/** The A/A twin's key (runner.ts aaTwin): its original's, marked. */
export const aaTwinKey = (key: string): string => `${key}#aa`;
export const isAaTwin = (key: string): boolean => key.endsWith('#aa');

/** An extra round of the stop rule samples each claim's cases for about this long (runner.ts)… */
export const EXTRA_ROUND_SAMPLE_MS = 72;
/** … a lone unresolved case or the A/A pair as many times as would resolve it (samplesWanted), for at most this long… */
export const EXTRA_ROUND_MAX_MS = 300;
/** … and any case at most this many times a round's samples (what the collector takes: mostSamples). */
export const EXTRA_ROUND_SAMPLES = 3;

/** How many extra rounds a run can take at most: `maxReruns`, twice that with an overtime (runner.ts). */
export function mostExtraRounds(p: Pick<RunParams, 'maxReruns' | 'overtimeMs'>): number {
  return p.maxReruns * ((p.overtimeMs ?? 0) > 0 ? 2 : 1);
}

/** The most samples one case of a run can hold: its rounds', and every extra round's at most. */
export function mostSamples(p: Pick<RunParams, 'rounds' | 'samplesPerRound' | 'maxReruns' | 'overtimeMs'>): number {
  return p.samplesPerRound * (p.rounds + EXTRA_ROUND_SAMPLES * mostExtraRounds(p));
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

/** A run whose budget is spent with more than this share of its cases unresolved may go on into its overtime (RunParams.overtimeMs). */
export const OVERTIME_SHARE = 0.1;

/** A run that spends its budget with only a claim undecided goes on for this share of its overtime. */
export const CLAIM_OVERTIME_SHARE = 0.25;

/**
 * Whether too much of a run is unresolved to end it at its budget, and how much of its overtime
 * that is worth: all of it when more than OVERTIME_SHARE of its cases (the A/A twin is not one)
 * are unresolved; CLAIM_OVERTIME_SHARE of it when a claim of the verdict is undecided, what the
 * visitor reads first. A claim at the edge of its margin can stay undecided however long it is
 * measured (WebKit's 1 MiB claim did through all of a 40 s run, six runs of six), where a few
 * seconds settled most of Chromium's. 0: the run ends at its budget; so does an A/B run, whose
 * budget a CI job sets and whose question is its pairs.
 */
export function wantsOvertime(doc: ResultDocument): number {
  if (doc.params.ab !== undefined || doc.cases.length === 0) return 0;
  if (doc.cases.filter((c) => !caseResolved(c)).length > OVERTIME_SHARE * doc.cases.length) return 1;
  return verdict(doc).claims.some((c) => c.decision === 'unknown' && c.cases.length > 0) ? CLAIM_OVERTIME_SHARE : 0;
}

/**
 * The A/A pair (runner.ts aaTwin) until it is decided: its original, and the twin beside it.
 * Outside an A/B only (nextExtraRound): an A/B's extra rounds are its undecided pairs'.
 */
export function aaPending(doc: Pick<ResultDocument, 'cases' | 'aaCheck'>): string[] {
  if (doc.aaCheck?.decision !== 'unknown') return [];
  const aa = doc.aaCheck;
  const original = doc.cases.find(
    (c) =>
      c.implementation === aa.implementation &&
      c.variant === aa.variant &&
      c.algorithm === aa.algorithm &&
      c.operation === aa.operation &&
      c.sizeBytes === aa.sizeBytes,
  );
  return original ? [caseKey(original), aaTwinKey(caseKey(original))] : [];
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

/** What the runner knows when it plans an extra round (runner.ts): costs, and what each case holds. */
export interface ExtraRoundBudget {
  /** What is left of the run's budget for this round, ms. */
  leftMs: number;
  /** A case's share of a fresh worker, its warm-up and its calibration, ms. */
  overheadMs: number;
  /** How long one sample of a case lasts, ms. */
  sampleMs(key: string): number;
  /** How many samples a case holds so far. */
  have(key: string): number;
  samplesPerRound: number;
}

/**
 * The stop rule's next extra round, or null when it has nothing (more) to do: which cases, in
 * which order of priority, with how many samples each, within what is left of the budget.
 *  - Order: the A/A pair first (cheap, and it says whether any small difference can be trusted;
 *    a twin last in line was left out when the budget ran short while its original took the
 *    samples), then claims' cases (they decide what the visitor reads), then lone unresolved
 *    cases, those one round can resolve first and the cheapest of them first (a budget that
 *    cannot take them all resolves as many as it can). An A/B run asks one thing of each pair,
 *    whether the head is SAME, FASTER or SLOWER: only its UNKNOWN pairs are measured again
 *    (its A/A check keeps its first round's samples).
 *  - Samples: a claim's cases what fits in EXTRA_ROUND_SAMPLE_MS (a claim counts workers, so
 *    another round is what helps it); an A/B pair, both sides alike, two-stage sampling's optimal
 *    allocation once three rounds show how its rounds and its cycles vary (stats.ts
 *    optimalPerRound; a round costs the overhead of its two cases): under load the rounds of a
 *    pair varied by no more than their 12 cycles' noise predicts, so each fresh worker, which
 *    costs about a hundred samples' time, paid for only 12 of them; a lone unresolved case and
 *    the A/A pair as many as would resolve them (samplesWanted), within EXTRA_ROUND_MAX_MS.
 *    Never fewer than a round's, never more than EXTRA_ROUND_SAMPLES times that (mostSamples).
 *  - Budget: cases are taken in that order while their cost — overhead plus samples — fits; a
 *    round of fewer than two cases (when more were wanted) is not worth a fresh worker.
 * `keys` are the run's measured cases (the A/A twin included) in plan order.
 */
export function nextExtraRound(
  doc: ResultDocument,
  keys: readonly string[],
  b: ExtraRoundBudget,
): { keys: string[]; samplesFor: Record<string, number> } | null {
  const ab = doc.params.ab !== undefined;
  // An A/B's A/A check is printed beside its pairs and decides none of them: its first round's
  // twins are all it gets. Measured again in every extra round (the A/A pair first, and the
  // other side's twin beside it), the twins took 30–40 % of the 64 B group's samples and 5–16 %
  // of the extra rounds' time in two loaded Firefox sessions whose pairs were undecided at 60 s.
  const aa = new Set(ab ? [] : aaPending(doc));
  // The verdict (or the A/B comparison) once per round: it is the costliest read of the document.
  const undecided = ab
    ? compareInRun(doc)
        .cases.filter((c) => c.verdict === 'unknown')
        .map((c) => c.cases!)
    : verdict(doc)
        .claims.filter((c) => c.decision === 'unknown')
        .map((c) => c.cases);
  const claims = new Set(undecided.flat());
  const lone = new Set(ab ? [] : doc.cases.filter((c) => !caseResolved(c)).map(caseKey));
  const asked = ab ? new Map<string, number>() : samplesWanted(doc);
  const spr = b.samplesPerRound;
  const pairs = new Map<string, number>();
  if (ab) {
    const byKey = new Map(doc.cases.map((c) => [caseKey(c), c]));
    for (const [kb, kh] of undecided as [string, string][]) {
      const v = roundVariances(byKey.get(kb)!, byKey.get(kh)!);
      if (!v) continue;
      const n = Math.ceil(optimalPerRound(v, (2 * b.overheadMs) / (b.sampleMs(kb) + b.sampleMs(kh))));
      pairs.set(kb, n).set(kh, n);
    }
  }
  const samplesOf = (k: string) => {
    if (pairs.has(k)) return Math.min(EXTRA_ROUND_SAMPLES * spr, Math.max(spr, pairs.get(k)!));
    const byTime = asked.has(k)
      ? Math.min(asked.get(k)! - b.have(k), Math.floor(EXTRA_ROUND_MAX_MS / b.sampleMs(k)))
      : Math.floor(EXTRA_ROUND_SAMPLE_MS / b.sampleMs(k));
    return Math.min(EXTRA_ROUND_SAMPLES * spr, Math.max(spr, byTime));
  };
  // Lone cases this round can resolve come first, the cheapest first, so that a short budget
  // resolves as many as it can; a case that wants more than one round can give waits its turn.
  const reach = (k: string) => (asked.get(k)! - b.have(k) <= samplesOf(k) ? 0 : 1);
  const loneOnes = keys.filter((k) => lone.has(k) && !claims.has(k) && !aa.has(k));
  const byPromise = loneOnes.map((k) => ({ k, reach: reach(k), cost: samplesOf(k) * b.sampleMs(k) })).sort((x, y) => x.reach - y.reach || x.cost - y.cost);
  const wanted = [...keys.filter((k) => aa.has(k)), ...keys.filter((k) => claims.has(k) && !aa.has(k)), ...byPromise.map((x) => x.k)];
  if (wanted.length === 0) return null;
  let left = b.leftMs;
  const samplesFor: Record<string, number> = {};
  for (const k of wanted) {
    const n = samplesOf(k);
    const cost = b.overheadMs + n * b.sampleMs(k);
    if (cost > left) continue;
    left -= cost;
    samplesFor[k] = n;
  }
  const chosen = wanted.filter((k) => k in samplesFor);
  return chosen.length < Math.min(2, wanted.length) ? null : { keys: chosen, samplesFor };
}
