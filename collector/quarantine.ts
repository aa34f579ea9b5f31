/**
 * The operator's quarantine: takes submissions out of every crowd statistic without deleting
 * them (they stay in the exports, marked), or puts them back. Every call is logged in the
 * database's operator_log with its selector and reason.
 *
 *   npm run collector:quarantine -- --source <hash> --reason "flood from one network"
 *   npm run collector:quarantine -- --from 2026-11-20 --to 2026-11-21 --reason "…"
 *   npm run collector:quarantine -- --ids <uuid>,<uuid> --release --reason "false alarm"
 *
 * Uses DATABASE_URL, else the PGlite directory COLLECTOR_DATA (default .data/collector),
 * which the running collector holds: stop it first (the lock refuses otherwise).
 * @module
 */
import { type CohortKeyRow, cohortKeyOf, refreshInBatches } from './cohorts.ts';
import type { Sql } from './db.ts';
import { operatorArgs, runAsCommand, withStore } from './operator.ts';

/** What the operator's quarantine picks: run ids, a source hash of the day, or days received. */
export interface QuarantineSelector {
  ids?: string[];
  source?: string;
  from?: string;
  to?: string;
}

/**
 * Takes submissions out of every statistic (or puts them back), without deleting anything:
 * they stay in the exports, marked. Logged in operator_log with the selector and the reason;
 * the affected cohorts' bounds are recomputed.
 */
export async function quarantine(sql: Sql, sel: QuarantineSelector, o: { release?: boolean; reason: string }): Promise<number> {
  const parts: string[] = [];
  const params: unknown[] = [!o.release];
  if (sel.ids?.length) parts.push(`id = ANY($${params.push(sel.ids)}::uuid[])`);
  if (sel.source) parts.push(`source = $${params.push(sel.source)}`);
  if (sel.from) parts.push(`received_on >= $${params.push(sel.from)}::date`);
  if (sel.to) parts.push(`received_on <= $${params.push(sel.to)}::date`);
  if (parts.length === 0) throw new Error('quarantine: give --ids, --source, or --from/--to');
  const affected = await sql.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>(
      `UPDATE submissions SET quarantined = $1 WHERE ${parts.join(' AND ')} AND quarantined <> $1 RETURNING id::text`,
      params,
    );
    await tx.query('INSERT INTO operator_log (action, selector, reason, affected) VALUES ($1, $2, $3, $4)', [
      o.release ? 'release' : 'quarantine',
      JSON.stringify(sel),
      o.reason,
      rows.length,
    ]);
    return rows.map((r) => r.id);
  });
  if (affected.length) {
    const keys = await sql.query<CohortKeyRow>(
      'SELECT DISTINCT algorithm, implementation, variant, operation, size_bytes, aad_bytes FROM cases WHERE submission_id = ANY($1::uuid[])',
      [affected],
    );
    await refreshInBatches(sql, keys.map(cohortKeyOf));
  }
  return affected.length;
}

const USAGE = 'usage: collector:quarantine (--ids a,b | --source HASH | --from YYYY-MM-DD --to YYYY-MM-DD) --reason TEXT [--release]';

export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = operatorArgs(argv, {
      ids: { type: 'string' },
      source: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      reason: { type: 'string' },
      release: { type: 'boolean' },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const sel: QuarantineSelector = {};
  if (typeof values.ids === 'string')
    sel.ids = values.ids
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof values.source === 'string') sel.source = values.source;
  for (const k of ['from', 'to'] as const) {
    const d = values[k];
    if (typeof d === 'string') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) {
        console.error(`Invalid --${k}: '${d}' (expected a date like 2026-11-22)\n${USAGE}`);
        return 2;
      }
      sel[k] = d;
    }
  }
  const bad = sel.ids?.find((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (bad !== undefined) {
    console.error(`Invalid --ids entry: '${bad}' (expected a run id, a UUID)\n${USAGE}`);
    return 2;
  }
  if (!sel.ids?.length && !sel.source && !sel.from && !sel.to) {
    console.error(`nothing selected\n${USAGE}`);
    return 2;
  }
  if (typeof values.reason !== 'string' || values.reason.trim() === '') {
    console.error(`--reason is required: the log says why\n${USAGE}`);
    return 2;
  }
  const reason = values.reason;
  return withStore(async (sql) => {
    const n = await quarantine(sql, sel, { release: values.release === true, reason });
    console.log(`${values.release ? 'released' : 'quarantined'} ${n} submission${n === 1 ? '' : 's'} (${JSON.stringify(sel)}); logged in operator_log`);
    return 0;
  });
}

runAsCommand(import.meta.url, 'collector:quarantine', main);
