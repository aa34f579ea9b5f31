/**
 * The collector's data functions. Each takes the SQL store first (Hono examples' habit), and
 * every aggregate is computed in SQL, so a crowd of millions of rows never passes through JS.
 * @module
 */
import type { CohortStats } from '../web/core/crowd.ts';
import type { StoredResult } from '../web/core/permalink.ts';
import type { Sql } from './db.ts';
import { StorageFullError, classifyFault } from './faults.ts';
import type { Reduced } from './submission.ts';

export type InsertOutcome = 'created' | 'duplicate' | 'conflict';

/**
 * Writes submissions with group commit: requests that arrive while a batch is being written
 * wait and go together in the next transaction. Each is acknowledged only after its batch
 * commits, so durability is unchanged; the database does one commit (and, on PostgreSQL, one
 * fsync) for many submissions. A batch that fails is retried one submission at a time, so a
 * bad submission cannot fail the others.
 */
export function createWriter(sql: Sql, o: { maxBatch?: number; onStored?: (rs: Reduced[]) => void } = {}) {
  const maxBatch = o.maxBatch ?? 200;
  let queue: { r: Reduced; resolve: (o: InsertOutcome) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        await guardStorage(sql);
        const outcomes = await insertBatch(sql, batch.map((b) => b.r));
        batch.forEach((b, i) => b.resolve(outcomes[i]!));
        o.onStored?.(batch.filter((_, i) => outcomes[i] === 'created').map((b) => b.r));
      } catch (e) {
        // A fault of the store (database away, disk full) fails the whole batch at once; any
        // other error may be one submission's, so each is tried alone.
        if (classifyFault(e)?.status !== 422 && classifyFault(e) !== null) {
          for (const b of batch) b.reject(e);
          continue;
        }
        for (const b of batch) {
          await insertBatch(sql, [b.r]).then((x) => {
            b.resolve(x[0]!);
            if (x[0] === 'created') o.onStored?.([b.r]);
          }, b.reject);
        }
      }
    }
    running = false;
  };
  return {
    submit(r: Reduced): Promise<InsertOutcome> {
      return new Promise((resolve, reject) => {
        queue.push({ r, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}

/**
 * Below this much free space PGlite's files are not written to: PGlite answers a full disk
 * with one error and then spins in its WASM runtime, deaf to signals, even after space
 * returns. Refusing writes early (507) keeps it from ever getting there; reads go on.
 */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;

async function guardStorage(sql: Sql): Promise<void> {
  const free = await sql.freeBytes?.();
  if (free != null && free < MIN_FREE_BYTES) throw new StorageFullError(`only ${free} bytes free for the database`);
}

/** Stores a single submission (tests, tools); the HTTP path goes through createWriter. */
export async function insertSubmission(sql: Sql, r: Reduced): Promise<InsertOutcome> {
  return (await insertBatch(sql, [r]))[0]!;
}

/**
 * One transaction for a batch. The run id makes a retry idempotent: the same id with the same
 * payload is a duplicate (nothing written), with another payload a conflict.
 */
async function insertBatch(sql: Sql, rs: Reduced[]): Promise<InsertOutcome[]> {
  return sql.transaction(async (tx) => {
    const rows = rs.map(({ cases: _cases, ...s }) => s);
    const inserted = new Set(
      (
        await tx.query<{ id: string }>(
          `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, device_model, browser, browser_major,
             os, os_major, arch, cores, memory_bucket, runtime, isolated, timer_us, preset, scenario, source, engine, execution)
           SELECT s.id, s."payloadSha256", s."schemaVersion", s."engineVersion", s."deviceClass", s."deviceModel", s.browser, s."browserMajor",
                  s.os, s."osMajor", s.arch, s.cores, s."memoryBucket", s.runtime, s.isolated, s."timerUs", s.preset, s.scenario, s.source, s.engine, s.execution
           FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, "payloadSha256" text, "schemaVersion" text, "engineVersion" text, "deviceClass" text,
                "deviceModel" text, browser text, "browserMajor" int, os text, "osMajor" int, arch text, cores int, "memoryBucket" text,
                runtime text, isolated boolean, "timerUs" real, preset text, scenario text, source text, engine text, execution text)
           ON CONFLICT (id) DO NOTHING RETURNING id::text`,
          [JSON.stringify(rows)],
        )
      ).map((x) => x.id),
    );
    const outcomes: InsertOutcome[] = [];
    const created: Reduced[] = [];
    const others = rs.filter((r) => !inserted.has(r.id)).map((r) => r.id);
    const stored = new Map(
      others.length ? (await tx.query<{ id: string; payload_sha256: string }>('SELECT id::text, payload_sha256 FROM submissions WHERE id = ANY($1::uuid[])', [others])).map((x) => [x.id, x.payload_sha256]) : [],
    );
    for (const r of rs) {
      if (inserted.has(r.id)) {
        inserted.delete(r.id); // a second copy of the id within this batch is a retry, below
        created.push(r);
        outcomes.push('created');
        stored.set(r.id, r.payloadSha256);
      } else outcomes.push(stored.get(r.id) === r.payloadSha256 ? 'duplicate' : 'conflict');
    }
    if (created.length === 0) return outcomes;
    // All cases of the batch in one statement: a JSON array unpacked by the database.
    await tx.query(
      `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
       SELECT c.sid, c.algorithm, c.implementation, c.variant, c.operation, c."sizeBytes", c."aadBytes",
              ARRAY(SELECT jsonb_array_elements_text(c.samples)::double precision), c.n, c."medianNs", c."bytesPerSecond", c."robustCv"
       FROM jsonb_to_recordset($1::jsonb) AS c(sid uuid, algorithm text, implementation text, variant text, operation text, "sizeBytes" int, "aadBytes" int,
            samples jsonb, n int, "medianNs" double precision, "bytesPerSecond" double precision, "robustCv" double precision)`,
      [JSON.stringify(created.flatMap((r) => r.cases.map((c) => ({ sid: r.id, ...c }))))],
    );
    await flagOutliers(tx, created.map((r) => r.id));
    await tx.query('UPDATE collector_totals SET submissions = submissions + $1, cases = cases + $2', [created.length, created.reduce((n, r) => n + r.cases.length, 0)]);
    return outcomes;
  });
}

/**
 * Tukey's far fences (3 × IQR) on ln(throughput): throughput is multiplicative, so fences go on
 * a log scale. The quartiles are over per-source medians (one voice per network and day, see
 * source.ts), so whoever sends the most rows does not set the bounds. A cohort — algorithm,
 * implementation, operation, size, device class — is judged by its own bounds once it has 8
 * sources, and before that by the bounds of the same case over every class (device_class
 * '*'), which are wide but catch the absurd. Outliers are flagged, never deleted.
 */
const MIN_SOURCES = 8;
const OUTLIER = `(ln(c.bytes_per_second) < b.q1 - 3 * (b.q3 - b.q1) OR ln(c.bytes_per_second) > b.q3 + 3 * (b.q3 - b.q1))`;
const SAME_CASE = (t: string, c = 'c') => `${t}.algorithm = ${c}.algorithm AND ${t}.implementation = ${c}.implementation AND ${t}.operation = ${c}.operation AND ${t}.size_bytes = ${c}.size_bytes`;
/** Joins `b` to the bounds that judge case `c` of submission `s`: its class's, else every class's. */
const JUDGED_BY = `${SAME_CASE('b')} AND b.n >= ${MIN_SOURCES} AND b.device_class = CASE
    WHEN EXISTS (SELECT 1 FROM cohort_bounds own WHERE ${SAME_CASE('own')} AND own.device_class = s.device_class AND own.n >= ${MIN_SOURCES})
    THEN s.device_class ELSE '*' END`;

async function flagOutliers(tx: Pick<Sql, 'query'>, ids: string[]): Promise<void> {
  await tx.query(
    `UPDATE cases c SET outlier = ${OUTLIER} FROM submissions s, cohort_bounds b
     WHERE c.submission_id = ANY($1::uuid[]) AND s.id = c.submission_id AND c.bytes_per_second > 0 AND s.execution = 'standard' AND ${JUDGED_BY}`,
    [ids],
  );
}

/** A cohort whose bounds may have moved: new cases arrived, or the operator quarantined some. */
export interface CohortKey {
  algorithm: string;
  implementation: string;
  operation: string;
  sizeBytes: number;
}

export function cohortKeysOf(rs: Reduced[]): CohortKey[] {
  const keys = new Map<string, CohortKey>();
  for (const r of rs) for (const c of r.cases) keys.set(`${c.algorithm}/${c.implementation}/${c.operation}/${c.sizeBytes}`, { algorithm: c.algorithm, implementation: c.implementation, operation: c.operation, sizeBytes: c.sizeBytes });
  return [...keys.values()];
}

/**
 * Recomputes one case's bounds (every device class and '*') from per-source medians and
 * re-flags that case's rows whose verdict changed. One short transaction per REFRESH_BATCH
 * cases, so writes and reads interleave with a refresh instead of waiting behind a full-table
 * percentile.
 *
 * Bounded influence: the fences are drawn from *established* voices only, those of earlier
 * days that were not flagged, as soon as a cohort has MIN_SOURCES of them. One day's new
 * voices are judged by fences they took no part in drawing, so a burst of fakes from many
 * networks (30 /16s) is flagged instead of widening the fences that judge it; and a voice that
 * was flagged never becomes established, so one network's fakes day after day (a new voice
 * every day, since sources are daily) never do either. A cohort that has too few established
 * voices (a new one) is judged by all of its voices, as before. The price: in a narrow cohort
 * a true, sudden shift (a 10× faster engine) stays flagged until an operator looks.
 */
export async function refreshCohort(sql: Sql, k: CohortKey): Promise<void> {
  await refreshCohortBatch(sql, [k]);
}

/** Cohorts refreshed per transaction: short transactions, and one round trip for many cohorts. */
export const REFRESH_BATCH = 100;

/**
 * refreshCohort for many cases at once, in three statements over all of them: a body may name
 * 1,500 new cases, and three round trips each would cost the collector more than the body.
 */
export async function refreshCohortBatch(sql: Sql, keys: CohortKey[]): Promise<void> {
  if (keys.length === 0) return;
  const p = [JSON.stringify(keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, size_bytes: k.sizeBytes })))];
  const KEYS = `k AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(algorithm text, implementation text, operation text, size_bytes integer))`;
  const COHORT = 'algorithm, implementation, operation, size_bytes';
  await sql.transaction(async (tx) => {
    await tx.query(
      `WITH ${KEYS},
       voices AS (
         SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, s.received_on < current_date AS established, count(*) AS runs,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)) AS v
         FROM k JOIN cases c ON ${SAME_CASE('k')} JOIN submissions s ON s.id = c.submission_id
         WHERE c.bytes_per_second > 0 AND NOT s.quarantined AND NOT c.outlier AND s.execution = 'standard'
         GROUP BY c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, s.received_on, coalesce(s.source, s.id::text)),
       counted AS (
         SELECT *, count(*) FILTER (WHERE established) OVER (PARTITION BY ${COHORT}, device_class) AS est_class,
                   count(*) FILTER (WHERE established) OVER (PARTITION BY ${COHORT}) AS est_all
         FROM voices),
       drawn AS (
         SELECT ${COHORT}, device_class, count(*) AS n, sum(runs) AS runs,
                percentile_cont(0.25) WITHIN GROUP (ORDER BY v) AS q1, percentile_cont(0.75) WITHIN GROUP (ORDER BY v) AS q3
         FROM counted WHERE established OR est_class < ${MIN_SOURCES} GROUP BY ${COHORT}, device_class
         UNION ALL
         SELECT ${COHORT}, '*', count(*), sum(runs), percentile_cont(0.25) WITHIN GROUP (ORDER BY v), percentile_cont(0.75) WITHIN GROUP (ORDER BY v)
         FROM counted WHERE established OR est_all < ${MIN_SOURCES} GROUP BY ${COHORT})
       INSERT INTO cohort_bounds (${COHORT}, device_class, n, runs, q1, q3, refreshed_at)
       SELECT ${COHORT}, device_class, n, runs, q1, q3, now() FROM drawn
       ON CONFLICT (${COHORT}, device_class)
       DO UPDATE SET n = excluded.n, runs = excluded.runs, q1 = excluded.q1, q3 = excluded.q3, refreshed_at = excluded.refreshed_at`,
      p,
    );
    // Judge again: clear the cases' flags, then set those their new bounds call outliers.
    await tx.query(`WITH ${KEYS} UPDATE cases c SET outlier = false FROM k WHERE ${SAME_CASE('k')} AND c.outlier`, p);
    await tx.query(
      `WITH ${KEYS}
       UPDATE cases c SET outlier = true FROM k, submissions s, cohort_bounds b
       WHERE ${SAME_CASE('k')} AND s.id = c.submission_id
         AND c.bytes_per_second > 0 AND s.execution = 'standard' AND ${JUDGED_BY} AND ${OUTLIER}`,
      p,
    );
    await refreshViews(tx, keys);
  });
}

/** A cohort of at least this many rows is read from its view (cohort_views); a smaller one live. */
export const VIEW_ROWS = 2000;
/** A cohort's view is made again at most this often: each costs a few passes over the cohort. */
export const VIEW_MAX_AGE_S = 300;

/**
 * The views of the large cohorts among `keys` (the rows counted by their '*' bounds), made by
 * the same functions a live read runs, at most every VIEW_MAX_AGE_S; a cohort that is not large
 * (any more) loses its view.
 */
async function refreshViews(tx: Pick<Sql, 'query'>, keys: CohortKey[]): Promise<void> {
  const p = [JSON.stringify(keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, size_bytes: k.sizeBytes })))];
  const KEYS = `k AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(algorithm text, implementation text, operation text, size_bytes integer))`;
  const large = await tx.query<{ algorithm: string; implementation: string; operation: string; size_bytes: number; rows: number }>(
    `WITH ${KEYS}
     SELECT b.algorithm, b.implementation, b.operation, b.size_bytes, b.runs::int AS rows
     FROM k JOIN cohort_bounds b ON ${SAME_CASE('b', 'k')} AND b.device_class = '*'
     LEFT JOIN cohort_views v ON ${SAME_CASE('v', 'k')}
     WHERE b.runs >= ${VIEW_ROWS} AND (v.refreshed_at IS NULL OR v.refreshed_at < now() - interval '${VIEW_MAX_AGE_S} seconds')`,
    p,
  );
  await tx.query(
    `WITH ${KEYS}
     DELETE FROM cohort_views v USING k
     WHERE ${SAME_CASE('v', 'k')}
       AND NOT EXISTS (SELECT 1 FROM cohort_bounds b WHERE ${SAME_CASE('b', 'k')} AND b.device_class = '*' AND b.runs >= ${VIEW_ROWS})`,
    p,
  );
  for (const r of large) {
    const f: CrowdFilter = { algorithm: r.algorithm, implementation: r.implementation, operation: r.operation, sizeBytes: Number(r.size_bytes) };
    const stats = await crowdStats(tx, f);
    const distributions: Record<string, Awaited<ReturnType<typeof voiceDistribution>>> = { '*': await voiceDistribution(tx, f) };
    for (const c of stats) distributions[c.group] = await voiceDistribution(tx, { ...f, deviceClass: c.group });
    await tx.query(
      `INSERT INTO cohort_views (algorithm, implementation, operation, size_bytes, rows, stats, distributions, refreshed_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, now())
       ON CONFLICT (algorithm, implementation, operation, size_bytes)
       DO UPDATE SET rows = excluded.rows, stats = excluded.stats, distributions = excluded.distributions, refreshed_at = excluded.refreshed_at`,
      [f.algorithm, f.implementation, f.operation, f.sizeBytes, r.rows, JSON.stringify(stats), JSON.stringify(distributions)],
    );
  }
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

/** Every case's bounds, REFRESH_BATCH cases at a time (the operator's tools; tests). */
export async function refreshCohorts(sql: Sql): Promise<void> {
  const keys = await sql.query<{ algorithm: string; implementation: string; operation: string; size_bytes: number }>(
    'SELECT DISTINCT algorithm, implementation, operation, size_bytes FROM cases',
  );
  await refreshInBatches(sql, keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, sizeBytes: Number(k.size_bytes) })));
}

async function refreshInBatches(sql: Sql, keys: CohortKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += REFRESH_BATCH) await refreshCohortBatch(sql, keys.slice(i, i + REFRESH_BATCH));
}

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
  WHERE ${clause} AND NOT c.outlier
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
  const outliers = await sql.query<{ grp: string; n: number }>(
    `SELECT ${GROUP_BY[groupBy]} AS grp, count(*)::int AS n FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${clause} AND c.outlier GROUP BY 1`,
    params,
  );
  return rows.map((r) => ({
    group: String(r.grp),
    ...(groupBy === 'deviceClass' ? { deviceClass: String(r.grp) } : {}),
    n: Number(r.n),
    runs: Number(r.runs),
    outliers: outliers.find((o) => o.grp === r.grp)?.n ?? 0,
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

export interface ExportRow {
  submission: string;
  received_on: string;
  device_class: string;
  device_model: string | null;
  browser: string;
  browser_major: number | null;
  engine: string;
  os: string;
  os_major: number | null;
  arch: string;
  cores: number;
  memory_bucket: string | null;
  runtime: string;
  execution: string;
  isolated: boolean;
  timer_us: number;
  preset: string;
  scenario: string | null;
  algorithm: string;
  implementation: string;
  variant: string;
  operation: string;
  size_bytes: number;
  aad_bytes: number;
  n: number;
  median_ns: number;
  bytes_per_second: number;
  robust_cv: number;
  outlier: boolean;
  quarantined: boolean;
  samples: number[];
}

/**
 * One page of every case, for the streamed export, in `cases.seq` order: each page is one
 * range of a unique index, so the cost per page stays flat however large the crowd grows.
 */
export async function exportPage(sql: Sql, afterSeq: number, limit: number): Promise<(ExportRow & { seq: string })[]> {
  return sql.query<ExportRow & { seq: string }>(
    `SELECT c.submission_id::text AS submission, to_char(s.received_on, 'YYYY-MM-DD') AS received_on, s.device_class, s.device_model, s.browser, s.browser_major, s.engine,
            s.os, s.os_major, s.arch, s.cores, s.memory_bucket, s.runtime, s.execution, s.isolated, s.timer_us, s.preset, s.scenario,
            c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, c.n, c.median_ns, c.bytes_per_second, c.robust_cv, c.outlier,
            s.quarantined, c.samples, c.seq::text AS seq
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE c.seq > $1
     ORDER BY c.seq
     LIMIT $2`,
    [afterSeq, limit],
  );
}

/** One submission as stored — what its permalink serves (shape in web/core/permalink.ts) — or null. */
export type { StoredResult };

export async function storedResult(sql: Sql, id: string): Promise<StoredResult | null> {
  const [s] = await sql.query<Omit<StoredResult, 'cases'>>(
    `SELECT id::text AS id, to_char(received_on, 'YYYY-MM-DD') AS "receivedOn", device_class AS "deviceClass", device_model AS "deviceModel", browser,
            browser_major AS "browserMajor", engine, os, os_major AS "osMajor", arch, cores, memory_bucket AS "memoryBucket", runtime, execution, isolated,
            timer_us AS "timerUs", preset, scenario, quarantined
     FROM submissions WHERE id = $1`,
    [id],
  );
  if (!s) return null;
  const cases = await sql.query<StoredResult['cases'][number]>(
    `SELECT algorithm, implementation, variant, operation, size_bytes AS "sizeBytes", aad_bytes AS "aadBytes", samples, outlier
     FROM cases WHERE submission_id = $1 ORDER BY algorithm, implementation, variant, operation, size_bytes, aad_bytes`,
    [id],
  );
  return { ...s, cases: cases.map((c) => ({ ...c, samples: c.samples.map(Number) })) };
}

/** Totals kept by the writers (collector_totals): one row read, whatever the crowd's size. */
export async function counts(sql: Sql): Promise<{ submissions: number; cases: number }> {
  const [r] = await sql.query<{ submissions: string; cases: string }>('SELECT submissions, cases FROM collector_totals');
  return { submissions: Number(r?.submissions ?? 0), cases: Number(r?.cases ?? 0) };
}

/** Submissions from one source (a network, for one day) already stored: for the daily cap. */
export async function sourceCount(sql: Sql, source: string): Promise<number> {
  const [r] = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM submissions WHERE source = $1', [source]);
  return Number(r?.n ?? 0);
}

/** What the operator's quarantine picks: run ids, a source hash of the day, or days received. */
export interface QuarantineSelector {
  ids?: string[];
  source?: string;
  from?: string;
  to?: string;
}

/**
 * Takes submissions out of every statistic (or puts them back), without deleting anything:
 * they stay in the exports, marked. Logged in operator_log with the selector and the reason;
 * the affected cohorts' bounds are recomputed.
 */
export async function quarantine(sql: Sql, sel: QuarantineSelector, o: { release?: boolean; reason: string }): Promise<number> {
  const parts: string[] = [];
  const params: unknown[] = [!o.release];
  if (sel.ids?.length) parts.push(`id = ANY($${params.push(sel.ids)}::uuid[])`);
  if (sel.source) parts.push(`source = $${params.push(sel.source)}`);
  if (sel.from) parts.push(`received_on >= $${params.push(sel.from)}::date`);
  if (sel.to) parts.push(`received_on <= $${params.push(sel.to)}::date`);
  if (parts.length === 0) throw new Error('quarantine: give --ids, --source, or --from/--to');
  const affected = await sql.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>(`UPDATE submissions SET quarantined = $1 WHERE ${parts.join(' AND ')} AND quarantined <> $1 RETURNING id::text`, params);
    await tx.query('INSERT INTO operator_log (action, selector, reason, affected) VALUES ($1, $2, $3, $4)', [o.release ? 'release' : 'quarantine', JSON.stringify(sel), o.reason, rows.length]);
    return rows.map((r) => r.id);
  });
  if (affected.length) {
    const keys = await sql.query<{ algorithm: string; implementation: string; operation: string; size_bytes: number }>(
      'SELECT DISTINCT algorithm, implementation, operation, size_bytes FROM cases WHERE submission_id = ANY($1::uuid[])',
      [affected],
    );
    await refreshInBatches(sql, keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, sizeBytes: Number(k.size_bytes) })));
  }
  return affected.length;
}
