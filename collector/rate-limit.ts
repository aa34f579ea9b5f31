/**
 * Per-client rate limiting without storing who the client is. Token buckets: `perMinute`
 * tokens, refilled continuously; a request costs 1 and a large body more (routes.ts).
 *
 * - In memory (PGlite, reads everywhere): the key is an HMAC of the client's limit key under a
 *   random salt that lives only in this process's memory and is replaced every `rotateMs`.
 * - In PostgreSQL (writes, when several collectors share one database): buckets in an
 *   unlogged table, keyed by the day's source hash (source.ts), so a client's budget is the
 *   same whichever process the balancer picks.
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Sql } from './db.ts';

export interface RateLimiter {
  /** True if the client may proceed; counts the request. */
  take(key: string, cost?: number): boolean | Promise<boolean>;
  /** Gives back what a request took that failed through no fault of the client's (the database away, the disk full). */
  refund(key: string, cost?: number): void | Promise<void>;
}

export function createRateLimiter(o: { perMinute: number; rotateMs?: number; now?: () => number }): RateLimiter {
  const now = o.now ?? Date.now;
  const rotateMs = o.rotateMs ?? 60 * 60_000;
  let salt = randomBytes(32);
  let saltSince = now();
  let buckets = new Map<string, { tokens: number; at: number }>();
  const ratePerMs = o.perMinute / 60_000;
  return {
    take(address, cost = 1) {
      const t = now();
      if (t - saltSince >= rotateMs) {
        salt = randomBytes(32);
        saltSince = t;
        buckets = new Map();
      }
      const key = createHmac('sha256', salt).update(address).digest('base64url');
      const b = buckets.get(key) ?? { tokens: o.perMinute, at: t };
      b.tokens = Math.min(o.perMinute, b.tokens + (t - b.at) * ratePerMs);
      b.at = t;
      if (b.tokens < cost) {
        buckets.set(key, b);
        return false;
      }
      b.tokens -= cost;
      buckets.set(key, b);
      return true;
    },
    refund(address, cost = 1) {
      const b = buckets.get(createHmac('sha256', salt).update(address).digest('base64url'));
      if (b) b.tokens = Math.min(o.perMinute, b.tokens + cost);
    },
  };
}

/**
 * The same bucket in PostgreSQL: one upsert that refills, checks and takes atomically, so
 * concurrent requests through different processes cannot overspend. `key` must already be a
 * keyed hash (never an address). Buckets idle for an hour are swept now and then.
 */
export function createSqlRateLimiter(sql: Sql, o: { perMinute: number }): RateLimiter {
  let lastSweep = Date.now();
  return {
    async take(key, cost = 1) {
      if (Date.now() - lastSweep > 10 * 60_000) {
        lastSweep = Date.now();
        await sql.query("DELETE FROM rate_buckets WHERE at < now() - interval '1 hour'");
      }
      const rows = await sql.query(
        `INSERT INTO rate_buckets AS b (key, tokens, at) VALUES ($1, $2::float8 - $3::float8, clock_timestamp())
         ON CONFLICT (key) DO UPDATE
           SET tokens = least($2::float8, b.tokens + extract(epoch FROM clock_timestamp() - b.at) * $4::float8) - $3::float8, at = clock_timestamp()
           WHERE least($2::float8, b.tokens + extract(epoch FROM clock_timestamp() - b.at) * $4::float8) >= $3::float8
         RETURNING tokens`,
        [key, o.perMinute, cost, o.perMinute / 60],
      );
      return rows.length === 1 && cost <= o.perMinute;
    },
    async refund(key, cost = 1) {
      // The database is what failed, most likely: a refund it cannot take is no error of the request's.
      await sql.query('UPDATE rate_buckets SET tokens = least($2::float8, tokens + $3::float8) WHERE key = $1', [key, o.perMinute, cost]).catch(() => {});
    },
  };
}

/**
 * A budget of milliseconds of work per key, spent after the fact: a request may start while its
 * key is not in debt, and is charged what it took when it ends (which may leave the key in debt
 * until the refill pays it back). For work whose cost is known only once done — a read answered
 * live, whose cost depends on the store, the host and the filters.
 */
export interface CostMeter {
  /** The share of `key`'s budget left now: 1 untouched (or paid back), above 0 not in debt. */
  left(key: string): number | Promise<number>;
  /** Charges `key` `ms` of work. */
  spend(key: string, ms: number): void | Promise<void>;
}

export function createCostMeter(o: { msPerMinute: number; now?: () => number }): CostMeter {
  const now = o.now ?? Date.now;
  const perMs = o.msPerMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (key: string) => {
    const t = now();
    const b = buckets.get(key) ?? { tokens: o.msPerMinute, at: t };
    b.tokens = Math.min(o.msPerMinute, b.tokens + (t - b.at) * perMs);
    b.at = t;
    buckets.set(key, b);
    if (buckets.size > 100_000) buckets.delete(buckets.keys().next().value!); // oldest first: a flood of keys cannot grow it
    return b;
  };
  return {
    left: (key) => refill(key).tokens / o.msPerMinute,
    spend: (key, ms) => void (refill(key).tokens -= ms),
  };
}

/** The same in PostgreSQL's rate_buckets, so that every process spends one budget per key. */
export function createSqlCostMeter(sql: Sql, o: { msPerMinute: number }): CostMeter {
  const refilled = `least($2::float8, b.tokens + extract(epoch FROM clock_timestamp() - b.at) * $2::float8 / 60)`;
  return {
    async left(key) {
      const [r] = await sql.query<{ tokens: number }>(`SELECT ${refilled} AS tokens FROM rate_buckets b WHERE key = $1`, [key, o.msPerMinute]);
      return r === undefined ? 1 : Number(r.tokens) / o.msPerMinute;
    },
    async spend(key, ms) {
      await sql.query(
        `INSERT INTO rate_buckets AS b (key, tokens, at) VALUES ($1, $2::float8 - $3::float8, clock_timestamp())
         ON CONFLICT (key) DO UPDATE SET tokens = ${refilled} - $3::float8, at = clock_timestamp()`,
        [key, o.msPerMinute, ms],
      );
    },
  };
}
