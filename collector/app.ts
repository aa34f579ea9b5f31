/**
 * The collector, composed: security headers, CORS for configured origins only, a body size
 * limit, per-client rate limits, then the routes under /api/v1. Errors become JSON with a
 * message naming what was wrong; nothing a client sends produces a 5xx.
 * @module
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { Sql } from './db.ts';
import { createRateLimiter } from './rate-limit.ts';
import { routes } from './routes.ts';
import { SubmissionError } from './submission.ts';

export interface CollectorOptions {
  /** Origins allowed to call the API from a browser (the site's own origin needs no entry). */
  corsOrigins?: string[];
  /** Submissions per minute per client (reads get 20×). */
  submissionsPerMinute?: number;
  maxBodyBytes?: number;
  /** The client's address, from the connection; never stored (see rate-limit.ts). */
  clientAddress?: (c: { req: { raw: Request }; env: unknown }) => string;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export function createApp(sql: Sql, o: CollectorOptions = {}) {
  const app = new Hono();
  const perMinute = o.submissionsPerMinute ?? 30;
  const writes = createRateLimiter({ perMinute });
  const reads = createRateLimiter({ perMinute: perMinute * 20 });
  const address = o.clientAddress ?? ((c) => (c.env as { incoming?: { socket?: { remoteAddress?: string } } })?.incoming?.socket?.remoteAddress ?? 'unknown');

  app.use('/api/*', secureHeaders({ crossOriginResourcePolicy: 'cross-origin', crossOriginOpenerPolicy: false }));
  app.use('/api/*', cors({ origin: o.corsOrigins ?? [], allowMethods: ['GET', 'POST'], allowHeaders: ['Content-Type'], credentials: false, maxAge: 600 }));
  app.use('/api/*', async (c, next) => {
    const limiter = c.req.method === 'POST' ? writes : reads;
    if (!limiter.take(address(c))) return c.json({ error: 'too many requests; try again in a minute' }, 429, { 'Retry-After': '60' });
    await next();
  });
  app.use(
    '/api/v1/results',
    bodyLimit({ maxSize: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, onError: (c) => c.json({ error: `body larger than ${o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes` }, 413) }),
  );
  app.route('/api/v1', routes(sql));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((err, c) => {
    if (err instanceof SubmissionError) return c.json({ error: err.message }, err.status);
    // Safety net: data the validation let through but a column refuses (SQLSTATE class 22, data
    // exception, or 23, constraint violation) is the client's value, not a server fault.
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && /^2[23]/.test(code)) return c.json({ error: `a value is out of the range the collector stores (${(err as Error).message})` }, 422);
    console.error('collector error:', err);
    return c.json({ error: 'internal error' }, 500);
  });
  return app;
}
