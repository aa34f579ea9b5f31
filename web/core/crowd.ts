/**
 * What the collector answers about a cohort (GET /api/v1/stats) — one shape for the collector
 * that computes it and the page that draws it.
 * @module
 */

/**
 * The floor of evidence: a cohort shows a figure only once this many voices (networks of a
 * day), on at least this many days, stand behind it; below it, its n and "too few results
 * yet". One network's runs of one day are one voice, and a day's key makes a network a new
 * voice the next day, so ten voices over two days are at least five networks. Eight voices of
 * one day (a launch-day burst) never show a figure on their own.
 */
export const CROWD_FLOOR = { voices: 10, days: 2 } as const;

/** One cohort's statistics, over the weighted medians of its sources, in bytes per second. */
interface CohortCounts {
  /** The cohort's device class, engine or browser (see GroupBy). */
  group: string;
  /** Present when grouped by device class (the default). */
  deviceClass?: string;
  /** Voices (a network's runs of one day) counted in the cohort: the statistics are over their medians. */
  n: number;
  /** Days those voices arrived on. */
  days: number;
  /** Runs behind those voices. */
  runs: number;
  /** Runs outside the cohort's fences, or no measurement (identical samples): kept in the data, left out of these figures. */
  outliers: number;
  /**
   * Under review: voices from five networks or more (a network's runs of one day each) arrived
   * outside the cohort's fences, still lie outside them, and no operator has accepted or
   * quarantined them (collector/review.ts). Its figure may be being steered, or the devices may
   * have changed (a new engine): the page says so until someone looks. Absent in answers drawn
   * before the collector said it.
   */
  underReview?: boolean;
}

/**
 * A cohort above the collector's floor of evidence (enough voices on enough days, CROWD_FLOOR) with its figures, or one below it with none: the page says "too few results yet (n)".
 */
export type CohortStats =
  (CohortCounts & { tooFew: false; p05: number; q1: number; median: number; q3: number; p95: number }) | (CohortCounts & { tooFew: true });
