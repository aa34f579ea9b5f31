// The shared e2e expectations must fail on what they guard against, or the suites prove nothing.
import { describe, expect, it } from 'vitest';
import type { Validation } from '../web/core/schema.ts';
import { exportedVectorCounts, newerAeadProblems, validationProblems } from './expectations.ts';
import type { ResultDocument } from '../web/core/schema.ts';

const ok = (implementation: Validation['implementation'], algorithm: Validation['algorithm'], o: Partial<Validation> = {}): Validation => ({
  implementation,
  variant: 'v',
  algorithm,
  vectorsPassed: 100,
  vectorsFailed: 0,
  crossCheck: 'agree',
  excluded: false,
  errors: [],
  ...o,
});
const clean = [ok('rustcrypto-wasm', 'aes-128-gcm'), ok('webcrypto', 'aes-128-gcm'), ok('rustcrypto-wasm', 'aes-256-gcm'), ok('webcrypto', 'aes-256-gcm')];

const counts = { 'aes-128-gcm': 100, 'aes-256-gcm': 100, 'chacha20-poly1305': 100 };

describe('validationProblems', () => {
  it('finds nothing wrong with a clean report', () => expect(validationProblems(clean, counts)).toEqual([]));
  it('expects every vector the build exported for an id', () => {
    const exported = exportedVectorCounts();
    expect(exported['aes-128-gcm']).toBeGreaterThan(50);
    expect(exported['aes-256-ocb3']).toBeGreaterThanOrEqual(2);
    expect(exported['aes-256-cbc-hmac-sha256']).toBeUndefined();
  });
  it('names a failed vector, an exclusion, too few vectors, a disagreement and a missing implementation', () => {
    expect(validationProblems([ok('rustcrypto-wasm', 'aes-128-gcm', { vectorsFailed: 2 }), ...clean.slice(1)], counts)).toEqual([
      'rustcrypto-wasm/v/aes-128-gcm: 2 vectors failed',
    ]);
    expect(validationProblems([...clean, ok('noble', 'chacha20-poly1305', { excluded: true, errors: ['bad'] })], counts)).toEqual([
      'noble/v/chacha20-poly1305 was excluded: bad',
    ]);
    expect(validationProblems([...clean, ok('noble', 'chacha20-poly1305', { vectorsPassed: 3 })], counts)).toEqual([
      'noble/v/chacha20-poly1305: 3 of 100 vectors passed',
    ]);
    expect(validationProblems([ok('rustcrypto-wasm', 'aes-128-gcm', { crossCheck: 'disagree' }), ...clean.slice(1)], counts)).toEqual([
      'aes-128-gcm: rustcrypto-wasm/v cross-check disagree',
    ]);
    expect(validationProblems(clean.slice(1), counts)).toEqual(['aes-128-gcm: rustcrypto-wasm was not validated']);
  });
});

describe('newerAeadProblems', () => {
  const counts = exportedVectorCounts();
  const row = (impl: Validation['implementation'], variant: string, algorithm: Validation['algorithm']) =>
    ok(impl, algorithm, { variant, vectorsPassed: counts[algorithm] ?? 0 });
  const rows = [
    row('rustcrypto-wasm', 'simd128', 'aegis-128l'),
    row('libaegis-wasm', 'simd128', 'aegis-128l'),
    row('rustcrypto-wasm', 'simd128', 'aegis-256-tag256'),
    row('libaegis-wasm', 'simd128', 'aegis-256-tag256'),
    row('libsodium', 'wasm', 'aegis-256-tag256'),
    row('rustcrypto-wasm', 'simd128', 'aes-128-gcm-siv'),
    row('noble', 'js', 'aes-128-gcm-siv'),
    row('rustcrypto-wasm', 'simd128', 'aes-256-ocb3'),
    row('rustcrypto-wasm', 'simd128', 'xchacha20-poly1305'),
    row('noble', 'js', 'xchacha20-poly1305'),
    row('libsodium', 'wasm', 'xchacha20-poly1305'),
  ];
  const doc = (relaxedSimd: boolean, drop = '') =>
    ({
      environment: { wasm: { simd128: true, relaxedSimd, threads: false } },
      cases: rows
        .map((r) => ({ implementation: r.implementation, variant: r.variant, algorithm: r.algorithm }))
        .filter((c) => `${c.implementation}/${c.algorithm}` !== drop),
    }) as unknown as ResultDocument;
  it('accepts the expected report', () => expect(newerAeadProblems(rows, doc(false))).toEqual([]));
  it('names a missing implementation, the wrong libaegis build and an untimed case', () => {
    expect(
      newerAeadProblems(
        rows.filter((r) => r.implementation !== 'libsodium' || r.algorithm !== 'aegis-256-tag256'),
        doc(false),
      ),
    ).toEqual([
      'aegis-256-tag256: validated by libaegis-wasm/simd128 rustcrypto-wasm/simd128, expected libaegis-wasm/simd128 libsodium/wasm rustcrypto-wasm/simd128',
    ]);
    expect(newerAeadProblems(rows, doc(true))[0]).toContain('expected libaegis-wasm/relaxed-simd');
    expect(newerAeadProblems(rows, doc(false, 'noble/aes-128-gcm-siv'))).toEqual(['noble/js/aes-128-gcm-siv was validated but not timed']);
  });
});
