/**
 * Per-client rate limiting without storing who the client is: the key is an HMAC of the
 * address under a random salt that lives only in this process's memory and is replaced every
 * `rotateMs` (the old buckets go with it). Nothing here is ever written anywhere.
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface RateLimiter {
  /** True if the client may proceed; counts the request. */
  take(address: string, cost?: number): boolean;
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
