/**
 * The collector, composed: security headers, CORS for configured origins only, a gate while
 * the database is not yet reachable, per-client rate limits, the write policy (JSON from the
 * site's own pages only), a body size limit, then the routes under /api/v1. Errors become
 * JSON with a message naming what was wrong; nothing a client sends produces a 5xx, and a
 * fault of the database degrades the one request (503/507), never the process.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import { type Client, addressResolver, limitKeyOf, networkOf, sourceNetworkOf } from './client.ts';
import type { Sql } from './db.ts';
import { classifyFault } from './faults.ts';
import { type RateLimiter, createCostMeter, createRateLimiter, createSqlCostMeter, createSqlRateLimiter } from './rate-limit.ts';
import { routes } from './routes.ts';
import { type SourceKeys, createSourceKeys } from './source.ts';
import { RequestError } from './submission.ts';
import { CROWD_MAX_BODY_BYTES } from '../web/core/submit.ts';

export interface CollectorOptions {
  /** Origins allowed to call the API from a browser (the site's own origin needs no entry). */
  corsOrigins?: string[];
  /** Submissions per minute per client (reads get 20×); a large body costs more than one. */
  submissionsPerMinute?: number;
  maxBodyBytes?: number;
  /** Proxies whose X-Forwarded-For is believed (CIDRs, or loopback/linklocal/uniquelocal). */
  trustedProxies?: string[];
  /** The client's address; by default from the connection through trusted proxies. Never stored. */
  clientAddress?: (c: { req: { raw: Request; header(name: string): string | undefined }; env: unknown }) => string;
  /** Keys for the daily source hash (source.ts). */
  sources?: SourceKeys;
  /** Submissions one source (a network, for a day) may store; beyond it 429. */
  sourceDailyCap?: number;
  /** Keep write buckets in PostgreSQL, so several collector processes share one budget per client. */
  sharedLimits?: boolean;
  /** False while the database has not been reached yet (server.ts retries); requests get 503. */
  isReady?: () => boolean;
  /** How often the exports may be made again while rows arrive (export-dump.ts; default 5 minutes). */
  exportMinAgeMs?: number;
  /** How long new rows wait before their cohorts are weighed and judged again (default a minute). */
  refreshDelayMs?: number;
  /** Milliseconds of reads answered live per minute: per network, by everyone, and the light readers' reserve (default LIVE_READ_MS_PER_MINUTE; given without `reserve`, none). */
  liveReadMsPerMinute?: { network: number; all: number; reserve?: number };
  /** The clock a live read's cost is timed by, in ms (default performance.now). */
  readClock?: () => number;
}

/** A standard-preset run is 2–3 MiB as JSON (web/core/submit.ts). */
export const DEFAULT_MAX_BODY_BYTES = CROWD_MAX_BODY_BYTES;
export const DEFAULT_SOURCE_DAILY_CAP = 100;
/** A body costs one token more per this many bytes: a maximum-size body spends 17 of 30. */
export const BYTES_PER_TOKEN = 512 * 1024;
/**
 * A body costs one token more per this many cohorts it names: each new cohort costs a refresh
 * of its bounds later (a read of the whole cohort), and a 1,500-case body could name 1,500.
 * A standard-preset run (about 1,500 cases) pays 6 more; a quick one nothing.
 */
export const COHORTS_PER_TOKEN = 250;
/**
 * A read that neither a cohort's view nor the cache answers (a filter by browser, engine, arch,
 * scenario or execution mode, a grouping other than by device class) passes over its whole
 * cohort: 50–250 ms for 20,000 rows, by store and host. Such reads are charged the time they
 * took, against a budget per network (IPv4 /24, IPv6 /48) and one for everyone (a read may
 * start while neither is in debt), so no choice of filters, from any number of addresses,
 * costs the collector more than about a quarter of a core: 3 s a minute per network is 5 % of
 * a core, 15 s for everyone 25 %. While everyone's is in debt, a network that has spent less
 * than half of its own (LIGHT_READER) is still answered, from a reserve as large (`reserve`,
 * the last resort): six networks spending their budgets had made everyone's a debt, and an
 * honest reader got 1 answer in 17. With shared limits (PostgreSQL) all three hold across
 * processes.
 */
export const LIVE_READ_MS_PER_MINUTE = { network: 3_000, all: 15_000, reserve: 15_000 };
/** A network with more than this share of its live-read budget left reads from the reserve when everyone's is spent. */
export const LIGHT_READER = 0.5;

export function createApp(sql: Sql, o: CollectorOptions = {}) {
  const app = new Hono<{ Variables: { client: Client } }>();
  const perMinute = o.submissionsPerMinute ?? 30;
  const sources = o.sources ?? createSourceKeys();
  // Shared write buckets live in PostgreSQL under the day's keyed hash; otherwise in memory.
  const shared = o.sharedLimits === true && sql.kind === 'postgres';
  const writes: RateLimiter = shared ? createSqlRateLimiter(sql, { perMinute }) : createRateLimiter({ perMinute });
  // In PostgreSQL a key outlives the request: it is the network's (/24, /64), not the address's,
  // under the day's key, so a stored bucket narrows nobody down to one address.
  const writeKey = (client: Client) => (shared ? sources.hash(`limit:${networkOf(client.address)}`) : client.limitKey);
  const reads = createRateLimiter({ perMinute: perMinute * 20 });
  const live = o.liveReadMsPerMinute ?? LIVE_READ_MS_PER_MINUTE;
  const readClock = o.readClock ?? (() => performance.now());
  const meter = (msPerMinute: number) => (shared ? createSqlCostMeter(sql, { msPerMinute }) : createCostMeter({ msPerMinute }));
  const [liveByNetwork, liveByAll, liveReserve] = [meter(live.network), meter(live.all), meter(live.reserve ?? 0)];
  const liveKey = (client: Client) => {
    const network = sourceNetworkOf(client.address);
    return shared ? sources.hash(`reads:${network}`) : network;
  };
  const resolve = addressResolver(o.trustedProxies ?? []);
  const address = o.clientAddress ?? ((c) => resolve((c.env as { incoming?: IncomingMessage } | undefined)?.incoming));
  const maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowedOrigins = new Set(o.corsOrigins ?? []);

  app.use('/api/*', secureHeaders({ crossOriginResourcePolicy: 'cross-origin', crossOriginOpenerPolicy: false }));
  app.use('/api/*', cors({ origin: o.corsOrigins ?? [], allowMethods: ['GET', 'POST'], allowHeaders: ['Content-Type'], credentials: false, maxAge: 600 }));
  app.use('/api/*', async (c, next) => {
    if (o.isReady && !o.isReady())
      return c.json({ error: 'the collector is starting: its database is not reachable yet; try again shortly' }, 503, { 'Retry-After': '5' });
    const a = address(c);
    const client = { address: a, limitKey: limitKeyOf(a) };
    c.set('client', client);
    const allowed = c.req.method === 'POST' ? await writes.take(writeKey(client)) : reads.take(client.limitKey);
    if (!allowed) return c.json({ error: 'too many requests; try again in a minute' }, 429, { 'Retry-After': '60' });
    await next();
    // A write the store could not take (503 database away, 507 disk full) is given back: a client
    // that retries as Retry-After asks would otherwise spend its budget on our fault.
    if (c.req.method === 'POST' && (c.res.status === 503 || c.res.status === 507)) await writes.refund(writeKey(client));
  });
  // Writes only from the site's own pages. A JSON content type cannot be sent cross-origin
  // without a CORS preflight, which only listed origins pass; a browser also names the page's
  // origin, which must be this host or a listed one.
  app.use('/api/v1/results', async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) throw new RequestError(415, `Content-Type must be application/json, not '${type.slice(0, 60)}'`);
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      let host: string | null = null;
      try {
        host = new URL(origin).host;
      } catch {
        /* 'null' or garbage: no host */
      }
      if (host === null || host !== c.req.header('host')) throw new RequestError(403, `submissions from origin '${origin.slice(0, 100)}' are not accepted`);
    }
    await next();
  });
  app.use('/api/v1/results', bodyLimit({ maxSize: maxBody, onError: (c) => c.json({ error: `body larger than ${maxBody} bytes` }, 413) }));
  app.route(
    '/api/v1',
    routes(sql, {
      client: (c) => c.get('client'),
      chargeBody: async (client, bytes) => {
        const extra = Math.floor(bytes / BYTES_PER_TOKEN);
        return extra === 0 || (await writes.take(writeKey(client), extra));
      },
      chargeCohorts: async (client, cohorts) => {
        const extra = Math.floor(cohorts / COHORTS_PER_TOKEN);
        return extra === 0 || (await writes.take(writeKey(client), extra));
      },
      liveRead: async (client, read) => {
        const key = liveKey(client);
        const own = await liveByNetwork.left(key);
        if (own <= 0) return { refused: true };
        // Everyone's budget, else (for a network that has read little) the reserve.
        const from =
          (await liveByAll.left('reads:all')) > 0 ? liveByAll : own > LIGHT_READER && (await liveReserve.left('reads:reserve')) > 0 ? liveReserve : null;
        if (!from) return { refused: true };
        const t = readClock();
        try {
          return { value: await read() };
        } finally {
          const ms = readClock() - t;
          await Promise.all([liveByNetwork.spend(key, ms), from.spend(from === liveByAll ? 'reads:all' : 'reads:reserve', ms)]);
        }
      },
      sources,
      sourceDailyCap: o.sourceDailyCap ?? DEFAULT_SOURCE_DAILY_CAP,
      exportMinAgeMs: o.exportMinAgeMs,
      refreshDelayMs: o.refreshDelayMs,
    }),
  );
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((err, c) => {
    if (err instanceof RequestError) return c.json({ error: err.message }, err.status, err.status === 429 ? { 'Retry-After': '3600' } : {});
    const fault = classifyFault(err);
    if (fault) {
      if (fault.status !== 422) console.error(`collector: ${c.req.method} ${new URL(c.req.url).pathname} answered ${fault.status}: ${(err as Error).message}`);
      return c.json({ error: fault.message }, fault.status, fault.retryAfterS ? { 'Retry-After': String(fault.retryAfterS) } : {});
    }
    console.error('collector error:', err);
    return c.json({ error: 'internal error' }, 500);
  });
  return app;
}
