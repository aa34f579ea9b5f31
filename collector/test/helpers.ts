import { inject } from 'vitest';
import { createApp, type CollectorOptions } from '../app.ts';
import { migrate, openPglite, openPostgres, type Sql } from '../db.ts';
import { sampleDocument } from '../../web/core/test/fixtures.ts';

export const BACKENDS = ['pglite', 'postgres'] as const;

export async function openBackend(kind: (typeof BACKENDS)[number]): Promise<Sql> {
  const sql = kind === 'pglite' ? await openPglite() : await openPostgres(inject('databaseUrl'));
  await migrate(sql);
  await sql.query('TRUNCATE submissions, cohort_bounds CASCADE');
  return sql;
}

export function appFor(sql: Sql, o: CollectorOptions = {}) {
  return createApp(sql, { submissionsPerMinute: 100_000, clientAddress: () => 'test-client', ...o });
}

/** A valid submission body: a fresh run id, the user-agent emptied as the site sends it. */
export function submission(o: { deviceClass?: string; nsPerOp?: number; sizeBytes?: number; mutate?: (doc: ReturnType<typeof sampleDocument>) => void } = {}) {
  const doc = sampleDocument();
  doc.runId = crypto.randomUUID();
  doc.environment.userAgent = '';
  const c = doc.cases[0]!;
  if (o.sizeBytes !== undefined) c.sizeBytes = o.sizeBytes;
  if (o.nsPerOp !== undefined) c.samples = [o.nsPerOp, o.nsPerOp * 1.001, o.nsPerOp * 0.999];
  o.mutate?.(doc);
  return { result: doc, deviceClass: o.deviceClass ?? 'laptop' };
}

export function post(app: ReturnType<typeof appFor>, body: unknown, headers: Record<string, string> = {}) {
  return app.request('/api/v1/results', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}
