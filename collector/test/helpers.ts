import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { createSourceKeys } from '../source.ts';
import { createApp, type CollectorOptions } from '../app.ts';
import { migrate, openPglite, openPostgres, type Sql } from '../db.ts';
import { sampleDocument } from '../../web/core/test/fixtures.ts';

export const BACKENDS = ['pglite', 'postgres'] as const;

export async function openBackend(kind: (typeof BACKENDS)[number]): Promise<Sql> {
  const sql = kind === 'pglite' ? await openPglite() : await openPostgres(await freshDatabase());
  await migrate(sql);
  await resetBackend(sql);
  return sql;
}

/**
 * A database of its own on the shared test server: test files run in parallel, and one
 * file's TRUNCATE must not empty another's tables mid-test.
 */
export async function freshDatabase(): Promise<string> {
  const url = inject('databaseUrl');
  const admin = await openPostgres(url);
  const name = `t_${crypto.randomUUID().replace(/-/g, '')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A describe block's store: opened once, tables emptied before each test, closed at the end;
 * `use` receives the store and an app on it (appFor) when they are ready.
 */
export function useBackend(kind: (typeof BACKENDS)[number], use: (sql: Sql, app: ReturnType<typeof appFor>) => void): void {
  let sql: Sql;
  beforeAll(async () => {
    sql = await openBackend(kind);
    use(sql, appFor(sql));
  });
  beforeEach(() => resetBackend(sql));
  afterAll(() => sql.close());
}

export async function resetBackend(sql: Sql): Promise<void> {
  await sql.query('TRUNCATE submissions, cohort_bounds, rate_buckets, operator_log CASCADE');
  await sql.query('UPDATE collector_totals SET submissions = 0, cases = 0');
}

/**
 * The app without a server. The client's address comes from the test header `x-test-client`
 * (app.request() has no socket); `post` sends a fresh address unless told, so each post is its
 * own source unless a test says otherwise.
 */
export function appFor(sql: Sql, o: CollectorOptions = {}) {
  return createApp(sql, {
    submissionsPerMinute: 100_000,
    sourceDailyCap: 100_000,
    clientAddress: (c) => c.req.header('x-test-client') ?? 'test-client',
    sources: createSourceKeys({ keyDir: TEST_KEY_DIR }),
    ...o,
  });
}

const TEST_KEY_DIR = mkdtempSync(join(tmpdir(), 'aeadbench-keys-'));

/** A random address in 10.0.0.0/8 (never contacted: only hashed), so each call is another network. */
export const randomAddress = () => `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`;

/** A valid submission body: a fresh run id, the user-agent emptied as the site sends it. */
export function submission(o: { deviceClass?: string; nsPerOp?: number; sizeBytes?: number; mutate?: (doc: ReturnType<typeof sampleDocument>) => void } = {}) {
  const doc = sampleDocument();
  doc.runId = crypto.randomUUID();
  doc.environment.userAgent = '';
  const c = doc.cases[0]!;
  // A phone or tablet runs a phone's OS (the collector checks that the environment hangs together).
  if (o.deviceClass === 'phone' || o.deviceClass === 'tablet') doc.environment.os = { name: 'Android', version: '15' };
  if (o.sizeBytes !== undefined) {
    c.sizeBytes = o.sizeBytes;
    doc.params.sizes = [o.sizeBytes];
  }
  if (o.nsPerOp !== undefined) c.samples = [o.nsPerOp, o.nsPerOp * 1.001, o.nsPerOp * 0.999];
  o.mutate?.(doc);
  return { result: doc, deviceClass: o.deviceClass ?? 'laptop' };
}

export function post(app: ReturnType<typeof appFor>, body: unknown, headers: Record<string, string> = {}) {
  return app.request('/api/v1/results', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-test-client': randomAddress(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
