/**
 * The operator's review of cohorts on the move. Nothing is held any more (a day's new voices
 * are diluted, weights.ts), so what an operator needs is to see a figure being steered: every
 * device class of a case whose shown median moved more than MOVE_SHARE within the last
 * MOVE_WINDOW_DAYS days is listed, with each day of the window — how many networks came, what
 * they measured and how alike (the spread of their voices, their browsers), what they weighed,
 * and the figure as of that day — so that the days and networks that moved it stand out.
 * A cohort is listed as contested, however steady its figure, while voices that arrived outside
 * its fences and still lie outside them (their weight capped, weights.ts OUTSIDE_CAP) come from
 * CONTEST_NETWORKS networks or more that no operator has decided on: a patient attacker's
 * steady false figure and a true change of the devices (a new engine) look alike to a count,
 * and the list keeps them until someone looks. The operator then quarantines one day's runs of
 * that cohort (quarantine.ts, or single sources with collector:quarantine) or accepts them, so
 * that they count as any voice inside. Every decision is logged in operator_log.
 *
 *   npm run collector:review
 *   npm run collector:review -- --quarantine aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26 --reason "fakes"
 *   npm run collector:review -- --accept aes-128-gcm/rustcrypto-wasm/encrypt/1024/phone/2026-11-26 --reason "new Safari"
 *
 * Uses DATABASE_URL, else the PGlite directory COLLECTOR_DATA, which the running collector
 * holds: stop it first (the lock refuses otherwise).
 * @module
 */
import type { Sql } from './db.ts';
import { operatorArgs, runAsCommand, withStore } from './operator.ts';
import { quarantine } from './quarantine.ts';
import { type CohortKeyRow, cohortKeyOf, refreshInBatches } from './cohorts.ts';
import { caseKey } from '../web/core/schema.ts';
import { weightedQuantile } from './weights.ts';
import { CONTEST_NETWORKS, UNDECIDED_OUTSIDE } from './crowd.ts';

/** How far back the review looks, and how far a figure may move in that time before it is listed. */
export const MOVE_WINDOW_DAYS = 7;
export const MOVE_SHARE = 0.02;
export { CONTEST_NETWORKS };

/** A cohort's device class on one day. */
export interface Burst {
  algorithm: string;
  implementation: string;
  operation: string;
  sizeBytes: number;
  deviceClass: string;
  /** The day, YYYY-MM-DD (UTC). */
  day: string;
}

/** One day of a moving cohort's window. */
export interface ReviewDay {
  day: string;
  /** Voices (networks of the day) that came that day, counted (not flagged). */
  networks: number;
  /** Their median throughput, bytes/s (null if none came). */
  median: number | null;
  /** How alike they were: their interquartile range over their median (0 for identical voices). */
  spread: number | null;
  /** Their weight together, as a share of the cohort's weight as of that day. */
  weightShare: number;
  /** Browsers among them, with counts. */
  browsers: Record<string, number>;
  /** The cohort's median as of the end of that day (bytes/s). */
  figure: number;
}

export interface MovingCohort extends Omit<Burst, 'day'> {
  variant: string;
  aadBytes: number;
  /** The figure at the start of the window and now, and how much it moved (now / start − 1). */
  from: number;
  to: number;
  moved: number;
  days: ReviewDay[];
  /** Undecided voices outside the fences, by day (all time, oldest first): listed when they come from CONTEST_NETWORKS networks or more. */
  contested: { day: string; networks: number; median: number }[];
}

/** `algorithm/implementation/operation/size/class/day`: how the list names a cohort's day, and --quarantine takes it. */
export const burstName = (b: Burst) => `${b.algorithm}/${b.implementation}/${b.operation}/${b.sizeBytes}/${b.deviceClass}/${b.day}`;

export function parseBurst(text: string): Burst {
  const m = /^([a-z0-9-]+)\/([a-z0-9-]+)\/([a-z-]+)\/(\d+)\/([a-z]+)\/(\d{4}-\d{2}-\d{2})$/.exec(text);
  if (!m || Number.isNaN(Date.parse(m[6]!)))
    throw new Error(`Invalid burst: '${text.slice(0, 120)}' (expected algorithm/implementation/operation/size/class/day, as the list prints it)`);
  return { algorithm: m[1]!, implementation: m[2]!, operation: m[3]!, sizeBytes: Number(m[4]), deviceClass: m[5]!, day: m[6]! };
}

interface VoiceRow extends CohortKeyRow {
  device_class: string;
  day: string;
  x: number;
  w: number;
  browser: string;
}

/**
 * Every cohort class whose figure moved more than MOVE_SHARE in the window, or that is contested
 * (undecided voices outside its fences from CONTEST_NETWORKS networks), most moved first.
 * The figure as of a past day is the weighted median of the voices up to that day: weights
 * depend only on earlier days (weights.ts), so this is what the cohort showed then, but for
 * flags drawn since.
 */
export async function movingCohorts(sql: Pick<Sql, 'query'>): Promise<MovingCohort[]> {
  const rows = await sql.query<VoiceRow>(
    `WITH recent AS (
       SELECT c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class
       FROM submissions s JOIN cases c ON c.submission_id = s.id
       WHERE s.received_on > current_date - ${MOVE_WINDOW_DAYS} AND s.execution = 'standard'
       UNION
       SELECT c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class
       FROM cases c JOIN submissions s ON s.id = c.submission_id
       WHERE ${UNDECIDED_OUTSIDE})
     SELECT c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class, to_char(s.received_on, 'YYYY-MM-DD') AS day,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY c.bytes_per_second) AS x,
            coalesce(CASE WHEN bool_and(c.arrived_outside) THEN max(dw.wo) ELSE max(dw.w) END, 1) AS w, min(s.browser) AS browser
     FROM recent r JOIN cases c ON c.algorithm = r.algorithm AND c.implementation = r.implementation AND c.variant = r.variant AND c.operation = r.operation
          AND c.size_bytes = r.size_bytes AND c.aad_bytes = r.aad_bytes
     JOIN submissions s ON s.id = c.submission_id AND s.device_class = r.device_class
     LEFT JOIN cohort_day_weights dw ON dw.algorithm = c.algorithm AND dw.implementation = c.implementation AND dw.variant = c.variant AND dw.operation = c.operation
          AND dw.size_bytes = c.size_bytes AND dw.aad_bytes = c.aad_bytes AND dw.device_class = s.device_class AND dw.day = s.received_on
     WHERE NOT c.outlier AND NOT c.no_spread AND NOT s.quarantined AND s.execution = 'standard' AND c.bytes_per_second > 0
     GROUP BY c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class, s.received_on, coalesce(s.source, s.id::text)`,
  );
  const outside = await sql.query<VoiceRow & { networks: number }>(
    `SELECT c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class, to_char(s.received_on, 'YYYY-MM-DD') AS day,
            count(DISTINCT coalesce(s.source, s.id::text))::int AS networks, percentile_cont(0.5) WITHIN GROUP (ORDER BY c.bytes_per_second) AS x
     FROM cases c JOIN submissions s ON s.id = c.submission_id
     WHERE ${UNDECIDED_OUTSIDE}
     GROUP BY c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes, s.device_class, s.received_on
     ORDER BY s.received_on`,
  );
  const contestedOf = new Map<string, MovingCohort['contested']>();
  for (const r of outside) {
    const id = `${caseKey(cohortKeyOf(r))}/${r.device_class}`;
    contestedOf.set(id, [...(contestedOf.get(id) ?? []), { day: r.day, networks: Number(r.networks), median: Number(r.x) }]);
  }
  const [{ today }] = (await sql.query<{ today: string }>("SELECT to_char(current_date, 'YYYY-MM-DD') AS today")) as [{ today: string }];
  const cohorts = new Map<string, VoiceRow[]>();
  for (const r of rows) {
    const id = `${caseKey(cohortKeyOf(r))}/${r.device_class}`;
    cohorts.set(id, [...(cohorts.get(id) ?? []), r]);
  }
  const window = Array.from({ length: MOVE_WINDOW_DAYS + 1 }, (_, i) =>
    new Date(Date.parse(today) - (MOVE_WINDOW_DAYS - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const out: MovingCohort[] = [];
  for (const [id, voices] of cohorts) {
    const sorted = [...voices].sort((a, b) => Number(a.x) - Number(b.x));
    const upTo = (day: string) => sorted.filter((v) => v.day <= day);
    const figureAt = (day: string) => {
      const vs = upTo(day);
      return vs.length
        ? weightedQuantile(
            vs.map((v) => Number(v.x)),
            vs.map((v) => Number(v.w)),
            0.5,
          )
        : NaN;
    };
    const days: ReviewDay[] = window.map((day) => {
      const those = sorted.filter((v) => v.day === day);
      const xs = those.map((v) => Number(v.x));
      const eq = xs.map(() => 1);
      const median = xs.length ? weightedQuantile(xs, eq, 0.5) : null;
      const total = upTo(day).reduce((a, v) => a + Number(v.w), 0);
      const browsers: Record<string, number> = {};
      for (const v of those) browsers[v.browser] = (browsers[v.browser] ?? 0) + 1;
      return {
        day,
        networks: those.length,
        median,
        spread: median ? (weightedQuantile(xs, eq, 0.75) - weightedQuantile(xs, eq, 0.25)) / median : null,
        weightShare: total ? those.reduce((a, v) => a + Number(v.w), 0) / total : 0,
        browsers,
        figure: figureAt(day),
      };
    });
    const figures = days.map((d) => d.figure).filter((x) => Number.isFinite(x));
    if (figures.length < 2) continue;
    const [lo, hi] = [Math.min(...figures), Math.max(...figures)];
    const contested = contestedOf.get(id) ?? [];
    if (hi / lo - 1 <= MOVE_SHARE && contested.reduce((n, d) => n + d.networks, 0) < CONTEST_NETWORKS) continue;
    const v0 = voices[0]!;
    const [from, to] = [figures[0]!, figures[figures.length - 1]!];
    out.push({
      algorithm: v0.algorithm,
      implementation: v0.implementation,
      variant: v0.variant,
      operation: v0.operation,
      sizeBytes: Number(v0.size_bytes),
      aadBytes: Number(v0.aad_bytes),
      deviceClass: v0.device_class,
      from,
      to,
      moved: to / from - 1,
      days,
      contested,
    });
  }
  return out.sort((a, b) => Math.abs(b.moved) - Math.abs(a.moved));
}

/** Takes one day's runs of a cohort's class out of every statistic (quarantine.ts); returns how many submissions. */
export async function quarantineDay(sql: Sql, b: Burst, reason: string): Promise<number> {
  const ids = (
    await sql.query<{ id: string }>(
      `SELECT DISTINCT s.id::text AS id FROM cases c JOIN submissions s ON s.id = c.submission_id
       WHERE c.algorithm = $1 AND c.implementation = $2 AND c.operation = $3 AND c.size_bytes = $4 AND s.device_class = $5 AND s.received_on = $6::date AND NOT s.quarantined`,
      [b.algorithm, b.implementation, b.operation, b.sizeBytes, b.deviceClass, b.day],
    )
  ).map((r) => r.id);
  return ids.length ? quarantine(sql, { ids }, { reason: `cohort day ${burstName(b)}: ${reason}` }) : 0;
}

/**
 * Accepts one day's voices of a cohort's class that arrived outside its fences: they count from
 * now on as voices that arrived inside (weights.ts), and the cohort is drawn again. Returns how
 * many cases; logged in operator_log.
 */
export async function acceptDay(sql: Sql, b: Burst, reason: string): Promise<number> {
  const rows = await sql.transaction(async (tx) => {
    const changed = await tx.query<CohortKeyRow>(
      `UPDATE cases c SET arrived_outside = false FROM submissions s
       WHERE s.id = c.submission_id AND c.arrived_outside AND c.algorithm = $1 AND c.implementation = $2 AND c.operation = $3 AND c.size_bytes = $4
         AND s.device_class = $5 AND s.received_on = $6::date AND NOT s.quarantined
       RETURNING c.algorithm, c.implementation, c.variant, c.operation, c.size_bytes, c.aad_bytes`,
      [b.algorithm, b.implementation, b.operation, b.sizeBytes, b.deviceClass, b.day],
    );
    await tx.query('INSERT INTO operator_log (action, selector, reason, affected) VALUES ($1, $2, $3, $4)', [
      'accept',
      JSON.stringify({ cohortDay: burstName(b) }),
      reason,
      changed.length,
    ]);
    return changed;
  });
  const keys = new Map(rows.map((r) => [caseKey(cohortKeyOf(r)), cohortKeyOf(r)]));
  await refreshInBatches(sql, [...keys.values()]);
  return rows.length;
}

const USAGE =
  'usage: collector:review [--quarantine COHORT_DAY | --accept COHORT_DAY] --reason TEXT  (COHORT_DAY as the list prints it; with no flags, the list)';
const mb = (x: number | null) => (x === null || !Number.isFinite(x) ? '–' : (x / 1e6).toFixed(1));

/** The list as the command prints it: one block per moving cohort, a line per day of its window. */
export function formatMoving(list: readonly MovingCohort[]): string[] {
  if (list.length === 0) return [`no cohort's figure moved more than ${MOVE_SHARE * 100} % in the last ${MOVE_WINDOW_DAYS} days, and none is contested`];
  const lines: string[] = [];
  for (const m of list) {
    lines.push(
      `${m.algorithm}/${m.implementation} (${m.variant})/${m.operation}/${m.sizeBytes}${m.aadBytes ? ` AAD ${m.aadBytes}` : ''}/${m.deviceClass}: ${mb(m.from)} → ${mb(m.to)} MB/s (${m.moved >= 0 ? '+' : ''}${(m.moved * 100).toFixed(1)} %)`,
    );
    for (const d of m.days) {
      if (d.networks === 0) continue;
      const browsers = Object.entries(d.browsers)
        .map(([b, n]) => `${b} ${n}`)
        .join(', ');
      lines.push(
        `  ${burstName({ ...m, day: d.day })}  ${d.networks} networks at ${mb(d.median)} MB/s (spread ${((d.spread ?? 0) * 100).toFixed(1)} %; ${browsers}), weight ${(d.weightShare * 100).toFixed(1)} %, figure then ${mb(d.figure)} MB/s`,
      );
    }
    const networks = m.contested.reduce((n, d) => n + d.networks, 0);
    if (networks >= CONTEST_NETWORKS) {
      lines.push(`  contested: ${networks} networks outside the fences on ${m.contested.length} days, undecided (--quarantine or --accept each day):`);
      for (const d of m.contested) lines.push(`    ${burstName({ ...m, day: d.day })}  ${d.networks} networks at ${mb(d.median)} MB/s`);
    }
  }
  return lines;
}

export async function main(argv: string[], log = console.log): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = operatorArgs(argv, { quarantine: { type: 'string' }, accept: { type: 'string' }, reason: { type: 'string' } }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const action = typeof values.quarantine === 'string' ? 'quarantine' : typeof values.accept === 'string' ? 'accept' : null;
  let day: Burst | null = null;
  if (action) {
    if (typeof values.quarantine === 'string' && typeof values.accept === 'string') {
      console.error(`--quarantine and --accept are two decisions: give one\n${USAGE}`);
      return 2;
    }
    try {
      day = parseBurst(String(values[action]));
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
    if (day) {
      const n = action === 'quarantine' ? await quarantineDay(sql, day, String(values.reason)) : await acceptDay(sql, day, String(values.reason));
      if (n === 0) {
        console.error(
          `no ${action === 'quarantine' ? 'submission' : 'voice outside the fences'} of ${burstName(day)} to ${action} (see the list: npm run collector:review)`,
        );
        return 1;
      }
      log(
        action === 'quarantine'
          ? `quarantined the submissions of ${burstName(day)}: ${n}; logged in operator_log`
          : `accepted the cases of ${burstName(day)} that arrived outside the fences: ${n}; logged in operator_log`,
      );
      return 0;
    }
    for (const line of formatMoving(await movingCohorts(sql))) log(line);
    return 0;
  });
}

runAsCommand(import.meta.url, 'collector:review', main);
