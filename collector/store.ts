/**
 * The collector's data functions. Each takes the SQL store first (Hono examples' habit), and
 * every aggregate is computed in SQL, so a crowd of millions of rows never passes through JS.
 * @module
 */
import type { Sql } from './db.ts';
import type { Reduced } from './submission.ts';

export type InsertOutcome = 'created' | 'duplicate' | 'conflict';

/**
 * Writes submissions with group commit: requests that arrive while a batch is being written
 * wait and go together in the next transaction. Each is acknowledged only after its batch
 * commits, so durability is unchanged; the database does one commit (and, on PostgreSQL, one
 * fsync) for many submissions. A batch that fails is retried one submission at a time, so a
 * bad submission cannot fail the others.
 */
export function createWriter(sql: Sql, maxBatch = 200) {
  let queue: { r: Reduced; resolve: (o: InsertOutcome) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const outcomes = await insertBatch(sql, batch.map((b) => b.r));
        batch.forEach((b, i) => b.resolve(outcomes[i]!));
      } catch {
        for (const b of batch) await insertBatch(sql, [b.r]).then((o) => b.resolve(o[0]!), b.reject);
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
             os, os_major, arch, cores, memory_bucket, runtime, isolated, timer_us, preset, scenario)
           SELECT s.id, s."payloadSha256", s."schemaVersion", s."engineVersion", s."deviceClass", s."deviceModel", s.browser, s."browserMajor",
                  s.os, s."osMajor", s.arch, s.cores, s."memoryBucket", s.runtime, s.isolated, s."timerUs", s.preset, s.scenario
           FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, "payloadSha256" text, "schemaVersion" text, "engineVersion" text, "deviceClass" text,
                "deviceModel" text, browser text, "browserMajor" int, os text, "osMajor" int, arch text, cores int, "memoryBucket" text,
                runtime text, isolated boolean, "timerUs" real, preset text, scenario text)
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
    return outcomes;
  });
}

/**
 * Tukey's far fences (3 × IQR) on ln(throughput) within a cohort — same algorithm,
 * implementation, operation, size and device class — once it has at least 8 members: throughput
 * is multiplicative, so fences go on a log scale. Outliers are flagged, never deleted.
 */
const OUTLIER = `(ln(c.bytes_per_second) < b.q1 - 3 * (b.q3 - b.q1) OR ln(c.bytes_per_second) > b.q3 + 3 * (b.q3 - b.q1))`;
const COHORT_JOIN = `b.algorithm = c.algorithm AND b.implementation = c.implementation AND b.operation = c.operation AND b.size_bytes = c.size_bytes AND b.device_class = s.device_class AND b.n >= 8`;

async function flagOutliers(tx: Pick<Sql, 'query'>, ids: string[]): Promise<void> {
  await tx.query(
    `UPDATE cases c SET outlier = ${OUTLIER} FROM cohort_bounds b, submissions s
     WHERE c.submission_id = ANY($1::uuid[]) AND s.id = c.submission_id AND c.bytes_per_second > 0 AND ${COHORT_JOIN}`,
    [ids],
  );
}

/**
 * Recomputes every cohort's quartiles in one pass and re-flags the cases whose verdict
 * changed. Runs in the background (server.ts), never in a request.
 */
export async function refreshCohorts(sql: Sql): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO cohort_bounds (algorithm, implementation, operation, size_bytes, device_class, n, q1, q3, refreshed_at)
       SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, count(*),
              percentile_cont(0.25) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)),
              percentile_cont(0.75) WITHIN GROUP (ORDER BY ln(c.bytes_per_second)), now()
       FROM cases c JOIN submissions s ON s.id = c.submission_id WHERE c.bytes_per_second > 0
       GROUP BY 1, 2, 3, 4, 5
       ON CONFLICT (algorithm, implementation, operation, size_bytes, device_class)
       DO UPDATE SET n = excluded.n, q1 = excluded.q1, q3 = excluded.q3, refreshed_at = excluded.refreshed_at`,
    );
    await tx.query(
      `UPDATE cases c SET outlier = ${OUTLIER} FROM cohort_bounds b, submissions s
       WHERE s.id = c.submission_id AND c.bytes_per_second > 0 AND ${COHORT_JOIN} AND c.outlier IS DISTINCT FROM ${OUTLIER}`,
    );
  });
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
