import { describe, expect, it } from 'vitest';
import type { Claim } from '../../core/report/verdict.ts';
import { headline } from './headline.ts';

const claim = (id: string, decision: Claim['decision'], answer: string): Claim => ({ id, decision, answer, cases: [] });

describe('the verdict headline', () => {
  it('names one choice per message size in plain words, and the AES instructions in a sentence of their own', () => {
    const h = headline([
      claim('fastest/small', 'different', 'Ascon-AEAD128 in WASM (simd128)'),
      claim('fastest/medium', 'different', 'AES-128-GCM in Web Crypto'),
      claim('fastest/large', 'different', 'AES-128-GCM in Web Crypto'),
      claim('hardware-aes', 'different', 'AES instructions'),
    ]);
    expect(h).toEqual([
      'On this device the fastest choice is Ascon-AEAD128 in WASM (simd128) for small messages (up to 1 KiB); AES-128-GCM in Web Crypto for medium ones; AES-128-GCM in Web Crypto for large ones (1 MiB and up).',
      'This device has AES instructions: AES-GCM through Web Crypto is cheap here for large messages.',
    ]);
  });

  it('says it once when one choice wins at every size', () => {
    const h = headline(['small', 'medium', 'large'].map((s) => claim(`fastest/${s}`, 'different', 'ChaCha20-Poly1305 in WASM (simd128)')));
    expect(h).toEqual(['On this device the fastest choice is ChaCha20-Poly1305 in WASM (simd128), at every message size measured.']);
  });

  it('words a tie as a tie in the claim’s order, and names no winner where nothing is decided', () => {
    const h = headline([
      claim('fastest/small', 'unknown', 'undecided'),
      claim('fastest/large', 'same', 'AES-128-GCM in Web Crypto = AES-256-GCM in Web Crypto'),
      claim('hardware-aes', 'unknown', 'not enough evidence'),
    ]);
    expect(h).toEqual([
      'On this device the fastest choice is no clear winner yet for small messages (up to 1 KiB); AES-128-GCM in Web Crypto or AES-256-GCM in Web Crypto (about the same) for large ones (1 MiB and up).',
    ]);
    expect(h.join(' ')).not.toMatch(/ahead|×|\[/);
  });

  it('is the same words for the same claims, whatever else the run measured', () => {
    const a = [claim('fastest/large', 'same', 'A = B = C')];
    expect(headline(a)).toEqual(headline([...a]));
    expect(headline([claim('fastest/small', 'unknown', 'measuring')])[0]).toContain('still measuring for small messages');
  });
});
