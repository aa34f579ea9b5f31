/**
 * `npm run bench:collector`: a bounded load test on loopback (autocannon) of the collector on
 * PGlite and on PostgreSQL — submissions/s and p50/p99 latency, for a one-case submission and a
 * quick-preset-sized one (84 cases) — and the crowd-statistics query time over 1 M case rows.
 * Targets here: ≥ 1 000 submissions/s on PGlite, ≥ 3 000 on PostgreSQL, statistics p95 ≤ 100 ms.
 *   DURATION=10 CONNECTIONS=16 ROWS=1000000 npm run bench:collector
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { startPostgres } from '../collector/test/postgres.ts';
import { migrate, openPglite, openPostgres, type Sql } from '../collector/db.ts';
import { crowdStats } from '../collector/store.ts';
import { sampleDocument } from '../web/core/test/fixtures.ts';
import { quantile } from '../web/core/stats.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const ALGS = ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305', 'xchacha20-poly1305', 'ascon-aead128', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256'];

function body(cases: number): string {
  const doc = sampleDocument();
  doc.runId = crypto.randomUUID();
  doc.environment.userAgent = '';
  const c = doc.cases[0]!;
  doc.cases = Array.from({ length: cases }, (_, i) => ({ ...c, algorithm: ALGS[i % 7]! as typeof c.algorithm, sizeBytes: 64 << Math.floor(i / 7), samples: Array.from({ length: 10 }, (_, j) => (64 << Math.floor(i / 7)) * (1 + j / 100)) })); // ~1 GB/s
  return JSON.stringify({ result: doc, deviceClass: 'desktop' });
}

async function collector(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'collector/server.ts', '--port', String(port)], { env: { ...process.env, COLLECTOR_RATE_PER_MINUTE: '1000000000', ...env }, stdio: 'ignore' });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return proc;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('collector did not start');
}

async function load(port: number, cases: number) {
  const template = body(cases);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: 'POST', path: '/api/v1/results', headers: { 'content-type': 'application/json' }, setupRequest: (req: Record<string, unknown>) => ({ ...req, body: template.replace(/"runId":"[^"]+"/, `"runId":"${crypto.randomUUID()}"`) }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** 1 M case rows spread like a real crowd: 7 algorithms × 4 implementations × 3 operations × 10 sizes × 5 classes. */
async function fill(sql: Sql, rows: number) {
  const perSubmission = 20;
  await sql.query(`INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, browser, browser_major, os, os_major, arch, cores, runtime, isolated, timer_us, preset)
    SELECT md5(i::text)::uuid, '', 'aeadbench/result@1', '0.1.0', (ARRAY['phone','tablet','laptop','desktop','server'])[1 + i % 5], (ARRAY['Chrome','Firefox','Safari'])[1 + i % 3], 150, 'Linux', 6, (ARRAY['x86-64','arm64'])[1 + i % 2], 8, 'browser', true, 5, 'quick'
    FROM generate_series(1, $1::int) AS i`, [Math.ceil(rows / perSubmission)]);
  await sql.query(`INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
    SELECT md5((1 + (k / $2::int))::text)::uuid, (ARRAY['aes-128-gcm','aes-256-gcm','chacha20-poly1305','xchacha20-poly1305','ascon-aead128','aes-128-cbc-hmac-sha256','aes-256-cbc-hmac-sha256'])[1 + k % 7],
           (ARRAY['rustcrypto-wasm','webcrypto','noble','node-crypto'])[1 + (k / 7) % 4], 'v', (ARRAY['encrypt','decrypt','forged-decrypt'])[1 + (k / 28) % 3],
           64 << ((k / 84) % 10), k % 20, ARRAY[1000.0, 1010.0, 990.0], 3, 1000 + random() * 500, 1e8 * (0.5 + random()), 0.01
    FROM generate_series(0, $1::int - 1) AS k`, [rows, perSubmission]);
  await sql.query('ANALYZE');
}

async function statsTiming(sql: Sql) {
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const f = { algorithm: ALGS[i % 7]!, implementation: 'rustcrypto-wasm', operation: 'encrypt', sizeBytes: 64 << (i % 10) };
    const t = performance.now();
    await crowdStats(sql, f);
    times.push(performance.now() - t);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const pg = await startPostgres();
const out: string[] = [];
try {
  for (const [name, env] of [['PGlite', { COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-bench-')) }], ['PostgreSQL', { DATABASE_URL: pg.url }]] as const) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const proc = await collector(env, port);
    for (const cases of [1, 84]) {
      const r = await load(port, cases);
      out.push(`${name.padEnd(11)} ${String(cases).padStart(3)} case(s)/submission: ${r.rps.toFixed(0).padStart(6)} submissions/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`);
      process.stderr.write(out[out.length - 1] + '\n');
    }
    proc.kill('SIGTERM');
  }
  for (const [name, open] of [['PGlite', () => openPglite()], ['PostgreSQL', () => openPostgres(pg.url)]] as const) {
    const sql = await open();
    await migrate(sql);
    await sql.query('TRUNCATE submissions CASCADE');
    const t = performance.now();
    await fill(sql, ROWS);
    const loadS = (performance.now() - t) / 1000;
    const s = await statsTiming(sql);
    out.push(`${name.padEnd(11)} statistics over ${ROWS} case rows (loaded in ${loadS.toFixed(1)} s): p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`);
    process.stderr.write(out[out.length - 1] + '\n');
    await sql.close();
  }
} finally {
  pg.stop();
}
console.log(`\nbench:collector — loopback, ${CONNECTIONS} connections × ${DURATION} s per cell, Node ${process.version}`);
for (const line of out) console.log(line);
console.log('targets: ≥ 1000 submissions/s PGlite, ≥ 3000 PostgreSQL; statistics p95 ≤ 100 ms at 1 M rows');
