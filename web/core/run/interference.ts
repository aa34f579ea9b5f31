/**
 * Reading the interference monitor (measure.ts makeProbe): pure functions over the probe's
 * times and a case's samples, for the result's "ran at 55–100 % of its best speed", for
 * marking samples taken while the device was slow, and for how much of a case's spread the
 * device's own speed explains.
 * @module
 */
import { median, quantile } from '../stats.ts';

export interface Interference {
  opsPerProbe: number;
  cycles: readonly number[];
  probeMs: readonly number[];
}

/** Below this share of its best speed the device counts as slowed (boost lost, a neighbour, throttling). */
export const SLOW_SPEED = 0.8;

/**
 * The device's speed in each cycle as a share of its best: fastest probe / this probe. A
 * reading under half the median probe is a timer glitch, not a core running twice as fast as
 * it usually does: it is ignored (and its cycle counted at full speed), so one reading cut
 * short cannot make every other cycle look slow.
 */
export function speedShares(r: Interference): number[] {
  const floor = median(r.probeMs.length ? r.probeMs : [1]) / 2;
  const valid = r.probeMs.filter((ms) => ms >= floor && ms > 0);
  if (valid.length === 0) return r.probeMs.map(() => 1);
  const best = Math.min(...valid);
  return r.probeMs.map((ms) => (ms >= floor && ms > 0 ? best / ms : 1));
}

/** "Ran at {low}–100 % of its best speed": the 5th percentile and median of the speed shares. */
export function speedRange(r: Interference): { low: number; median: number; slowShare: number } | null {
  if (r.probeMs.length === 0) return null;
  const s = speedShares(r);
  return { low: quantile(s, 0.05), median: median(s), slowShare: s.filter((x) => x < SLOW_SPEED).length / s.length };
}

/** The clock the core ran at in each cycle (GHz), from the probe: the concurrent clock for cycles per byte. */
export function clockGhzByCycle(r: Interference): Map<number, number> {
  return new Map(r.cycles.map((c, i) => [c, r.opsPerProbe / (r.probeMs[i]! * 1e6)]));
}

/** Cycle ids in which the device ran below SLOW_SPEED of its best. */
export function slowCycles(r: Interference, threshold = SLOW_SPEED): Set<number> {
  const s = speedShares(r);
  return new Set(r.cycles.filter((_, i) => s[i]! < threshold));
}

/**
 * How much of a case's spread the device's speed explains: R² of ln(sample) against
 * ln(probe time) over the cycles both have (least squares with a fitted slope: a cipher bound
 * by memory slows less than the integer chain does). 1 = every swing of the case was the
 * device's; 0 = none was. Null with fewer than 5 shared cycles or no variance.
 */
export function explainedShare(c: { samples: readonly number[]; cycles?: readonly number[] }, r: Interference): number | null {
  if (!c.cycles) return null;
  const probe = new Map(r.cycles.map((id, i) => [id, r.probeMs[i]!]));
  const xs: number[] = [];
  const ys: number[] = [];
  c.cycles.forEach((id, i) => {
    const p = probe.get(id);
    if (p !== undefined && p > 0 && c.samples[i]! > 0) {
      xs.push(Math.log(p));
      ys.push(Math.log(c.samples[i]!));
    }
  });
  if (xs.length < 5) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return (sxy * sxy) / (sxx * syy);
}

/** Share of a case's samples taken in slow cycles. */
export function slowSampleShare(c: { cycles?: readonly number[] }, slow: Set<number>): number {
  if (!c.cycles || c.cycles.length === 0) return 0;
  return c.cycles.filter((id) => slow.has(id)).length / c.cycles.length;
}
