// A submission acknowledged with 2xx is never lost by a process crash: the collector is killed
// with SIGKILL while submissions are in flight, and every acknowledged run id must be stored.
// PGlite does not fsync: this proves process crashes, not power loss (see docs/deploy.md).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Sql } from '../db.ts';
import { freshDatabase, submission } from './helpers.ts';
import { startCollector } from '../harness/spawn.ts';

/** Submits with `concurrency` requests in flight until killed; returns the acknowledged ids. */
async function submitUntilKilled({ url, proc, exited }: { url: string; proc: ChildProcess; exited: Promise<unknown> }, killAfterAcks: number, concurrency = 8) {
  const acked: string[] = [];
  let sent = 0;
  let killed = false;
  const lane = async () => {
    while (!killed) {
      const body = submission({ nsPerOp: 1000 + (sent++ % 50) });
      try {
        const r = await fetch(`${url}/api/v1/results`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        if (r.status === 201) acked.push(body.result.runId);
      } catch {
        return; // the process is gone
      }
      if (acked.length >= killAfterAcks && !killed) {
        killed = true;
        proc.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  await exited;
  return { acked, sent };
}

async function storedIds(sql: Sql): Promise<Set<string>> {
  return new Set((await sql.query<{ id: string }>('SELECT id::text AS id FROM submissions')).map((r) => r.id));
}

describe('durability under kill -9', () => {
  it('PGlite keeps every acknowledged submission', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-durable-'));
    const { acked, sent } = await submitUntilKilled(await startCollector({ COLLECTOR_DATA: dir }), 150);
    const sql = await openPglite(dir); // reopened after the crash, as the next process would
    const stored = await storedIds(sql);
    await sql.close();
    console.log(`PGlite: ${sent} sent, ${acked.length} acknowledged before SIGKILL, ${stored.size} stored`);
    expect(acked.length).toBeGreaterThanOrEqual(150);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  }, 120_000);

  it('PostgreSQL keeps every acknowledged submission', async () => {
    const databaseUrl = await freshDatabase();
    const sql = await openPostgres(databaseUrl);
    const before = await storedIds(sql).catch(() => new Set<string>());
    const { acked, sent } = await submitUntilKilled(await startCollector({ DATABASE_URL: databaseUrl }), 150);
    const stored = await storedIds(sql);
    await sql.close();
    console.log(`PostgreSQL: ${sent} sent, ${acked.length} acknowledged before SIGKILL, ${stored.size - before.size} stored`);
    expect(acked.length).toBeGreaterThanOrEqual(150);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  }, 120_000);
});
