// The database's CHECK constraints repeat the engine's tables (a row the schema accepts must be
// one the database stores: a CHECK violation is answered 422, so no property test of the API
// would see the two drift apart). These read each constraint as the migrated database holds it
// and hold its list against the TypeScript table it copies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openPglite, type Sql } from '../db.ts';
import { MAX_SIZE_BYTES, OPERATIONS } from '../../web/core/tables/algorithms.ts';
import { ENGINE_NAMES } from '../../web/core/schema.ts';
import { EXECUTION_MODES } from '../../web/core/execution.ts';
import { DEVICE_CLASSES, memoryBucketGiB } from '../../web/core/submit.ts';

let sql: Sql;
beforeAll(async () => {
  sql = await openPglite();
  await migrate(sql);
});
afterAll(() => sql.close());

/** Every CHECK of a table, as PostgreSQL prints it back. */
async function checks(table: string): Promise<string[]> {
  const rows = await sql.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid WHERE t.relname = $1 AND c.contype = 'c'`,
    [table],
  );
  return rows.map((r) => r.def);
}

/** The values of `column IN (…)` (printed back as `column = ANY (ARRAY[…])`) in a table's CHECKs. */
async function allowed(table: string, column: string): Promise<(string | number)[]> {
  const def = (await checks(table)).find((d) => new RegExp(`\\(?${column}\\b[^,]*= ANY`).test(d));
  if (!def) throw new Error(`no CHECK on ${table}.${column} of the form ${column} IN (…)`);
  const list = /ARRAY\[(.*)\]/.exec(def)![1]!;
  return [...list.matchAll(/'([^']*)'::text|(-?\d+)/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
}

describe("the database's CHECK lists are the engine's tables", () => {
  it('submissions.device_class: the device classes a visitor chooses from (web/core/submit.ts)', async () => {
    expect(await allowed('submissions', 'device_class')).toEqual([...DEVICE_CLASSES]);
  });

  it('submissions.engine: the engines the schema names', async () => {
    expect(await allowed('submissions', 'engine')).toEqual([...ENGINE_NAMES]);
  });

  it('submissions.execution: the execution modes (web/core/execution.ts)', async () => {
    expect(await allowed('submissions', 'execution')).toEqual([...EXECUTION_MODES]);
  });

  it('submissions.memory_bucket: every bucket memoryBucketGiB can give', async () => {
    const buckets = await allowed('submissions', 'memory_bucket');
    const given = new Set([0.25, 0.5, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 1024].map((g) => memoryBucketGiB(g)).filter((b) => b !== null));
    for (const b of given) expect(buckets).toContain(b);
  });

  it('cases.operation: the operations of the table', async () => {
    expect(await allowed('cases', 'operation')).toEqual([...OPERATIONS]);
  });

  it('cases.size_bytes: up to the largest payload any preset or URL may ask for', async () => {
    const def = (await checks('cases')).find((d) => d.includes('size_bytes'));
    expect(def).toContain(`<= ${MAX_SIZE_BYTES}`);
  });

  it('submissions.runtime: a browser or Node, as the schema says', async () => {
    expect(await allowed('submissions', 'runtime')).toEqual(['browser', 'node']);
  });
});

describe("the harness's sample result", () => {
  it('validates against the schema, as every body built from it starts out', async () => {
    const { validateResult } = await import('../../web/core/schema.ts');
    const { sampleResult } = await import('../harness/sample-result.ts');
    const checked = validateResult(sampleResult());
    expect(checked.ok ? [] : checked.issues).toEqual([]);
  });
});

describe('what the collector takes from the engine', () => {
  it('is the schema, the tables, and the modules docs/architecture.md names with why', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const root = new URL('../../', import.meta.url);
    const files = (readdirSync(new URL('collector/', root), { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('test/') && !f.endsWith('.test.ts'),
    );
    const imported = new Set(
      files.flatMap((f) => [...readFileSync(new URL(`collector/${f}`, root), 'utf8').matchAll(/from '(?:\.\.\/)+(web\/core\/[^']+)'/g)].map((m) => m[1]!)),
    );
    const doc = readFileSync(new URL('docs/architecture.md', root), 'utf8');
    const section = doc.slice(doc.indexOf('## The collector and the engine'), doc.indexOf('## Adding an AEAD'));
    const named = new Set([...section.matchAll(/^\| `(web\/core\/[^`]+)` \|/gm)].map((m) => m[1]!));
    expect(imported.size).toBeGreaterThan(0);
    expect([...imported].sort()).toEqual([...named].sort());
  });
});
