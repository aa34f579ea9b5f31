// Attacks and faults against the running processes, not app.request(): the site's server with
// its embedded collector and a collector alone. Malformed requests, aborted bodies and
// exports, a PostgreSQL restart under load, two processes on one PGlite directory, a full
// disk. Afterwards each process is alive and answers /health quickly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openPglite, openPostgres } from '../db.ts';
import { appFor, post, submission } from './helpers.ts';
import { startPostgres } from '../harness/postgres.ts';
import { type Proc, healthMs, http, postJson, startCollector, startNode } from '../harness/spawn.ts';

/** Sends raw bytes (what no well-behaved client would send) and returns the status line's code, or 'closed'. */
function raw(port: number, bytes: string, o: { closeAfterMs?: number } = {}): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    const done = (v: number | 'closed') => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(5000, () => done('closed'));
    s.on('data', (d) => {
      got += d;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      if (m) done(Number(m[1]));
    });
    s.on('error', () => done('closed'));
    s.on('close', () => done('closed'));
    s.write(bytes);
    if (o.closeAfterMs !== undefined) setTimeout(() => done('closed'), o.closeAfterMs);
  });
}

/** A submission with `cases` cases (sizes 1 … cases), to give the exports something to stream. */
function wideSubmission(cases: number) {
  const body = submission();
  const c0 = body.result.cases[0]!;
  body.result.params.sizes = Array.from({ length: cases }, (_, i) => i + 1);
  body.result.cases = body.result.params.sizes.map((sizeBytes) => ({ ...c0, sizeBytes, samples: Array.from({ length: 5 }, (_, j) => 900 + sizeBytes + j) }));
  return body;
}

const MALFORMED = [
  'GET /% HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /%zz%%/..%c0%af HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /..%2fdist-private%2fsecret.txt HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET //etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/% HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/stats?algorithm=%&size=%zz HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /api/v1/percentile?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&bytesPerSecond=1e999 HTTP/1.1\r\nHost: x\r\n\r\n',
  `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
  'DELETE /index.html HTTP/1.1\r\nHost: x\r\n\r\n',
  'PUT /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}',
  'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
  'GET / HTTP/1.1\r\nHost: x\r\nX: \u0000\r\n\r\n',
  'POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"a":',
  `POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  'POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nOrigin: https://evil.example\r\nContent-Length: 2\r\n\r\n{}',
  'GET /api/v1/export.csv HTTP/1.0\r\n\r\n',
  'NOT-HTTP\r\n\r\n',
];

/** Everything above, random paths and methods, and aborts mid-body and mid-export. */
async function attack(p: Proc): Promise<{ statuses: (number | 'closed')[] }> {
  const statuses: (number | 'closed')[] = [];
  for (const m of MALFORMED) statuses.push(await raw(p.port, m));
  // Random paths and query strings made of the characters that break decoders and joins.
  const chars = fc.constantFrom('%', '/', '.', '\\', 'a', '0', 'f', '?', '&', '=', '#', '+', '~', ';', ':', '@', '\u00e9');
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS', 'PATCH'),
      fc.constantFrom('/', '/api/v1/', '/assets/'),
      fc.string({ unit: chars, maxLength: 40 }),
      async (method, prefix, tail) => {
        const path = encodeURI(prefix + tail).replace(/%25/g, '%');
        const s = await raw(p.port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`);
        statuses.push(s);
        expect(s === 'closed' || s < 500).toBe(true);
      },
    ),
    { numRuns: 150 },
  );
  // A body that never finishes, and a client that goes away mid-body.
  for (let i = 0; i < 5; i++) {
    statuses.push(
      await raw(p.port, 'POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"result":', {
        closeAfterMs: 50,
      }),
    );
  }
  // Exports abandoned after their first bytes: they must stop, not run on.
  for (let i = 0; i < 5; i++) statuses.push(await raw(p.port, 'GET /api/v1/export.ndjson HTTP/1.1\r\nHost: x\r\n\r\n', { closeAfterMs: 30 }));
  return { statuses };
}

/**
 * The process lives and answers /health with its database up. How long that took is printed,
 * not asserted: on a loaded host any bound either fails honest code or proves nothing
 * (bench:collector measures it).
 */
async function assertHealthy(p: Proc) {
  expect(p.proc.exitCode).toBeNull();
  const ms = await healthMs(p.url);
  const r = await http(`${p.url}/api/v1/health`);
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body)).toMatchObject({ ok: true, database: 'up' });
  console.log(`/health answered in ${ms.toFixed(1)} ms after the attack`);
}

describe('request fuzz against the running processes', () => {
  const procs: Proc[] = [];
  afterAll(async () => {
    for (const p of procs) await p.kill();
  });

  it('the site server with its embedded collector survives every malformed request and keeps answering /health (its latency printed)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aeadbench-site-'));
    mkdirSync(join(root, 'dist', 'assets'), { recursive: true });
    mkdirSync(join(root, 'dist-private'));
    writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><title>aeadbench</title>');
    writeFileSync(join(root, 'dist', 'assets', 'app.js'), 'export {};');
    writeFileSync(join(root, 'dist-private', 'secret.txt'), 'SECRET');
    // 2,000 case rows of yesterday for the export to pass over (it holds the days that have
    // ended), stored before the server takes the directory.
    const data = mkdtempSync(join(tmpdir(), 'aeadbench-fuzz-'));
    const seed = await openPglite(data);
    await migrate(seed);
    const seeding = appFor(seed);
    for (let i = 0; i < 40; i++) expect((await post(seeding, wideSubmission(50))).status).toBe(201);
    await seed.query('UPDATE submissions SET received_on = current_date - 1');
    await seed.close();
    const site = await startNode('server/serve.ts', ['--dir', join(root, 'dist')], { COLLECTOR_DATA: data });
    procs.push(site);
    const { statuses } = await attack(site);
    expect(statuses.filter((s) => s !== 'closed' && s >= 500)).toEqual([]);
    // Nothing outside the root is served, however the path is spelled.
    for (const path of ['/..%2fdist-private%2fsecret.txt', '/%2e%2e/dist-private/secret.txt', '/..%5cdist-private%5csecret.txt']) {
      const r = await http(`${site.url}${path}`);
      expect(r.body).not.toContain('SECRET');
      expect([400, 403, 404]).toContain(r.status);
    }
    expect((await http(`${site.url}/%`)).status).toBe(400);
    expect((await http(`${site.url}/assets/app.js`)).headers['cross-origin-embedder-policy']).toBe('require-corp');
    await assertHealthy(site);
    expect((await http(`${site.url}/api/v1/export.csv`)).body.split('\n').length).toBe(2002); // header, 2,000 rows, final newline
  }, 120_000);

  it('a collector alone survives the same', async () => {
    const collector = await startCollector({ COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-fuzz-')) });
    procs.push(collector);
    for (let i = 0; i < 20; i++) expect((await postJson(collector.url, wideSubmission(50))).status).toBe(201);
    const { statuses } = await attack(collector);
    expect(statuses.filter((s) => s !== 'closed' && s >= 500)).toEqual([]);
    await assertHealthy(collector);
  }, 120_000);
});

describe('faults', () => {
  it('a second process on the same PGlite directory refuses to start, naming it and the holder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-twice-'));
    const first = await startCollector({ COLLECTOR_DATA: dir });
    const second = await startCollector({ COLLECTOR_DATA: dir }, { expectExit: true });
    expect(await second.exited).toBe(1);
    expect(second.log()).toContain(`PGlite directory ${dir} is in use by process ${first.proc.pid}`);
    // The first is untouched and still takes writes.
    expect((await postJson(first.url, submission())).status).toBe(201);
    await first.kill();
    // Killed without a chance to clean up, its lock is stale: the next process takes over.
    const first2 = await startCollector({ COLLECTOR_DATA: dir });
    await first2.kill('SIGKILL');
    const third = await startCollector({ COLLECTOR_DATA: dir });
    expect((await http(`${third.url}/api/v1/health`)).status).toBe(200);
    await third.kill();
  }, 60_000);

  describe('PostgreSQL restart under load', () => {
    let pg: Awaited<ReturnType<typeof startPostgres>>;
    beforeAll(async () => {
      pg = await startPostgres();
    });
    afterAll(() => pg.stop());

    it('answers 503 while the database is away, loses no acknowledged run, and recovers by itself', async () => {
      const collector = await startCollector({ DATABASE_URL: pg.url });
      const acked = new Set<string>();
      const seen = new Map<number | string, number>();
      let retryAfter = '';
      let stop = false;
      const lane = async (from: string) => {
        while (!stop) {
          const body = submission();
          const r = await postJson(collector.url, body, from).catch(() => ({ status: 'error', headers: {} as Record<string, string> }) as const);
          seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
          if (r.status === 201) acked.add(body.result.runId);
          if (r.status === 503) retryAfter = String(r.headers['retry-after']);
          if (r.status !== 201) await new Promise((res) => setTimeout(res, 20));
        }
      };
      const lanes = ['127.0.1.1', '127.0.2.1', '127.0.3.1', '127.0.4.1'].map(lane);
      while (acked.size < 100) await new Promise((r) => setTimeout(r, 20));
      pg.halt(); // fast shutdown: open connections get 57P01
      await new Promise((r) => setTimeout(r, 1500));
      // A collector started while the database is down answers 503 until it appears.
      const late = await startCollector({ DATABASE_URL: pg.url }, { anyStatus: true });
      expect((await http(`${late.url}/api/v1/health`)).status).toBe(503);
      pg.resume();
      // Writes resume by themselves: a hundred more acknowledgements, however long this host takes (the test's own timeout bounds it).
      const ackedAtResume = acked.size;
      while (acked.size < ackedAtResume + 100) await new Promise((r) => setTimeout(r, 50));
      stop = true;
      await Promise.all(lanes);
      console.log(`PostgreSQL halted for 1.5 s under load: ${JSON.stringify(Object.fromEntries(seen))}, ${acked.size} acknowledged`);
      expect(seen.get(503)).toBeGreaterThan(0);
      expect(retryAfter).toBe('5');
      expect([...seen.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
      expect(acked.size).toBeGreaterThanOrEqual(ackedAtResume + 100); // writes resumed by themselves
      expect(collector.proc.exitCode).toBeNull();
      expect(collector.log()).toMatch(/database connection lost|answered 503/);
      // Every acknowledged run is stored.
      const sql = await openPostgres(pg.url);
      const stored = new Set((await sql.query<{ id: string }>('SELECT id::text AS id FROM submissions')).map((r) => r.id));
      await sql.close();
      expect([...acked].filter((id) => !stored.has(id))).toEqual([]);
      for (let i = 0; i < 200 && (await http(`${late.url}/api/v1/health`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
      expect((await http(`${late.url}/api/v1/health`)).status).toBe(200);
      expect(late.log()).toMatch(/retrying in/);
      await collector.kill();
      await late.kill();
    }, 120_000);
  });

  it('on a full disk refuses writes (507), keeps serving reads, and takes writes again when space returns', async (ctx) => {
    const mnt = mkdtempSync(join(tmpdir(), 'aeadbench-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mnt], { stdio: 'pipe' });
    } catch (e) {
      // Mounting needs root (CI and this project's machines are root); say why it did not run.
      console.warn(`disk-full test skipped: cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]})`);
      ctx.skip();
    }
    const collector = await startCollector({ COLLECTOR_DATA: join(mnt, 'db'), COLLECTOR_DATA_CREATE: '1' });
    try {
      const stored = await postJson(collector.url, submission());
      expect(stored.status).toBe(201);
      const first = JSON.parse(stored.body).id as string;
      const free = () => Number(statfsSync(mnt).bavail) * Number(statfsSync(mnt).bsize);
      writeFileSync(join(mnt, 'filler'), Buffer.alloc(Math.max(0, free() - 8 * 1024 * 1024)));
      const refused = await postJson(collector.url, submission());
      expect(refused.status).toBe(507);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(JSON.parse(refused.body).error).toContain('storage is full');
      expect((await http(`${collector.url}/api/v1/health`)).status).toBe(200);
      expect((await http(`${collector.url}/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024`)).status).toBe(200);
      rmSync(join(mnt, 'filler'));
      const again = await postJson(collector.url, submission());
      expect(again.status).toBe(201);
      // What was accepted before the disk filled, and after, is there.
      for (const id of [first, JSON.parse(again.body).id as string]) expect((await http(`${collector.url}/api/v1/results/${id}`)).status).toBe(200);
      expect(collector.proc.exitCode).toBeNull();
    } finally {
      await collector.kill();
      execFileSync('umount', [mnt]);
    }
  }, 60_000);
});

describe('stopping', () => {
  it('a process whose store never finishes closing (a long refresh in hand) still exits on SIGTERM within the grace, with code 0', async () => {
    const { spawn } = await import('node:child_process');
    const { STOP_GRACE_MS } = await import('../http-guard.ts');
    const script = `import { stopOnSignals } from ${JSON.stringify(new URL('../http-guard.ts', import.meta.url).pathname)};
      stopOnSignals(() => new Promise(() => {}));
      setInterval(() => {}, 1000);
      console.log('ready');`;
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const t0 = Date.now();
    proc.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
    const ms = Date.now() - t0;
    expect(code).toBe(0);
    // Not before the grace (the close is given its chance), and long before 5 s plus a busy host's slack.
    expect(ms).toBeGreaterThanOrEqual(STOP_GRACE_MS - 50);
    expect(ms).toBeLessThan(STOP_GRACE_MS + 10_000);
  }, 30_000);

  it('a collector stops on SIGTERM as soon as its store is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-stop-'));
    const collector = await startCollector({ COLLECTOR_DATA: join(dir, 'db'), COLLECTOR_DATA_CREATE: '1' });
    try {
      expect((await postJson(collector.url, submission())).status).toBe(201);
      const t0 = Date.now();
      collector.proc.kill('SIGTERM');
      expect(await collector.exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      await collector.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
