/**
 * Reads of what is stored, one row or one page at a time: the export's pages, one result for
 * its permalink, the totals. (Writing: writer.ts; bounds:
 * cohorts.ts; statistics: crowd.ts; the operator's quarantine: quarantine.ts.)
 * @module
 */
import type { StoredResult } from '../web/core/permalink.ts';
import type { Sql } from './db.ts';
import type { CohortKeyRow } from './cohorts.ts';
import { RUN_COLUMNS, listOf } from './columns.ts';

/** Where a run ran, as the export's and the permalink's SELECTs read it: made once from the column list. */
const EXPORT_RUN = listOf(RUN_COLUMNS, (c) => `s.${c.column}`);
const PERMALINK_RUN = listOf(RUN_COLUMNS, (c) => `${c.column} AS "${c.field}"`);

/** A case as the export lists it: where it ran, its cohort (CohortKeyRow), its figures and samples. */
export interface ExportRow extends CohortKeyRow {
  submission: string;
  received_on: string;
  device_class: string;
  device_model: string | null;
  browser: string;
  browser_major: number | null;
  engine: string;
  os: string;
  os_major: number | null;
  arch: string;
  cores: number;
  /** GiB: 2, 4, 8, 16 or 32 (or more). */
  memory_bucket: number | null;
  runtime: string;
  execution: string;
  isolated: boolean;
  timer_us: number;
  preset: string;
  scenario: string | null;
  n: number;
  median_ns: number;
  bytes_per_second: number;
  robust_cv: number;
  outlier: boolean;
  /** In a burst held for review by an earlier collector (held bursts are now diluted instead, cohorts.ts): false for every row since. */
  held: boolean;
  quarantined: boolean;
  samples: number[];
}

/**
 * One page of every case of the days that have ended, for the export, in `cases.seq` order:
 * each page is one range of a unique index, so the cost per page stays flat however large the
 * crowd grows. Today's rows wait for midnight (UTC): an export remade every few minutes while
 * they arrive would date each one to those minutes for whoever polls it, and the collector
 * promises the day alone.
 */
export async function exportPage(sql: Sql, afterSeq: number, limit: number): Promise<(ExportRow & { seq: string })[]> {
  const rows = await sql.query<Omit<ExportRow, 'samples'> & StoredSamples & { seq: string }>(
    `SELECT c.submission_id::text AS submission, to_char(s.received_on, 'YYYY-MM-DD') AS received_on, ${EXPORT_RUN},
            c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, c.n, c.median_ns, c.bytes_per_second, c.robust_cv, c.outlier, c.held,
            s.quarantined, c.samples, c.samples_f64, c.seq::text AS seq
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE c.seq > $1 AND s.received_on < current_date
     ORDER BY c.seq
     LIMIT $2`,
    [afterSeq, limit],
  );
  return rows.map(({ samples, samples_f64, ...r }) => ({ ...r, samples: samplesOf({ samples, samples_f64 }) }));
}

/** A case's samples as stored: bytes since migration 009 (writer.ts packCases), an array before. */
interface StoredSamples {
  samples: (number | string)[] | null;
  samples_f64: Uint8Array | null;
}

export function samplesOf(row: StoredSamples): number[] {
  const b = row.samples_f64;
  if (!b) return (row.samples ?? []).map(Number);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return Array.from({ length: b.byteLength >> 3 }, (_, i) => view.getFloat64(8 * i, true));
}

/** One submission as stored — what its permalink serves (shape in web/core/permalink.ts) — or null. */
export type { StoredResult };

export async function storedResult(sql: Sql, id: string): Promise<StoredResult | null> {
  const [s] = await sql.query<Omit<StoredResult, 'cases'>>(
    `SELECT id::text AS id, to_char(received_on, 'YYYY-MM-DD') AS "receivedOn", ${PERMALINK_RUN}, quarantined
     FROM submissions WHERE id = $1`,
    [id],
  );
  if (!s) return null;
  const cases = await sql.query<Omit<StoredResult['cases'][number], 'samples'> & StoredSamples>(
    `SELECT algorithm, implementation, variant, operation, size_bytes AS "sizeBytes", aad_bytes AS "aadBytes", samples, samples_f64, outlier
     FROM cases WHERE submission_id = $1 ORDER BY algorithm, implementation, variant, operation, size_bytes, aad_bytes`,
    [id],
  );
  return { ...s, cases: cases.map(({ samples, samples_f64, ...c }) => ({ ...c, samples: samplesOf({ samples, samples_f64 }) })) };
}

/** Totals kept by the writers (collector_totals): one row read, whatever the crowd's size. */
export async function counts(sql: Sql): Promise<{ submissions: number; cases: number }> {
  const [r] = await sql.query<{ submissions: string; cases: string }>('SELECT submissions, cases FROM collector_totals');
  return { submissions: Number(r?.submissions ?? 0), cases: Number(r?.cases ?? 0) };
}
