import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { appFor } from '../harness/bodies.ts';
import { migrate, openPglite, openPostgres, type Sql } from '../db.ts';

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
  await sql.query('TRUNCATE submissions, cohort_bounds, cohort_views, cohort_day_weights, rate_buckets, operator_log, daily_counts CASCADE');
  await sql.query('UPDATE collector_totals SET submissions = 0, cases = 0');
}

export { appFor, post, randomAddress, submission } from '../harness/bodies.ts';
