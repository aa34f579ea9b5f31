// The collector's behaviour through app.request() (no server), on PGlite and on PostgreSQL.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sql } from '../db.ts';
import openapi from '../openapi.json' with { type: 'json' };
import { refreshCohorts } from '../cohorts.ts';
import { placeIn } from '../crowd.ts';
import { dayWeights, weightedQuantile } from '../weights.ts';
import { DEVICE_FAMILY_NAMES } from '../../web/core/submit.ts';
import { fromStored } from '../../web/core/permalink.ts';
import { mostSamples } from '../../web/core/run/stop-rule.ts';
import { BACKENDS, appFor, post, submission, useBackend } from './helpers.ts';

/** The first case's samples repeated, slightly varied, to `n`; cycles kept in step. */
function padSamples(d: ReturnType<typeof submission>['result'], n: number): void {
  const c = d.cases[0]!;
  c.samples = Array.from({ length: n }, (_, i) => c.samples[i % c.samples.length]! * (1 + (i % 7) / 1000));
  if (c.cycles) c.cycles = Array.from({ length: n }, (_, i) => i);
}

describe.each(BACKENDS)('collector on %s', (kind) => {
  let sql: Sql;
  let app: ReturnType<typeof appFor>;
  useBackend(kind, (s, a) => ((sql = s), (app = a)));

  it('reports health and its storage, and nothing a submission moves (no poller dates one by it)', async () => {
    const r = await app.request('/api/v1/health');
    expect(r.status).toBe(200);
    const before = await r.json();
    expect(before).toEqual({ ok: true, storage: kind, database: 'up' });
    expect((await post(app, submission())).status).toBe(201);
    expect(await (await app.request('/api/v1/health')).json()).toEqual(before);
  });

  it('serves its OpenAPI description with the algorithm ids filled in from the table', async () => {
    const { ALGORITHM_IDS } = await import('../../web/core/tables/algorithms.ts');
    const doc = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }>;
    };
    expect(doc.paths['/stats']!.get.parameters.find((p) => p.name === 'algorithm')!.schema.enum).toEqual([...ALGORITHM_IDS]);
    expect(JSON.stringify(doc)).not.toContain('x-enum');
  });

  it('serves a submitted result at its permalink, exactly as stored, and names a bad id', async () => {
    const body = submission({ deviceClass: 'laptop' });
    expect((await post(app, body)).status).toBe(201);
    const id = body.result.runId;
    const r = await app.request(`/api/v1/results/${id}`);
    expect(r.status).toBe(200);
    const got = await r.json();
    expect(got).toMatchObject({
      id,
      deviceClass: 'laptop',
      browser: 'Chrome',
      browserMajor: 156,
      arch: 'x86-64',
      cores: 2,
      preset: 'quick',
      quarantined: false,
    });
    expect(got.cases).toHaveLength(body.result.cases.length);
    expect(got.cases[0].samples).toEqual(body.result.cases[0]!.samples);
    // Only what was stored: no user agent, no address, no timestamp finer than a day.
    expect(JSON.stringify(got)).not.toMatch(/Mozilla|userAgent|127\.0\.0\.1|createdAt/);
    expect(got.receivedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bad = await app.request('/api/v1/results/not-a-uuid');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain("'not-a-uuid' is not a result id");
    expect((await app.request('/api/v1/results/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('keeps samples as bytes, bit for bit, for every case of a batch, and still reads rows stored as arrays before', async () => {
    const bodies = [3, 17, 1].map((n, k) => {
      const b = submission();
      b.result.cases[0]!.samples = Array.from({ length: n }, (_, i) => (1000 + k) / 3 + i * Math.PI);
      return b;
    });
    // Sent together, so that the writer takes them as one batch and one run of bytes.
    expect((await Promise.all(bodies.map((b) => post(app, b)))).map((r) => r.status)).toEqual([201, 201, 201]);
    for (const b of bodies) {
      const got = await (await app.request(`/api/v1/results/${b.result.runId}`)).json();
      expect(got.cases[0].samples).toEqual(b.result.cases[0]!.samples);
    }
    expect(await sql.query('SELECT 1 FROM cases WHERE samples IS NOT NULL OR octet_length(samples_f64) <> 8 * n')).toHaveLength(0);
    // A row from before migration 009: its samples an array.
    const old = bodies[0]!.result.runId;
    await sql.query('UPDATE cases SET samples_f64 = NULL, samples = ARRAY[1.5, 2.25]::double precision[], n = 2 WHERE submission_id = $1', [old]);
    expect((await (await app.request(`/api/v1/results/${old}`)).json()).cases[0].samples).toEqual([1.5, 2.25]);
    await sql.query('UPDATE submissions SET received_on = current_date - 1'); // the export holds the days that have ended
    const nd = (await (await app.request('/api/v1/export.ndjson')).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(nd.map((r) => r.samples.length).sort((a, b) => a - b)).toEqual([1, 2, 17]);
  });

  it('keeps memory as a number of GiB from the page to the permalink, 2 for 2 or less', async () => {
    for (const [gib, kept] of [
      [0.5, 2],
      [8, 8],
      [64, 32],
    ] as const) {
      const body = submission({ mutate: (doc) => (doc.environment.deviceMemoryGiB = gib) });
      expect((await post(app, body)).status).toBe(201);
      const stored = await (await app.request(`/api/v1/results/${body.result.runId}`)).json();
      expect(stored.memoryBucket).toBe(kept);
      expect(fromStored(stored).environment.deviceMemoryGiB).toBe(kept);
    }
  });

  it('stores a submission with its device class and coarse environment only', async () => {
    const body = submission({ deviceClass: 'phone' });
    const r = await post(app, body);
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({ id: body.result.runId, duplicate: false, cases: 1 });
    const [row] = await sql.query<Record<string, unknown>>('SELECT * FROM submissions');
    expect(row).toMatchObject({
      device_class: 'phone',
      browser: 'Chrome',
      browser_major: 156,
      arch: 'x86-64',
      cores: 2,
      memory_bucket: 16,
      device_model: null,
    });
    expect(Object.keys(row!)).not.toEqual(expect.arrayContaining(['user_agent', 'ip']));
    expect(JSON.stringify(row)).not.toMatch(/Mozilla|HeadlessChrome|127\.0\.0\.1/);
  });

  it('recomputes every summary from the raw samples and ignores the client summary', async () => {
    const body = submission({
      nsPerOp: 2000,
      mutate: (d) => {
        d.cases[0]!.bytesPerSecond = 9e12;
        d.cases[0]!.summary.median = 1;
      },
    });
    expect((await post(app, body)).status).toBe(201);
    const [c] = await sql.query<{ median_ns: number; bytes_per_second: number }>('SELECT median_ns, bytes_per_second FROM cases');
    expect(c!.median_ns).toBe(2000);
    expect(c!.bytes_per_second).toBeCloseTo((1024 * 1e9) / 2000, 3);
  });

  it('treats a retried POST as idempotent and a reused run id with other content as a conflict', async () => {
    const body = submission();
    expect((await post(app, body)).status).toBe(201);
    const again = await post(app, body);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    const other = { ...body, deviceClass: 'desktop' };
    const conflict = await post(app, other);
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error).toContain(body.result.runId);
    expect((await sql.query('SELECT id FROM submissions')).length).toBe(1);
  });

  it.each([
    ['malformed JSON', '{"result": ', 400, 'malformed JSON'],
    ['a missing field', { deviceClass: 'phone' }, 400, 'result'],
    ['a wrong type', () => ({ ...submission(), deviceClass: 5 }), 400, 'deviceClass'],
    ['an unknown device class', () => ({ ...submission(), deviceClass: 'toaster' }), 400, 'deviceClass'],
    ['an unknown algorithm', () => submission({ mutate: (d) => ((d.cases[0] as { algorithm: string }).algorithm = 'rot13') }), 400, 'result.cases.0.algorithm'],
    // The first bad field is named (the run's sizes come before its cases).
    [
      'a size outside the sweep',
      () => submission({ sizeBytes: 2 ** 31 }),
      400,
      'result.params.sizes.0: Invalid value: Expected <=67108864 but received 2147483648',
    ],
    ['a case size outside the sweep', () => submission({ mutate: (d) => (d.cases[0]!.sizeBytes = 2 ** 31) }), 400, 'result.cases.0.sizeBytes'],
    ['throughput above any memory bandwidth', () => submission({ nsPerOp: 0.001 }), 422, 'plausible memory bandwidth'],
    ['a zero sample', () => submission({ mutate: (d) => (d.cases[0]!.samples[1] = 0) }), 422, 'result.cases.0.samples.1'],
    ['a user-agent string', () => submission({ mutate: (d) => (d.environment.userAgent = 'Mozilla/5.0') }), 422, 'userAgent'],
    ['an SQL-looking device model', () => ({ ...submission(), deviceModel: "x'); DROP TABLE submissions; --" }), 400, 'deviceModel'],
    [
      'an AAD length the run did not ask for',
      () => submission({ mutate: (d) => (d.cases[0]!.aadBytes = 13) }),
      422,
      "result.cases.0.aadBytes: 13 is not in the run's params.aadBytes",
    ],
    ['a device model instead of its family', () => ({ ...submission(), deviceModel: 'Pixel 8' }), 400, 'deviceModel'],
    ['a duplicated case', () => submission({ mutate: (d) => d.cases.push(d.cases[0]!) }), 422, 'appears twice'],
    [
      'more samples than its rounds and extra rounds can take',
      () => submission({ mutate: (d) => padSamples(d, mostSamples(d.params) + 1) }),
      422,
      'result.cases.0.samples: ',
    ],
    [
      'a case named for an implementation that is not a built-in, without its module',
      () => submission({ mutate: (d) => (d.cases[0]!.implementation = 'my-gcm' as never) }),
      422,
      "result.cases.0.implementation: 'my-gcm' is not a built-in",
    ],
    // Found by the fuzz below: values the schema took but the database's columns refuse.
    [
      'an impossible core count',
      () => submission({ mutate: (d) => (d.environment.hardwareConcurrency = 5000) }),
      400,
      'result.environment.hardwareConcurrency',
    ],
    ['an AAD beyond 32-bit', () => submission({ mutate: (d) => (d.cases[0]!.aadBytes = 2 ** 33) }), 400, 'result.cases.0.aadBytes'],
    [
      'an absurd browser version',
      () => submission({ mutate: (d) => (d.environment.browser.version = '99999999999.0') }),
      422,
      'result.environment.browser.version',
    ],
  ])('refuses %s with a 4xx naming the field', async (_, body, status, field) => {
    const r = await post(app, typeof body === 'function' ? body() : body);
    expect(r.status).toBe(status);
    expect((await r.json()).error).toContain(field);
    expect((await sql.query('SELECT id FROM submissions')).length).toBe(0);
  });

  it('stores a case with as many samples as the stop rule can take (extra rounds sample up to 3× a round, and an overtime takes as many extra rounds again)', async () => {
    const body = submission({ mutate: (d) => padSamples(d, mostSamples(d.params)) });
    const n = body.result.cases[0]!.samples.length;
    const p = body.result.params;
    expect(p.overtimeMs).toBeGreaterThan(0);
    expect(n).toBe(p.samplesPerRound * (p.rounds + 3 * 2 * p.maxReruns));
    expect(n).toBeGreaterThan(body.result.params.samplesPerRound * (body.result.params.rounds + body.result.params.maxReruns));
    expect((await post(app, body)).status).toBe(201);
  });

  it('refuses environment names the engine cannot produce, so no free text reaches the crowd', async () => {
    const body = submission({ mutate: (d) => (d.environment.browser.name = "Chrome'); DROP TABLE cases; --") });
    const r = await post(app, body);
    expect(r.status).toBe(422);
    expect((await r.json()).error).toMatch(/^result\.environment\.browser\.name: 'Chrome'\); DROP TABLE cases; --' is not one of Edge, /);
    expect((await sql.query('SELECT 1 FROM cases')).length).toBe(0);
  });

  it('records the scenario of a scenario run, and filters the crowd by it', async () => {
    const iot = submission({ mutate: (d) => (d.params.preset = 'lightweight-iot') });
    expect((await post(app, iot)).status).toBe(201);
    expect((await post(app, submission())).status).toBe(201);
    const rows = await sql.query<{ scenario: string | null }>('SELECT scenario FROM submissions ORDER BY scenario NULLS LAST');
    expect(rows.map((r) => r.scenario)).toEqual(['lightweight-iot', null]);
    const q = '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024';
    expect((await (await app.request(q)).json()).cohorts[0].n).toBe(2);
    expect((await (await app.request(`${q}&scenario=lightweight-iot`)).json()).cohorts[0].n).toBe(1);
  });

  it('refuses an oversize body with 413', async () => {
    const small = appFor(sql, { maxBodyBytes: 1000 });
    const r = await post(small, submission());
    expect(r.status).toBe(413);
  });

  /** Posts laptops at these ns/op, alternating between the day before yesterday and yesterday, then refreshes; returns their voices as weights.ts sees them. */
  const laptopsOverTwoDays = async (nsList: number[]) => {
    for (const [day, parity] of [
      [2, 0],
      [1, 1],
    ] as const) {
      for (let i = parity; i < nsList.length; i += 2) expect((await post(app, submission({ deviceClass: 'laptop', nsPerOp: nsList[i]! }))).status).toBe(201);
      await sql.query(`UPDATE submissions SET received_on = current_date - ${day} WHERE received_on = current_date`);
    }
    await refreshCohorts(sql);
    const first = nsList.filter((_, i) => i % 2 === 0);
    const w = dayWeights([first.length, nsList.length - first.length]);
    const voices = nsList
      .map((ns, i) => ({ x: bps(ns), w: i % 2 === 0 ? w[0]! / first.length : w[1]! / (nsList.length - first.length) }))
      .sort((p, q) => p.x - q.x);
    return { xs: voices.map((v) => v.x), ws: voices.map((v) => v.w) };
  };
  const bps = (ns: number) => (1024 * 1e9) / ns;

  it('gives crowd statistics per device class over weighted voices, aggregated in SQL as weights.ts computes them', async () => {
    const { xs, ws } = await laptopsOverTwoDays([1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]);
    expect((await post(app, submission({ deviceClass: 'phone', nsPerOp: 1450 }))).status).toBe(201);
    const r = await app.request('/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024');
    expect(r.status).toBe(200);
    const { cohorts } = await r.json();
    const laptop = cohorts.find((c: { deviceClass: string }) => c.deviceClass === 'laptop');
    const phone = cohorts.find((c: { deviceClass: string }) => c.deviceClass === 'phone');
    expect(laptop).toMatchObject({ n: 10, days: 2, tooFew: false });
    for (const [q, field] of [
      [0.05, 'p05'],
      [0.25, 'q1'],
      [0.5, 'median'],
      [0.75, 'q3'],
      [0.95, 'p95'],
    ] as const)
      expect(laptop[field]).toBeCloseTo(weightedQuantile(xs, ws, q), 3);
    expect(laptop.q1).toBeLessThan(laptop.median);
    // The day before yesterday's five weigh 5, yesterday's five 1: the median sits among the first.
    expect(laptop.median).toBeGreaterThan(bps(1500));
    // One phone: a count and no figure.
    expect(phone).toMatchObject({ n: 1, days: 1, tooFew: true });
    expect(phone.median).toBeUndefined();
    const filtered = await (
      await app.request(
        '/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=laptop&browser=Chrome&arch=x86-64',
      )
    ).json();
    expect(filtered.cohorts).toHaveLength(1);
  });

  it('places a figure within its cohort by the weight of the voices below it', async () => {
    const { xs, ws } = await laptopsOverTwoDays([1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800, 1900]);
    const q = (bps: number) =>
      app.request(
        `/api/v1/percentile?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024&deviceClass=laptop&bytesPerSecond=${bps}`,
      );
    expect(await (await q(9e10)).json()).toMatchObject({ n: 10, days: 2, tooFew: false, percentile: 100 });
    const middle = bps(1450);
    expect((await (await q(middle)).json()).percentile).toBeCloseTo(placeIn({ n: 10, values: xs, weights: ws }, middle)!, 6);
    const empty = await (
      await app.request('/api/v1/percentile?algorithm=ascon-aead128&implementation=rustcrypto-wasm&operation=encrypt&size=64&bytesPerSecond=1')
    ).json();
    expect(empty).toMatchObject({ n: 0, tooFew: true, percentile: null });
  });

  it('flags an extreme figure as an outlier in its cohort instead of deleting it', async () => {
    for (let i = 0; i < 10; i++) await post(app, submission({ nsPerOp: 1000 + i * 10 }));
    await refreshCohorts(sql); // what the server does in the background
    await post(app, submission({ nsPerOp: 1_000_000 })); // 1000× slower: flagged on arrival
    const rows = await sql.query<{ median_ns: number; outlier: boolean }>('SELECT median_ns, outlier FROM cases ORDER BY median_ns');
    expect(rows).toHaveLength(11);
    expect(rows.filter((r) => r.outlier).map((r) => r.median_ns)).toEqual([1_000_000]);
    const { cohorts } = await (await app.request('/api/v1/stats?algorithm=aes-128-gcm&implementation=rustcrypto-wasm&operation=encrypt&size=1024')).json();
    expect(cohorts[0]).toMatchObject({ n: 10, outliers: 1 });
    // A refresh re-judges everything and keeps the verdict.
    await refreshCohorts(sql);
    expect((await sql.query<{ outlier: boolean }>('SELECT outlier FROM cases WHERE outlier')).length).toBe(1);
  });

  it('group-commits concurrent submissions, each answered as if alone', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => submission({ nsPerOp: 1000 + i }));
    const replay = bodies[3]!;
    const statuses = await Promise.all(bodies.map(async (b) => (await post(app, b)).status));
    expect(statuses).toEqual(Array(40).fill(201));
    // A replay and a conflicting reuse of one id, concurrently, once the original is stored
    // (sent together with it, which of the three is stored first would be a race).
    const again = await Promise.all([post(app, replay), post(app, { ...replay, deviceClass: 'server' })].map(async (r) => (await r).status));
    expect(again).toEqual([200, 409]);
    expect((await sql.query('SELECT id FROM submissions')).length).toBe(40);
    expect((await sql.query('SELECT 1 FROM cases')).length).toBe(40);
  });

  it('streams the anonymized data as CSV and NDJSON, each result the day after it arrived, so the export tells its day and not its time', async () => {
    for (const cls of ['phone', 'server']) await post(app, submission({ deviceClass: cls }));
    expect((await (await app.request('/api/v1/export.csv')).text()).trim().split('\n')).toHaveLength(1); // today's rows wait for midnight
    await sql.query('UPDATE submissions SET received_on = current_date - 1');
    const nextDay = appFor(sql); // a process whose export was not made yet today
    const csv = await (await nextDay.request('/api/v1/export.csv')).text();
    const lines = csv.trim().split('\n');
    expect(lines[0]).toMatch(/^submission,received_on,device_class,/);
    expect(lines).toHaveLength(3);
    expect(csv).not.toMatch(/Mozilla|user_agent|\bip\b/);
    const nd = (await (await nextDay.request('/api/v1/export.ndjson')).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(nd.map((r) => r.device_class).sort()).toEqual(['phone', 'server']);
    expect(nd[0].samples).toHaveLength(5);
  });

  it('limits the rate per client without storing who the client is', async () => {
    const limited = appFor(sql, { submissionsPerMinute: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(limited, submission(), { 'x-test-client': '192.0.2.7' })).status);
    expect(statuses).toEqual([201, 201, 429]);
    expect((await post(limited, submission(), { 'x-test-client': '192.0.2.8' })).status).toBe(201);
  });

  it('allows CORS only for configured origins and sends security headers', async () => {
    const withCors = appFor(sql, { corsOrigins: ['https://aeadbench.example'] });
    const ok = await withCors.request('/api/v1/health', { headers: { Origin: 'https://aeadbench.example' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://aeadbench.example');
    const no = await withCors.request('/api/v1/health', { headers: { Origin: 'https://evil.example' } });
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ok.headers.get('set-cookie')).toBeNull();
  });

  it('never answers 5xx to anything a client sends (property-based, from the schema)', async () => {
    const base = submission();
    const mutateAt = (obj: unknown, path: (string | number)[], value: unknown): unknown => {
      if (path.length === 0) return value;
      if (obj === null || typeof obj !== 'object') return obj;
      const copy = (Array.isArray(obj) ? [...obj] : { ...(obj as object) }) as Record<string | number, unknown>;
      const keys = Object.keys(copy);
      const key = keys.length ? keys[Math.abs(Number(path[0]) || 0) % keys.length]! : String(path[0]);
      copy[key] = mutateAt(copy[key], path.slice(1), value);
      return copy;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(50), { minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), async (path, value) => {
        const body = mutateAt({ ...base, result: { ...base.result, runId: crypto.randomUUID() } }, path, value);
        const r = await post(app, body);
        expect([200, 201, 400, 409, 413, 422]).toContain(r.status);
      }),
      { numRuns: kind === 'pglite' ? 150 : 100 },
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        const r = await post(app, value);
        expect([400, 422]).toContain(r.status);
      }),
      { numRuns: 100 },
    );
  });

  it('documents every route in openapi.json', () => {
    const documented = Object.keys(openapi.paths).map((p) => `/api/v1${p.replace(/\{(\w+)\}/g, ':$1')}`);
    const routes = [...new Set(app.routes.filter((r) => r.path.startsWith('/api/v1/')).map((r) => r.path))];
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const r of routes) expect(documented).toContain(r);
  });
});

describe('openapi.json', () => {
  it('holds no list of ids of its own: each names its table, and the served document lists exactly that table', async () => {
    const { ALGORITHM_IDS, IMPLEMENTATION_IDS } = await import('../../web/core/tables/algorithms.ts');
    const { ENUM_TABLES, OPENAPI } = await import('../openapi.ts');
    const enums = (o: unknown, found: unknown[][] = []): unknown[][] => {
      if (o && typeof o === 'object')
        for (const [k, v] of Object.entries(o))
          if (k === 'enum' && Array.isArray(v)) found.push(v);
          else enums(v, found);
      return found;
    };
    // The file: no enum that copies a table (its own short lists, such as storage kinds, stay).
    for (const e of enums(openapi)) for (const [name, table] of Object.entries(ENUM_TABLES)) expect(e, `a copy of ${name}`).not.toEqual([...table]);
    // Served: the algorithm parameter of both reads, every implementation list, the device families.
    for (const path of ['/stats', '/percentile'] as const) {
      const param = OPENAPI.paths[path].get.parameters.find((p: { name: string }) => p.name === 'algorithm') as unknown as { schema: { enum: string[] } };
      expect(param.schema.enum).toEqual([...ALGORITHM_IDS]);
    }
    const implementationLists = enums(OPENAPI).filter((e) => e.includes('noble'));
    expect(implementationLists.length).toBeGreaterThan(0);
    for (const e of implementationLists) expect(e).toEqual([...IMPLEMENTATION_IDS]);
    expect((OPENAPI.components.schemas.Submission.properties.deviceModel as unknown as { enum: string[] }).enum).toEqual([...DEVICE_FAMILY_NAMES]);
  });

  it('a list naming a table that does not exist is an error naming it', async () => {
    const { withTables } = await import('../openapi.ts');
    expect(() => withTables({ a: { 'x-enum': 'ciphers' } })).toThrow('"x-enum": "ciphers" names no table');
  });
});
