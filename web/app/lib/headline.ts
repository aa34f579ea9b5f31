/**
 * The verdict's headline: one or two sentences a visitor who is not an expert can act on, worded
 * by the site from the verdict's claims (web/core/report/verdict.ts), so that two runs whose
 * claims agree read the same words. A claim's leading group (Claim.leading) is what a visitor
 * picks from: one name when nothing else comes within 12 % of it, else every contender that
 * does, in one fixed order, as "about the same" (verdict.ts ABOUT_THE_SAME: a threshold far from
 * the ±5 % edge where a tie and an undecided lead trade places from run to run). A group that
 * cannot be placed names no one; the intervals and ratios stay in the detail below.
 */
import type { Claim } from '../../core/report/verdict.ts';

const CLASSES = [
  { id: 'fastest/small', words: 'small messages (up to 1 KiB)' },
  { id: 'fastest/medium', words: 'medium ones' },
  { id: 'fastest/large', words: 'large ones (1 MiB and up)' },
] as const;

/** "A", "A or B", "A, B or C". */
const either = (xs: string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/** What a visitor reads for one claim: the same string whenever two runs' leading groups agree. */
export function visitorAnswer(c: Claim): string {
  if (c.answer === 'measuring') return 'still measuring';
  const group = c.leading ?? [];
  if (group.length === 1) return group[0]!;
  if (group.length > 1) return `${either(group)} (about the same)`;
  return 'no clear winner yet';
}

export function headline(claims: readonly Claim[]): string[] {
  const parts = CLASSES.flatMap(({ id, words }) => {
    const c = claims.find((x) => x.id === id);
    if (!c) return [];
    return [{ words, pick: visitorAnswer(c) }];
  });
  const out: string[] = [];
  const picks = new Set(parts.map((p) => p.pick));
  if (parts.length > 1 && picks.size === 1 && !/still measuring|no clear winner/.test(parts[0]!.pick)) {
    out.push(`On this device the fastest choice is ${parts[0]!.pick}, at every message size measured.`);
  } else if (parts.length) {
    out.push(`On this device the fastest choice is ${parts.map((p) => `${p.pick} for ${p.words}`).join('; ')}.`);
  }
  const aes = claims.find((x) => x.id === 'hardware-aes');
  if (aes?.answer === 'AES instructions') out.push('This device has AES instructions: AES-GCM through Web Crypto is cheap here for large messages.');
  else if (aes?.answer === 'no AES instructions')
    out.push('This device shows Web Crypto no AES instructions: AES-GCM is slow here, and ChaCha20-Poly1305 or Ascon is the better pick.');
  return out;
}
