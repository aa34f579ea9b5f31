/**
 * What the crowd says: a cohort's statistics over one voice per source, its distribution for
 * placing a figure, and the answers of large cohorts from their views. Every aggregate is
 * computed in SQL, so a crowd of millions of rows never passes through JS.
 * @module
 */
import type { CohortStats } from '../web/core/crowd.ts';
import type { Sql } from './db.ts';

export interface CrowdFilter {
  algorithm: string;
  implementation: string;
  operation: string;
  sizeBytes: number;
  deviceClass?: string;
  browser?: string;
  engine?: string;
  arch?: string;
  scenario?: string;
  /** The execution mode's population (default `standard`): the others never mix into its figures. */
  execution?: string;
}

/** What the crowd's cohorts are drawn per: the device class (default), the engine, or the browser. */
export const GROUP_BY = { deviceClass: 's.device_class', engine: 's.engine', browser: 's.browser' } as const;
export type GroupBy = keyof typeof GROUP_BY;

function where(f: CrowdFilter, first = 1): { clause: string; params: unknown[] } {
  const parts = ['c.algorithm = $1', 'c.implementation = $2', 'c.operation = $3', 'c.size_bytes = $4', 'NOT s.quarantined'];
  const params: unknown[] = [f.algorithm, f.implementation, f.operation, f.sizeBytes];
  const filters = [['s.device_class', f.deviceClass], ['s.browser', f.browser], ['s.engine', f.engine], ['s.arch', f.arch], ['s.scenario', f.scenario], ['s.execution', f.execution ?? 'standard']] as const;
  for (const [col, val] of filters) {
    if (val !== undefined) {
      params.push(val);
      parts.push(`${col} = $${params.length + first - 1}`);
    }
  }
  return { clause: parts.join(' AND '), params };
}

/**
 * One voice per source: each network's runs of a day (source.ts) collapse to their median
 * before any statistic, so thirty runs from one address weigh as much as one. Rows stored
 * before sources existed are each their own voice.
 */
const voices = (clause: string, groupBy: GroupBy = 'deviceClass') => `
  SELECT ${GROUP_BY[groupBy]} AS grp, count(*) AS runs, percentile_cont(0.5) WITHIN GROUP (ORDER BY c.bytes_per_second) AS bps
  FROM cases c JOIN submissions s ON s.id = c.submission_id
  WHERE ${clause} AND NOT c.outlier AND NOT c.held
  GROUP BY ${GROUP_BY[groupBy]}, s.received_on, coalesce(s.source, s.id::text)`;

export type { CohortStats };

/** Throughput (bytes/s) per device class, over per-source medians: median, quartiles and 5th/95th percentiles. */
export async function crowdStats(sql: Pick<Sql, 'query'>, f: CrowdFilter, groupBy: GroupBy = 'deviceClass'): Promise<CohortStats[]> {
  const { clause, params } = where(f);
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT grp, count(*)::int AS n, sum(runs)::int AS runs,
            percentile_cont(0.05) WITHIN GROUP (ORDER BY bps) AS p05,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY bps) AS q1,
            percentile_cont(0.5)  WITHIN GROUP (ORDER BY bps) AS median,
            percentile_cont(0.75) WITHIN GROUP (ORDER BY bps) AS q3,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY bps) AS p95
     FROM (${voices(clause, groupBy)}) v
     GROUP BY grp ORDER BY grp`,
    params,
  );
  const aside = await sql.query<{ grp: string; outliers: number; held: number }>(
    `SELECT ${GROUP_BY[groupBy]} AS grp, count(*) FILTER (WHERE c.outlier)::int AS outliers, count(*) FILTER (WHERE c.held AND NOT c.outlier)::int AS held
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${clause} AND (c.outlier OR c.held) GROUP BY 1`,
    params,
  );
  const asideOf = new Map(aside.map((a) => [a.grp, a]));
  return rows.map((r) => ({
    group: String(r.grp),
    ...(groupBy === 'deviceClass' ? { deviceClass: String(r.grp) } : {}),
    n: Number(r.n),
    runs: Number(r.runs),
    outliers: asideOf.get(r.grp as string)?.outliers ?? 0,
    held: asideOf.get(r.grp as string)?.held ?? 0,
    p05: Number(r.p05),
    q1: Number(r.q1),
    median: Number(r.median),
    q3: Number(r.q3),
    p95: Number(r.p95),
  }));
}


/** Quantiles kept of a large cohort: enough to place a figure within 0.1 percentile points. */
const DISTRIBUTION_POINTS = 1001;

/**
 * A cohort's voices as a sorted distribution, for placing any figure in it without another
 * query: every voice when there are at most DISTRIBUTION_POINTS (exact), otherwise that many
 * evenly spaced quantiles.
 */
export async function voiceDistribution(sql: Pick<Sql, 'query'>, f: CrowdFilter): Promise<{ n: number; exact: boolean; values: number[] }> {
  const { clause, params } = where(f);
  params.push(Array.from({ length: DISTRIBUTION_POINTS }, (_, i) => i / (DISTRIBUTION_POINTS - 1)));
  const [r] = await sql.query<{ n: number; all: number[] | null; q: number[] | null }>(
    `SELECT count(*)::int AS n,
            CASE WHEN count(*) <= ${DISTRIBUTION_POINTS} THEN array_agg(bps ORDER BY bps) END AS all,
            CASE WHEN count(*) > ${DISTRIBUTION_POINTS} THEN percentile_disc($${params.length}::float8[]) WITHIN GROUP (ORDER BY bps) END AS q
     FROM (${voices(clause)}) v`,
    params,
  );
  const n = Number(r?.n ?? 0);
  const values = (r?.all ?? r?.q ?? []).map(Number);
  return { n, exact: n <= DISTRIBUTION_POINTS, values };
}

/** Where `x` falls in a distribution: the share at or below it, ties counted half (exact when the distribution is). */
export function placeIn(d: { n: number; values: number[] }, x: number): number | null {
  if (d.n === 0) return null;
  const below = lowerBound(d.values, x);
  const equal = lowerBound(d.values, x, true) - below;
  return (100 * (below + equal / 2)) / d.values.length;
}

/** The first index whose value is >= x (or > x with `after`), in a sorted array. */
function lowerBound(a: number[], x: number, after = false): number {
  let [lo, hi] = [0, a.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x || (after && a[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A crowd read answered from a large cohort's view, or null when it must be read live: a small
 * cohort, or a filter the view does not hold (browser, engine, arch, scenario, another
 * execution mode; a grouping other than by device class).
 */
export async function viewOf(sql: Pick<Sql, 'query'>, f: CrowdFilter, groupBy: GroupBy = 'deviceClass'): Promise<CohortStats[] | null> {
  const [v] = await readView<CohortStats[]>(sql, f, groupBy, 'stats');
  return v ?? null;
}

/** A large cohort's distribution of voices (all, or one device class) from its view, or null as viewOf. */
export async function viewDistribution(sql: Pick<Sql, 'query'>, f: CrowdFilter): Promise<{ n: number; exact: boolean; values: number[] } | null> {
  const [v] = await readView<{ n: number; exact: boolean; values: number[] } | null>(sql, f, 'deviceClass', 'distributions -> $5::text', [f.deviceClass ?? '*']);
  return v === undefined ? null : (v ?? { n: 0, exact: true, values: [] });
}

async function readView<T>(sql: Pick<Sql, 'query'>, f: CrowdFilter, groupBy: GroupBy, column: string, extra: unknown[] = []): Promise<T[]> {
  if (groupBy !== 'deviceClass' || f.browser || f.engine || f.arch || f.scenario || (f.execution ?? 'standard') !== 'standard') return [];
  const rows = await sql.query<{ v: T | string }>(
    `SELECT ${column} AS v FROM cohort_views WHERE algorithm = $1 AND implementation = $2 AND operation = $3 AND size_bytes = $4`,
    [f.algorithm, f.implementation, f.operation, f.sizeBytes, ...extra],
  );
  return rows.map((r) => (typeof r.v === 'string' ? JSON.parse(r.v) : r.v));
}
