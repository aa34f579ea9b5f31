/**
 * One rule for every comparison the product makes — the verdict's winners, the A/A check, the
 * CLI's compare: a ratio's 95 % interval held against an equivalence margin, with three
 * outcomes, as Chromium's Pinpoint answers SAME / DIFFERENT / UNKNOWN and tachometer samples
 * until each interval is clear of its "horizons".
 *
 * With margin m the band of equivalence is [1/(1+m), 1+m] (symmetric in log space, so "A vs B"
 * and "B vs A" get the same answer):
 *  - SAME: the whole interval lies inside the band — any difference is smaller than m.
 *  - DIFFERENT: the whole interval lies outside it, on one side — a difference of at least m.
 *  - UNKNOWN: the interval straddles an edge of the band; more samples could decide it (or the
 *    true ratio sits on the edge, and then nothing will: the budget ends it).
 * A rule that called any interval excluding 1 a difference would call 1.5 % a winner on one run
 * and a tie on the next; one with a margin calls it SAME on both once the interval is tight.
 * @module
 */

export type Decision = 'different' | 'same' | 'unknown';

/** The default equivalence margin: differences under 3 % are a tie. */
export const DEFAULT_MARGIN = 0.03;

export interface Interval {
  /** The ratio's point estimate and its 95 % interval (any ratio of times or of speeds). */
  value: number;
  low: number;
  high: number;
}

/** SAME / DIFFERENT / UNKNOWN for one ratio's interval and margin (see the module comment). */
export function decide(r: Interval, margin = DEFAULT_MARGIN): Decision {
  if (!(margin >= 0) || !Number.isFinite(margin)) throw new Error(`Invalid margin: '${margin}' is not a non-negative fraction`);
  if (![r.low, r.high, r.value].every(Number.isFinite) || r.low > r.high) return 'unknown';
  const top = 1 + margin;
  const bottom = 1 / top;
  if (r.low >= bottom && r.high <= top) return 'same';
  if (r.low > top || r.high < bottom) return 'different';
  return 'unknown';
}

/**
 * What would decide an UNKNOWN, in words a reader can act on: the interval is about
 * `widthNeeded` too wide to fit inside the band, or it straddles one edge.
 */
export function whatWouldDecide(r: Interval, margin = DEFAULT_MARGIN): string | null {
  if (decide(r, margin) !== 'unknown') return null;
  const top = 1 + margin;
  if (r.high - r.low > 2 * margin)
    return `its interval (${fmt(r.low)}–${fmt(r.high)}) is wider than the ±${pct(margin)} band: more samples on a quieter device would narrow it`;
  return `its interval (${fmt(r.low)}–${fmt(r.high)}) straddles the edge of the ±${pct(margin)} band (${fmt(1 / top)}–${fmt(top)}): the difference is close to ${pct(margin)}`;
}

const fmt = (x: number) => x.toFixed(3);
const pct = (m: number) => `${+(m * 100).toFixed(1)} %`;
