/**
 * The operator's review of bursts held for review (cohorts.ts holdBursts): lists them, beside
 * what their cohort says without them, and releases one (its runs count from then on) or
 * quarantines its runs (quarantine.ts). Every decision is logged in operator_log.
 *
 *   npm run collector:review
 *   npm run collector:review -- --release aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26 --reason "launch day"
 *   npm run collector:review -- --quarantine aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26 --reason "fakes"
 *
 * Uses DATABASE_URL, else the PGlite directory COLLECTOR_DATA, which the running collector
 * holds: stop it first (the lock refuses otherwise).
 * @module
 */
import { parseArgs } from 'node:util';
import type { Sql } from './db.ts';
import { runAsCommand, withStore } from './operator.ts';
import { refreshInBatches } from './cohorts.ts';
import { crowdStats } from './crowd.ts';
import { quarantine } from './quarantine.ts';

/** One held burst: a cohort's device class on one day. */
export interface Burst {
  algorithm: string;
  implementation: string;
  operation: string;
  sizeBytes: number;
  deviceClass: string;
  /** The day it arrived, YYYY-MM-DD (UTC). */
  day: string;
}

export interface HeldBurst extends Burst {
  /** Networks (sources) and runs held. */
  sources: number;
  runs: number;
  /** The median throughput of the held runs, and of what the cohort's class shows without them (bytes/s; null if nothing). */
  heldMedian: number;
  shownMedian: number | null;
}

/** `algorithm/implementation/operation/size/class/day`: how the list names a burst, and the flags take it. */
export const burstName = (b: Burst) => `${b.algorithm}/${b.implementation}/${b.operation}/${b.sizeBytes}/${b.deviceClass}/${b.day}`;

export function parseBurst(text: string): Burst {
  const m = /^([a-z0-9-]+)\/([a-z0-9-]+)\/([a-z-]+)\/(\d+)\/([a-z]+)\/(\d{4}-\d{2}-\d{2})$/.exec(text);
  if (!m || Number.isNaN(Date.parse(m[6]!))) throw new Error(`Invalid burst: '${text.slice(0, 120)}' (expected algorithm/implementation/operation/size/class/day, as the list prints it)`);
  return { algorithm: m[1]!, implementation: m[2]!, operation: m[3]!, sizeBytes: Number(m[4]), deviceClass: m[5]!, day: m[6]! };
}

const IN_BURST = `c.algorithm = $1 AND c.implementation = $2 AND c.operation = $3 AND c.size_bytes = $4 AND s.device_class = $5 AND s.received_on = $6::date
  AND c.held AND NOT s.quarantined`;
const burstParams = (b: Burst) => [b.algorithm, b.implementation, b.operation, b.sizeBytes, b.deviceClass, b.day];

/** Every burst still held, oldest first. */
export async function heldBursts(sql: Pick<Sql, 'query'>): Promise<HeldBurst[]> {
  const rows = await sql.query<{ algorithm: string; implementation: string; operation: string; size_bytes: number; device_class: string; day: string; sources: number; runs: number; median: number }>(
    `SELECT c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, to_char(s.received_on, 'YYYY-MM-DD') AS day,
            count(DISTINCT coalesce(s.source, s.id::text))::int AS sources, count(*)::int AS runs,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY c.bytes_per_second) AS median
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE c.held AND NOT s.quarantined
     GROUP BY c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class, s.received_on
     ORDER BY s.received_on, c.algorithm, c.implementation, c.operation, c.size_bytes, s.device_class`,
  );
  const out: HeldBurst[] = [];
  for (const r of rows) {
    const b: Burst = { algorithm: r.algorithm, implementation: r.implementation, operation: r.operation, sizeBytes: Number(r.size_bytes), deviceClass: r.device_class, day: r.day };
    const [shown] = await crowdStats(sql, { ...b, deviceClass: b.deviceClass });
    out.push({ ...b, sources: Number(r.sources), runs: Number(r.runs), heldMedian: Number(r.median), shownMedian: shown ? shown.median : null });
  }
  return out;
}

/**
 * Decides a held burst: `release` counts its runs from now on (and they are not held again for
 * it), `quarantine` takes its runs out of every statistic (quarantine.ts). Returns the number
 * of runs decided; 0 if no such burst is held.
 */
export async function review(sql: Sql, b: Burst, decision: 'release' | 'quarantine', reason: string): Promise<number> {
  let affected: number;
  if (decision === 'quarantine') {
    const ids = (await sql.query<{ id: string }>(`SELECT DISTINCT s.id::text AS id FROM cases c JOIN submissions s ON s.id = c.submission_id WHERE ${IN_BURST}`, burstParams(b))).map((r) => r.id);
    affected = ids.length ? await quarantine(sql, { ids }, { reason: `held burst ${burstName(b)}: ${reason}` }) : 0;
  } else {
    affected = await sql.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE cases c SET held = false, released = true FROM submissions s WHERE s.id = c.submission_id AND ${IN_BURST} RETURNING c.submission_id`,
        burstParams(b),
      );
      await tx.query('INSERT INTO operator_log (action, selector, reason, affected) VALUES ($1, $2, $3, $4)', ['release-burst', JSON.stringify(b), reason, rows.length]);
      return rows.length;
    });
    if (affected) await refreshInBatches(sql, [b]);
  }
  return affected;
}

const USAGE = 'usage: collector:review [(--release | --quarantine) BURST --reason TEXT]  (BURST as the list prints it; with no flags, the list)';

export async function main(argv: string[], log = console.log): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { release: { type: 'string' }, quarantine: { type: 'string' }, reason: { type: 'string' } } }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const decision = typeof values.release === 'string' ? 'release' : typeof values.quarantine === 'string' ? 'quarantine' : null;
  if (typeof values.release === 'string' && typeof values.quarantine === 'string') {
    console.error(`give --release or --quarantine, not both\n${USAGE}`);
    return 2;
  }
  let burst: Burst | null = null;
  if (decision) {
    try {
      burst = parseBurst(String(values[decision]));
    } catch (e) {
      console.error(`${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    if (typeof values.reason !== 'string' || values.reason.trim() === '') {
      console.error(`--reason is required: the log says why\n${USAGE}`);
      return 2;
    }
  }
  return withStore(async (sql) => {
    if (decision && burst) {
      const n = await review(sql, burst, decision, String(values.reason));
      if (n === 0) {
        console.error(`no burst ${burstName(burst)} is held (see the list: npm run collector:review)`);
        return 1;
      }
      log(`${decision === 'release' ? 'released the runs of' : 'quarantined the submissions of'} ${burstName(burst)}: ${n}; logged in operator_log`);
      return 0;
    }
    const held = await heldBursts(sql);
    if (held.length === 0) log('no burst is held for review');
    const mb = (x: number) => (x / 1e6).toFixed(1);
    for (const h of held) log(`${burstName(h)}  ${h.sources} sources, ${h.runs} runs held, median ${mb(h.heldMedian)} MB/s; shown without them: ${h.shownMedian === null ? 'nothing' : `${mb(h.shownMedian)} MB/s`}`);
    return 0;
  });
}

runAsCommand(import.meta.url, 'collector:review', main);
