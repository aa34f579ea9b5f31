/**
 * Cohort bounds: each voice's weight, the fences each case is judged by, recomputed from every
 * voice in batches, the outlier flags they set, the views of large cohorts, and the background
 * refresher that keeps them current as rows arrive.
 * @module
 */
import { CASE_IDENTITY, type CaseIdentity, caseKey } from '../web/core/schema.ts';
import type { Sql } from './db.ts';
import { type CrowdFilter, crowdStats, voiceDistribution } from './crowd.ts';
import type { Reduced } from './submission.ts';
import { voiceWeights, weightedQuantilesSql } from './weights.ts';

/**
 * Fences on ln(throughput) (throughput is multiplicative): a case is an outlier when it lies
 * more than FENCE_SPREADS spreads from its cohort's center, where the center is the weighted
 * median of the cohort's voices and the spread their weighted median absolute deviation
 * (weights.ts), never taken as less than SPREAD_FLOOR. FENCE_SPREADS × MAD is about as far as
 * Tukey's far fences (3 × IQR beyond the quartiles, 4.7 σ of a normal spread) reach. A cohort —
 * algorithm, implementation, variant, operation, size, AAD length, device class — is judged by its own fences once
 * it has MIN_SOURCES voices, and before that by the same case's fences over every class
 * (device_class '*'), which are wide but catch the absurd. Outliers are flagged, never deleted,
 * and every flag is drawn again at each refresh from every voice: a voice an early false
 * majority flagged counts again once later voices outweigh it.
 */
const MIN_SOURCES = 8;
export const FENCE_SPREADS = 7;
/**
 * The least spread a cohort is judged with, in ln units (5 %): two runs of one device and
 * browser differ by 5–20 % on the machines measured here (docs/methodology.md), so a narrower
 * cohort says more about how alike its voices were made than about the devices. Identical
 * voices (a zero-width fence) would otherwise flag every honest one.
 */
export const SPREAD_FLOOR = 0.05;
const OUTLIER = `(c.no_spread OR abs(ln(c.bytes_per_second) - b.center) > ${FENCE_SPREADS} * greatest(b.spread, ${SPREAD_FLOOR}))`;
/**
 * What makes a cohort: a case's identity (schema.ts CASE_IDENTITY), as columns with their SQL
 * types. The variant (a WASM build, Web Crypto sequential or pipelined) and the associated
 * data's length are part of it: a pipelined call or a 1 MiB AAD is another measurement.
 */
const column = (k: keyof CaseIdentity) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
const KEY_COLUMNS = CASE_IDENTITY.map((k) => [column(k), k.endsWith('Bytes') ? 'integer' : 'text'] as const);
/** `t.a = c.a AND …` over the key columns. */
const SAME_CASE = (t: string, c = 'c') => KEY_COLUMNS.map(([k]) => `${t}.${k} = ${c}.${k}`).join(' AND ');
/** `p.a, p.b, …` over the key columns (no prefix: `a, b, …`). */
const KEY_LIST = (p = '') => KEY_COLUMNS.map(([k]) => `${p && `${p}.`}${k}`).join(', ');
/** `a text, b text, …`: the key columns for jsonb_to_recordset. */
const KEY_TYPES = KEY_COLUMNS.map(([k, t]) => `${k} ${t}`).join(', ');
/** Joins `b` to the bounds that judge case `c` of submission `s`: its class's, else every class's. */
const JUDGED_BY = `${SAME_CASE('b')} AND b.n >= ${MIN_SOURCES} AND b.device_class = CASE
    WHEN EXISTS (SELECT 1 FROM cohort_bounds own WHERE ${SAME_CASE('own')} AND own.device_class = s.device_class AND own.n >= ${MIN_SOURCES})
    THEN s.device_class ELSE '*' END`;
/** The cases that are voices of the standard population: measured, counted, not quarantined. */
const ELIGIBLE = `c.bytes_per_second > 0 AND NOT s.quarantined AND NOT c.no_spread AND s.execution = 'standard'`;

/** Flags the new cases of submissions `ids` by their cohorts' current fences (on arrival). */
export async function flagOutliers(tx: Pick<Sql, 'query'>, ids: string[]): Promise<void> {
  await tx.query(`UPDATE cases c SET outlier = true WHERE c.submission_id = ANY($1::uuid[]) AND c.no_spread`, [ids]);
  // The verdict on arrival is kept apart (arrived_outside): a refresh draws `outlier` again, never it.
  await tx.query(
    `UPDATE cases c SET outlier = ${OUTLIER}, arrived_outside = ${OUTLIER} FROM submissions s, cohort_bounds b
     WHERE c.submission_id = ANY($1::uuid[]) AND s.id = c.submission_id AND ${ELIGIBLE} AND ${JUDGED_BY}`,
    [ids],
  );
}

/** A cohort whose bounds may have moved (new cases arrived, or the operator quarantined some): a case's identity. */
export type CohortKey = CaseIdentity;

type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;
/** A cohort key as its columns come back from SQL (KEY_COLUMNS). */
export type CohortKeyRow = { [K in keyof CaseIdentity as Snake<K>]: CaseIdentity[K] };

/** A key from a case or a row (camelCase or the columns' snake_case; a count may come back from SQL as text). */
export const cohortKeyOf = (c: Partial<CohortKey> & Partial<CohortKeyRow>): CohortKey => {
  const value = (k: keyof CaseIdentity) => (k in c ? c[k] : (c as Record<string, unknown>)[column(k)]);
  return Object.fromEntries(CASE_IDENTITY.map((k) => [k, k.endsWith('Bytes') ? Number(value(k)) : value(k)])) as unknown as CohortKey;
};

export function cohortKeysOf(rs: readonly Pick<Reduced, 'cases'>[]): CohortKey[] {
  const keys = new Map<string, CohortKey>();
  for (const r of rs) for (const c of r.cases) keys.set(caseKey(cohortKeyOf(c)), cohortKeyOf(c));
  return [...keys.values()];
}

/**
 * Weighs one case's voices, draws its fences (every device class and '*') and re-flags its
 * rows. One short transaction per REFRESH_BATCH cases, so writes and reads interleave with a
 * refresh instead of waiting behind a full-table pass.
 */
export async function refreshCohort(sql: Sql, k: CohortKey): Promise<void> {
  await refreshCohortBatch(sql, [k]);
}

/** Cohorts refreshed per transaction: one round trip for many cohorts (a widest body names 1,500: at 100 a batch the refresh cost the collector 58 ms of CPU, at 500 29 ms), transactions still well under a second. */
export const REFRESH_BATCH = 500;

/** A batch of cohort keys as one parameter ($1), unpacked by KEYS into a table `k`. */
const keysParam = (keys: CohortKey[]) => [JSON.stringify(keys.map((k) => Object.fromEntries(CASE_IDENTITY.map((f) => [column(f), k[f]]))))];
const KEYS = `k AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS k(${KEY_TYPES}))`;
const COHORT = KEY_LIST();

/**
 * refreshCohort for many cases at once, in a few statements over all of them (weights, bounds,
 * flags, views): a body may name 1,500 new cases, and round trips for each would cost the
 * collector more than the body.
 */
export async function refreshCohortBatch(sql: Sql, named: CohortKey[]): Promise<void> {
  const keys = await dueKeys(sql, named);
  if (keys.length === 0) return;
  const p = keysParam(keys);
  await sql.transaction(async (tx) => {
    const weights = await weigh(tx, p);
    await drawAndFlag(tx, p, weights);
    await refreshViews(tx, keys);
  });
}

/** Voice weights per cohort, device class (or '*') and day: a voice of that day weighs `w`, or `wo` if it arrived outside the fences. */
interface DayWeight extends CohortKeyRow {
  device_class: string;
  day: string;
  w: number;
  wo: number;
}

/**
 * Counts the voices of each day of the cohorts in `p` (and those of them that arrived outside
 * the fences), per device class and over every class, gives each voice its weight (weights.ts
 * voiceWeights) and stores the class weights per day in cohort_day_weights, for the reads
 * (crowd.ts): a row per cohort, class and day, never one per case.
 */
async function weigh(tx: Pick<Sql, 'query'>, p: unknown[]): Promise<DayWeight[]> {
  type Day = Omit<DayWeight, 'w' | 'wo'> & { n: number; outside: number };
  const days = await tx.query<Day>(
    `WITH ${KEYS},
     voices AS (
       SELECT ${KEY_LIST('c')}, s.device_class, s.received_on, bool_and(c.arrived_outside) AS outside
       FROM k JOIN cases c ON ${SAME_CASE('k')} JOIN submissions s ON s.id = c.submission_id
       WHERE ${ELIGIBLE}
       GROUP BY ${KEY_LIST('c')}, s.device_class, s.received_on, coalesce(s.source, s.id::text))
     SELECT ${COHORT}, device_class, to_char(received_on, 'YYYY-MM-DD') AS day,
            count(*)::int AS n, count(*) FILTER (WHERE outside)::int AS outside
     FROM voices GROUP BY ${COHORT}, device_class, received_on
     ORDER BY received_on`,
    p,
  );
  // Days in order, per class and over every class ('*', where a day's voices are all its classes').
  const byCohort = new Map<string, { key: Omit<DayWeight, 'w' | 'wo' | 'day'>; days: Map<string, { voices: number; outside: number }> }>();
  const add = (d: Day, cls: string) => {
    const id = `${caseKey(cohortKeyOf(d))}/${cls}`;
    const entry = byCohort.get(id) ?? {
      key: {
        algorithm: d.algorithm,
        implementation: d.implementation,
        variant: d.variant,
        operation: d.operation,
        size_bytes: Number(d.size_bytes),
        aad_bytes: Number(d.aad_bytes),
        device_class: cls,
      },
      days: new Map(),
    };
    const day = entry.days.get(d.day) ?? { voices: 0, outside: 0 };
    entry.days.set(d.day, { voices: day.voices + Number(d.n), outside: day.outside + Number(d.outside) });
    byCohort.set(id, entry);
  };
  for (const d of days) {
    add(d, d.device_class);
    add(d, '*');
  }
  const out: DayWeight[] = [];
  for (const { key, days: counts } of byCohort.values()) {
    const list = [...counts];
    const w = voiceWeights(list.map(([, d]) => d));
    list.forEach(([day], i) => out.push({ ...key, day, w: w[i]!.inside, wo: w[i]!.outside }));
  }
  // The class weights, for the reads (crowd.ts): a handful of rows per cohort and day, written anew.
  await tx.query(`WITH ${KEYS} DELETE FROM cohort_day_weights d USING k WHERE ${SAME_CASE('d', 'k')}`, p);
  await tx.query(
    `INSERT INTO cohort_day_weights (${COHORT}, device_class, day, w, wo)
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${KEY_TYPES}, device_class text, day date, w float8, wo float8)`,
    [JSON.stringify(out.filter((d) => d.device_class !== '*'))],
  );
  return out;
}

/**
 * Draws the fences of the cohorts in `p` from all their voices, weighted, and judges their cases
 * again by them. $2 holds the day weights (weigh).
 */
async function drawAndFlag(tx: Pick<Sql, 'query'>, p: unknown[], weights: DayWeight[]): Promise<void> {
  const params = [...p, JSON.stringify(weights)];
  const WEIGHTED_VOICES = `${KEYS},
     wt AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(${KEY_TYPES}, device_class text, day date, w float8, wo float8)),
     voices AS (
       SELECT ${KEY_LIST('c')}, s.device_class, s.received_on AS day, count(*) AS runs,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)) AS v, bool_and(c.arrived_outside) AS outside
       FROM k JOIN cases c ON ${SAME_CASE('k')} JOIN submissions s ON s.id = c.submission_id
       WHERE ${ELIGIBLE}
       GROUP BY ${KEY_LIST('c')}, s.device_class, s.received_on, coalesce(s.source, s.id::text)),
     classed AS (
       SELECT ${COHORT}, device_class AS cls, day, runs, v, outside FROM voices
       UNION ALL SELECT ${COHORT}, '*', day, runs, v, outside FROM voices),
     weighted AS (
       SELECT ${KEY_LIST('v')}, v.cls, v.day, v.runs, v.v AS x, CASE WHEN v.outside THEN wt.wo ELSE wt.w END AS w
       FROM classed v JOIN wt ON ${SAME_CASE('wt', 'v')} AND wt.device_class = v.cls AND wt.day = v.day)`;
  const PART = [...KEY_COLUMNS.map(([k]) => k), 'cls'];
  await tx.query(
    `WITH ${WEIGHTED_VOICES},
     center AS (${weightedQuantilesSql('SELECT * FROM weighted', PART, 'ARRAY[0.5]::float8[]')}),
     spread AS (${weightedQuantilesSql(`SELECT ${KEY_LIST('w')}, w.cls, abs(w.x - m.x) AS x, w.w FROM weighted w JOIN center m ON ${SAME_CASE('m', 'w')} AND m.cls = w.cls`, PART, 'ARRAY[0.5]::float8[]')}),
     counted AS (SELECT ${COHORT}, cls, count(*) AS n, count(DISTINCT day) AS days, sum(runs) AS runs FROM weighted GROUP BY ${COHORT}, cls)
     INSERT INTO cohort_bounds (${COHORT}, device_class, n, days, runs, center, spread, refreshed_at)
     SELECT ${KEY_LIST('n')}, n.cls, n.n, n.days, n.runs, m.x, d.x, now()
     FROM counted n JOIN center m ON ${SAME_CASE('m', 'n')} AND m.cls = n.cls JOIN spread d ON ${SAME_CASE('d', 'n')} AND d.cls = n.cls
     ON CONFLICT (${COHORT}, device_class)
     DO UPDATE SET n = excluded.n, days = excluded.days, runs = excluded.runs, center = excluded.center, spread = excluded.spread, refreshed_at = excluded.refreshed_at`,
    params,
  );
  // A class (or '*') with no voices left keeps no figure of its own.
  await tx.query(
    `WITH ${KEYS},
     wt AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(${KEY_TYPES}, device_class text, day date, w float8, wo float8))
     DELETE FROM cohort_bounds b USING k WHERE ${SAME_CASE('b', 'k')} AND NOT EXISTS (SELECT 1 FROM wt WHERE ${SAME_CASE('wt', 'b')} AND wt.device_class = b.device_class)`,
    params,
  );
  // Judge again: clear the cases' flags, then set those their new bounds call outliers.
  await tx.query(`WITH ${KEYS} UPDATE cases c SET outlier = c.no_spread FROM k WHERE ${SAME_CASE('k')} AND c.outlier IS DISTINCT FROM c.no_spread`, p);
  await tx.query(
    `WITH ${KEYS}
     UPDATE cases c SET outlier = true FROM k, submissions s, cohort_bounds b
     WHERE ${SAME_CASE('k')} AND s.id = c.submission_id AND ${ELIGIBLE} AND ${JUDGED_BY} AND ${OUTLIER}`,
    p,
  );
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
    `SELECT i FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (${KEY_TYPES})) WITH ORDINALITY AS k(${COHORT}, i)
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
  const large = await tx.query<CohortKeyRow & { rows: number }>(
    `WITH ${KEYS}
     SELECT ${KEY_LIST('b')}, b.runs::int AS rows
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
    const f: CrowdFilter = cohortKeyOf(r);
    const stats = await crowdStats(tx, f);
    const distributions: Record<string, Awaited<ReturnType<typeof voiceDistribution>>> = { '*': await voiceDistribution(tx, f) };
    for (const c of stats) distributions[c.group] = await voiceDistribution(tx, { ...f, deviceClass: c.group });
    await tx.query(
      `INSERT INTO cohort_views (${COHORT}, rows, stats, distributions, refreshed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, now())
       ON CONFLICT (${COHORT})
       DO UPDATE SET rows = excluded.rows, stats = excluded.stats, distributions = excluded.distributions, refreshed_at = excluded.refreshed_at`,
      [f.algorithm, f.implementation, f.variant, f.operation, f.sizeBytes, f.aadBytes, r.rows, JSON.stringify(stats), JSON.stringify(distributions)],
    );
  }
}

/** Every case's bounds, REFRESH_BATCH cases at a time (the operator's tools; tests). */
export async function refreshCohorts(sql: Sql): Promise<void> {
  const keys = await sql.query<CohortKeyRow>(`SELECT DISTINCT ${COHORT} FROM cases`);
  await refreshInBatches(sql, keys.map(cohortKeyOf));
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
        await refreshCohortBatch(
          sql,
          batch.map(([, k]) => k),
        ).catch((e: Error) => {
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
      for (const k of keys) dirty.set(caseKey(k), k);
      timer ??= setTimeout(() => {
        timer = null;
        void run();
      }, o.delayMs ?? 60_000);
      timer.unref?.();
    },
  };
}
