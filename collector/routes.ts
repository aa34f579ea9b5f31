/**
 * The collector's routes (documented in openapi.json beside this file; a test checks that
 * every route here is there). Every body and query goes through a schema before it is used.
 * @module
 */
import { type Context, Hono } from 'hono';
import { stream } from 'hono/streaming';
import * as v from 'valibot';
import { ALGORITHM_IDS, IMPLEMENTATION_IDS, MAX_SIZE_BYTES, OPERATIONS } from '../web/core/algorithms.ts';
import { formatIssue } from '../web/core/schema.ts';
import type { Sql } from './db.ts';
import { type ExportRow, counts, createWriter, crowdStats, exportPage, percentileOf } from './store.ts';
import { DEVICE_CLASSES, SubmissionError, reduceSubmission } from './submission.ts';
import openapi from './openapi.json' with { type: 'json' };

const text = v.pipe(v.string(), v.maxLength(100));
const FilterSchema = v.object({
  algorithm: v.picklist(ALGORITHM_IDS),
  implementation: v.picklist(IMPLEMENTATION_IDS),
  operation: v.picklist(OPERATIONS),
  size: v.pipe(v.string(), v.regex(/^\d+$/, 'an integer number of bytes'), v.transform(Number), v.number(), v.maxValue(MAX_SIZE_BYTES)),
  deviceClass: v.optional(v.picklist(DEVICE_CLASSES)),
  browser: v.optional(text),
  arch: v.optional(text),
  scenario: v.optional(text),
});
const PercentileSchema = v.object({
  ...FilterSchema.entries,
  bytesPerSecond: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?(e\d+)?$/i, 'a positive number'), v.transform(Number), v.number(), v.minValue(0)),
});

function query<S extends v.GenericSchema>(schema: S, q: Record<string, string>): v.InferOutput<S> {
  const r = v.safeParse(schema, q);
  if (!r.success) throw new SubmissionError(400, `invalid query: ${r.issues.slice(0, 5).map(formatIssue).join('; ')}`);
  return r.output;
}

const CSV_COLUMNS = ['submission', 'received_on', 'device_class', 'device_model', 'browser', 'browser_major', 'os', 'os_major', 'arch', 'cores', 'memory_bucket', 'runtime', 'isolated', 'timer_us', 'preset', 'scenario', 'algorithm', 'implementation', 'variant', 'operation', 'size_bytes', 'aad_bytes', 'n', 'median_ns', 'bytes_per_second', 'robust_cv', 'outlier', 'samples'] as const;
const csvCell = (x: unknown) => {
  const s = Array.isArray(x) ? x.join(' ') : x === null || x === undefined ? '' : String(x);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function routes(sql: Sql) {
  const api = new Hono();
  const writer = createWriter(sql);

  api.get('/health', async (c) => c.json({ ok: true, storage: sql.kind, ...(await counts(sql)) }));

  api.get('/openapi.json', (c) => c.json(openapi));

  api.post('/results', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new SubmissionError(400, 'malformed JSON body');
    }
    const reduced = reduceSubmission(body);
    const outcome = await writer.submit(reduced);
    if (outcome === 'conflict') return c.json({ error: `run id ${reduced.id} was already submitted with different content` }, 409);
    return c.json({ id: reduced.id, duplicate: outcome === 'duplicate', cases: reduced.cases.length }, outcome === 'created' ? 201 : 200);
  });

  api.get('/stats', async (c) => {
    const f = query(FilterSchema, c.req.query());
    const cohorts = await crowdStats(sql, { ...f, sizeBytes: f.size });
    return c.json({ filter: f, unit: 'bytes/s', cohorts });
  });

  api.get('/percentile', async (c) => {
    const f = query(PercentileSchema, c.req.query());
    return c.json({ filter: f, ...(await percentileOf(sql, { ...f, sizeBytes: f.size }, f.bytesPerSecond)) });
  });

  const exporter = (format: 'csv' | 'ndjson') => async (c: Context) => {
    c.header('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
    c.header('Content-Disposition', `attachment; filename="aeadbench-crowd.${format}"`);
    return stream(c, async (s) => {
      if (format === 'csv') await s.write(CSV_COLUMNS.join(',') + '\n');
      let after: [string, string] | null = null;
      for (;;) {
        const rows = (await exportPage(sql, after, 2000)) as (ExportRow & { k: string })[];
        if (rows.length === 0) break;
        let chunk = '';
        for (const { k: _k, ...row } of rows) chunk += format === 'csv' ? CSV_COLUMNS.map((col) => csvCell(row[col])).join(',') + '\n' : JSON.stringify(row) + '\n';
        await s.write(chunk);
        const last = rows[rows.length - 1]!;
        after = [last.submission, last.k];
      }
    });
  };
  api.get('/export.csv', exporter('csv'));
  api.get('/export.ndjson', exporter('ndjson'));

  return api;
}
