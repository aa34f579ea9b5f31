/**
 * How much each voice of a cohort weighs, and weighted quantiles: the arithmetic behind a crowd
 * that no early voice captures and no burst steers fast (cohorts.ts draws with it in SQL; the
 * review's history of a cohort uses it here).
 *
 * A voice is one network's runs of one day (source.ts). The first day a cohort has voices, each
 * weighs 1. Every later day's new voices share a weight of at most
 * max(DAY_MIN_WEIGHT, DAY_SHARE × the weight of all earlier days), split evenly among them:
 * - a burst of any size on one day weighs about a tenth of what the cohort already had, so a
 *   split burst (8 fakes a day) moves a figure by a few per cent a day, slowly and visibly;
 * - a day's honest newcomers always count (none is held or frozen out), diluted with the
 *   burst if there was one that day;
 * - an early false majority is overturned by honest days, one DAY_MIN_WEIGHT (or a tenth) at a
 *   time: never captured for good, but not undone in a day either.
 * - a voice that arrived outside the fences weighs little unless a crowd of networks brought
 *   such voices that day (OUTSIDE_QUORUM): one network's fake a day cannot wear a cohort down;
 * - once a cohort's figure is published (CROWD_FLOOR: enough voices that arrived inside the
 *   fences, on enough days), voices that arrive outside it weigh together at most OUTSIDE_CAP
 *   of those inside, and add nothing to the share later days may take: six fresh networks a
 *   day at 10× flipped a published phone cohort on day 7 when their weight accumulated, and no
 *   number of days of them reaches a majority now. Moving a published figure that far takes
 *   the operator (review.ts lists the cohort as contested until one decides).
 * Weights are causal: a day's weight depends only on the days before it, so the figure a
 * cohort showed on any past day can be recomputed from the voices up to that day.
 * @module
 */
import { CROWD_FLOOR } from '../web/core/crowd.ts';

/** The share of a cohort's weight so far that one day's new voices may add. */
export const DAY_SHARE = 0.1;
/** What a later day's voices may weigh together however young the cohort: one voice's worth. */
export const DAY_MIN_WEIGHT = 1;

/**
 * A day's voices that arrived outside the fences drawn before them (writer.ts judges each case
 * on arrival, and that verdict is kept) count fully only when at least this many networks
 * brought such voices that day; fewer weigh that share of a voice each. One network sending
 * a fake a day is a new voice every day (a day's key makes it so, source.ts), and without this
 * thirty days of it outweigh a cohort whose honest newcomers come every third day; five
 * networks a day that disagree with the cohort are a crowd, and before a cohort's figure is
 * published an early false majority is overturned by them as by anyone.
 */
export const OUTSIDE_QUORUM = 5;

/**
 * Once a cohort's figure is published, what every voice that arrived outside its fences may
 * weigh together, as a share of the voices that arrived inside: with a fifth, fakes all on one
 * side hold a sixth of the weight, which moves the fences' center from the honest median to
 * their 60th percentile at most (docs/decisions/008-a-published-figure-is-defended.md).
 */
export const OUTSIDE_CAP = 0.2;

/** A day of a cohort: its voices, and how many of them arrived outside the fences. */
export interface DayVoices {
  voices: number;
  outside?: number;
}

/**
 * The weight of one voice of each day, oldest day first: `inside` for a voice that arrived
 * within the fences (or before there were any), `outside` for one that arrived outside them
 * (see the module comment, OUTSIDE_QUORUM and OUTSIDE_CAP). A day with no voices weighs 0.
 */
export function voiceWeights(days: readonly DayVoices[]): { inside: number; outside: number }[] {
  // `before` draws the next day's share; once published, only voices that arrived inside add to it.
  let before = 0;
  const inside = { weight: 0, voices: 0, days: 0 };
  let outsideWeight = 0;
  return days.map(({ voices: n, outside = 0 }) => {
    const published = inside.voices >= CROWD_FLOOR.voices && inside.days >= CROWD_FLOOR.days;
    const total = before === 0 ? n : Math.min(n, Math.max(DAY_MIN_WEIGHT, DAY_SHARE * before));
    const w = n ? total / n : 0;
    inside.weight += w * (n - outside);
    let out = w * Math.min(1, outside / OUTSIDE_QUORUM);
    if (published && outside > 0) out = Math.min(out, Math.max(0, OUTSIDE_CAP * inside.weight - outsideWeight) / outside);
    outsideWeight += out * outside;
    before += w * (n - outside) + (published ? 0 : out * outside);
    inside.voices += n - outside;
    if (n > outside) inside.days++;
    return { inside: w, outside: out };
  });
}

/** The weight of each day's voices together, when none arrived outside the fences (voiceWeights). */
export function dayWeights(voicesPerDay: readonly number[]): number[] {
  return voiceWeights(voicesPerDay.map((voices) => ({ voices }))).map((w, i) => w.inside * voicesPerDay[i]!);
}

/**
 * The weighted quantile q of `values` (sorted ascending) with positive `weights`: each value
 * stands at the middle of its weight on the cumulative scale, and q falls between two of them
 * by linear interpolation (below the first or above the last, that value). With equal weights
 * the median of an even count is the mean of the middle two, as percentile_cont gives.
 * cohorts.ts and crowd.ts compute the same in SQL (weightedQuantilesSql).
 */
export function weightedQuantile(values: readonly number[], weights: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  // Equal values are one point with their weights summed: otherwise the order of a tie (two
  // voices of one figure, on days that weigh differently) would move the answer.
  const xs: number[] = [];
  const ws: number[] = [];
  values.forEach((x, i) => {
    if (xs.length && xs[xs.length - 1] === x) ws[ws.length - 1]! += weights[i]!;
    else (xs.push(x), ws.push(weights[i]!));
  });
  const total = ws.reduce((a, b) => a + b, 0);
  let cum = 0;
  let prev: { x: number; p: number } | null = null;
  for (let i = 0; i < xs.length; i++) {
    const p = (cum + ws[i]! / 2) / total;
    cum += ws[i]!;
    const x = xs[i]!;
    if (p >= q) return prev === null || p === prev.p ? x : prev.x + ((x - prev.x) * (q - prev.p)) / (p - prev.p);
    prev = { x, p };
  }
  return xs[xs.length - 1]!;
}

/**
 * SQL for the weighted quantiles of the rows of `from` (a subquery with the columns `part`,
 * `x` and `w`): one row (part…, q, x) per partition and quantile, exactly as weightedQuantile
 * computes them (equal values first made one, their weights summed). The quantiles are `qs`, an SQL float8[] of a few (each row is tested against
 * each), or `{ even: k }`, the k evenly spaced quantiles 0, 1/(k−1) … 1, each row producing
 * only those that fall between its middle and the next one's (k rows in all, however many
 * voices). One sort per partition: a row's neighbour comes from lead() over the same window.
 * Rows of weight 0 or less take no part.
 */
export function weightedQuantilesSql(from: string, part: readonly string[], qs: string | { even: number }): string {
  const by = part.join(', ');
  const partition = part.length ? `PARTITION BY ${by}` : '';
  const cols = part.length ? `${by}, ` : '';
  // The next row's middle computed as that row computes its own (cum + nw is its cum), bit for bit:
  // otherwise a quantile could fall in two rows, or none.
  const rows = `SELECT ${cols}x, (cum - w / 2) / tot AS p, nx, ((cum + nw) - nw / 2) / tot AS np, i
    FROM (SELECT ${cols}x, w, sum(w) OVER win AS cum, sum(w) OVER (${partition}) AS tot, lead(x) OVER win AS nx, lead(w) OVER win AS nw, row_number() OVER win AS i
          FROM (SELECT ${cols}x, sum(w) AS w FROM (${from}) f WHERE w > 0 GROUP BY ${cols}x) t
          WINDOW win AS (${partition} ORDER BY x ROWS UNBOUNDED PRECEDING)) c`;
  const at = (q: string) => `CASE WHEN o.nx IS NULL OR o.p >= ${q} OR o.np = o.p THEN o.x ELSE o.x + (o.nx - o.x) * (${q} - o.p) / (o.np - o.p) END`;
  if (typeof qs === 'string') {
    return `SELECT ${cols}q.q, ${at('q.q')} AS x
    FROM (${rows}) o CROSS JOIN unnest(${qs}) AS q(q)
    WHERE (o.p <= q.q AND (o.np IS NULL OR o.np > q.q)) OR (o.i = 1 AND o.p > q.q)`;
  }
  const k = qs.even - 1;
  // Row i covers the quantiles from its middle (or 0, for the first row) up to the next row's middle.
  return `SELECT ${cols}g.j::float8 / ${k} AS q, ${at(`g.j::float8 / ${k}`)} AS x
    FROM (${rows}) o, LATERAL generate_series(CASE WHEN o.i = 1 THEN 0 ELSE ceil(o.p * ${k})::int END, CASE WHEN o.np IS NULL THEN ${k} ELSE least(${k}, ceil(o.np * ${k})::int - 1) END) AS g(j)`;
}
