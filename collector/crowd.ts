/**
 * What the crowd says: a cohort's statistics over one voice per source, its distribution for
 * placing a figure, and the answers of large cohorts from their views. Every aggregate is
 * computed in SQL, so a crowd of millions of rows never passes through JS.
 * @module
 */
import { CROWD_FLOOR, type CohortStats } from '../web/core/crowd.ts';
import type { Sql } from './db.ts';
import { OUTSIDE_QUORUM, weightedQuantilesSql } from './weights.ts';
import { primaryVariant } from '../web/core/tables/algorithms.ts';

export interface CrowdFilter {
  algorithm: string;
  implementation: string;
  /** The way the implementation was measured (a WASM build, Web Crypto sequential or pipelined); its primary one when not given. */
  variant?: string;
  operation: string;
  sizeBytes: number;
  /** Associated data's length (default 0): a case with AAD is a cohort of its own. */
  aadBytes?: number;
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

/** The cohort a filter names, its defaults filled in: the implementation's primary variant, no AAD. */
export function cohortOf(f: CrowdFilter): Required<Pick<CrowdFilter, 'algorithm' | 'implementation' | 'variant' | 'operation' | 'sizeBytes' | 'aadBytes'>> {
  return {
    algorithm: f.algorithm,
    implementation: f.implementation,
    variant: f.variant ?? primaryVariant(f.implementation as Parameters<typeof primaryVariant>[0]) ?? '',
    operation: f.operation,
    sizeBytes: f.sizeBytes,
    aadBytes: f.aadBytes ?? 0,
  };
}

function where(f: CrowdFilter, first = 1): { clause: string; params: unknown[] } {
  const k = cohortOf(f);
  const parts = [
    'c.algorithm = $1',
    'c.implementation = $2',
    'c.variant = $3',
    'c.operation = $4',
    'c.size_bytes = $5',
    'c.aad_bytes = $6',
    'NOT s.quarantined',
  ];
  const params: unknown[] = [k.algorithm, k.implementation, k.variant, k.operation, k.sizeBytes, k.aadBytes];
  const filters = [
    ['s.device_class', f.deviceClass],
    ['s.browser', f.browser],
    ['s.engine', f.engine],
    ['s.arch', f.arch],
    ['s.scenario', f.scenario],
    ['s.execution', f.execution ?? 'standard'],
  ] as const;
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
 * before any statistic, so thirty runs from one address weigh as much as one; and each voice
 * weighs what its day may add to its cohort (weights.ts; cohort_day_weights, drawn at the
 * cohort's refresh, 1 until then; the other execution modes' populations are not weighed, each
 * voice 1). Rows stored before sources existed are each their own voice.
 */
const voices = (clause: string, groupBy: GroupBy = 'deviceClass') => `
  SELECT ${GROUP_BY[groupBy]} AS grp, s.received_on AS day, count(*) AS runs,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY c.bytes_per_second) AS x,
         coalesce(CASE WHEN bool_and(c.arrived_outside) THEN max(dw.wo) ELSE max(dw.w) END, 1) AS w
  FROM cases c JOIN submissions s ON s.id = c.submission_id
  LEFT JOIN cohort_day_weights dw ON dw.algorithm = c.algorithm AND dw.implementation = c.implementation AND dw.variant = c.variant AND dw.operation = c.operation
       AND dw.size_bytes = c.size_bytes AND dw.aad_bytes = c.aad_bytes AND dw.device_class = s.device_class AND dw.day = s.received_on AND s.execution = 'standard'
  WHERE ${clause} AND NOT c.outlier AND NOT c.no_spread
  GROUP BY ${GROUP_BY[groupBy]}, s.received_on, coalesce(s.source, s.id::text)`;

export { CROWD_FLOOR, type CohortStats };

/** Networks (a network's runs of one day each) whose undecided voices outside a cohort's fences put it under review. */
export const CONTEST_NETWORKS = OUTSIDE_QUORUM;

/** Voices that arrived outside their cohort's fences, still lie outside them, and no operator has quarantined or accepted. */
export const UNDECIDED_OUTSIDE = `c.arrived_outside AND c.outlier AND NOT c.no_spread AND NOT s.quarantined AND s.execution = 'standard' AND c.bytes_per_second > 0`;

const enough = (n: number, days: number) => n >= CROWD_FLOOR.voices && days >= CROWD_FLOOR.days;
const QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

/**
 * Throughput (bytes/s) per device class, over its weighted voices: median, quartiles and
 * 5th/95th percentiles (weights.ts weightedQuantile), for every cohort above the floor of
 * evidence; a cohort below it says how many voices it has, and no figure.
 */
export async function crowdStats(sql: Pick<Sql, 'query'>, f: CrowdFilter, groupBy: GroupBy = 'deviceClass'): Promise<CohortStats[]> {
  const { clause, params } = where(f);
  const rows = await sql.query<{ grp: string; n: number; days: number; runs: number; x: number[] }>(
    `WITH v AS (${voices(clause, groupBy)}),
     q AS (${weightedQuantilesSql('SELECT grp, x, w FROM v', ['grp'], `ARRAY[${QUANTILES.join(', ')}]::float8[]`)})
     SELECT n.grp, n.n, n.days, n.runs, (SELECT array_agg(q.x ORDER BY q.q) FROM q WHERE q.grp = n.grp) AS x
     FROM (SELECT grp, count(*)::int AS n, count(DISTINCT day)::int AS days, sum(runs)::int AS runs FROM v GROUP BY grp) n
     ORDER BY n.grp`,
    params,
  );
  // What is kept aside, read once: the outliers, and among them the undecided voices that arrived outside (under review).
  const aside = await sql.query<{ grp: string; outliers: number; contested: number }>(
    `SELECT ${GROUP_BY[groupBy]} AS grp, count(*)::int AS outliers,
            count(DISTINCT coalesce(s.source, s.id::text) || '/' || s.received_on::text) FILTER (WHERE ${UNDECIDED_OUTSIDE})::int AS contested
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${clause} AND (c.outlier OR c.no_spread) GROUP BY 1`,
    params,
  );
  const asideOf = new Map(aside.map((a) => [a.grp, a]));
  // A group whose every run was flagged still shows: its count of voices is 0, and its outliers.
  const counted = new Set(rows.map((r) => r.grp));
  for (const a of aside) if (!counted.has(a.grp)) rows.push({ grp: a.grp, n: 0, days: 0, runs: 0, x: [] });
  rows.sort((a, b) => (a.grp < b.grp ? -1 : a.grp > b.grp ? 1 : 0));
  return rows.map((r): CohortStats => {
    const [n, days] = [Number(r.n), Number(r.days)];
    const base = {
      group: String(r.grp),
      ...(groupBy === 'deviceClass' ? { deviceClass: String(r.grp) } : {}),
      n,
      days,
      runs: Number(r.runs),
      outliers: asideOf.get(r.grp)?.outliers ?? 0,
      underReview: (asideOf.get(r.grp)?.contested ?? 0) >= CONTEST_NETWORKS,
    };
    if (!enough(n, days)) return { ...base, tooFew: true };
    const [p05, q1, median, q3, p95] = (r.x ?? []).map(Number) as [number, number, number, number, number];
    return { ...base, tooFew: false, p05, q1, median, q3, p95 };
  });
}

/** Quantiles kept of a large cohort: enough to place a figure within 0.1 percentile points. */
const DISTRIBUTION_POINTS = 1001;

/** A cohort's voices for placing a figure: sorted values with their weights (none: equal), how many voices on how many days. */
export interface Distribution {
  n: number;
  days: number;
  exact: boolean;
  values: number[];
  weights?: number[];
}

/**
 * A cohort's voices as a sorted distribution, for placing any figure in it without another
 * query: every voice and its weight when there are at most DISTRIBUTION_POINTS (exact),
 * otherwise that many evenly spaced weighted quantiles.
 */
export async function voiceDistribution(sql: Pick<Sql, 'query'>, f: CrowdFilter): Promise<Distribution> {
  const { clause, params } = where(f);
  const [r] = await sql.query<{ n: number; days: number; all: number[] | null; ws: number[] | null; q: number[] | null }>(
    `WITH v AS (${voices(clause)})
     SELECT count(*)::int AS n, count(DISTINCT day)::int AS days,
            CASE WHEN count(*) <= ${DISTRIBUTION_POINTS} THEN array_agg(x ORDER BY x) END AS all,
            CASE WHEN count(*) <= ${DISTRIBUTION_POINTS} THEN array_agg(w ORDER BY x) END AS ws,
            CASE WHEN count(*) > ${DISTRIBUTION_POINTS} THEN (SELECT array_agg(q.x ORDER BY q.q) FROM (${weightedQuantilesSql('SELECT x, w FROM v', [], { even: DISTRIBUTION_POINTS })}) q) END AS q
     FROM v`,
    params,
  );
  const n = Number(r?.n ?? 0);
  const exact = n <= DISTRIBUTION_POINTS;
  return { n, days: Number(r?.days ?? 0), exact, values: (r?.all ?? r?.q ?? []).map(Number), ...(exact && r?.ws ? { weights: r.ws.map(Number) } : {}) };
}

/** Whether a distribution is above the floor of evidence (CROWD_FLOOR). */
export const enoughEvidence = (d: Pick<Distribution, 'n' | 'days'>) => enough(d.n, d.days);

/** Where `x` falls in a distribution: the share of its weight below it, ties counted half (exact when the distribution is). */
export function placeIn(d: Pick<Distribution, 'n' | 'values' | 'weights'>, x: number): number | null {
  if (d.n === 0 || d.values.length === 0) return null;
  const below = lowerBound(d.values, x);
  const upTo = lowerBound(d.values, x, true);
  if (!d.weights) return (100 * (below + (upTo - below) / 2)) / d.values.length;
  const sum = (from: number, to: number) => d.weights!.slice(from, to).reduce((a, b) => a + b, 0);
  const total = sum(0, d.weights.length);
  return (100 * (sum(0, below) + sum(below, upTo) / 2)) / total;
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
export async function viewDistribution(sql: Pick<Sql, 'query'>, f: CrowdFilter): Promise<Distribution | null> {
  const [v] = await readView<Distribution | null>(sql, f, 'deviceClass', 'distributions -> $7::text', [f.deviceClass ?? '*']);
  return v === undefined ? null : (v ?? { n: 0, days: 0, exact: true, values: [] });
}

async function readView<T>(sql: Pick<Sql, 'query'>, f: CrowdFilter, groupBy: GroupBy, column: string, extra: unknown[] = []): Promise<T[]> {
  if (groupBy !== 'deviceClass' || f.browser || f.engine || f.arch || f.scenario || (f.execution ?? 'standard') !== 'standard') return [];
  const rows = await sql.query<{ v: T | string }>(
    `SELECT ${column} AS v FROM cohort_views WHERE algorithm = $1 AND implementation = $2 AND variant = $3 AND operation = $4 AND size_bytes = $5 AND aad_bytes = $6`,
    (({ algorithm, implementation, variant, operation, sizeBytes, aadBytes }) => [
      algorithm,
      implementation,
      variant,
      operation,
      sizeBytes,
      aadBytes,
      ...extra,
    ])(cohortOf(f)),
  );
  return rows.map((r) => (typeof r.v === 'string' ? JSON.parse(r.v) : r.v));
}
