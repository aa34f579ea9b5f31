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
  };
}
