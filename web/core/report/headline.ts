/**
 * The verdict's headline: one or two sentences a visitor who is not an expert can act on, worded
 * by the site from the verdict's claims (web/core/report/verdict.ts), so that two runs whose
 * claims agree read the same words. A claim's leading group (Claim.leading) is what a visitor
 * picks from: one name when nothing else comes within 12 % of it, else every contender that
 * does, in one fixed order, as "about the same" (verdict.ts ABOUT_THE_SAME: a threshold far from
 * the ±5 % edge where a tie and an undecided lead trade places from run to run). A group that
 * cannot be placed names no one; the intervals and ratios stay in the detail below.
 */
import type { Claim } from './verdict.ts';

const CLASSES = [
  { id: 'fastest/small', words: 'small messages (up to 1 KiB)' },
  { id: 'fastest/medium', words: 'medium ones' },
  { id: 'fastest/large', words: 'large ones (1 MiB and up)' },
] as const;

/** "A", "A or B", "A, B or C". */
const either = (xs: string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/**
 * The states a size class's claim can be in, one phrase each: still measuring, a winner, a group
 * about the same (a tie among them), too close to call (with how close), or not told apart
 * because the device was too busy. Every phrase fits "Fastest on this device: ___ for small
 * messages", so one grammar holds for each.
 */
export type ClassState = 'measuring' | 'winner' | 'group' | 'close' | 'busy';

export function stateOf(c: Claim): ClassState {
  if (c.answer === 'measuring') return 'measuring';
  const group = c.leading ?? [];
  if (group.length === 1) return 'winner';
  if (group.length > 1) return 'group';
  return c.busy !== undefined ? 'busy' : 'close';
}

/**
 * "within 10 %": the largest difference an undecided claim's intervals allow, rounded up to a
 * coarse step, so that two runs whose leaders sit 7 % and 9 % apart read the same words.
 */
const STEPS = [5, 10, 15, 20, 30, 50, 100];
const pct = (x: number) => {
  const p = x * 100;
  return STEPS.find((s) => p <= s) !== undefined ? `${STEPS.find((s) => p <= s)} %` : 'more than 100 %';
};

/** What a visitor reads for one claim: the same string whenever two runs' leading groups agree. */
export function visitorAnswer(c: Claim): string {
  const group = c.leading ?? [];
  switch (stateOf(c)) {
    case 'measuring':
      return 'still measuring';
    case 'winner':
      return group[0]!;
    case 'group':
      return `${either(group)} (about the same)`;
    case 'busy':
      // Past 100 %, the same case measured twice differed by more than 2×: no size of difference could be seen.
      return c.busy! > 1
        ? 'not told apart on a device this busy (the same case measured twice differed by more than 2×)'
        : `not told apart on a device this busy (differences under ${pct(c.busy!)} could not be seen)`;
    case 'close':
      return c.within !== undefined ? `too close to call (the leaders are within ${pct(c.within)} of one another)` : 'too close to call';
  }
}

export function headline(claims: readonly Claim[]): string[] {
  const parts = CLASSES.flatMap(({ id, words }) => {
    const c = claims.find((x) => x.id === id);
    if (!c) return [];
    return [{ words, pick: visitorAnswer(c), named: ['winner', 'group'].includes(stateOf(c)) }];
  });
  const out: string[] = [];
  const picks = new Set(parts.map((p) => p.pick));
  if (parts.length > 1 && picks.size === 1 && parts[0]!.named) {
    out.push(`Fastest on this device: ${parts[0]!.pick}, at every message size measured.`);
  } else if (parts.length) {
    out.push(`Fastest on this device: ${parts.map((p) => `${p.pick} for ${p.words}`).join('; ')}.`);
  }
  const aes = claims.find((x) => x.id === 'hardware-aes');
  if (aes?.answer === 'AES instructions') out.push('This device has AES instructions: AES-GCM is cheap here for large messages.');
  else if (aes?.answer === 'no AES instructions')
    out.push('This device shows no AES instructions: AES-GCM is slow here, and ChaCha20-Poly1305 or Ascon is the better pick.');
  return out;
}
