/**
 * Storage: one small SQL interface over two engines — embedded PGlite (a data directory,
 * nothing to install; the default) and PostgreSQL (when DATABASE_URL is set; what a deployment
 * uses, so stateless collectors can scale out behind a load balancer). The same SQL migrations
 * run on both. PGlite serves one connection; its queries queue.
 * @module
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';

export interface Sql {
  readonly kind: 'pglite' | 'postgres';
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction: all of it commits, or none. */
  transaction<R>(fn: (tx: Pick<Sql, 'query'>) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

export async function openPglite(dataDir?: string): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  const query = async <T>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows;
  return {
    kind: 'pglite',
    query,
    transaction: (fn) => db.transaction((tx) => fn({ query: async <T>(text: string, params: unknown[] = []) => (await tx.query<T>(text, params)).rows })),
    close: () => db.close(),
  };
}

export async function openPostgres(url: string): Promise<Sql> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_SIZE ?? 10) });
  const query = async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
  return {
    kind: 'postgres',
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const r = await fn({ query: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[] });
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** DATABASE_URL → PostgreSQL; otherwise PGlite in `dataDir` (or in memory if none). */
export function openStore(o: { databaseUrl?: string; dataDir?: string }): Promise<Sql> {
  return o.databaseUrl ? openPostgres(o.databaseUrl) : openPglite(o.dataDir);
}

const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** Applies the migrations not yet applied, each in its own transaction, in file-name order. */
export async function migrate(sql: Sql): Promise<string[]> {
  await sql.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  // Two collectors starting together against one PostgreSQL: a lock serialises them.
  if (sql.kind === 'postgres') await sql.query('SELECT pg_advisory_lock(74657)');
  try {
    const done = new Set((await sql.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const name of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort()) {
      if (done.has(name)) continue;
      const text = readFileSync(new URL(name, MIGRATIONS), 'utf8');
      await sql.transaction(async (tx) => {
        for (const statement of text.split(/;\s*$/m).map((s) => s.trim()).filter((s) => s && !/^(--[^\n]*\n?)*$/.test(s))) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      });
      applied.push(name);
    }
    return applied;
  } finally {
    if (sql.kind === 'postgres') await sql.query('SELECT pg_advisory_unlock(74657)');
  }
}
