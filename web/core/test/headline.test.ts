import { describe, expect, it } from 'vitest';
import type { Claim } from '../report/verdict.ts';
import { headline, stateOf, visitorAnswer } from '../report/headline.ts';

/** A claim as verdict.ts makes it: a decided fastest claim's leading group is its winner, a tie's its members. */
const claim = (id: string, decision: Claim['decision'], answer: string, leading?: string[]): Claim => ({
  id,
  decision,
  answer,
  cases: [],
  ...(leading ? { leading } : id.startsWith('fastest/') && decision !== 'unknown' ? { leading: answer.split(' = ') } : {}),
});

describe('the verdict headline', () => {
  it('names one choice per message size in plain words, and the AES instructions in a sentence of their own', () => {
    const h = headline([
      claim('fastest/small', 'different', 'Ascon-AEAD128 in WASM (simd128)'),
      claim('fastest/medium', 'different', 'AES-128-GCM in Web Crypto'),
      claim('fastest/large', 'different', 'AES-128-GCM in Web Crypto'),
      claim('hardware-aes', 'different', 'AES instructions'),
    ]);
    expect(h).toEqual([
      'Fastest on this device: Ascon-AEAD128 in WASM (simd128) for small messages (up to 1 KiB); AES-128-GCM in Web Crypto for medium ones; AES-128-GCM in Web Crypto for large ones (1 MiB and up).',
      'This device has AES instructions: AES-GCM is cheap here for large messages.',
    ]);
  });

  it('says it once when one choice wins at every size', () => {
    const h = headline(['small', 'medium', 'large'].map((s) => claim(`fastest/${s}`, 'different', 'ChaCha20-Poly1305 in WASM (simd128)')));
    expect(h).toEqual(['Fastest on this device: ChaCha20-Poly1305 in WASM (simd128), at every message size measured.']);
  });

  it('words a tie as a tie in the claim’s order, and names no winner where nothing is decided', () => {
    const h = headline([
      claim('fastest/small', 'unknown', 'undecided'),
      claim('fastest/large', 'same', 'AES-128-GCM in Web Crypto = AES-256-GCM in Web Crypto'),
      claim('hardware-aes', 'unknown', 'not enough evidence'),
    ]);
    expect(h).toEqual([
      'Fastest on this device: too close to call for small messages (up to 1 KiB); AES-128-GCM in Web Crypto or AES-256-GCM in Web Crypto (about the same) for large ones (1 MiB and up).',
    ]);
    expect(h.join(' ')).not.toMatch(/ahead|×|\[/);
  });

  it('reads a tie and a group not told apart but within a few per cent as the same answer, and a wide one as no winner', () => {
    const tie = claim('fastest/large', 'same', 'AES-128-GCM in Web Crypto = AES-256-GCM in Web Crypto');
    const narrow = claim('fastest/large', 'unknown', 'undecided', ['AES-128-GCM in Web Crypto', 'AES-256-GCM in Web Crypto']);
    expect(headline([narrow])).toEqual(headline([tie]));
    expect(visitorAnswer(narrow)).toBe('AES-128-GCM in Web Crypto or AES-256-GCM in Web Crypto (about the same)');
    expect(visitorAnswer(claim('fastest/large', 'unknown', 'undecided'))).toBe('too close to call');
  });

  it('is the same words for the same claims, whatever else the run measured', () => {
    const a = [claim('fastest/large', 'same', 'A = B = C')];
    expect(headline(a)).toEqual(headline([...a]));
    expect(headline([claim('fastest/small', 'unknown', 'measuring')])[0]).toContain('still measuring for small messages');
  });

  // One grammar for every state a size class can be in: each phrase fits "Fastest on this device: ___ for …".
  const states: [ReturnType<typeof stateOf>, Claim, string][] = [
    ['measuring', claim('fastest/small', 'unknown', 'measuring'), 'Fastest on this device: still measuring for small messages (up to 1 KiB).'],
    ['winner', claim('fastest/small', 'different', 'A'), 'Fastest on this device: A for small messages (up to 1 KiB).'],
    ['group', claim('fastest/small', 'same', 'A = B'), 'Fastest on this device: A or B (about the same) for small messages (up to 1 KiB).'],
    [
      'close',
      { ...claim('fastest/small', 'unknown', 'undecided'), within: 0.071 },
      'Fastest on this device: too close to call (the leaders are within 10 % of one another) for small messages (up to 1 KiB).',
    ],
    [
      'busy',
      { ...claim('fastest/small', 'unknown', 'undecided'), within: 0.3, busy: 0.224 },
      'Fastest on this device: not told apart on a device this busy (differences under 30 % could not be seen) for small messages (up to 1 KiB).',
    ],
  ];
  for (const [state, c, words] of states)
    it(`words the state "${state}" in the one grammar`, () => {
      expect(stateOf(c)).toBe(state);
      expect(headline([c])).toEqual([words]);
      // No state reads as a winner unless it names one: "the fastest choice is no clear winner" is gone.
      if (state !== 'winner' && state !== 'group') expect(headline([c, { ...c, id: 'fastest/large' }])[0]).not.toContain('at every message size');
    });

  it('says what a device too busy for any difference could not see, without a percentage past 100', () => {
    const c = { ...claim('fastest/small', 'unknown', 'undecided'), busy: 1.7 };
    expect(visitorAnswer(c)).toBe('not told apart on a device this busy (the same case measured twice differed by more than 2×)');
    expect(headline([c])[0]).not.toMatch(/more than 100 %/);
  });
});
