/**
 * The crowd's exports as files: one pass over every case writes the CSV and the NDJSON side by
 * side, and every client is then served the files as they are. A pass over 100,000 rows costs
 * seconds of CPU; made per request, any number of addresses could repeat it. Made here, it
 * happens at most once per `minAgeMs` while this process stores new rows, and once per
 * `maxAgeMs` otherwise (another process's rows show within that), whoever asks.
 * @module
 */
import { createWriteStream, mkdtempSync, renameSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Sql } from './db.ts';
import { RUN_COLUMNS } from './columns.ts';
import { EXPORT_MIN_AGE_MS } from './config.ts';
import { type ExportRow, exportPage } from './store.ts';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CSV_COLUMNS = [
  'submission',
  'received_on',
  ...RUN_COLUMNS.map((c) => c.column),
  'algorithm',
  'implementation',
  'variant',
  'operation',
  'size_bytes',
  'aad_bytes',
  'n',
  'median_ns',
  'bytes_per_second',
  'robust_cv',
  'outlier',
  'held',
  'quarantined',
  'samples',
] as const;

/**
 * One CSV cell. Text that a spreadsheet would run as a formula (a leading =, +, -, @, tab or
 * carriage return: OWASP's CSV injection list) is prefixed with a quote, so it shows as text.
 * Numbers are written as numbers: a negative one is data, not a formula.
 */
export function csvCell(x: unknown): string {
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  let s = Array.isArray(x) ? x.join(' ') : x === null || x === undefined ? '' : String(x);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows per page of the pass: small pages keep the database free for other requests in between. */
const PAGE_ROWS = 500;
/** An export is made again after this long even if this process stored nothing (other processes may have). */
export const EXPORT_MAX_AGE_MS = 15 * 60_000;

/** Every export directory of this process, deleted when it exits. */
const EXPORT_DIRS = new Set<string>();
process.once('exit', () => {
  for (const d of EXPORT_DIRS) rmSync(d, { recursive: true, force: true });
});

export interface ExportFile {
  path: string;
  bytes: number;
  rows: number;
  madeAt: Date;
  /** Names this export's content for If-None-Match. */
  etag: string;
}

export interface ExportDumps {
  /** The current export in `format`: the last one made, or a new one if it is too old. */
  current(format: ExportFormat): Promise<ExportFile>;
  /** Deletes the files. */
  close(): void;
}

/**
 * `generation` changes whenever this process stores rows or re-flags them; an export made at
 * another generation is made again once it is `minAgeMs` old.
 */
export function createExportDumps(sql: Sql, o: { generation: () => number; minAgeMs?: number; maxAgeMs?: number; now?: () => number }): ExportDumps {
  const minAge = o.minAgeMs ?? EXPORT_MIN_AGE_MS;
  const maxAge = o.maxAgeMs ?? EXPORT_MAX_AGE_MS;
  const now = o.now ?? Date.now;
  let dir: string | null = null;
  const directory = () => {
    if (!dir) {
      dir = mkdtempSync(join(tmpdir(), 'aeadbench-export-'));
      EXPORT_DIRS.add(dir);
    }
    return dir;
  };
  let made: { generation: number; at: number; files: Record<ExportFormat, ExportFile> } | null = null;
  let making: Promise<void> | null = null;

  const stale = () => {
    if (!made) return true;
    const age = now() - made.at;
    return age >= maxAge || (made.generation !== o.generation() && age >= minAge);
  };

  const make = async () => {
    const dir = directory();
    const generation = o.generation();
    const at = now();
    const tag = `${at.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const temp = { csv: join(dir, `.${tag}.csv`), ndjson: join(dir, `.${tag}.ndjson`) };
    const out = { csv: createWriteStream(temp.csv), ndjson: createWriteStream(temp.ndjson) };
    const { write, end } = writers([out.csv, out.ndjson]);
    let rows = 0;
    try {
      await write(out.csv, CSV_COLUMNS.join(',') + '\n');
      for (let after = 0; ;) {
        const page = await exportPage(sql, after, PAGE_ROWS);
        if (page.length === 0) break;
        let csv = '';
        let ndjson = '';
        for (const { seq: _seq, ...row } of page) {
          csv += CSV_COLUMNS.map((col) => csvCell(row[col as keyof ExportRow])).join(',') + '\n';
          ndjson += JSON.stringify(row) + '\n';
        }
        await Promise.all([write(out.csv, csv), write(out.ndjson, ndjson)]);
        rows += page.length;
        after = Number(page[page.length - 1]!.seq);
      }
      await end();
    } catch (e) {
      out.csv.destroy();
      out.ndjson.destroy();
      for (const f of Object.values(temp)) rmSync(f, { force: true });
      throw e;
    }
    const files = {} as Record<ExportFormat, ExportFile>;
    for (const format of EXPORT_FORMATS) {
      // A new name per export: a client still reading the last one keeps its file whole.
      const path = join(dir, `${tag}.${format}`);
      renameSync(temp[format], path);
      files[format] = { path, bytes: statSync(path).size, rows, madeAt: new Date(at), etag: `"${tag}"` };
    }
    const old = made;
    made = { generation, at, files };
    // Unlinked now, an older export's file stays readable to whoever has it open.
    if (old) for (const f of Object.values(old.files)) rmSync(f.path, { force: true });
  };

  return {
    async current(format) {
      if (stale()) {
        // Everyone who asks meanwhile waits for the same one (an export is a download: a few
        // seconds of waiting for fresh rows is better than stale ones at once).
        making ??= make().finally(() => (making = null));
        try {
          await making;
        } catch (e) {
          if (!made) throw e;
          console.error(`collector: a new export could not be made, the last one is served: ${(e as Error).message}`);
        }
      }
      return made!.files[format];
    },
    close() {
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (dir) EXPORT_DIRS.delete(dir);
    },
  };
}

/** Writes to the export's files, waiting when they are behind; their first error fails the export. */
function writers(streams: WriteStream[]) {
  let failure: Error | null = null;
  for (const s of streams) s.on('error', (e) => (failure ??= e));
  return {
    async write(s: WriteStream, text: string) {
      if (failure) throw failure;
      if (!s.write(text)) await once(s, 'drain');
    },
    async end() {
      await Promise.all(streams.map((s) => (s.end(), finished(s))));
      if (failure) throw failure;
    },
  };
}
