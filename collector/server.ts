/**
 * The collector as its own process (a deployment runs several behind a load balancer, on one
 * PostgreSQL): `DATABASE_URL=postgres://… tsx collector/server.ts --port 8787`.
 * Without DATABASE_URL it uses embedded PGlite in COLLECTOR_DATA (default .data/collector).
 * @module
 */
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { migrate, openStore, type Sql } from './db.ts';
import { counts, refreshCohorts } from './store.ts';

export interface CollectorConfig {
  databaseUrl?: string;
  dataDir?: string;
  corsOrigins: string[];
  submissionsPerMinute: number;
}

export function configFromEnv(env = process.env): CollectorConfig {
  const perMinute = Number(env.COLLECTOR_RATE_PER_MINUTE ?? 30);
  if (!Number.isFinite(perMinute) || perMinute <= 0) throw new Error(`Invalid COLLECTOR_RATE_PER_MINUTE: '${env.COLLECTOR_RATE_PER_MINUTE}'`);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.COLLECTOR_DATA ?? '.data/collector',
    corsOrigins: (env.COLLECTOR_CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    submissionsPerMinute: perMinute,
  };
}

/**
 * Refreshes the cohort bounds used for outlier flags every `everyMs` while new cases arrive.
 * Several collector processes on one PostgreSQL may each do it; the work is idempotent.
 */
export function maintainCohorts(sql: Sql, everyMs = 60_000): () => void {
  let last = -1;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const { cases } = await counts(sql);
      if (cases !== last) {
        await refreshCohorts(sql);
        last = cases;
      }
    } catch (e) {
      console.error('collector: cohort refresh failed:', (e as Error).message);
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export async function openCollector(config: CollectorConfig): Promise<{ sql: Sql; app: ReturnType<typeof createApp> }> {
  const raw = await openStore(config);
  await migrate(raw);
  const stop = maintainCohorts(raw);
  const sql: Sql = { ...raw, close: async () => (stop(), raw.close()) };
  return { sql, app: createApp(sql, { corsOrigins: config.corsOrigins, submissionsPerMinute: config.submissionsPerMinute }) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.PORT ?? 8787));
  const config = configFromEnv();
  const { sql, app } = await openCollector(config);
  const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '127.0.0.1' }, (info) =>
    console.log(`collector on http://127.0.0.1:${info.port}/api/v1 (${sql.kind}${sql.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`),
  );
  const stop = async () => {
    server.close();
    await sql.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
