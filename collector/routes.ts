/**
 * The collector's routes (documented in openapi.json beside this file; a test checks that
 * every route here is there). Every body and query goes through a schema before it is used.
 * @module
 */
import { type Context, Hono } from 'hono';
import { closeSync, createReadStream, openSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as v from 'valibot';
import { ALGORITHM_IDS, IMPLEMENTATION_IDS, MAX_SIZE_BYTES, OPERATIONS, SCENARIO_IDS } from '../web/core/tables/algorithms.ts';
import { ARCHES, BROWSER_NAMES, ENGINE_NAMES } from '../web/core/platform/env.ts';
import { EXECUTION_MODES } from '../web/core/execution.ts';
import { formatIssue } from '../web/core/schema.ts';
import { type Client, sourceNetworkOf } from './client.ts';
import type { Sql } from './db.ts';
import { type ExportFile, type ExportFormat, createExportDumps } from './export-dump.ts';
import { classifyFault } from './faults.ts';
import type { SourceKeys } from './source.ts';
import { type CohortKey, cohortKeysOf, createRefresher } from './cohorts.ts';
import { GROUP_BY, type GroupBy, cohortOf, crowdStats, enoughEvidence, placeIn, viewDistribution, viewOf, voiceDistribution } from './crowd.ts';
import { counts, storedResult } from './store.ts';
import { type Capped, createWriter } from './writer.ts';
import { DEVICE_CLASSES, MAX_PLAUSIBLE_BYTES_PER_SECOND, type Reduced, RequestError, checkBodyText, reduceSubmission } from './submission.ts';
import { OPENAPI } from './openapi.ts';

const FilterSchema = v.object({
  algorithm: v.picklist(ALGORITHM_IDS),
  implementation: v.picklist(IMPLEMENTATION_IDS),
  operation: v.picklist(OPERATIONS),
  size: v.pipe(v.string(), v.regex(/^\d+$/, 'an integer number of bytes'), v.transform(Number), v.number(), v.maxValue(MAX_SIZE_BYTES)),
  // The way it was measured (default: the implementation's primary one) and the AAD's length (default 0): each a cohort of its own.
  variant: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/, 'a variant id, like simd128 or pipelined'))),
  aad: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'an integer number of bytes'), v.transform(Number), v.number(), v.maxValue(1 << 20))),
  deviceClass: v.optional(v.picklist(DEVICE_CLASSES)),
  browser: v.optional(v.picklist(BROWSER_NAMES)),
  engine: v.optional(v.picklist(ENGINE_NAMES)),
  arch: v.optional(v.picklist(ARCHES)),
  scenario: v.optional(v.picklist(SCENARIO_IDS as [string, ...string[]])),
  execution: v.optional(v.picklist(EXECUTION_MODES)),
});
const StatsSchema = v.object({ ...FilterSchema.entries, groupBy: v.optional(v.picklist(Object.keys(GROUP_BY) as [GroupBy, ...GroupBy[]]), 'deviceClass') });
const PercentileSchema = v.object({
  ...FilterSchema.entries,
  bytesPerSecond: v.pipe(
    v.string(),
    v.regex(/^\d+(\.\d+)?(e\d+)?$/i, 'a positive number'),
    v.transform(Number),
    v.number(),
    v.finite('a finite number'),
    v.minValue(0),
    v.maxValue(MAX_PLAUSIBLE_BYTES_PER_SECOND, `at most ${MAX_PLAUSIBLE_BYTES_PER_SECOND} (beyond any memory bandwidth)`),
  ),
});

function query<S extends v.GenericSchema>(schema: S, q: Record<string, string>): v.InferOutput<S> {
  const r = v.safeParse(schema, q);
  if (!r.success) throw new RequestError(400, `invalid query: ${r.issues.slice(0, 5).map(formatIssue).join('; ')}`);
  return r.output;
}

export interface RouteDeps {
  client(c: Context): Client;
  /** Charges a body's size against the client's write budget; false when it is spent. */
  chargeBody(client: Client, bytes: number): Promise<boolean>;
  /** Charges the cohorts a body names (each costs a later refresh); false when the budget is spent. */
  chargeCohorts(client: Client, cohorts: number): Promise<boolean>;
  /** Runs a read that no summary answers within the live-read budget (app.ts LIVE_READ_MS_PER_MINUTE), or refuses it while the budget is in debt. */
  liveRead<T>(client: Client, read: () => Promise<T>): Promise<{ value: T } | { refused: true }>;
  sources: SourceKeys;
  sourceDailyCap: number;
  /** How long new rows wait before their cohorts' bounds are recomputed (default a minute). */
  refreshDelayMs?: number;
  /** The exports' ages (export-dump.ts): made again at most this often while rows arrive, and at least this often. */
  exportMinAgeMs?: number;
  exportMaxAgeMs?: number;
}

const capMessage = (c: Capped) =>
  c.capped === 'network'
    ? `this network already sent ${c.sent} results today, the most one network may send in a day; try again tomorrow`
    : `this address already sent ${c.sent} results today, its share of what its network may send in a day; try again tomorrow`;

/**
 * What the routes share: whether the database answers (/health), the generation every stored batch
 * and refresh bumps, the refresher, the writer and the crowd reads' cache.
 */
function createShared(sql: Sql, deps: RouteDeps) {
  // Whether the database answers, for /health: PostgreSQL's is asked each time (one row read);
  // PGlite, one connection an export page or a refresh may hold, once at start (it lives in this
  // process), so /health never queues behind them. Again only while that first read fails.
  let pgliteUp: Promise<unknown> | null = sql.kind === 'pglite' ? counts(sql) : null;
  pgliteUp?.catch(() => (pgliteUp = null));
  /** Bumped by every stored batch and refresh: cached reads from before it are stale. */
  let generation = 0;
  const refresher = createRefresher(sql, { delayMs: deps.refreshDelayMs, onRefreshed: () => void generation++ });
  // A body's cohorts, found once when it is charged and touched again once it is stored.
  const cohortsOf = new WeakMap<Reduced, CohortKey[]>();
  const writer = createWriter(sql, {
    caps: { network: deps.sourceDailyCap },
    onStored: (rs) => {
      generation++;
      for (const r of rs) refresher.touch(cohortsOf.get(r) ?? cohortKeysOf([r]));
    },
  });
  // Crowd reads cost a pass over their cohort: each answer is kept until this process stores
  // something new or 30 s pass, so any number of clients repeating a read costs one query.
  // (Other processes' writes show within the 30 s.)
  const READ_TTL_MS = 30_000;
  const READ_CACHE_ENTRIES = 2000;
  const reads = new Map<string, { generation: number; at: number; value: Promise<unknown> }>();
  // A read refused by the live-read budget (429) is answered from its last answer where there is
  // one, however old: a reader is better served by a figure a few minutes old than by none.
  const cachedRead = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    const hit = reads.get(key);
    if (hit && hit.generation === generation && Date.now() - hit.at < READ_TTL_MS) return hit.value as Promise<T>;
    const value: Promise<T> = compute().catch((e: unknown) => {
      if (!(hit && e instanceof RequestError && e.status === 429)) throw e;
      // The stale answer stays as old as it was: the next read tries live again.
      if (reads.get(key)?.value === value) reads.set(key, hit);
      return hit.value as Promise<T>;
    });
    reads.delete(key);
    if (reads.size >= READ_CACHE_ENTRIES) reads.delete(reads.keys().next().value!);
    reads.set(key, { generation, at: Date.now(), value });
    value.catch(() => reads.get(key)?.value === value && reads.delete(key)); // a failed read is not kept (a newer one stays)
    return value;
  };
  /** A read answered live, within the live-read budget, or 429 while it is spent. */
  const live = async <T>(c: Context, read: () => Promise<T>): Promise<T> => {
    const r = await deps.liveRead(deps.client(c), read);
    if ('refused' in r)
      throw new RequestError(
        429,
        'the budget for reads that no summary answers (filtered or grouped otherwise than by device class) is spent for now; the unfiltered figures are answered at once, or try again in a minute',
      );
    return r.value;
  };
  return { databaseUp: () => pgliteUp ?? counts(sql), generation: () => generation, writer, cohortsOf, cachedRead, live };
}
type Shared = ReturnType<typeof createShared>;

export function routes(sql: Sql, deps: RouteDeps) {
  const api = new Hono();
  const shared = createShared(sql, deps);
  api.get('/health', async (c) => {
    try {
      // No counts: totals that moved with every submission let a poller date each one to within a
      // second (24 of 24, median 0.2–0.3 s).
      await shared.databaseUp();
      return c.json({ ok: true, storage: sql.kind, database: 'up' });
    } catch (e) {
      const fault = classifyFault(e);
      if (!fault) throw e;
      return c.json({ ok: false, storage: sql.kind, database: fault.status === 507 ? 'full' : 'unavailable', error: fault.message }, 503, {
        'Retry-After': String(fault.retryAfterS ?? 5),
      });
    }
  });
  api.get('/openapi.json', (c) => c.json(OPENAPI));
  api.post('/results', submit(deps, shared));
  // A submitted result's permalink: exactly what was stored (coarse environment, cases with
  // their raw samples), read-only. Reads are rate-limited per client like every GET.
  api.get('/results/:id', async (c) => {
    const id = c.req.param('id');
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      return c.json({ error: `'${id.slice(0, 60)}' is not a result id (a UUID)` }, 400);
    const stored = await storedResult(sql, id.toLowerCase());
    if (!stored) return c.json({ error: `no result ${id} here` }, 404);
    return c.json(stored, 200, { 'Cache-Control': 'public, max-age=300' });
  });
  api.get('/stats', stats(sql, shared));
  api.get('/percentile', percentile(sql, shared));
  const exporter = exportFiles(sql, deps, shared);
  api.get('/export.csv', exporter('csv'));
  api.get('/export.ndjson', exporter('ndjson'));
  return api;
}

/** POST /results: charged by its size and by the cohorts it names, reduced, then stored by the writer. */
const submit = (deps: RouteDeps, { writer, cohortsOf }: Shared) =>
  async function (c: Context) {
    const client = deps.client(c);
    const text = await c.req.text();
    const bytes = Buffer.byteLength(text);
    if (!(await deps.chargeBody(client, bytes)))
      throw new RequestError(429, `a body of ${bytes} bytes exceeds what this client may send now; try again in a minute`);
    checkBodyText(text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RequestError(400, 'malformed JSON body');
    }
    const reduced = reduceSubmission(body);
    const keys = cohortKeysOf([reduced]);
    cohortsOf.set(reduced, keys);
    const cohorts = keys.length;
    if (!(await deps.chargeCohorts(client, cohorts)))
      throw new RequestError(429, `a body naming ${cohorts} cohorts exceeds what this client may send now; try again in a minute`);
    reduced.source = deps.sources.hash(sourceNetworkOf(client.address));
    reduced.addressKey = deps.sources.hash(`address ${client.limitKey}`);
    // The daily caps are counted where the submission is stored (writer.ts), in its transaction.
    const outcome = await writer.submit(reduced);
    if (typeof outcome === 'object') throw new RequestError(429, capMessage(outcome));
    if (outcome === 'conflict') return c.json({ error: `run id ${reduced.id} was already submitted with different content` }, 409);
    return c.json({ id: reduced.id, duplicate: outcome === 'duplicate', cases: reduced.cases.length }, outcome === 'created' ? 201 : 200);
  };

/** GET /stats: a large cohort's answer as computed at its last refresh (store.ts viewOf); a small one's read live. */
const stats = (sql: Sql, { cachedRead, live }: Shared) =>
  async function (c: Context) {
    const { groupBy, ...f } = query(StatsSchema, c.req.query());
    const filter = { ...f, sizeBytes: f.size, aadBytes: f.aad };
    // One cache entry per cohort whether its defaults were written out or left out.
    const cohorts = await cachedRead(`stats ${JSON.stringify([{ ...f, ...cohortOf(filter) }, groupBy])}`, async () => {
      const view = await viewOf(sql, filter, groupBy);
      if (view) return view.filter((x) => f.deviceClass === undefined || x.group === f.deviceClass);
      return live(c, () => crowdStats(sql, filter, groupBy));
    });
    return c.json({ filter: f, groupBy, unit: 'bytes/s', cohorts });
  };

/** GET /percentile: where a figure stands in its cohort, once the cohort is above the floor of evidence. */
const percentile = (sql: Sql, { cachedRead, live }: Shared) =>
  async function (c: Context) {
    const f = query(PercentileSchema, c.req.query());
    const { bytesPerSecond, ...cohort } = f;
    // The cohort's distribution is cached, whatever figure is placed in it.
    const d = await cachedRead(`voices ${JSON.stringify({ ...cohort, ...cohortOf({ ...cohort, sizeBytes: f.size, aadBytes: f.aad }) })}`, async () => {
      const filter = { ...cohort, sizeBytes: f.size, aadBytes: f.aad };
      const view = await viewDistribution(sql, filter);
      if (view) return view;
      return live(c, () => voiceDistribution(sql, filter));
    });
    // Below the floor of evidence no standing is given: a place among a few voices says little.
    const tooFew = !enoughEvidence(d);
    return c.json({ filter: f, n: d.n, days: d.days, tooFew, percentile: tooFew ? null : placeIn(d, bytesPerSecond) });
  };

/**
 * GET /export.{csv,ndjson}: files made by one pass for everyone (export-dump.ts), served as
 * they are; one download at a time per client.
 */
function exportFiles(sql: Sql, deps: RouteDeps, shared: Shared) {
  const exporting = new Set<string>();
  const dumps = createExportDumps(sql, { generation: shared.generation, minAgeMs: deps.exportMinAgeMs, maxAgeMs: deps.exportMaxAgeMs });
  return (format: ExportFormat) => async (c: Context) => {
    const { limitKey } = deps.client(c);
    if (exporting.has(limitKey)) return c.json({ error: 'an export is already running for this client; wait for it to finish' }, 429, { 'Retry-After': '30' });
    let file: ExportFile | null = null;
    let fd = -1;
    // A newer export may replace this one between its promise and the open: then take that one.
    for (let tries = 0; fd < 0 && tries < 3; tries++) {
      try {
        file = await dumps.current(format);
        fd = openSync(file.path, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        if (classifyFault(e)) throw e; // the database's fault: 503 or 507 as everywhere
        console.error(`collector: the ${format} export could not be made: ${(e as Error).message}`);
        return c.json({ error: `the export cannot be made now (${(e as NodeJS.ErrnoException).code ?? 'error'}); try again later` }, 503, {
          'Retry-After': '60',
        });
      }
    }
    if (fd < 0 || !file) return c.json({ error: 'the export is being remade; try again shortly' }, 503, { 'Retry-After': '5' });
    const headers = { ETag: file.etag, 'Last-Modified': file.madeAt.toUTCString(), 'Cache-Control': 'public, max-age=60' };
    if (c.req.header('if-none-match') === file.etag) {
      closeSync(fd);
      return c.body(null, 304, headers);
    }
    exporting.add(limitKey);
    const body = createReadStream('', { fd });
    body.once('close', () => exporting.delete(limitKey));
    return c.body(Readable.toWeb(body) as ReadableStream, 200, {
      ...headers,
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'Content-Disposition': `attachment; filename="aeadbench-crowd.${format}"`,
      'Content-Length': String(file.bytes),
      'X-Export-Rows': String(file.rows),
    });
  };
}
