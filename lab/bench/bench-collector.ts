/**
 * `npm run bench:collector`: bounded load tests on loopback of the collector on PGlite and on
 * PostgreSQL — submissions/s and p50/p99 latency, for a one-case submission and a
 * quick-preset-sized one (84 cases); the CPU cost of the largest submission accepted; export
 * rows/s and /health latency while an export streams; submissions/s through deploy/'s nginx
 * with 1 and 3 collector processes on PostgreSQL; and the crowd-statistics query time over
 * 1 M case rows. Quote ratios from one run: this machine's absolute figures move 2× between runs.
 *   DURATION=10 CONNECTIONS=16 ROWS=1000000 COHORT_ROWS=100000 npm run bench:collector
 * PARTS picks sections (default all): load, bodies, nginx, poisoning, stats; ATTACKS=text,… the
 * attacks of poisoning whose names hold one of them. `-- --write` writes
 * the attacks' table to docs/measured/crowd-attacks.md (lab/bench/measured.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { startStack } from '../../deploy/local.ts';
import { DEFAULT_MAX_BODY_BYTES, createApp } from '../../collector/app.ts';
import { startPostgres } from '../../collector/harness/postgres.ts';
import { migrate, openPglite, openPostgres, type Sql } from '../../collector/db.ts';
import { cohortKeysOf, refreshCohorts, refreshInBatches } from '../../collector/cohorts.ts';
import { crowdStats } from '../../collector/crowd.ts';
import { movingCohorts } from '../../collector/review.ts';
import { ARCHES, BROWSER_NAMES, ENGINE_NAMES } from '../../web/core/platform/env.ts';
import { EXECUTION_MODES } from '../../web/core/execution.ts';
import { QUICK_ALGORITHM_IDS } from '../../web/core/tables/algorithms.ts';
import { appFor, post, submission } from '../../collector/harness/bodies.ts';
import { MAX_CASES, MAX_SAMPLES_TOTAL, type Reduced } from '../../collector/submission.ts';
import { sampleResult as sampleDocument } from '../../collector/harness/sample-result.ts';
import { quantile } from '../../web/core/stats.ts';
import { evidence, wantsWrite, writeMeasured } from './measured.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const COHORT_ROWS = Number(process.env.COHORT_ROWS ?? 100_000);
const attackLines: string[] = [];
const PARTS = new Set((process.env.PARTS ?? 'load,bodies,nginx,poisoning,stats').split(','));
/** The seven AEADs the quick preset measures: the widest bodies and the loaded cohorts spread over them. */
const ALGS = QUICK_ALGORITHM_IDS;

function body(cases: number, samplesPerCase = 10): string {
  const doc = sampleDocument();
  doc.runId = crypto.randomUUID();
  doc.environment.userAgent = '';
  const c = doc.cases[0]!;
  doc.params.algorithms = ALGS as typeof doc.params.algorithms;
  // Doubling sizes while they fit (quick-preset-like); beyond 70 cases, sizes 16 bytes apart.
  const sizeOf = (k: number) => (cases > 70 ? 64 + 16 * k : 64 << k);
  doc.params.sizes = Array.from({ length: Math.ceil(cases / 7) }, (_, i) => sizeOf(i));
  doc.params.rounds = 50;
  doc.params.samplesPerRound = 1000;
  // ~1 GB/s, with digits enough to make the body as long as a real one's.
  doc.cases = Array.from({ length: cases }, (_, i) => ({
    ...c,
    algorithm: ALGS[i % ALGS.length]! as typeof c.algorithm,
    sizeBytes: sizeOf(Math.floor(i / 7)),
    samples: Array.from({ length: samplesPerCase }, (_, j) => sizeOf(Math.floor(i / 7)) * (1 + j / 100_003)),
  }));
  return JSON.stringify({ result: doc, deviceClass: 'desktop' });
}

const NO_LIMITS = { COLLECTOR_RATE_PER_MINUTE: '1000000000', COLLECTOR_SOURCE_DAILY_CAP: '1000000000' };

/**
 * Load from `lanes` loopback addresses (127.0.x.1), each with a keep-alive connection, for
 * `seconds`: what a crowd looks like to the balancer's per-address limits. Returns
 * submissions/s, latency percentiles and the statuses seen.
 */
async function lanesLoad(url: string, cases: number, lanes: number, seconds: number) {
  const template = body(cases);
  const latencies: number[] = [];
  const statuses = new Map<number | string, number>();
  const end = performance.now() + seconds * 1000;
  const lane = async (i: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.${100 + i}.1` });
    while (performance.now() < end) {
      const text = template.replace(/"runId":"[^"]+"/, `"runId":"${crypto.randomUUID()}"`);
      const t = performance.now();
      const status = await new Promise<number | string>((resolve) => {
        const req = request(
          `${url}/api/v1/results`,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
        req.end(text);
      });
      latencies.push(performance.now() - t);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    agent.destroy();
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
  const ok = (statuses.get(201) ?? 0) + (statuses.get(200) ?? 0);
  return { rps: ok / ((performance.now() - t0) / 1000), p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), statuses: Object.fromEntries(statuses) };
}

/**
 * CPU milliseconds the collector's process spends on the largest body it accepts (parse,
 * validate, recompute, store), in process on either store; PostgreSQL's own CPU is not counted.
 */
async function largestSubmissionCpu(open: () => Promise<Sql>) {
  const sql = await open();
  await migrate(sql);
  await sql.query('TRUNCATE submissions CASCADE');
  const app = createApp(sql, { submissionsPerMinute: 1e9, sourceDailyCap: 1e9, clientAddress: () => '127.0.0.1' });
  const cases = 84;
  const text = body(cases, Math.floor(MAX_SAMPLES_TOTAL / cases));
  const cpu: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = process.cpuUsage();
    const r = await app.request('/api/v1/results', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text.replace(/"runId":"[^"]+"/, `"runId":"${crypto.randomUUID()}"`),
    });
    const d = process.cpuUsage(t);
    if (r.status !== 201) throw new Error(`largest body refused: ${r.status} ${await r.text()}`);
    cpu.push((d.user + d.system) / 1000);
  }
  await sql.close();
  return { bytes: Buffer.byteLength(text), samples: Math.floor(MAX_SAMPLES_TOTAL / cases) * cases, cpuMs: quantile(cpu, 0.5) };
}

/**
 * CPU milliseconds of the collector's process for a body: the widest valid one (MAX_CASES cases
 * sharing MAX_SAMPLES_TOTAL samples, every case its own cohort), at once and all told (with the
 * refresh of its cohorts' bounds that follows a minute later), and invalid ones at and over the
 * body limit (bad samples), which once cost 7 s and 3 GB. Median of 3, with the process's peak
 * RSS growth. On PGlite the database's work is in the process and counted; on PostgreSQL not.
 */
async function bodyCpu(open: () => Promise<Sql>, kind: 'widest' | 'invalid' | 'over', dbCpuMs?: () => number) {
  const sql = await open();
  await migrate(sql);
  await sql.query('TRUNCATE submissions, cohort_bounds, cohort_day_weights CASCADE');
  const app = createApp(sql, { submissionsPerMinute: 1e9, sourceDailyCap: 1e9, clientAddress: () => '127.0.0.1' });
  const text =
    kind === 'widest' ? body(MAX_CASES, Math.floor(MAX_SAMPLES_TOTAL / MAX_CASES)) : invalidBody(kind === 'over' ? 8 : DEFAULT_MAX_BODY_BYTES / 2 ** 20);
  const expected = { widest: 201, invalid: 422, over: 413 }[kind];
  const keys = kind === 'widest' ? cohortKeysOf([JSON.parse(text).result as Pick<Reduced, 'cases'>]) : [];
  const cpu: number[] = [];
  const refresh: number[] = [];
  const db: number[] = [];
  const dbRefresh: number[] = [];
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  for (let i = 0; i < 3; i++) {
    const db0 = dbCpuMs?.() ?? 0;
    const t = process.cpuUsage();
    const r = await app.request('/api/v1/results', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text.replace(/"runId":"[^"]+"/, `"runId":"${crypto.randomUUID()}"`),
    });
    const d = process.cpuUsage(t);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    if (r.status !== expected) throw new Error(`${kind} body answered ${r.status}: ${(await r.text()).slice(0, 200)}`);
    cpu.push((d.user + d.system) / 1000);
    if (dbCpuMs) db.push(dbCpuMs() - db0);
    if (kind === 'widest') {
      // What the route's deferred refresh runs for the cohorts the body named (routes.ts:
      // createRefresher, REFRESH_BATCH at a time), with no bounds drawn before.
      await sql.query('DELETE FROM cohort_bounds');
      const db2 = dbCpuMs?.() ?? 0;
      const t2 = process.cpuUsage();
      await refreshInBatches(sql, keys);
      const d2 = process.cpuUsage(t2);
      refresh.push((d2.user + d2.system) / 1000);
      if (dbCpuMs) dbRefresh.push(dbCpuMs() - db2);
    }
  }
  await sql.close();
  const med = (xs: number[]) => (xs.length ? quantile(xs, 0.5) : 0);
  return {
    bytes: Buffer.byteLength(text),
    cpuMs: med(cpu),
    refreshMs: med(refresh),
    dbMs: dbCpuMs ? med(db) : null,
    dbRefreshMs: dbCpuMs ? med(dbRefresh) : null,
    rssMb: (rssPeak - rss0) / 1e6,
  };
}

/** Bad samples (`-1,`, 3 bytes each) filling just under `mib` MiB. */
function invalidBody(mib: number): string {
  const doc = JSON.parse(body(1)) as { result: { cases: { samples: number[] }[] } };
  doc.result.cases[0]!.samples = new Array(Math.floor((mib * 2 ** 20 - 4000) / 3)).fill(-1);
  return JSON.stringify(doc);
}

/** Streams the whole NDJSON export while asking /health every 20 ms: export rows/s and health latency. */
async function exportWhileHealth(url: string) {
  const health: number[] = [];
  let streaming = true;
  const prober = (async () => {
    while (streaming) {
      const t = performance.now();
      await fetch(`${url}/api/v1/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t = performance.now();
  const text = await (await fetch(`${url}/api/v1/export.ndjson`)).text();
  const seconds = (performance.now() - t) / 1000;
  streaming = false;
  await prober;
  const rows = text.split('\n').filter(Boolean).length;
  return { rows, rowsPerS: rows / seconds, p50: quantile(health, 0.5), p99: quantile(health, 0.99) };
}

async function collector(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'collector/server.ts', '--port', String(port)], {
    env: { ...process.env, ...NO_LIMITS, ...env },
    stdio: 'ignore',
  });
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
    requests: [
      {
        method: 'POST',
        path: '/api/v1/results',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: template.replace(/"runId":"[^"]+"/, `"runId":"${crypto.randomUUID()}"`) }),
      },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** 1 M case rows spread like a real crowd: 7 algorithms × 4 implementations × 3 operations × 10 sizes × 5 classes. */
async function fill(sql: Sql, rows: number) {
  const perSubmission = 20;
  // Every NOT NULL column of submissions (migration 004 added engine); a test runs this too.
  await sql.query(
    `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, browser, browser_major, os, os_major, arch, cores, runtime, isolated, timer_us, preset, engine)
    SELECT md5(i::text)::uuid, '', 'aeadbench/result@1', '0.1.0', (ARRAY['phone','tablet','laptop','desktop','server'])[1 + i % 5], (ARRAY['Chrome','Firefox','Safari'])[1 + i % 3], 150, 'Linux', 6, (ARRAY['x86-64','arm64'])[1 + i % 2], 8, 'browser', true, 5, 'quick', (ARRAY['Blink','Gecko','WebKit'])[1 + i % 3]
    FROM generate_series(1, $1::int) AS i`,
    [Math.ceil(rows / perSubmission)],
  );
  // In chunks: one statement of a million rows outlasts the store's 30 s statement timeout on a slow host.
  const CHUNK = 100_000;
  for (let from = 0; from < rows; from += CHUNK) {
    await sql.query(
      `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
      SELECT md5((1 + (k / $2::int))::text)::uuid, (ARRAY[${ALGS.map((a) => `'${a}'`).join(',')}])[1 + k % ${ALGS.length}],
             (ARRAY['rustcrypto-wasm','webcrypto','noble','node-crypto'])[1 + (k / 7) % 4], 'v', (ARRAY['encrypt','decrypt','forged-decrypt'])[1 + (k / 28) % 3],
             64 << ((k / 84) % 10), k % 20, ARRAY[1000.0, 1010.0, 990.0], 3, 1000 + random() * 500, 1e8 * (0.5 + random()), 0.01
      FROM generate_series($3::int, least($1::int, $3::int + ${CHUNK}) - 1) AS k`,
      [rows, perSubmission, from],
    );
  }
  await sql.query('ANALYZE');
}

async function statsTiming(sql: Sql) {
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const f = { algorithm: ALGS[i % ALGS.length]!, implementation: 'rustcrypto-wasm', operation: 'encrypt', sizeBytes: 64 << (i % 10) };
    const t = performance.now();
    await crowdStats(sql, f);
    times.push(performance.now() - t);
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/** One attack on a phone cohort, played day by day (oldest first), with the honest voices around it. */
interface Attack {
  name: string;
  /** Honest phones (46–56 MB/s) sent before the attack, on each of these days (oldest first): [6, 6] is twelve over two days. */
  honestBefore: number[];
  days: number;
  fakesPerDay: number;
  /** The fakes' MB/s (510 is 10× the cohort; 66 and 1.3 × 51 sit inside its fences). */
  fakeMb: number;
  /** Where the `i`-th fake of day `d` comes from. */
  from: (i: number, d: number) => string;
  /** Identical samples (no measurement) rather than samples that vary. */
  identical?: boolean;
  /** Honest newcomers on attack day `d` (0-based). */
  honestOn?: (d: number) => number;
  /** Fakes on attack day `d`, when not fakesPerDay every day. */
  fakesOn?: (d: number) => number;
  /** The `i`-th fake's MB/s on day `d`, when not fakeMb. */
  fakeMbOn?: (i: number, d: number) => number;
}

const HONEST_MB = 51;
/**
 * The shapes an outsider tried against the crowd (docs/crowd.md): earlier ones — fakes at 10×
 * from one address, one /24, 30 /16s or one IPv6 /48 in a day, 30 /16s at 1.3× inside the
 * fences, one address 3 a day for 30 days — and those of a cohort's first day: 8 identical
 * fakes capturing a cohort nobody had used, the same with samples that vary, a burst split
 * into 8 a day at 1.3×, and 9 look-alikes a day beside 3 honest newcomers. Each prints how far
 * the shown median sits from the honest phones' (51 MB/s), how many honest voices count, where
 * an honest 51 MB/s phone is placed, and whether the operator's review lists the cohort as
 * moving. Bounds are refreshed after every day, as the collector does.
 */
const ATTACKS: Attack[] = [
  { name: 'one address, 30 in a day', honestBefore: [6, 6], days: 1, fakesPerDay: 30, fakeMb: 510, from: () => '203.0.113.66' },
  { name: 'one /24, 30 addresses in a day', honestBefore: [6, 6], days: 1, fakesPerDay: 30, fakeMb: 510, from: (i) => `203.0.113.${i + 1}` },
  { name: '30 /16s, one each in a day', honestBefore: [6, 6], days: 1, fakesPerDay: 30, fakeMb: 510, from: (i) => `${20 + i}.${i}.7.7` },
  { name: '30 /16s at 1.3×, inside the fences', honestBefore: [6, 6], days: 1, fakesPerDay: 30, fakeMb: 66, from: (i) => `${20 + i}.${i}.7.7` },
  { name: 'one IPv6 /48, 30 /64s in a day', honestBefore: [6, 6], days: 1, fakesPerDay: 30, fakeMb: 510, from: (i) => `2001:db8:7:${i + 1}::5` },
  {
    name: 'one address, 3 a day for 30 days',
    honestBefore: [12],
    days: 30,
    fakesPerDay: 3,
    fakeMb: 510,
    from: () => '203.0.113.66',
    honestOn: (d) => Number(d % 3 === 2),
  },
  {
    name: "a new cohort's first 8, identical",
    honestBefore: [],
    days: 5,
    fakesPerDay: 8,
    fakesOn: (d) => (d === 0 ? 8 : 0),
    fakeMb: 510,
    identical: true,
    from: (i) => `203.0.${i}.9`,
    honestOn: (d) => (d === 0 ? 0 : 6),
  },
  {
    name: "a new cohort's first 8, varied",
    honestBefore: [],
    days: 11,
    fakesPerDay: 8,
    fakesOn: (d) => (d === 0 ? 8 : 0),
    fakeMb: 510,
    from: (i) => `203.0.${i}.9`,
    honestOn: (d) => (d === 0 ? 0 : 6),
  },
  { name: 'a split burst, 8 a day at 1.3×', honestBefore: [12], days: 3, fakesPerDay: 8, fakeMb: 1.3 * HONEST_MB, from: (i, d) => `${40 + d}.${i}.8.8` },
  // The patient shapes: a published figure (twelve honest phones over two days), then fakes
  // every day for 30 days, each without and with one honest newcomer a day.
  ...[0, 1].flatMap((newcomers): Attack[] => {
    // Twelve honest phones over two days, then `fakesPerDay` fresh /24s a day (from `net`.x) for 30 days.
    const patient = (name: string, fakesPerDay: number, net: number, fakeMbOn?: Attack['fakeMbOn']): Attack => ({
      name: `${name}${newcomers ? ', +1 honest' : ''}`,
      honestBefore: [6, 6],
      days: 30,
      fakesPerDay,
      fakeMb: 510,
      fakeMbOn,
      from: (i, d) => `${net + d}.${i}.9.9`,
      honestOn: () => newcomers,
    });
    return [
      patient('sleeper: 6 /24s a day at 10×, 30 days', 6, 60),
      patient('4 /24s a day at 10× (under the quorum)', 4, 100),
      patient('fences widened 6 days, then 2×', 6, 140, (i, d) => (d < 6 ? (i < 3 ? 0.2 : 5) : 2) * HONEST_MB),
    ];
  }),
  {
    name: '9 look-alikes and 3 honest a day',
    honestBefore: [12],
    days: 4,
    fakesPerDay: 9,
    fakeMb: HONEST_MB,
    from: (i, d) => `${30 + d}.${i}.7.7`,
    honestOn: () => 3,
  },
];

async function poisoning(sql: Sql, store: string) {
  // Days are played by moving rows back in time and refreshing after each, as the server would
  // at the turn of a day; a background refresh landing between a day's posts and its move would
  // judge rows by a day they do not belong to, so there is none here.
  const app = appFor(sql, { refreshDelayMs: 2 ** 31 - 1 });
  const STATS = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=phone';
  const nsFor = (mbPerS: number) => (1024 * 1e9) / (mbPerS * 1e6);
  const phone = async (mbPerS: number, from: string, identical = false) => {
    const ns = nsFor(mbPerS);
    return (
      await post(app, submission({ deviceClass: 'phone', nsPerOp: ns, mutate: identical ? (d) => void (d.cases[0]!.samples = [ns, ns, ns]) : undefined }), {
        'x-test-client': from,
      })
    ).status;
  };
  const cohort = async () =>
    ((await (await appFor(sql).request(STATS)).json()).cohorts[0] ?? { n: 0, tooFew: true }) as { n: number; median?: number; tooFew: boolean };
  const percentileOf = async (mbPerS: number) =>
    (await (await appFor(sql).request(`${STATS.replace('/stats', '/percentile')}&bytesPerSecond=${mbPerS * 1e6}`)).json()).percentile as number | null;
  const backdate = (days: number) => sql.query(`UPDATE submissions SET received_on = current_date - ${days} WHERE received_on = current_date`);
  // Honest phones take the twelve figures of 46–56 MB/s in turn (5 steps apart, so any twelve in a row are all of them).
  let next = 0;
  const honest = async (n: number, tag: string) => {
    for (let i = 0; i < n; i++) await phone(46 + (10 * ((5 * next++) % 12)) / 11, `198.${tag}.${i}.10`);
  };
  const rows: string[] = [];
  const only = process.env.ATTACKS?.split(',');
  for (const a of ATTACKS.filter((x) => !only || only.some((o) => x.name.includes(o)))) {
    await sql.query('TRUNCATE submissions, cohort_bounds, cohort_views, cohort_day_weights, rate_buckets, daily_counts CASCADE');
    next = 0;
    const total = a.honestBefore.length + a.days;
    let ago = total - 1;
    let honestVoices = 0;
    for (const [k, n] of a.honestBefore.entries()) {
      await honest(n, String(51 + k));
      honestVoices += n;
      await backdate(ago--);
    }
    await refreshCohorts(sql);
    let accepted = 0;
    // The shown median's worst day against the honest, over the days that showed one.
    let worst: number | null = null;
    for (let d = 0; d < a.days; d++) {
      for (let i = 0; i < (a.fakesOn?.(d) ?? a.fakesPerDay); i++)
        accepted += Number((await phone((a.fakeMbOn?.(i, d) ?? a.fakeMb) * (a.identical ? 1 : 1 + ((i % 5) - 2) / 200), a.from(i, d), a.identical)) === 201);
      const newcomers = a.honestOn?.(d) ?? 0;
      await honest(newcomers, String(100 + (d % 150)));
      honestVoices += newcomers;
      if (ago > 0) await backdate(ago);
      ago--;
      await refreshCohorts(sql);
      const day = await cohort();
      if (!day.tooFew && day.median !== undefined) {
        const off = day.median / (HONEST_MB * 1e6) - 1;
        if (worst === null || Math.abs(off) > Math.abs(worst)) worst = off;
      }
    }
    const after = await cohort();
    // Listed: moved within the review's window, or contested (review.ts).
    const moving = (await movingCohorts(sql)).length > 0;
    const shown =
      after.tooFew || after.median === undefined
        ? 'none shown'
        : `${(after.median / 1e6).toFixed(1)} MB/s (${(100 * (after.median / (HONEST_MB * 1e6) - 1)).toFixed(1)} % from the honest)`;
    const placed = await percentileOf(HONEST_MB);
    figures.row('attack', {
      store,
      attack: a.name,
      fakesStored: accepted,
      medianOffHonest: after.tooFew || after.median === undefined ? null : after.median / (HONEST_MB * 1e6) - 1,
      worstDayOffHonest: worst,
      voices: after.n,
      honestSent: honestVoices,
      moving,
    });
    rows.push(
      `  ${a.name.padEnd(46)} fakes stored ${String(accepted).padStart(3)}  median ${shown}  voices ${after.n} (honest sent ${honestVoices})  worst day ${worst === null ? '–' : `${(100 * worst).toFixed(1)} %`}  a 51 MB/s phone at ${placed === null ? '–' : `${placed.toFixed(0)} %`}  review: ${moving ? 'listed' : 'steady'}`,
    );
    process.stderr.write(rows.at(-1)! + '\n');
  }
  return rows;
}

/**
 * 1,800 distinct reads that no summary answers (filters by browser, arch, grouping, execution
 * mode), 600 from each of 3 networks, each network's evenly over `windowS` seconds (60: what
 * the default read budget of an address lets through), on the cohort largeCohort left, with /health asked every 100 ms meanwhile: the
 * collector's CPU over the window (and the database's, where it has its own processes), how
 * many were answered and how many refused by the live-read budget (app.ts
 * LIVE_READ_MS_PER_MINUTE), and /health's median latency.
 */
async function filteredReads(sql: Sql, windowS: number, dbCpuMs?: () => number) {
  const app = createApp(sql, { clientAddress: (c) => c.req.header('x-from') ?? '127.0.0.1' }); // the default limits
  const base = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024';
  const filters: string[] = [];
  for (const browser of BROWSER_NAMES)
    for (const arch of ARCHES)
      for (const groupBy of ['deviceClass', 'engine', 'browser'])
        for (const execution of EXECUTION_MODES)
          for (const engine of ['', ENGINE_NAMES[0]])
            filters.push(
              `${base}&browser=${encodeURIComponent(browser)}&arch=${arch}&groupBy=${groupBy}&execution=${execution}${engine ? `&engine=${engine}` : ''}`,
            );
  const statuses: Record<number, number> = {};
  const health: number[] = [];
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      await (await app.request('/api/v1/health')).arrayBuffer();
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const [cpu0, db0, t0] = [process.cpuUsage(), dbCpuMs?.() ?? 0, performance.now()];
  // Each network sends its 600 filters evenly over the window: a minute is what its read budget
  // (600 a minute per address, app.ts) lets through at most.
  await Promise.all(
    [0, 1, 2].map(async (k) => {
      for (let n = 0; n < 600; n++) {
        const at = t0 + (n * windowS * 1000) / 600;
        if (performance.now() < at) await new Promise((r) => setTimeout(r, at - performance.now()));
        const r = await app.request(filters[3 * n + k]!, { headers: { 'x-from': `198.18.${k + 1}.1` } });
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        await r.arrayBuffer();
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const dbMs = dbCpuMs ? dbCpuMs() - db0 : null;
  done = true;
  await poll;
  return {
    wallMs,
    cpuShare: (cpu.user + cpu.system) / 1000 / wallMs,
    dbShare: dbMs === null ? null : dbMs / wallMs,
    statuses,
    healthP50: quantile(health, 0.5),
  };
}

/**
 * One cohort of `rows` runs (each its own source, of yesterday): what its refresh costs, and a
 * client's first /stats and /percentile of it (no cache), which read the view made at refresh.
 */
async function largeCohort(sql: Sql, rows: number) {
  await sql.query('TRUNCATE submissions, cohort_bounds, cohort_views, cohort_day_weights CASCADE');
  await sql.query(
    `INSERT INTO submissions (id, payload_sha256, schema_version, engine_version, device_class, browser, browser_major, os, os_major, arch, cores, runtime, isolated, timer_us, preset, engine, source, received_on)
     SELECT md5('c' || i)::uuid, '', 'aeadbench/result@2', '0.1.0', (ARRAY['phone','tablet','laptop','desktop','server'])[1 + i % 5], 'Chrome', 150, 'Linux', 6, 'x86-64', 8, 'browser', true, 5, 'quick', 'Blink', 'src' || i, current_date - 1 - i % 2
     FROM generate_series(1, $1::int) AS i`,
    [rows],
  );
  await sql.query(
    `INSERT INTO cases (submission_id, algorithm, implementation, variant, operation, size_bytes, aad_bytes, samples, n, median_ns, bytes_per_second, robust_cv)
     SELECT md5('c' || i)::uuid, 'aes-128-gcm', 'rustcrypto-wasm', 'simd128', 'encrypt', 1024, 0, ARRAY[1000.0, 1010.0, 990.0], 3, 1000, 1e8 * (0.5 + random()), 0.01
     FROM generate_series(1, $1::int) AS i`,
    [rows],
  );
  await sql.query('ANALYZE');
  const t = performance.now();
  await refreshCohorts(sql);
  const refreshMs = performance.now() - t;
  const first = async (path: string) => {
    const app = createApp(sql, { submissionsPerMinute: 1e9, clientAddress: () => '127.0.0.1' }); // nothing cached
    const t = performance.now();
    const r = await app.request(path);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    await r.arrayBuffer();
    return performance.now() - t;
  };
  const q = 'algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024';
  const stats: number[] = [];
  const placed: number[] = [];
  const live: number[] = [];
  for (let i = 0; i < 7; i++) {
    stats.push(await first(`/api/v1/stats?${q}`));
    placed.push(await first(`/api/v1/percentile?${q}&deviceClass=phone&bytesPerSecond=${1e8 + i}`));
    live.push(await first(`/api/v1/stats?${q}&browser=Chrome`));
  }
  return { refreshMs, stats: quantile(stats, 0.5), placed: quantile(placed, 0.5), live: quantile(live, 0.5) };
}

const figures = evidence('collector');
const pg = await startPostgres();
const out: string[] = [];
try {
  if (PARTS.has('load'))
    for (const [name, env] of [
      ['PGlite', { COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-bench-')) }],
      ['PostgreSQL', { DATABASE_URL: pg.url }],
    ] as const) {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const proc = await collector(env, port);
      for (const cases of [1, 84]) {
        const r = await load(port, cases);
        figures.row('load', { store: name, cases, submissionsPerSecond: r.rps, p50Ms: r.p50, p99Ms: r.p99, non2xx: r.non2xx, errors: r.errors });
        out.push(
          `${name.padEnd(11)} ${String(cases).padStart(3)} case(s)/submission: ${r.rps.toFixed(0).padStart(6)} submissions/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
        );
        process.stderr.write(out[out.length - 1] + '\n');
      }
      const e = await exportWhileHealth(`http://127.0.0.1:${port}`);
      figures.row('export', { store: name, rows: e.rows, rowsPerSecond: e.rowsPerS, healthP50Ms: e.p50, healthP99Ms: e.p99 });
      out.push(
        `${name.padEnd(11)} export of ${e.rows} case rows: ${e.rowsPerS.toFixed(0)} rows/s; /health meanwhile p50 ${e.p50.toFixed(1)} ms, p99 ${e.p99.toFixed(1)} ms`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      proc.kill('SIGTERM');
    }
  // On PGlite the database runs in the collector's process and its work is counted there; on
  // PostgreSQL it is the server's processes' CPU (harness/postgres.ts cpuMs), counted beside it.
  if (PARTS.has('bodies'))
    for (const [name, open, dbCpu] of [
      ['PGlite', () => openPglite(), undefined],
      ['PostgreSQL', () => openPostgres(pg.url), () => pg.cpuMs()],
    ] as const) {
      const big = await largestSubmissionCpu(open);
      figures.row('body-cpu', { store: name, body: 'largest', bytes: big.bytes, cpuMs: big.cpuMs, databaseMs: null, refreshMs: null });
      out.push(
        `${name.padEnd(11)} largest accepted submission (${(big.bytes / 2 ** 20).toFixed(1)} MiB, 84 cases, ${big.samples} samples): ${big.cpuMs.toFixed(0)} CPU ms of the collector's process (median of 5)`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      for (const kind of ['widest', 'invalid', 'over'] as const) {
        const b = await bodyCpu(open, kind, dbCpu);
        figures.row('body-cpu', {
          store: name,
          body: kind,
          bytes: b.bytes,
          cpuMs: b.cpuMs,
          databaseMs: b.dbMs,
          refreshMs: kind === 'widest' ? b.refreshMs : null,
        });
        const what = {
          widest: `widest accepted body (${MAX_CASES} cases × ${Math.floor(MAX_SAMPLES_TOTAL / MAX_CASES)} samples)`,
          invalid: 'invalid body at the limit (bad samples)',
          over: 'invalid body over the limit (bad samples)',
        }[kind];
        const db = b.dbMs === null ? '' : ` + ${b.dbMs.toFixed(0)} of the database's`;
        const dbRefresh = b.dbRefreshMs === null ? '' : ` + ${b.dbRefreshMs.toFixed(0)} of the database's`;
        const all = b.cpuMs + b.refreshMs + (b.dbMs ?? 0) + (b.dbRefreshMs ?? 0);
        const told = kind === 'widest' ? `; its cohorts' refresh ${b.refreshMs.toFixed(0)}${dbRefresh}; ${all.toFixed(0)} CPU ms all told` : '';
        out.push(
          `${name.padEnd(11)} ${what}, ${(b.bytes / 2 ** 20).toFixed(1)} MiB: ${b.cpuMs.toFixed(0)} CPU ms of the collector's at once${db}${told} (median of 3), RSS +${b.rssMb.toFixed(0)} MB`,
        );
        process.stderr.write(out[out.length - 1] + '\n');
      }
    }
  if (PARTS.has('nginx'))
    for (const n of [1, 3]) {
      const stack = await startStack({ collectors: n, env: NO_LIMITS, pg });
      try {
        await new Promise((r) => setTimeout(r, 500));
        const r = await lanesLoad(stack.url, 1, 32, DURATION);
        figures.row('nginx', { collectors: n, submissionsPerSecond: r.rps, p50Ms: r.p50, p99Ms: r.p99 });
        out.push(
          `nginx → ${n} collector${n > 1 ? 's' : ' '} on PostgreSQL, 1 case, 32 loopback sources: ${r.rps.toFixed(0).padStart(6)} submissions/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ${JSON.stringify(r.statuses)}`,
        );
        process.stderr.write(out[out.length - 1] + '\n');
      } finally {
        await stack.stop();
      }
    }
  if (PARTS.has('poisoning'))
    for (const [name, open] of [
      ['PGlite', () => openPglite()],
      ['PostgreSQL', () => openPostgres(pg.url)],
    ] as const) {
      const sql = await open();
      await migrate(sql);
      const lines = [
        `${name}: fakes against honest phones at 46–56 MB/s (goal: every shown median within 5 % of the honest 51 MB/s on every day; a split burst and the patient shapes listed for the operator)`,
        ...(await poisoning(sql, name)),
      ];
      out.push(...lines);
      attackLines.push(...lines);
      await sql.close();
    }
  if (PARTS.has('stats'))
    for (const [name, open] of [
      ['PGlite', () => openPglite()],
      ['PostgreSQL', () => openPostgres(pg.url)],
    ] as const) {
      const sql = await open();
      await migrate(sql);
      await sql.query('TRUNCATE submissions CASCADE');
      const t = performance.now();
      await fill(sql, ROWS);
      const loadS = (performance.now() - t) / 1000;
      const s = await statsTiming(sql);
      figures.row('statistics', { store: name, rows: ROWS, p50Ms: s.p50, p95Ms: s.p95 });
      out.push(
        `${name.padEnd(11)} statistics over ${ROWS} case rows (loaded in ${loadS.toFixed(1)} s): p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      // The same reads through the app, as clients make them: the first of a cohort, then repeats (cached).
      const app = createApp(sql, { submissionsPerMinute: 1e9, clientAddress: () => '127.0.0.1' });
      const timed = async (path: string) => {
        const t = performance.now();
        const r = await app.request(path);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
        await r.arrayBuffer();
        return performance.now() - t;
      };
      const path = (i: number) => `/api/v1/stats?algorithm=${ALGS[i % ALGS.length]}&implementation=rustcrypto-wasm&operation=encrypt&size=${64 << (i % 10)}`;
      const first: number[] = [];
      const repeat: number[] = [];
      for (let i = 0; i < 10; i++) first.push(await timed(path(i)));
      for (let i = 0; i < 100; i++) repeat.push(await timed(path(i % 10)));
      const pct = (i: number) =>
        `/api/v1/percentile?algorithm=${ALGS[i % ALGS.length]}&implementation=rustcrypto-wasm&operation=encrypt&size=${64 << (i % 10)}&bytesPerSecond=${1e8 + i}`;
      const placed: number[] = [];
      for (let i = 0; i < 100; i++) placed.push(await timed(pct(i % 10)));
      out.push(
        `${name.padEnd(11)} /stats through the app: first read of a cohort p50 ${quantile(first, 0.5).toFixed(1)} ms; repeated p50 ${quantile(repeat, 0.5).toFixed(2)} ms; /percentile of new figures, cohorts read before, p50 ${quantile(placed, 0.5).toFixed(2)} ms`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      figures.row('reads', { store: name, firstP50Ms: quantile(first, 0.5), repeatedP50Ms: quantile(repeat, 0.5), percentileP50Ms: quantile(placed, 0.5) });
      const big = await largeCohort(sql, COHORT_ROWS);
      figures.row('large-cohort', { store: name, rows: COHORT_ROWS, refreshMs: big.refreshMs, statsMs: big.stats, percentileMs: big.placed, liveMs: big.live });
      out.push(
        `${name.padEnd(11)} one cohort of ${COHORT_ROWS} rows: refreshed in ${big.refreshMs.toFixed(0)} ms (its view included); a first /stats p50 ${big.stats.toFixed(1)} ms, /percentile ${big.placed.toFixed(1)} ms (from the view); /stats filtered by browser, read live, ${big.live.toFixed(0)} ms`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      const reads = await filteredReads(sql, DURATION >= 10 ? 60 : 6, name === 'PostgreSQL' ? () => pg.cpuMs() : undefined);
      figures.row('read-flood', {
        store: name,
        answered: reads.statuses[200] ?? 0,
        refused: reads.statuses[429] ?? 0,
        collectorShare: reads.cpuShare,
        databaseShare: reads.dbShare,
        healthP50Ms: reads.healthP50,
      });
      out.push(
        `${name.padEnd(11)} 1800 distinct filtered /stats from 3 networks on a ${COHORT_ROWS}-row cohort, for ${(reads.wallMs / 1000).toFixed(0)} s: the collector at ${(100 * reads.cpuShare).toFixed(0)} % of a core${reads.dbShare === null ? '' : ` + the database at ${(100 * reads.dbShare).toFixed(0)} %`}; answered ${reads.statuses[200] ?? 0}, refused ${reads.statuses[429] ?? 0} (live-read budget); /health p50 ${reads.healthP50.toFixed(1)} ms`,
      );
      process.stderr.write(out[out.length - 1] + '\n');
      await sql.close();
    }
} finally {
  pg.stop();
}
if (wantsWrite() && attackLines.length) {
  const file = writeMeasured('crowd-attacks', {
    title: 'What it takes to steer the crowd',
    about: 'Each attack of docs/crowd.md played day by day against honest phones, on PGlite and on PostgreSQL (lab/bench/bench-collector.ts, part poisoning).',
    command: 'PARTS=poisoning npm run bench:collector -- --write',
    lines: attackLines,
  });
  console.log(`wrote ${file}`);
}
console.log(`\nbench:collector — loopback, ${CONNECTIONS} connections × ${DURATION} s per cell, Node ${process.version}`);
for (const line of out) console.log(line);
console.log(
  'targets: ≥ 1000 submissions/s PGlite, ≥ 3000 PostgreSQL; statistics p95 ≤ 100 ms at 1 M rows; /stats of a 100,000-row cohort ≤ 10 ms; any one body ≤ 100 CPU ms all told',
);
