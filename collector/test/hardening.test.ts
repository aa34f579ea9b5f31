// What a hostile client costs the collector, and what it cannot make it trust: bodies refused
// by their shape before any item is visited, a lock and a key directory the collector can
// vouch for, connections cut at their timeouts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holderAlive, startTimeOf } from '../lock.ts';
import type { Sql } from '../db.ts';
import { createSourceKeys } from '../source.ts';
import { VIEW_ROWS, refreshCohorts } from '../cohorts.ts';
import { LIVE_READ_MS_PER_MINUTE } from '../app.ts';
import { crowdStats, placeIn, voiceDistribution } from '../crowd.ts';
import { ARCHES, BROWSER_NAMES, ENGINE_NAMES } from '../../web/core/platform/env.ts';
import { EXECUTION_MODES } from '../../web/core/execution.ts';
import { MAX_BODY_CONTAINERS, MAX_BODY_VALUES, MAX_SAMPLES_TOTAL, RequestError, checkBodyText, reduceSubmission } from '../submission.ts';
import { BACKENDS, appFor, post, submission, useBackend } from './helpers.ts';
import { http, postJson, startCollector, startNode } from '../harness/spawn.ts';

/** The refusal a call throws, as status and message. */
function refusal(f: () => unknown): { status: number; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof RequestError) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error('not refused');
}

describe('a body is refused by its shape before its items are checked', () => {
  it('refuses millions of bad samples by their count, naming the count and the limit', () => {
    const body = submission();
    body.result.cases[0]!.samples = new Array(300_000).fill(-1);
    // Under the text bounds, so the parsed shape is what refuses it.
    const r = refusal(() => reduceSubmission(JSON.parse(JSON.stringify(body))));
    expect(r).toEqual({ status: 422, message: expect.stringMatching(/^body: an array of 300000 items, at most 100000/) });
  });

  it('refuses more samples in all than a run makes, before the schema', () => {
    const body = submission();
    const c = body.result.cases[0]!;
    body.result.cases = Array.from({ length: 30 }, () => ({ ...c, samples: new Array(9_000).fill(-1) }));
    expect(refusal(() => reduceSubmission(body))).toEqual({ status: 422, message: `result.cases: 270000 samples in all, at most ${MAX_SAMPLES_TOTAL}` });
  });

  it('counts values and containers in the text, and stops counting at the bound', () => {
    expect(() => checkBodyText(JSON.stringify(submission()))).not.toThrow();
    expect(refusal(() => checkBodyText(`[${'1,'.repeat(MAX_BODY_VALUES + 1)}1]`)).message).toBe(
      `body: more than ${MAX_BODY_VALUES} values; a result holds fewer`,
    );
    expect(refusal(() => checkBodyText('['.repeat(MAX_BODY_CONTAINERS + 1))).message).toBe(
      `body: more than ${MAX_BODY_CONTAINERS} objects and arrays; a result holds fewer`,
    );
  });

  it('reports only the first bad sample, not one issue per item, naming its value', () => {
    const body = submission();
    body.result.cases[0]!.samples = [1000, ...new Array(9).fill(-1)];
    const r = refusal(() => reduceSubmission(body));
    expect(r).toEqual({ status: 422, message: 'result.cases.0.samples.1: -1 ns per operation is not a plausible time' });
    body.result.cases[0]!.samples = [1000, '1000' as unknown as number];
    expect(refusal(() => reduceSubmission(body))).toEqual({
      status: 400,
      message: 'invalid submission: result.cases.0.samples.1: expected a number, got "1000"',
    });
  });

  it('checks what it keeps and ignores what it recomputes: a wrong client summary is no reason to refuse', () => {
    const body = submission();
    (body.result.cases[0] as { summary: unknown }).summary = { median: 'fast' };
    const reduced = reduceSubmission(body);
    expect(reduced.cases[0]!.medianNs).toBeGreaterThan(0);
  });
});

describe.each(BACKENDS)('a body of bad samples at the body limit on %s', (kind) => {
  let app!: Parameters<typeof post>[0];
  useBackend(kind, (_, a) => (app = a));

  it('is answered 422 naming its size, one over the limit 413, and a good body from the same client is still stored', async () => {
    const bad = submission();
    bad.result.cases[0]!.samples = new Array(1_390_000).fill(-1); // just under the 4 MiB body limit
    const text = JSON.stringify(bad);
    expect(text.length).toBeGreaterThan(4_000_000);
    const r = await post(app, text, { 'x-test-client': '192.0.2.8' });
    expect(r.status).toBe(422);
    expect((await r.json()).error).toMatch(/^body: more than \d+ values/);
    bad.result.cases[0]!.samples = new Array(2_790_000).fill(-1); // 8 MiB
    const over = await post(app, JSON.stringify(bad), { 'x-test-client': '192.0.2.8' });
    expect(over.status).toBe(413);
    expect((await over.json()).error).toBe(`body larger than ${4 * 1024 * 1024} bytes`);
    expect((await post(app, submission(), { 'x-test-client': '192.0.2.8' })).status).toBe(201);
  });
});

describe('the PGlite lock names its holder by who it is', () => {
  const me = { pid: process.pid, host: hostname(), boot: 'b', start: startTimeOf(process.pid) ?? '1', since: 'now' };

  it('calls a lock stale whose pid is ours but whose start is not (an earlier life as PID 1)', () => {
    expect(holderAlive({ ...me }, me)).toBe(true);
    expect(holderAlive({ ...me, start: '1' }, me)).toBe(false);
  });

  it('calls a lock stale after a reboot, or when its pid now runs another process', () => {
    expect(holderAlive({ ...me, boot: 'other' }, me)).toBe(false);
    expect(holderAlive({ ...me, pid: process.ppid, start: '1' }, me)).toBe(false);
    expect(holderAlive({ ...me, pid: process.ppid, start: startTimeOf(process.ppid)! }, me)).toBe(true);
    expect(holderAlive({ ...me, host: 'elsewhere', pid: 1 }, me)).toBe(true); // cannot be judged from here
  });

  it('lets one of many processes take over a stale lock at once, and refuses the rest naming it', async () => {
    const take = 'lockDirectory';
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-race-'));
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), since: 'then' }));
    // Eight processes race for the stale lock; each says what it got and holds it until killed.
    const script = `import { ${take} } from ${JSON.stringify(resolvePath('collector/lock.ts'))};
      try { await ${take}(${JSON.stringify(dir)}); console.log('took'); setInterval(() => {}, 1000); }
      catch (e) { console.log('refused: ' + e.message); }`;
    const children = Array.from({ length: 8 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    const runs = await Promise.all(
      children.map(
        (p) =>
          new Promise<string>((ok) => {
            let out = '';
            p.stdout.on('data', (d) => ((out += d), out.includes('\n') && ok(out.trim())));
            p.on('exit', () => ok(out.trim()));
          }),
      ),
    );
    for (const p of children) p.kill('SIGKILL');
    expect(runs.filter((r) => r === 'took')).toHaveLength(1);
    for (const r of runs.filter((r) => r !== 'took')) expect(r).toMatch(new RegExp(`^refused: PGlite directory ${dir} is in use by process \\d+`));
  }, 60_000);

  it.runIf(canUnshare())(
    'a collector killed with SIGKILL as PID 1 in a PID namespace starts again by itself',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'aeadbench-pid1-'));
      const prefix = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];
      const first = await startCollector({ COLLECTOR_DATA: dir }, { prefix });
      expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(1);
      // The collector itself (PID 1 inside) is unshare's child; kill -9 it, as an OOM kill would.
      const inner = Number(
        execFileSync('pgrep', ['-P', String(first.proc.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n')[0],
      );
      process.kill(inner, 'SIGKILL');
      await first.exited;
      const second = await startCollector({ COLLECTOR_DATA: dir }, { prefix });
      expect((await http(`${second.url}/api/v1/health`)).status).toBe(200);
      expect((await postJson(second.url, submission())).status).toBe(201);
      await second.kill('SIGKILL'); // unshare's own death takes its child with it (--kill-child)
    },
    180_000,
  );
});

/** Whether this host lets us make a PID namespace (root, unshare present); said when not. */
function canUnshare(): boolean {
  const ok = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  if (!ok) console.warn('skipped: the PID-namespace restart test needs unshare --pid (root on Linux)');
  return ok;
}

describe('the source key directory must be ours', () => {
  const fresh = () => join(mkdtempSync(join(tmpdir(), 'aeadbench-keydir-')), 'keys');

  it('refuses a symlinked directory and leaves the files it points at alone', () => {
    const target = mkdtempSync(join(tmpdir(), 'aeadbench-elsewhere-'));
    writeFileSync(join(target, 'precious.key'), 'not ours');
    const dir = fresh();
    symlinkSync(target, dir);
    expect(() => createSourceKeys({ keyDir: dir })).toThrow(`source key directory ${dir} is a symbolic link`);
    expect(readFileSync(join(target, 'precious.key'), 'utf8')).toBe('not ours');
  });

  it('refuses a directory open to others, or owned by someone else', () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    expect(() => createSourceKeys({ keyDir: dir })).toThrow(`source key directory ${dir} is open to others (mode 755, expected 700)`);
    chmodSync(dir, 0o700);
    if (process.getuid?.() === 0) {
      chownSync(dir, 65534, 65534);
      expect(() => createSourceKeys({ keyDir: dir })).toThrow(`source key directory ${dir} belongs to uid 65534`);
    }
  });

  it('refuses a planted key that is a symbolic link', () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const planted = join(mkdtempSync(join(tmpdir(), 'aeadbench-planted-')), 'k');
    writeFileSync(planted, Buffer.alloc(32, 7));
    const now = Date.parse('2026-11-22T10:00:00Z');
    symlinkSync(planted, join(dir, '2026-11-22.key'));
    const keys = createSourceKeys({ keyDir: dir, now: () => now });
    expect(() => keys.hash('192.0.2.0/24')).toThrow(`is a symbolic link: remove it and restart`);
  });

  it("destroys yesterday's key at the turn of the day, without waiting for a submission", () => {
    const dir = fresh();
    let now = Date.parse('2026-11-22T23:59:00Z');
    const keys = createSourceKeys({ keyDir: dir, now: () => now });
    keys.hash('192.0.2.0/24');
    expect(readdirSync(dir)).toEqual(['2026-11-22.key']);
    now = Date.parse('2026-11-23T00:00:01Z');
    keys.rotate!(); // what the midnight timer runs
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('slow and greedy clients of the servers we run', () => {
  /** A site root with an index and a symlink that points out of it. */
  const siteDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-site-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    const secret = join(mkdtempSync(join(tmpdir(), 'aeadbench-secret-')), 'secret.txt');
    writeFileSync(secret, 'outside the root');
    symlinkSync(secret, join(dir, 'leak.txt'));
    return dir;
  };
  /** A raw connection from `from` that sends `first` and then nothing; resolves with when it was closed (ms). */
  const stall = (port: number, first: string, from = '127.0.0.1') =>
    new Promise<number>((ok) => {
      const t = performance.now();
      const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => s.write(first));
      s.on('error', () => {});
      s.on('close', () => ok(performance.now() - t));
      s.resume();
    });

  it('cuts slow headers on the site and a slow upload on the collector at their timeouts, after serving others meanwhile', async () => {
    // The timeouts shortened (the defaults are 10 s and 30 s): what is asserted is the order of
    // events and that no cut comes early, never how long a loaded host took.
    const timeouts = { SERVER_HEADERS_TIMEOUT_MS: '1000', SERVER_REQUEST_TIMEOUT_MS: '5000' };
    const site = await startNode('server/serve.ts', ['--dir', siteDir(), '--no-collector'], timeouts, { readyPath: '/' });
    const collector = await startCollector({ COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-slow-')), ...timeouts });
    try {
      const events: string[] = [];
      const headers = stall(site.port, 'GET / HTTP/1.1\r\nHost: x\r\n', '127.0.3.1').then((ms) => (events.push('headers cut'), ms));
      const upload = stall(
        collector.port,
        'POST /api/v1/results HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":',
        '127.0.3.2',
      ).then((ms) => (events.push('upload cut'), ms));
      expect((await http(`${site.url}/`)).status).toBe(200);
      expect((await postJson(collector.url, submission(), '127.0.3.3')).status).toBe(201);
      events.push('others served');
      const [headersMs, uploadMs] = await Promise.all([headers, upload]);
      // Cut by the server (the client never closes), and not before its timeout.
      expect(headersMs).toBeGreaterThanOrEqual(1000);
      expect(uploadMs).toBeGreaterThanOrEqual(5000);
      expect(events[events.length - 1]).toBe('upload cut');
      expect(events.indexOf('upload cut')).toBeGreaterThan(events.indexOf('others served'));
    } finally {
      await site.kill();
      await collector.kill();
    }
  }, 90_000);

  it('serves no file through a symlink that leaves the root', async () => {
    const site = await startNode('server/serve.ts', ['--dir', siteDir(), '--no-collector'], {}, { readyPath: '/' });
    try {
      expect((await http(`${site.url}/`)).status).toBe(200);
      expect((await http(`${site.url}/leak.txt`)).status).toBe(404);
    } finally {
      await site.kill();
    }
  }, 60_000);

  it('closes connections past 32 from one address at once, and serves another address meanwhile', async () => {
    const site = await startNode('server/serve.ts', ['--dir', siteDir(), '--no-collector'], {}, { readyPath: '/' });
    try {
      // Events, not a wait: the eighth close the server makes is awaited, then the other 32
      // are still open, and still open after another address has been served.
      let closed = 0;
      let eighth!: () => void;
      const eightClosed = new Promise<void>((r) => (eighth = r));
      const open = Array.from({ length: 40 }, () =>
        connect({ port: site.port, host: '127.0.0.1', localAddress: '127.0.4.1' })
          .on('error', () => {})
          .on('close', () => ++closed === 8 && eighth()),
      );
      await eightClosed;
      const stillOpen = () => open.filter((s) => !s.destroyed && s.readyState === 'open').length;
      expect(stillOpen()).toBe(32);
      expect((await http(`${site.url}/`, { from: '127.0.4.2' })).status).toBe(200);
      expect(stillOpen()).toBe(32);
      expect(closed).toBe(8);
      for (const s of open) s.destroy();
    } finally {
      await site.kill();
    }
  }, 60_000);
});

describe.each(BACKENDS)('a cohort many networks cannot steer, day after day, on %s', (kind) => {
  let sql!: Sql;
  let app!: Parameters<typeof post>[0];
  useBackend(kind, (s, a) => ((sql = s), (app = a)));
  const STATS = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=phone';
  const nsFor = (mbPerS: number) => (1024 * 1e9) / (mbPerS * 1e6);
  const phones = async () => (await (await app.request(STATS)).json()).cohorts[0] as { n: number; median: number };
  const percentileOf = async (mbPerS: number) =>
    (await (await app.request(`${STATS.replace('/stats', '/percentile')}&bytesPerSecond=${(1024 * 1e9) / nsFor(mbPerS)}`)).json()).percentile as number;
  /** Moves everything stored today to `daysAgo` days before today, as if it had arrived then. */
  const backdate = async (daysAgo: number) => {
    await sql.query(`UPDATE submissions SET received_on = current_date - ${daysAgo} WHERE received_on = current_date`);
  };
  const phone = (mbPerS: number, from: string) => post(app, submission({ deviceClass: 'phone', nsPerOp: nsFor(mbPerS) }), { 'x-test-client': from });
  /** Twelve honest phones on twelve networks, 46–56 MB/s, half the day before `daysAgo` and half on it (a figure needs voices of two days). */
  const honest = async (daysAgo: number) => {
    for (const [day, parity] of [
      [daysAgo + 1, 0],
      [daysAgo, 1],
    ] as const) {
      for (let i = parity; i < 12; i += 2) expect((await phone(46 + (10 * i) / 11, `198.51.${i}.10`)).status).toBe(201);
      await backdate(day);
    }
    await refreshCohorts(sql);
    return (await phones()).median;
  };

  it('30 fakes at 10× from 30 different /16s the day after 12 honest voices move the median by less than 5 %', async () => {
    const before = await honest(1);
    for (let i = 0; i < 30; i++) expect((await phone(510, `${20 + i}.${i}.7.7`)).status).toBe(201);
    await refreshCohorts(sql);
    await refreshCohorts(sql); // a second refresh must not let them in either
    const after = await phones();
    expect(Math.abs(after.median / before - 1)).toBeLessThan(0.05);
    expect(after.n).toBe(12);
    // An honest phone in the middle is told it is in the middle (it was told 14 %).
    expect(await percentileOf(51)).toBeGreaterThan(40);
  });

  it('draws no bounds for a cohort of fewer rows than it takes to judge, and draws them when the eighth arrives', async () => {
    const bounds = async () => (await sql.query<{ n: number }>("SELECT n FROM cohort_bounds WHERE device_class = '*'")).map((b) => Number(b.n));
    for (let i = 0; i < 7; i++) expect((await phone(50 + i, `198.51.${i}.10`)).status).toBe(201);
    await refreshCohorts(sql);
    expect(await bounds()).toEqual([]); // seven rows: no bounds could judge anything yet
    expect((await phone(60, '198.51.7.10')).status).toBe(201);
    await refreshCohorts(sql);
    expect(await bounds()).toEqual([8]);
    // Once drawn, a cohort's bounds are kept current even if its voices fall below eight.
    await sql.query('UPDATE submissions SET quarantined = true WHERE source = (SELECT source FROM submissions LIMIT 1)');
    await refreshCohorts(sql);
    expect(await bounds()).toEqual([7]);
  });

  it('3 fakes a day from one address for 15 days move it by less than 5 %, and honest new phones still count', async () => {
    // Twelve honest phones on one day (one day shows no figure yet: their median is 51 MB/s).
    for (let i = 0; i < 12; i++) expect((await phone(46 + (10 * i) / 11, `198.51.${i}.10`)).status).toBe(201);
    await backdate(16);
    const before = 51e6;
    let newHonest = 0;
    for (let day = 15; day >= 1; day--) {
      // The source key is new every day, so the same address is a new voice every day.
      for (let i = 0; i < 3; i++) expect((await phone(510, '203.0.113.66')).status).toBe(201);
      if (day % 3 === 0) {
        expect((await phone(44 + day, `192.0.${day}.20`)).status).toBe(201);
        newHonest++;
      }
      await backdate(day);
      await refreshCohorts(sql);
    }
    const after = await phones();
    expect(Math.abs(after.median / before - 1)).toBeLessThan(0.05);
    expect(after.n).toBe(12 + newHonest);
  });
});

describe.each(BACKENDS)('crowd reads on %s', (kind) => {
  let sql!: Sql;
  let app!: Parameters<typeof post>[0];
  useBackend(kind, (s, a) => ((sql = s), (app = a)));
  const STATS = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024';

  it('charge a read no summary answers the time it took, per network and for everyone: of 1,800 distinct filtered reads from 3 networks on a 20,000-row cohort only the budget is answered, and the unfiltered read still answers', async () => {
    const rows = 20_000;
    await sql.query(
      `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, browser, browser_major, os, os_major, arch, cores, runtime, isolated, timer_us, preset, engine, source, received_on)
       SELECT md5('r' || i)::uuid, '', 'aeadbench/result@2', '0.1.0', (ARRAY['phone','laptop'])[1 + i % 2], 'Chrome', 150, 'Android', 15, 'arm64', 8, 'browser', true, 5, 'quick', 'Blink', 'src' || i, current_date - 1 - (i / 2) % 2
       FROM generate_series(1, $1::int) AS i`,
      [rows],
    );
    await sql.query(
      `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
       SELECT md5('r' || i)::uuid, 'aes-128-gcm', 'rustcrypto-wasm', 'simd128', 'encrypt', 1024, 0, ARRAY[1000.0, 1001.0], 2, 1000, 4e7 + (i % 1000) * 2e4, 0.01
       FROM generate_series(1, $1::int) AS i`,
      [rows],
    );
    await refreshCohorts(sql);
    // A millisecond a minute: the first read of each network starts (no debt yet), costs more
    // than that (it passes over 20,000 rows), and leaves the network in debt for minutes.
    const perNetwork = appFor(sql, { liveReadMsPerMinute: { network: 1, all: 1e9 } });
    const filters: string[] = [];
    for (const browser of BROWSER_NAMES)
      for (const arch of ARCHES)
        for (const groupBy of ['deviceClass', 'engine', 'browser'])
          for (const execution of EXECUTION_MODES)
            for (const engine of ['', ...ENGINE_NAMES.slice(0, 1)])
              filters.push(`&browser=${encodeURIComponent(browser)}&arch=${arch}&groupBy=${groupBy}&execution=${execution}${engine && `&engine=${engine}`}`);
    expect(filters.length).toBeGreaterThanOrEqual(1800);
    const networks = ['198.18.1.1', '198.18.2.1', '198.18.3.1'];
    const read = async (app: ReturnType<typeof appFor>, from: string, i: number) => {
      const r = await app.request(`${STATS}${filters[i]}`, { headers: { 'x-test-client': from } });
      if (r.status === 429) expect((await r.json()).error).toContain('the budget for reads that no summary answers');
      return r.status;
    };
    const statuses = new Map<string, number[]>(networks.map((n) => [n, []]));
    for (let i = 0; i < 1800; i++) statuses.get(networks[i % 3]!)!.push(await read(perNetwork, networks[i % 3]!, i));
    for (const [, got] of statuses) expect(got.filter((x) => x === 200)).toHaveLength(1);
    expect([...statuses.values()].flat().every((x) => x === 200 || x === 429)).toBe(true);
    // The budget for everyone: one read by anyone puts it in debt, for every network (no reserve).
    const forAll = appFor(sql, { liveReadMsPerMinute: { network: 1e9, all: 1 } });
    const all = [];
    for (let i = 0; i < 30; i++) all.push(await read(forAll, networks[i % 3]!, 1000 + i));
    expect(all.filter((x) => x === 200)).toHaveLength(1);
    // A read refused by the budget is answered from its last answer, where there is one.
    expect(await read(perNetwork, networks[0]!, 0)).toBe(200);
    const limited = forAll;
    if (kind === 'postgres') {
      // With shared limits the budget is the network's whichever process answers.
      const [a, b] = [
        appFor(sql, { sharedLimits: true, liveReadMsPerMinute: { network: 1, all: 1e9 } }),
        appFor(sql, { sharedLimits: true, liveReadMsPerMinute: { network: 1, all: 1e9 } }),
      ];
      expect(await read(a, '198.18.9.1', 1500)).toBe(200);
      expect(await read(b, '198.18.9.2', 1501)).toBe(429); // the same /24, another process
      expect(await read(b, '198.18.10.1', 1502)).toBe(200); // another network
    }
    // The cohort's own figures come from its view, whatever the live budget: from a fourth network too.
    expect((await limited.request(STATS, { headers: { 'x-test-client': '198.18.1.1' } })).status).toBe(200);
    expect((await limited.request('/api/v1/health', { headers: { 'x-test-client': '198.18.1.1' } })).status).toBe(200);
  }, 120_000);

  it("answer an honest reader's every read while six networks spend their budgets on reads no summary answers", async () => {
    for (const ns of [1000, 2000, 3000]) await post(app, submission({ nsPerOp: ns }));
    await refreshCohorts(sql);
    // The production budgets, with every live read costing 250 ms by the clock it is timed by (a
    // read of a 20,000-row cohort costs 50–250 ms): each attacking network spends its 3 s in 12
    // reads, six of them 18 s where everyone has 15; the budgets refill by the wall clock, a
    // few seconds' worth here.
    let t = 0;
    const flooded = appFor(sql, { liveReadMsPerMinute: LIVE_READ_MS_PER_MINUTE, readClock: () => (t += 250) });
    // Distinct reads, none answered by a summary or the cache: every browser, arch, grouping and mode.
    const filters = BROWSER_NAMES.flatMap((browser) =>
      ARCHES.flatMap((arch) =>
        ['engine', 'browser'].flatMap((groupBy) =>
          EXECUTION_MODES.map((execution) => `&browser=${encodeURIComponent(browser)}&arch=${arch}&groupBy=${groupBy}&execution=${execution}`),
        ),
      ),
    );
    expect(filters.length).toBeGreaterThan(310);
    const filtered = (i: number) => `${STATS}${filters[i]}`;
    const attackers = Array.from({ length: 6 }, (_, k) => `203.0.${113 + k}.7`);
    const honest = '198.51.100.20';
    let refused = 0;
    let next = 0;
    const answered: number[] = [];
    for (let round = 0; round < 5; round++) {
      // Each attacking network reads until its own budget is spent.
      // Each attacking network reads, a new filter each time, until it is refused.
      for (const from of attackers)
        for (let j = 0; j < 16; j++) {
          const r = await flooded.request(filtered(10 + (next++ % (filters.length - 10))), { headers: { 'x-test-client': from } });
          if (r.status === 429) {
            refused++;
            break;
          }
        }
      // The honest reader: a live read of its own, once a round (five in the minute).
      const r = await flooded.request(filtered(round), { headers: { 'x-test-client': honest } });
      answered.push(r.status);
    }
    expect(refused).toBeGreaterThanOrEqual(6 * 5); // every attacking network was refused in every round
    expect(answered).toEqual(Array(5).fill(200)); // and the honest reader answered every time
  });

  it('answer a repeated read from the cache, and a read after a new result afresh', async () => {
    for (const ns of [1000, 2000, 3000]) await post(app, submission({ nsPerOp: ns }));
    const first = await (await app.request(STATS)).json();
    expect(first.cohorts[0].n).toBe(3);
    // Rows changed behind this process's back (as another process would change them): the
    // cached answer stands until this process stores something.
    await sql.query('UPDATE submissions SET quarantined = true');
    expect(await (await app.request(STATS)).json()).toEqual(first);
    expect((await (await app.request(`${STATS.replace('/stats', '/percentile')}&bytesPerSecond=1e6`)).json()).n).toBe(0);
    await sql.query('UPDATE submissions SET quarantined = false');
    await post(app, submission({ nsPerOp: 4000 }));
    expect((await (await app.request(STATS)).json()).cohorts[0].n).toBe(4);
  });

  it('answer a large cohort from the view made at its refresh, as a live read would, and a filtered read live', async () => {
    const rows = VIEW_ROWS + 100;
    /** `n` runs of the 1 KiB cohort, each its own source of yesterday or the day before, phones and laptops, 40–60 MB/s. */
    const fill = async (n: number, from: number) => {
      await sql.query(
        `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, browser, browser_major, os, os_major, arch, cores, runtime, isolated, timer_us, preset, engine, source, received_on)
         SELECT md5('v' || i)::uuid, '', 'aeadbench/result@2', '0.1.0', (ARRAY['phone','laptop'])[1 + i % 2], 'Chrome', 150, 'Android', 15, 'arm64', 8, 'browser', true, 5, 'quick', 'Blink', 'src' || i, current_date - 1 - (i / 2) % 2
         FROM generate_series($1::int, $2::int) AS i`,
        [from, from + n - 1],
      );
      await sql.query(
        `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
         SELECT md5('v' || i)::uuid, 'aes-128-gcm', 'rustcrypto-wasm', 'simd128', 'encrypt', 1024, 0, ARRAY[1000.0], 1, 1000, 4e7 + (i % 1000) * 2e4, 0.01
         FROM generate_series($1::int, $2::int) AS i`,
        [from, from + n - 1],
      );
    };
    await fill(rows, 1);
    await refreshCohorts(sql);
    expect((await sql.query('SELECT 1 FROM cohort_views')).length).toBe(1);
    const f = { algorithm: 'aes-128-gcm', implementation: 'rustcrypto-wasm', operation: 'encrypt', sizeBytes: 1024 };
    const fresh = appFor(sql); // no cached answers
    const stats = (await (await fresh.request(STATS)).json()).cohorts;
    expect(stats).toEqual(await crowdStats(sql, f));
    expect(stats.reduce((n: number, c: { n: number }) => n + c.n, 0)).toBe(rows);
    const placed = (await (await fresh.request(`${STATS.replace('/stats', '/percentile')}&deviceClass=phone&bytesPerSecond=5e7`)).json()).percentile;
    expect(placed).toBeCloseTo(placeIn(await voiceDistribution(sql, { ...f, deviceClass: 'phone' }), 5e7)!, 6);
    // Rows stored since (by another process): the view stands until its next refresh, once it is old enough.
    await fill(500, rows + 1);
    await refreshCohorts(sql);
    const sum = async (app: ReturnType<typeof appFor>) => (await (await app.request(STATS)).json()).cohorts.reduce((n: number, c: { n: number }) => n + c.n, 0);
    expect(await sum(appFor(sql))).toBe(rows);
    // A filter the view does not hold is read live, with every row.
    expect((await (await appFor(sql).request(`${STATS}&browser=Chrome`)).json()).cohorts.reduce((n: number, c: { n: number }) => n + c.n, 0)).toBe(rows + 500);
    await sql.query("UPDATE cohort_views SET refreshed_at = now() - interval '1 hour'");
    await refreshCohorts(sql);
    expect(await sum(appFor(sql))).toBe(rows + 500);
  });

  it('places a figure in a large cohort within 0.1 percentile points', () => {
    const values = Array.from({ length: 1001 }, (_, i) => i); // the quantiles of 0 … 1000
    expect(placeIn({ n: 100_000, values }, 250)).toBeCloseTo(25, 1);
    expect(placeIn({ n: 3, values: [1, 2, 3] }, 2)).toBeCloseTo(50, 6); // exact: ties count half
    expect(placeIn({ n: 0, values: [] }, 2)).toBeNull();
  });
});
