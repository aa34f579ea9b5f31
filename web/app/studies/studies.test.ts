// The studies: the engine reads a result into numbers (web/core/scenarios), each study's view
// words them (web/app/studies); the published figures come typed from reference.json.
import { describe, expect, it } from 'vitest';
import { PRESETS, type AlgorithmId, type ImplementationId } from '../../core/tables/algorithms.ts';
import { toCaseResult } from '../../core/run/document.ts';
import type { ResultDocument } from '../../core/schema.ts';
import { STUDIES, keyLength, lightweightIot } from '../../core/scenarios/index.ts';
import { sampleDocument } from '../../core/test/fixtures.ts';
import { STUDY_VIEWS, fullCitation, shortCitation } from './index.ts';

/** A document whose cases take `nsPerByte × size + fixedNs` per call, for each algorithm × implementation × size × operation. */
function documentOf(
  series: { algorithm: AlgorithmId; implementation: ImplementationId; fixedNs: number; nsPerByte: number }[],
  sizes: number[],
): ResultDocument {
  const doc = sampleDocument() as unknown as ResultDocument;
  doc.cases = series.flatMap((s) =>
    sizes.flatMap((sizeBytes) =>
      (['encrypt', 'decrypt'] as const).map((operation) => {
        const ns = s.fixedNs + s.nsPerByte * sizeBytes;
        const variant = s.implementation === 'webcrypto' ? 'sequential' : s.implementation === 'rustcrypto-wasm' ? 'simd128' : 'js';
        const key = `${s.implementation}/${variant}/${s.algorithm}/${operation}/${sizeBytes}`;
        return toCaseResult(
          { key, implementation: s.implementation, variant, algorithm: s.algorithm, operation, sizeBytes, aadBytes: 0 },
          { key, samples: [ns, ns * 1.001, ns * 0.999, ns, ns], iterations: 10, interruptions: 0, stateBytes: 512, reruns: 0 },
          { cvThreshold: 0.035 },
        );
      }),
    ),
  );
  return doc;
}

describe('the studies', () => {
  it('every study has a preset, a view and a citation that says what its text gives and what it lacks', () => {
    expect(STUDY_VIEWS.map((s) => s.id)).toEqual(STUDIES.map((s) => s.id));
    for (const s of STUDY_VIEWS) {
      expect(PRESETS[s.id], s.id).toBeDefined();
      expect(s.citation.title.length, s.id).toBeGreaterThan(20);
      expect(s.citation.venue.length, s.id).toBeGreaterThan(5);
      expect(fullCitation(s.citation), s.id).not.toMatch(/\.txt/);
      if (!s.citation.authors.length) expect(fullCitation(s.citation)).toContain('Authors not named in the text');
      if (s.citation.titleIsDescriptive) expect(fullCitation(s.citation)).toContain('[untitled in the text:');
      expect(s.published.length, s.id).toBeGreaterThan(0);
      expect(s.explain.length, s.id).toBeGreaterThan(0);
    }
    const tls = STUDY_VIEWS.find((s) => s.id === 'key-length')!.citation;
    expect(shortCitation(tls)).toBe('Muhammad Arifin Ilham et al. (2025)');
    expect(fullCitation(tls)).toBe(
      'Muhammad Arifin Ilham, Dody Herdiana, M. Agreindra Helmiawan, Asep Saeppani. (2025). “Analisi Perbandingan Kinerja Algoritma AES-128 GCM dan AES-256 GCM Pada Protokol TLS 1.2 Di Server Ngnix”. Router: Jurnal Teknik Informatika dan Terapan, vol. 3, no. 4, pp. 87–95. doi:10.62951/router.v3i4.743.',
    );
  });

  it('the engine gives numbers: AES-128 at 10 rounds against 14 is a 40 % gain, and a crossover sits where two cost models meet', () => {
    const doc = documentOf(
      [
        { algorithm: 'aes-128-gcm', implementation: 'rustcrypto-wasm', fixedNs: 1000, nsPerByte: 10 },
        { algorithm: 'aes-256-gcm', implementation: 'rustcrypto-wasm', fixedNs: 1400, nsPerByte: 14 },
        { algorithm: 'ascon-aead128', implementation: 'rustcrypto-wasm', fixedNs: 200, nsPerByte: 12 },
      ],
      [64, 1024, 16_384],
    );
    const rows = keyLength(doc).filter((r) => r.sizeBytes === 1024);
    expect(rows).toHaveLength(2); // encrypt and decrypt
    for (const r of rows) expect(r.gainPercent).toBeCloseTo(40, 0);
    // Ascon: 200 + 12n; AES-128-GCM: 1000 + 10n; they meet at n = 400 bytes.
    const iot = lightweightIot(doc);
    const pair = iot.crossovers.find((c) => c.a.algorithm === 'ascon-aead128' && c.b.algorithm === 'aes-128-gcm')!;
    expect(pair.bytes).toBeCloseTo(400, -1);
    expect(pair.below?.algorithm).toBe('ascon-aead128');
    expect(pair.above.algorithm).toBe('aes-128-gcm');
  });

  it("each study's view words this device's figures from a document, one row per series, with figures in them", () => {
    const all: { algorithm: AlgorithmId; implementation: ImplementationId }[] = [
      ...(
        [
          'aes-128-gcm',
          'aes-256-gcm',
          'chacha20-poly1305',
          'aes-128-cbc-hmac-sha256',
          'aes-256-cbc-hmac-sha256',
          'twofish-128-gcm',
          'serpent-128-gcm',
          'ascon-aead128',
        ] as const
      ).map((algorithm) => ({ algorithm, implementation: 'rustcrypto-wasm' as const })),
      ...(['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305'] as const).map((algorithm) => ({ algorithm, implementation: 'webcrypto' as const })),
    ];
    for (const view of STUDY_VIEWS) {
      const doc = documentOf(
        all.map((s, i) => ({ ...s, fixedNs: 1000 + 100 * i, nsPerByte: 1 + i / 10 })),
        PRESETS[view.id].sizes as number[],
      );
      const tables = view.compare(doc);
      expect(tables.length, view.id).toBeGreaterThan(0);
      for (const t of tables) {
        expect(t.rows.length, `${view.id}: ${t.title}`).toBeGreaterThan(0);
        for (const row of t.rows) expect(row, `${view.id}: ${t.title}`).toHaveLength(t.columns.length);
        expect(
          t.rows.flat().some((cell) => /\d/.test(cell) && cell !== '–'),
          `${view.id}: ${t.title}`,
        ).toBe(true);
      }
    }
  });
});
