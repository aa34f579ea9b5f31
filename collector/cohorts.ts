/**
 * Cohort bounds: the fences each case is judged by, recomputed from established voices in
 * batches, the outlier flags they set, the views of large cohorts, and the background
 * refresher that keeps them current as rows arrive.
 * @module
 */
import type { Sql } from './db.ts';
import { type CrowdFilter, crowdStats, voiceDistribution } from './crowd.ts';
import type { Reduced } from './submission.ts';

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

export async function flagOutliers(tx: Pick<Sql, 'query'>, ids: string[]): Promise<void> {
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

export function cohortKeysOf(rs: readonly Pick<Reduced, 'cases'>[]): CohortKey[] {
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

/** Cohorts refreshed per transaction: one round trip for many cohorts (a widest body names 1,500: at 100 a batch the refresh cost the collector 58 ms of CPU, at 500 29 ms), transactions still well under a second. */
export const REFRESH_BATCH = 500;

/** A batch of cohort keys as one parameter ($1), unpacked by KEYS into a table `k`. */
const keysParam = (keys: CohortKey[]) => [JSON.stringify(keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, size_bytes: k.sizeBytes })))];
const KEYS = `k AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(algorithm text, implementation text, operation text, size_bytes integer))`;

/**
 * refreshCohort for many cases at once, in a few statements over all of them (bounds, flags,
 * bursts, views): a body may name 1,500 new cases, and round trips for each would cost the
 * collector more than the body.
 */
export async function refreshCohortBatch(sql: Sql, named: CohortKey[]): Promise<void> {
  const keys = await dueKeys(sql, named);
  if (keys.length === 0) return;
  const p = keysParam(keys);
  await sql.transaction(async (tx) => {
    await drawAndFlag(tx, p);
    // A burst held now no longer counts: the bounds of a young cohort it took part in are drawn again.
    if (await holdBursts(tx, p)) await drawAndFlag(tx, p);
    await refreshViews(tx, keys);
  });
}

/** Draws the bounds of the cohorts in `p` and judges their cases again by them. */
async function drawAndFlag(tx: Pick<Sql, 'query'>, p: unknown[]): Promise<void> {
  const COHORT = 'algorithm, implementation, operation, size_bytes';
  await tx.query(
    `WITH ${KEYS},
     voices AS (
       SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, s.received_on < current_date AS established, count(*) AS runs,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)) AS v
       FROM k JOIN cases c ON ${SAME_CASE('k')} JOIN submissions s ON s.id = c.submission_id
       WHERE c.bytes_per_second > 0 AND NOT s.quarantined AND NOT c.outlier AND NOT c.held AND s.execution = 'standard'
       GROUP BY c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, s.received_on, coalesce(s.source, s.id::text)),
     counted AS (
       SELECT *, count(*) FILTER (WHERE established) OVER (PARTITION BY ${COHORT}, device_class) AS est_class,
                 count(*) FILTER (WHERE established) OVER (PARTITION BY ${COHORT}) AS est_all
       FROM voices),
     drawn AS (
       SELECT ${COHORT}, device_class, count(*) AS n, count(*) FILTER (WHERE established) AS established, sum(runs) AS runs,
              percentile_cont(0.25) WITHIN GROUP (ORDER BY v) AS q1, percentile_cont(0.75) WITHIN GROUP (ORDER BY v) AS q3
       FROM counted WHERE established OR est_class < ${MIN_SOURCES} GROUP BY ${COHORT}, device_class
       UNION ALL
       SELECT ${COHORT}, '*', count(*), count(*) FILTER (WHERE established), sum(runs), percentile_cont(0.25) WITHIN GROUP (ORDER BY v), percentile_cont(0.75) WITHIN GROUP (ORDER BY v)
       FROM counted WHERE established OR est_all < ${MIN_SOURCES} GROUP BY ${COHORT})
     INSERT INTO cohort_bounds (${COHORT}, device_class, n, established, runs, q1, q3, refreshed_at)
     SELECT ${COHORT}, device_class, n, established, runs, q1, q3, now() FROM drawn
     ON CONFLICT (${COHORT}, device_class)
     DO UPDATE SET n = excluded.n, established = excluded.established, runs = excluded.runs, q1 = excluded.q1, q3 = excluded.q3, refreshed_at = excluded.refreshed_at`,
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
}

/**
 * A burst is held for review: when one day brings an established cohort's device class (one
 * with MIN_SOURCES established voices) more new voices than BURST_MIN or BURST_SHARE of its
 * established ones, whichever is more, that day's new voices in it are held — kept and
 * exported, left out of every statistic and fence — until an operator releases them or
 * quarantines their runs (review.ts). Fakes inside the fences would otherwise count like
 * anyone: 30 runs at 1.3× from 30 /16s the day after 12 honest phones moved their median by
 * 29 %. A day's few newcomers are never held, so a cohort is never frozen; voices arriving
 * later the same day join a held burst. A young cohort has no established figure to guard and
 * is not held (launch day would freeze every cohort): it is judged by all its voices, as
 * drawAndFlag does. Returns whether any case was newly held.
 */
export const BURST_MIN = MIN_SOURCES;
export const BURST_SHARE = 0.5;
async function holdBursts(tx: Pick<Sql, 'query'>, p: unknown[]): Promise<boolean> {
  const [r] = await tx.query<{ n: number }>(
    `WITH ${KEYS},
     fresh AS (
       SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class
       FROM submissions s JOIN cases c ON c.submission_id = s.id JOIN k ON ${SAME_CASE('k')}
       WHERE s.received_on = current_date AND c.bytes_per_second > 0 AND NOT s.quarantined AND NOT c.outlier AND NOT c.released AND s.execution = 'standard'
       GROUP BY c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, coalesce(s.source, s.id::text)),
     bursts AS (
       SELECT f.algorithm, f.implementation, f.operation, f.size_bytes, f.device_class
       FROM fresh f JOIN cohort_bounds b ON ${SAME_CASE('b', 'f')} AND b.device_class = f.device_class
       WHERE b.established >= ${MIN_SOURCES}
       GROUP BY f.algorithm, f.implementation, f.operation, f.size_bytes, f.device_class, b.established
       HAVING count(*) > greatest(${BURST_MIN}, ${BURST_SHARE} * b.established)),
     held AS (
       UPDATE cases c SET held = true FROM bursts b, submissions s
       WHERE ${SAME_CASE('b')} AND s.id = c.submission_id AND s.device_class = b.device_class AND s.received_on = current_date
         AND NOT c.held AND NOT c.released AND NOT c.outlier AND NOT s.quarantined AND s.execution = 'standard' AND c.bytes_per_second > 0
       RETURNING 1)
     SELECT count(*)::int AS n FROM held`,
    p,
  );
  return Number(r?.n ?? 0) > 0;
}

/**
 * The keys among `named` whose bounds can say anything: those with bounds already, and those
 * with at least MIN_SOURCES rows. Bounds drawn from fewer voices judge nothing (JUDGED_BY), and
 * a cohort's voices are never more than its rows, so a cohort that a body's cases alone made
 * (a widest body can name 1,500 new ones) costs one index probe here, not a percentile, a
 * bounds row and three passes of flags. It is drawn when its eighth row arrives.
 */
async function dueKeys(sql: Pick<Sql, 'query'>, named: CohortKey[]): Promise<CohortKey[]> {
  if (named.length === 0) return [];
  const due = await sql.query<{ i: number }>(
    `SELECT i FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (algorithm text, implementation text, operation text, size_bytes integer)) WITH ORDINALITY AS k(algorithm, implementation, operation, size_bytes, i)
     WHERE EXISTS (SELECT 1 FROM cohort_bounds b WHERE ${SAME_CASE('b', 'k')})
        OR (SELECT count(*) FROM (SELECT 1 FROM cases c WHERE ${SAME_CASE('c', 'k')} LIMIT ${MIN_SOURCES}) AS r) >= ${MIN_SOURCES}`,
    keysParam(named),
  );
  return due.map((d) => named[Number(d.i) - 1]!);
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
  const p = keysParam(keys);
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

/** Every case's bounds, REFRESH_BATCH cases at a time (the operator's tools; tests). */
export async function refreshCohorts(sql: Sql): Promise<void> {
  const keys = await sql.query<{ algorithm: string; implementation: string; operation: string; size_bytes: number }>(
    'SELECT DISTINCT algorithm, implementation, operation, size_bytes FROM cases',
  );
  await refreshInBatches(sql, keys.map((k) => ({ algorithm: k.algorithm, implementation: k.implementation, operation: k.operation, sizeBytes: Number(k.size_bytes) })));
}

export async function refreshInBatches(sql: Sql, keys: CohortKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += REFRESH_BATCH) await refreshCohortBatch(sql, keys.slice(i, i + REFRESH_BATCH));
}

/**
 * Cohorts touched by new rows get their bounds recomputed in the background, REFRESH_BATCH at
 * a time, `delayMs` after the first touch (default a minute): bounds move slowly, and every
 * refresh of a popular case reads all its rows. A failed refresh is retried with the next touch.
 */
export function createRefresher(sql: Sql, o: { delayMs?: number; onRefreshed?: () => void } = {}) {
  const dirty = new Map<string, CohortKey>();
  let refreshing = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = async () => {
    if (refreshing || sql.closed) return;
    refreshing = true;
    try {
      while (dirty.size) {
        const batch = [...dirty].slice(0, REFRESH_BATCH);
        for (const [key] of batch) dirty.delete(key);
        await refreshCohortBatch(sql, batch.map(([, k]) => k)).catch((e: Error) => {
          for (const [key, k] of batch) dirty.set(key, k);
          throw e;
        });
        o.onRefreshed?.(); // their flags may have moved
      }
    } catch (e) {
      console.error('collector: cohort refresh failed, retried later:', (e as Error).message);
    } finally {
      refreshing = false;
    }
  };
  return {
    touch(keys: CohortKey[]) {
      for (const k of keys) dirty.set(`${k.algorithm}/${k.implementation}/${k.operation}/${k.sizeBytes}`, k);
      timer ??= setTimeout(() => {
        timer = null;
        void run();
      }, o.delayMs ?? 60_000);
      timer.unref?.();
    },
  };
}
