/**
 * Storage: one small SQL interface over two engines — embedded PGlite (a data directory,
 * nothing to install; the default) and PostgreSQL (when DATABASE_URL is set; what a deployment
 * uses, so stateless collectors can scale out behind a load balancer). The same SQL migrations
 * run on both. PGlite serves one connection; its queries queue.
 * @module
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { lockDirectory } from './lock.ts';

export interface Sql {
  readonly kind: 'pglite' | 'postgres';
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction: all of it commits, or none. */
  transaction<R>(fn: (tx: Pick<Sql, 'query'>) => Promise<R>): Promise<R>;
  /** Bytes free for the database's files, where the collector owns them (PGlite); else null. */
  freeBytes?(): Promise<number | null>;
  close(): Promise<void>;
  /** True once close() was called: background work (the cohort refresher) stops instead of failing. */
  readonly closed: boolean;
}

export interface PgliteOptions {
  /** Create the directory if it is missing (the default directory of `npm start`); else refuse. */
  create?: boolean;
}

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;
/**
 * Bytes go to PGlite as they are: its bind sends a typed array in binary format, which for
 * bytea is the bytes themselves. Its own bytea serializer makes one hex string per byte, which
 * cost 100 ms of CPU and as much again in garbage for the widest body's 640 KB of samples (and a
 * hex string of 1.3 M characters that it then measures character by character). Its parser, on
 * the way back, also works per byte; Buffer's hex decoding is native.
 */
const bytesAsTheyAre = (b: Uint8Array) => b as unknown as string;
const bytesFromHex = (text: string) => {
  const b = Buffer.from(text.slice(2), 'hex');
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

/**
 * PGlite in `dataDir` (or in memory without one). Takes the directory's lock first (lock.ts);
 * a missing directory is an error unless `create` asks for it, so a mistyped path never starts
 * an empty crowd beside the real one.
 */
export async function openPglite(dataDir?: string, o: PgliteOptions = {}): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  let release: () => void | Promise<void> = () => {};
  if (dataDir) {
    if (!existsSync(dataDir)) {
      if (!o.create) throw new Error(`collector data directory '${dataDir}' does not exist (create it, or set COLLECTOR_DATA_CREATE=1)`);
      mkdirSync(dataDir, { recursive: true });
    }
    release = await lockDirectory(dataDir);
  }
  let db: InstanceType<typeof PGlite>;
  try {
    db = await PGlite.create({ dataDir, serializers: { [BYTEA]: bytesAsTheyAre }, parsers: { [BYTEA]: bytesFromHex } });
  } catch (e) {
    await release();
    throw e;
  }
  // PGlite runs in this thread and its calls resolve as microtasks: a loop of queries (an
  // export, a queue of writes) would hold every other request until it ends. A turn of the
  // event loop after each call lets them in.
  const turn = () => new Promise<void>((r) => setImmediate(r));
  const query = async <T>(text: string, params: unknown[] = []) => {
    const rows = (await db.query<T>(text, params)).rows;
    await turn();
    return rows;
  };
  let closed = false;
  return {
    kind: 'pglite',
    query,
    transaction: async (fn) => {
      const r = await db.transaction((tx) => fn({ query: async <T>(text: string, params: unknown[] = []) => (await tx.query<T>(text, params)).rows }));
      await turn();
      return r;
    },
    freeBytes: async () => {
      if (!dataDir) return null;
      const f = await statfs(dataDir);
      return Number(f.bavail) * Number(f.bsize);
    },
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      try {
        await db.close();
      } finally {
        await release();
      }
    },
  };
}

export async function openPostgres(url: string): Promise<Sql> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.PG_POOL_SIZE ?? 10),
    // A database that does not answer fails the request (503) instead of holding it forever.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 30_000,
  });
  // An idle client whose server went away (restart, failover: 57P01) emits 'error' on the pool;
  // without a listener that is an uncaught exception that ends the process. The pool drops
  // the client by itself and connects anew for the next query.
  pool.on('error', (e) =>
    console.error(`collector: database connection lost (${(e as { code?: string }).code ?? e.message}); reconnecting on the next request`),
  );
  const query = async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
  let closed = false;
  return {
    kind: 'postgres',
    query,
    async transaction(fn) {
      const client = await pool.connect();
      let broken = false;
      // A checked-out client whose server goes away between two queries emits 'error' with no
      // pool listener attached: without this one, that would end the process.
      const onError = (e: Error) => {
        broken = true;
        console.error(`collector: database connection lost mid-transaction (${(e as { code?: string }).code ?? e.message})`);
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const r = await fn({ query: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[] });
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw e;
      } finally {
        // A client whose connection broke mid-transaction is destroyed, not put back.
        client.off('error', onError);
        client.release(broken || undefined);
      }
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
      return pool.end();
    },
  };
}

/** DATABASE_URL → PostgreSQL; otherwise PGlite in `dataDir` (or in memory if none). */
export function openStore(o: { databaseUrl?: string; dataDir?: string; createDataDir?: boolean }): Promise<Sql> {
  return o.databaseUrl ? openPostgres(o.databaseUrl) : openPglite(o.dataDir, { create: o.createDataDir });
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
    for (const name of readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql'))
      .sort()) {
      if (done.has(name)) continue;
      const text = readFileSync(new URL(name, MIGRATIONS), 'utf8');
      await sql.transaction(async (tx) => {
        for (const statement of text
          .split(/;\s*$/m)
          .map((s) => s.trim())
          .filter((s) => s && !/^(--[^\n]*\n?)*$/.test(s)))
          await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      });
      applied.push(name);
    }
    return applied;
  } finally {
    if (sql.kind === 'postgres') await sql.query('SELECT pg_advisory_unlock(74657)');
  }
}
