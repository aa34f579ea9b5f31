/**
 * The collector as its own process (a deployment runs several behind a load balancer, on one
 * PostgreSQL; see deploy/): `DATABASE_URL=postgres://… tsx collector/server.ts --port 8787`.
 * Without DATABASE_URL it uses embedded PGlite in COLLECTOR_DATA (default .data/collector).
 *
 * It listens at once. While PostgreSQL cannot be reached (down at start, restarting, failing
 * over) requests get 503 with Retry-After and the process retries with backoff, saying so in
 * its log; it recovers by itself when the database returns.
 * @module
 */
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { migrate, openStore, type Sql } from './db.ts';
import proxyaddr from 'proxy-addr';
import { SERVER_OPTIONS, guardServer, stopOnSignals } from './http-guard.ts';
import { createSourceKeys } from './source.ts';
import { type CollectorConfig, configFromEnv } from './config.ts';

/** Runs `step` until it succeeds, waiting 0.5 s, 1 s, 2 s … 15 s between tries, logging each failure. */
export async function withRetry<T>(what: string, step: () => Promise<T>, o: { signal?: AbortSignal; log?: (line: string) => void } = {}): Promise<T> {
  const log = o.log ?? ((line: string) => console.error(line));
  for (let attempt = 1, waitMs = 500; ; attempt++, waitMs = Math.min(15_000, waitMs * 2)) {
    try {
      const r = await step();
      if (attempt > 1) log(`collector: ${what} succeeded after ${attempt} tries`);
      return r;
    } catch (e) {
      if (o.signal?.aborted) throw e;
      log(`collector: ${what} failed (${(e as { code?: string }).code ?? (e as Error).message}); retrying in ${waitMs / 1000} s`);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}

export interface Collector {
  sql: Sql;
  app: ReturnType<typeof createApp>;
  /** Resolves once the database was reached and migrated. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store and composes the app. PGlite opens (and takes its directory's lock) before
 * this returns: a second process on the same directory fails here. PostgreSQL is reached in
 * the background, with retries; until then the app answers 503.
 */
export async function openCollector(config: CollectorConfig): Promise<Collector> {
  const sql = await openStore(config);
  let isReady = false;
  const stop = new AbortController();
  let ready: Promise<void>;
  if (sql.kind === 'pglite') {
    // Embedded: either it opens or startup fails, at once.
    await migrate(sql).catch(async (e) => (await sql.close(), Promise.reject(e)));
    isReady = true;
    ready = Promise.resolve();
  } else {
    ready = withRetry('reaching the database and applying migrations', () => migrate(sql), { signal: stop.signal }).then(() => void (isReady = true));
    ready.catch(() => {}); // only rejects when close() aborts it
  }
  const app = createApp(sql, {
    corsOrigins: config.corsOrigins,
    submissionsPerMinute: config.submissionsPerMinute,
    trustedProxies: config.trustedProxies,
    sources: createSourceKeys({ keyDir: config.keyDir }),
    sourceDailyCap: config.sourceDailyCap,
    sharedLimits: sql.kind === 'postgres',
    isReady: () => isReady,
    exportMinAgeMs: config.exportMinAgeMs,
  });
  return {
    sql,
    app,
    ready,
    close: async () => {
      stop.abort();
      await sql.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.PORT ?? 8787));
  let collector: Collector;
  try {
    collector = await openCollector(configFromEnv());
  } catch (e) {
    console.error(`collector: cannot start: ${(e as Error).message}`);
    process.exit(1);
  }
  const { sql, app } = collector;
  const config = configFromEnv();
  const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '127.0.0.1', serverOptions: SERVER_OPTIONS }, (info) =>
    console.log(`collector on http://127.0.0.1:${info.port}/api/v1 (${sql.kind}${sql.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`),
  );
  const trusted = proxyaddr.compile(config.trustedProxies);
  guardServer(server as import('node:http').Server, { exempt: (address) => trusted(address, 0) });
  stopOnSignals(async () => {
    server.close();
    await collector.close();
  });
}
