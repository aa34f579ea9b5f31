/**
 * The collector's data functions. Each takes the SQL store first (Hono examples' habit), and
 * every aggregate is computed in SQL, so a crowd of millions of rows never passes through JS.
 * @module
 */
import type { Sql } from './db.ts';
import type { Reduced } from './submission.ts';

export type InsertOutcome = 'created' | 'duplicate' | 'conflict';

/**
 * Stores a submission in one transaction. The run id makes a retry idempotent: the same id
 * with the same payload is a duplicate (nothing written), with another payload a conflict.
 */
export async function insertSubmission(sql: Sql, r: Reduced): Promise<InsertOutcome> {
  return sql.transaction(async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, device_model, browser, browser_major,
         os, os_major, arch, cores, memory_bucket, runtime, isolated, timer_us, preset, scenario)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [r.id, r.payloadSha256, r.schemaVersion, r.engineVersion, r.deviceClass, r.deviceModel, r.browser, r.browserMajor, r.os, r.osMajor, r.arch, r.cores, r.memoryBucket, r.runtime, r.isolated, r.timerUs, r.preset, r.scenario],
    );
    if (inserted.length === 0) {
      const [existing] = await tx.query<{ payload_sha256: string }>('SELECT payload_sha256 FROM submissions WHERE id = $1', [r.id]);
      return existing?.payload_sha256 === r.payloadSha256 ? 'duplicate' : 'conflict';
    }
    // All cases in one statement: a JSON array unpacked by the database.
    await tx.query(
      `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
       SELECT $1, c.algorithm, c.implementation, c.variant, c.operation, c."sizeBytes", c."aadBytes",
              ARRAY(SELECT jsonb_array_elements_text(c.samples)::double precision), c.n, c."medianNs", c."bytesPerSecond", c."robustCv"
       FROM jsonb_to_recordset($2::jsonb) AS c(algorithm text, implementation text, variant text, operation text, "sizeBytes" int, "aadBytes" int,
            samples jsonb, n int, "medianNs" double precision, "bytesPerSecond" double precision, "robustCv" double precision)`,
      [r.id, JSON.stringify(r.cases)],
    );
    await flagOutliers(tx, r.id, r.deviceClass);
    return 'created';
  });
}

/**
 * Flags, never deletes, the new cases that lie outside Tukey's far fences (3 × IQR) of their
 * cohort — same algorithm, implementation, operation, size and device class — on a log scale
 * (throughput is multiplicative), once the cohort has at least 8 members.
 */
async function flagOutliers(tx: Pick<Sql, 'query'>, id: string, deviceClass: string): Promise<void> {
  await tx.query(
    `WITH mine AS (SELECT algorithm, implementation, operation, size_bytes FROM cases WHERE submission_id = $1),
     cohort AS (
       SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, count(*) AS n,
              percentile_cont(0.25) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)) AS q1,
              percentile_cont(0.75) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)) AS q3
       FROM cases c JOIN submissions s ON s.id = c.submission_id
       JOIN mine m USING (algorithm, implementation, operation, size_bytes)
       WHERE s.device_class = $2 AND c.bytes_per_second > 0
       GROUP BY 1, 2, 3, 4)
     UPDATE cases c SET outlier = (ln(c.bytes_per_second) < k.q1 - 3 * (k.q3 - k.q1) OR ln(c.bytes_per_second) > k.q3 + 3 * (k.q3 - k.q1))
     FROM cohort k
     WHERE c.submission_id = $1 AND k.n >= 8 AND c.bytes_per_second > 0
       AND (c.algorithm, c.implementation, c.operation, c.size_bytes) = (k.algorithm, k.implementation, k.operation, k.size_bytes)`,
    [id, deviceClass],
  );
}

export interface CrowdFilter {
  algorithm: string;
  implementation: string;
  operation: string;
  sizeBytes: number;
  deviceClass?: string;
  browser?: string;
  arch?: string;
  scenario?: string;
}

function where(f: CrowdFilter, first = 1): { clause: string; params: unknown[] } {
  const parts = ['c.algorithm = $1', 'c.implementation = $2', 'c.operation = $3', 'c.size_bytes = $4', 'NOT c.outlier'];
  const params: unknown[] = [f.algorithm, f.implementation, f.operation, f.sizeBytes];
  for (const [col, val] of [['s.device_class', f.deviceClass], ['s.browser', f.browser], ['s.arch', f.arch], ['s.scenario', f.scenario]] as const) {
    if (val !== undefined) {
      params.push(val);
      parts.push(`${col} = $${params.length + first - 1}`);
    }
  }
  return { clause: parts.join(' AND '), params };
}

export interface CohortStats {
  deviceClass: string;
  n: number;
  outliers: number;
  p05: number;
  q1: number;
  median: number;
  q3: number;
  p95: number;
}

/** Throughput (bytes/s) per device class: median, quartiles and 5th/95th percentiles. */
export async function crowdStats(sql: Sql, f: CrowdFilter): Promise<CohortStats[]> {
  const { clause, params } = where({ ...f, deviceClass: f.deviceClass });
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT s.device_class, count(*)::int AS n,
            percentile_cont(0.05) WITHIN GROUP (ORDER BY c.bytes_per_second) AS p05,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY c.bytes_per_second) AS q1,
            percentile_cont(0.5)  WITHIN GROUP (ORDER BY c.bytes_per_second) AS median,
            percentile_cont(0.75) WITHIN GROUP (ORDER BY c.bytes_per_second) AS q3,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY c.bytes_per_second) AS p95
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${clause}
     GROUP BY s.device_class ORDER BY s.device_class`,
    params,
  );
  const outliers = await sql.query<{ device_class: string; n: number }>(
    `SELECT s.device_class, count(*)::int AS n FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${clause.replace('NOT c.outlier', 'c.outlier')} GROUP BY 1`,
    params,
  );
  return rows.map((r) => ({
    deviceClass: String(r.device_class),
    n: Number(r.n),
    outliers: outliers.find((o) => o.device_class === r.device_class)?.n ?? 0,
    p05: Number(r.p05),
    q1: Number(r.q1),
    median: Number(r.median),
    q3: Number(r.q3),
    p95: Number(r.p95),
  }));
}

/** Where `bytesPerSecond` falls in its cohort: the share of the cohort at or below it (ties half). */
export async function percentileOf(sql: Sql, f: CrowdFilter, bytesPerSecond: number): Promise<{ n: number; percentile: number | null }> {
  const { clause, params } = where(f);
  params.push(bytesPerSecond);
  const x = `$${params.length}`;
  const [r] = await sql.query<{ n: number; below: number; equal: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE c.bytes_per_second < ${x})::int AS below, count(*) FILTER (WHERE c.bytes_per_second = ${x})::int AS equal
     FROM cases c JOIN submissions s ON s.id = c.submission_id WHERE ${clause}`,
    params,
  );
  const n = Number(r?.n ?? 0);
  return { n, percentile: n === 0 ? null : (100 * (Number(r!.below) + Number(r!.equal) / 2)) / n };
}

export interface ExportRow {
  submission: string;
  received_on: string;
  device_class: string;
  device_model: string | null;
  browser: string;
  browser_major: number | null;
  os: string;
  os_major: number | null;
  arch: string;
  cores: number;
  memory_bucket: string | null;
  runtime: string;
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
  samples: number[];
}

/** Keyset pagination over every case, for the streamed export. */
export async function exportPage(sql: Sql, after: [string, string] | null, limit: number): Promise<ExportRow[]> {
  const rows = await sql.query<ExportRow & { k: string }>(
    `SELECT c.submission_id::text AS submission, to_char(s.received_on, 'YYYY-MM-DD') AS received_on, s.device_class, s.device_model, s.browser, s.browser_major,
            s.os, s.os_major, s.arch, s.cores, s.memory_bucket, s.runtime, s.isolated, s.timer_us, s.preset, s.scenario,
            c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, c.n, c.median_ns, c.bytes_per_second, c.robust_cv, c.outlier, c.samples,
            concat_ws('/', c.algorithm, c.implementation, c.variant, c.operation, lpad(c.size_bytes::text, 9, '0'), lpad(c.aad_bytes::text, 9, '0')) AS k
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE $1::text IS NULL OR (c.submission_id::text, concat_ws('/', c.algorithm, c.implementation, c.variant, c.operation, lpad(c.size_bytes::text, 9, '0'), lpad(c.aad_bytes::text, 9, '0'))) > ($1::text, $2::text)
     ORDER BY c.submission_id::text, k
     LIMIT $3`,
    [after?.[0] ?? null, after?.[1] ?? null, limit],
  );
  return rows;
}

export async function counts(sql: Sql): Promise<{ submissions: number; cases: number }> {
  const [r] = await sql.query<{ s: number; c: number }>('SELECT (SELECT count(*) FROM submissions)::int AS s, (SELECT count(*) FROM cases)::int AS c');
  return { submissions: Number(r!.s), cases: Number(r!.c) };
}
