/**
 * Storing submissions: group commit, idempotency by run id, a floor of free space, and the
 * outlier flag a new case gets from its cohort's bounds on arrival (cohorts.ts).
 * @module
 */
import type { Sql } from './db.ts';
import { StorageFullError, classifyFault } from './faults.ts';
import { flagOutliers } from './cohorts.ts';
import type { Reduced } from './submission.ts';
import { WRITTEN_COLUMNS, listOf } from './columns.ts';

export type InsertOutcome = 'created' | 'duplicate' | 'conflict' | Capped;
/** Refused by a daily cap (see DailyCaps): whose, and how many it already sent today. */
export interface Capped {
  capped: 'network' | 'address';
  sent: number;
}

/**
 * The daily caps, checked and counted in the transaction that stores (so a thousand concurrent
 * posts cannot all pass a check made before any of them is written): a network (its day's
 * source hash) stores at most `network` submissions a day, and one address (or IPv6 /64) of it
 * at most ADDRESS_SHARE of that, so one member of a campus NAT or a carrier-grade NAT cannot
 * spend the whole network's day.
 */
export interface DailyCaps {
  network: number;
}
export const ADDRESS_SHARE = 0.25;
export const addressCap = (caps: DailyCaps) => Math.max(1, Math.ceil(caps.network * ADDRESS_SHARE));

/**
 * Writes submissions with group commit: requests that arrive while a batch is being written
 * wait and go together in the next transaction. Each is acknowledged only after its batch
 * commits, so durability is unchanged; the database does one commit (and, on PostgreSQL, one
 * fsync) for many submissions. A batch that fails is retried one submission at a time, so a
 * bad submission cannot fail the others.
 */
export function createWriter(sql: Sql, o: { maxBatch?: number; caps?: DailyCaps; onStored?: (rs: Reduced[]) => void } = {}) {
  const maxBatch = o.maxBatch ?? 200;
  const caps = o.caps ?? null;
  let queue: { r: Reduced; resolve: (o: InsertOutcome) => void; reject: (e: unknown) => void }[] = [];
  let running = false;
  let swept = 0;
  const drain = async () => {
    running = true;
    if (caps && Date.now() - swept > 10 * 60_000) {
      swept = Date.now();
      await sweepDailyCounts(sql).catch(() => (swept = 0));
    }
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        await guardStorage(sql);
        const outcomes = await insertBatch(
          sql,
          batch.map((b) => b.r),
          caps,
        );
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
          await insertBatch(sql, [b.r], caps).then((x) => {
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

/** The submissions of a batch in one statement, made once from the column list (columns.ts). */
const INSERT_SUBMISSIONS = `INSERT INTO submissions (${listOf(WRITTEN_COLUMNS, (c) => c.column)})
   SELECT ${listOf(WRITTEN_COLUMNS, (c) => `s."${c.field}"`)}
   FROM jsonb_to_recordset($1::jsonb) AS s(${listOf(WRITTEN_COLUMNS, (c) => `"${c.field}" ${c.type}`)})
   ON CONFLICT (id) DO NOTHING RETURNING id::text`;

/**
 * One transaction for a batch. The run id makes a retry idempotent: the same id with the same
 * payload is a duplicate (nothing written), with another payload a conflict.
 */
async function insertBatch(sql: Sql, rs: Reduced[], caps: DailyCaps | null): Promise<InsertOutcome[]> {
  return sql.transaction(async (tx) => {
    const rows = rs.map(({ cases: _cases, samples: _samples, ...s }) => s);
    const inserted = new Set((await tx.query<{ id: string }>(INSERT_SUBMISSIONS, [JSON.stringify(rows)])).map((x) => x.id));
    const outcomes: InsertOutcome[] = [];
    const created: Reduced[] = [];
    const others = rs.filter((r) => !inserted.has(r.id)).map((r) => r.id);
    const stored = new Map(
      others.length
        ? (await tx.query<{ id: string; payload_sha256: string }>('SELECT id::text, payload_sha256 FROM submissions WHERE id = ANY($1::uuid[])', [others])).map(
            (x) => [x.id, x.payload_sha256],
          )
        : [],
    );
    for (const r of rs) {
      if (inserted.has(r.id)) {
        inserted.delete(r.id); // a second copy of the id within this batch is a retry, below
        created.push(r);
        outcomes.push('created');
        stored.set(r.id, r.payloadSha256);
      } else outcomes.push(stored.get(r.id) === r.payloadSha256 ? 'duplicate' : 'conflict');
    }
    if (caps && created.length) {
      const refused = await countAgainstCaps(tx, rs, outcomes, caps);
      if (refused.size) {
        await tx.query('DELETE FROM submissions WHERE id = ANY($1::uuid[])', [[...refused]]);
        created.splice(0, created.length, ...created.filter((r) => !refused.has(r.id)));
      }
    }
    if (created.length === 0) return outcomes;
    // All cases of the batch in one statement: their figures a JSON array unpacked by the
    // database, their samples one run of bytes ($2) that each case takes its slice of.
    const { meta, bytes } = packCases(created);
    await tx.query(
      `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples_f64, n, median_ns, bytes_per_second, robust_cv, no_spread)
       SELECT c.sid, c.algorithm, c.implementation, c.variant, c.operation, c."sizeBytes", c."aadBytes",
              substring($2::bytea from c."from" for 8 * c.n), c.n, c."medianNs", c."bytesPerSecond", c."robustCv", c."noSpread"
       FROM jsonb_to_recordset($1::jsonb) AS c(sid uuid, algorithm text, implementation text, variant text, operation text, "sizeBytes" int, "aadBytes" int,
            "from" int, n int, "medianNs" double precision, "bytesPerSecond" double precision, "robustCv" double precision, "noSpread" boolean)`,
      [JSON.stringify(meta), bytes],
    );
    await flagOutliers(
      tx,
      created.map((r) => r.id),
    );
    await tx.query('UPDATE collector_totals SET submissions = submissions + $1, cases = cases + $2', [
      created.length,
      created.reduce((n, r) => n + r.cases.length, 0),
    ]);
    return outcomes;
  });
}

/**
 * Counts the batch's new submissions against their network's and address's counts of today, in
 * the order they came, turning the outcome of each one over a cap into Capped; returns their
 * ids. The counters are locked in key order (FOR UPDATE) until the batch commits, so batches in
 * other processes wait for them instead of reading the same count, and cannot deadlock.
 */
async function countAgainstCaps(tx: Pick<Sql, 'query'>, rs: Reduced[], outcomes: InsertOutcome[], caps: DailyCaps): Promise<Set<string>> {
  const keyOf = (r: Reduced) => ({ network: `network ${r.source ?? r.id}`, address: `address ${r.addressKey ?? r.id}` });
  const keys = [...new Set(rs.flatMap((r, i) => (outcomes[i] === 'created' ? Object.values(keyOf(r)) : [])))].sort();
  await tx.query('INSERT INTO daily_counts (key, n) SELECT key, 0 FROM unnest($1::text[]) AS key ORDER BY key ON CONFLICT (key, day) DO NOTHING', [keys]);
  const counts = new Map(
    (
      await tx.query<{ key: string; n: number }>('SELECT key, n FROM daily_counts WHERE day = current_date AND key = ANY($1::text[]) ORDER BY key FOR UPDATE', [
        keys,
      ])
    ).map((r) => [r.key, Number(r.n)]),
  );
  const limit = { network: caps.network, address: addressCap(caps) };
  const refused = new Set<string>();
  rs.forEach((r, i) => {
    if (outcomes[i] !== 'created') return;
    const k = keyOf(r);
    const over = (['network', 'address'] as const).find((which) => (counts.get(k[which]) ?? 0) >= limit[which]);
    if (over) {
      outcomes[i] = { capped: over, sent: counts.get(k[over]) ?? 0 };
      refused.add(r.id);
      return;
    }
    for (const key of Object.values(k)) counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  await tx.query(
    'UPDATE daily_counts d SET n = x.n FROM unnest($1::text[], $2::int[]) AS x(key, n) WHERE d.key = x.key AND d.day = current_date AND d.n <> x.n',
    [keys, keys.map((k) => counts.get(k) ?? 0)],
  );
  return refused;
}

/** Deletes the daily counts of earlier days: their hashes lead nowhere, and they count nothing now. */
export async function sweepDailyCounts(sql: Pick<Sql, 'query'>): Promise<void> {
  await sql.query('DELETE FROM daily_counts WHERE day < current_date');
}

/**
 * The cases of a batch for one INSERT: their figures (each with `from`, where its samples start
 * in `bytes`, 1-based as SQL's substring counts) and the submissions' sample bytes one after
 * another (submission.ts sampleBytes made them once per body, for its hash too).
 */
export function packCases(rs: readonly Reduced[]): { meta: object[]; bytes: Uint8Array } {
  const bytes = new Uint8Array(rs.reduce((n, r) => n + r.samples.length, 0));
  const meta: object[] = [];
  let at = 0;
  for (const r of rs) {
    bytes.set(r.samples, at);
    for (const c of r.cases) {
      meta.push({ sid: r.id, ...c, from: at + 1 });
      at += 8 * c.n;
    }
  }
  return { meta, bytes };
}
