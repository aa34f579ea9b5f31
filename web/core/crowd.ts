/**
 * What the collector answers about a cohort (GET /api/v1/stats) — one shape for the collector
 * that computes it and the page that draws it.
 * @module
 */

/** One cohort's statistics, over the medians of its sources, in bytes per second. */
export interface CohortStats {
  /** The cohort's device class, engine or browser (see GroupBy). */
  group: string;
  /** Present when grouped by device class (the default). */
  deviceClass?: string;
  /** Sources (networks of a day) in the cohort: the statistics are over their medians. */
  n: number;
  /** Runs behind those sources. */
  runs: number;
  /** Runs outside the cohort's fences: kept in the data, left out of these figures. */
  outliers: number;
  /** Runs of a burst of new sources held for an operator's review (collector/cohorts.ts holdBursts): left out until released. */
  held: number;
  p05: number;
  q1: number;
  median: number;
  q3: number;
  p95: number;
}
