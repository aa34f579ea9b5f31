// deploy/nginx.conf.template as a deployment runs it, on loopback: three collectors behind
// nginx on one PostgreSQL. One collector is killed under load: no acknowledged run is lost
// and clients see only answers (the balancer retries the idempotent POST elsewhere). The
// write budget holds per client across the three processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../../deploy/local.ts';
import { openPostgres } from '../db.ts';
import { submission } from './helpers.ts';
import { http, postJson } from '../harness/spawn.ts';

describe('three collectors behind nginx on one PostgreSQL', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ collectors: 3 });
  }, 60_000);
  afterAll(() => stack?.stop());

  it('serves the site isolated and the API through the balancer', async () => {
    const page = await http(`${stack.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(JSON.parse((await http(`${stack.url}/api/v1/health`)).body)).toMatchObject({ ok: true, storage: 'postgres' });
  });

  it('loses no acknowledged run when a collector is killed under load, and clients see no errors', async () => {
    const acked = new Set<string>();
    const statuses = new Map<number | string, number>();
    let stop = false;
    let killedAt = -1;
    const lane = async (from: string) => {
      while (!stop) {
        const body = submission();
        const r = await postJson(stack.url, body, from).catch((e: Error) => ({ status: `error: ${e.message}` }) as const);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 201 || r.status === 200) acked.add(body.result.runId);
      }
    };
    // Eight clients on eight loopback networks (each its own source and budget).
    const lanes = Array.from({ length: 8 }, (_, i) => lane(`127.0.${20 + i}.1`));
    while (acked.size < 150) await new Promise((r) => setTimeout(r, 10));
    killedAt = acked.size;
    stack.collectors[1]!.proc.kill('SIGKILL');
    while (acked.size < killedAt + 250) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await Promise.all(lanes);
    console.log(`balancer, one of three collectors killed after ${killedAt} acknowledgements: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()].filter((s) => s !== 201 && s !== 200)).toEqual([]);
    const sql = await openPostgres(stack.pg.url);
    const stored = new Set((await sql.query<{ id: string }>('SELECT id::text AS id FROM submissions')).map((r) => r.id));
    await sql.close();
    expect([...acked].filter((id) => !stored.has(id))).toEqual([]);
    await stack.replaceCollector(1);
  }, 120_000);

  it('holds one write budget per client across every process the balancer picks', async () => {
    for (let i = 0; i < 3; i++) await stack.replaceCollector(i, { COLLECTOR_RATE_PER_MINUTE: '10' });
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await postJson(stack.url, submission(), '127.0.99.9')).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
    // The budget is the client's, not the balancer's: another address still has its own.
    expect((await postJson(stack.url, submission(), '127.0.98.9')).status).toBe(201);
    // A client cannot pick its budget by forging X-Forwarded-For: the balancer replaces the
    // header, and the collector believes only what its trusted proxy saw.
    const forged = await http(`${stack.url}/api/v1/results`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.1' },
      body: JSON.stringify(submission()),
      from: '127.0.99.9',
    });
    expect(forged.status).toBe(429);
  }, 60_000);
});
