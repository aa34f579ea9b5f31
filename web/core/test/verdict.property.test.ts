// Every number in the verdict's sentences, recomputed from the table it sits beside, over
// generated result documents (fast-check): a winner is never "ahead" at 1.00× or below, the cost
// line holds within its stated error over the sizes it names, "not told apart" never sits beside
// an interval that excludes 1, a busy device's A/A bounds every claim, and the headline names an
// answer at every size only when each class names the same one.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KiB, MiB } from '../tables/algorithms.ts';
import { formatSize } from '../params.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { COST_FIT_ERROR, busySpread, verdict } from '../report/verdict.ts';
import { headline, stateOf } from '../report/headline.ts';
import { type Model, syntheticRun } from './fixtures.ts';

const SIZES = [64, 256, KiB, 16 * KiB, 64 * KiB, MiB];
const sizeOf = new Map(SIZES.map((s) => [formatSize(s), s]));
const CONTENDERS: Pick<Model, 'impl' | 'variant' | 'alg'>[] = [
  { impl: 'rustcrypto-wasm', variant: 'simd128', alg: 'chacha20-poly1305' },
  { impl: 'rustcrypto-wasm', variant: 'simd128', alg: 'aes-128-gcm' },
  { impl: 'rustcrypto-wasm', variant: 'simd128', alg: 'ascon-aead128' },
  { impl: 'webcrypto', variant: 'sequential', alg: 'aes-128-gcm' },
  { impl: 'noble', variant: 'default', alg: 'chacha20-poly1305' },
];

const model = (i: number) =>
  fc
    .record({
      fixedNs: fc.double({ min: 100, max: 30_000, noNaN: true }),
      perByteNs: fc.double({ min: 0.3, max: 12, noNaN: true }),
      bend: fc.double({ min: 0.7, max: 1.6, noNaN: true }),
    })
    .map(({ fixedNs, perByteNs, bend }): Model => ({ ...CONTENDERS[i]!, fixedNs, perByteNs, bend: { [MiB]: bend } }));

const documents = fc
  .record({
    count: fc.integer({ min: 2, max: CONTENDERS.length }),
    models: fc.tuple(...CONTENDERS.map((_, i) => model(i))),
    // Near-twins, so that estimates sit on every edge: the second contender a few per cent off the first.
    twin: fc.option(fc.double({ min: 0.97, max: 1.03, noNaN: true })),
    jitter: fc.double({ min: 0.001, max: 0.3, noNaN: true }),
    independent: fc.boolean(),
    workers: fc.integer({ min: 1, max: 4 }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    aa: fc.option(fc.record({ low: fc.double({ min: 0.6, max: 1.0, noNaN: true }), high: fc.double({ min: 1.0, max: 1.5, noNaN: true }) })),
  })
  .map(({ count, models, twin, jitter, independent, workers, seed, aa }) => {
    const ms = models.slice(0, count);
    if (twin !== null) ms[1] = { ...ms[1]!, fixedNs: ms[0]!.fixedNs * twin, perByteNs: ms[0]!.perByteNs * twin, bend: ms[0]!.bend };
    const { cases } = syntheticRun(ms, { jitter, independent, workers, seed, sizes: SIZES });
    const aaCheck: ResultDocument['aaCheck'] = aa
      ? {
          implementation: 'rustcrypto-wasm',
          variant: 'simd128',
          algorithm: 'chacha20-poly1305',
          operation: 'encrypt',
          sizeBytes: KiB,
          ratio: Math.sqrt(aa.low * aa.high),
          low: aa.low,
          high: aa.high,
          decision: aa.low >= 1 / 1.03 && aa.high <= 1.03 ? 'same' : 'unknown',
        }
      : undefined;
    return { cases, ...(aaCheck ? { aaCheck } : {}) };
  });

const RATIO = /(\d+\.\d\d)× \[(\d+\.\d\d)–(\d+\.\d\d)/g;
const ratiosIn = (text: string) => [...text.matchAll(RATIO)].map((m) => ({ value: +m[1]!, low: +m[2]!, high: +m[3]! }));
const PROPERTY_RUNS = 150;

describe('the verdict’s sentences, recomputed from the table (property)', () => {
  it('never says "ahead" at 1.00× or below, and names as winner the contender its printed ratio puts first', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const v = verdict(doc);
        for (const s of v.sentences.filter((t) => t.startsWith('Fastest for'))) {
          const ahead = /(\d+\.\d\d)× \[[^\]]+\] ahead of/.exec(s);
          if (ahead) expect(+ahead[1]!).toBeGreaterThan(1);
        }
        for (const f of v.fastest) if (f.margin && /ahead of/.test(v.sentences.join(' '))) expect(f.margin.value).toBeGreaterThan(0);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('states the cost line only over sizes whose every median it predicts within the error it states', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const v = verdict(doc);
        const s = v.sentences.find((t) => t.startsWith('One message with'));
        if (!s) return;
        const m = /costs about ([\d.e+-]+) µs plus ([\d.e+-]+) ns per byte, from (.+?) to (.+?) \(within (\d+) % of every median/.exec(s);
        expect(m, s).not.toBeNull();
        const [fixedUs, perByte, from, to, pct] = [+m![1]!, +m![2]!, sizeOf.get(m![3]!)!, sizeOf.get(m![4]!)!, +m![5]!];
        const mine = doc.cases.filter(
          (c: CaseResult) =>
            c.implementation === v.cost!.contender.implementation && c.algorithm === v.cost!.contender.algorithm && c.variant === v.cost!.contender.variant,
        );
        const inRange = mine.filter((c) => c.sizeBytes >= from && c.sizeBytes <= to);
        expect(inRange.length).toBeGreaterThanOrEqual(2);
        expect(pct).toBeLessThanOrEqual(COST_FIT_ERROR * 100);
        for (const c of inRange)
          expect(Math.abs(fixedUs * 1e3 + perByte * c.sizeBytes - c.summary.median) / c.summary.median).toBeLessThanOrEqual(pct / 100 + 1e-9);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('puts "not told apart" only beside intervals that include 1, and says why of one that excludes it', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        for (const s of verdict(doc).sentences) {
          const apart = /Not told apart from (.*?) either\./.exec(s);
          if (apart) for (const r of ratiosIn(apart[1]!)) expect(r.low).toBeLessThanOrEqual(1);
          const behind = /\. ([^.]*?) (?:is|are) behind, but perhaps by less than/.exec(s);
          if (behind) for (const r of ratiosIn(behind[1]!)) expect(r.low).toBeGreaterThan(1);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('on a device whose A/A was not SAME, says so and makes no claim narrower than its spread', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const v = verdict(doc);
        const spread = busySpread(doc.aaCheck);
        expect(v.sentences.some((t) => t.startsWith('This device was too busy'))).toBe(spread !== null);
        if (spread === null) return;
        for (const f of v.fastest) {
          if (f.certainty === 'sure')
            for (const r of [f.margin, ...f.alsoLeading.map((x) => x.margin)]) if (r) expect(r.low).toBeGreaterThanOrEqual(1 + spread);
          if (f.certainty === 'tie') expect(spread).toBeLessThanOrEqual(0.05);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('says "at every message size" only when every class names the same answer, and names none it did not decide', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const { claims } = verdict(doc);
        const h = headline(claims)[0] ?? '';
        const fastest = claims.filter((c) => c.id.startsWith('fastest/'));
        if (h.includes('at every message size')) for (const c of fastest) expect(['winner', 'group']).toContain(stateOf(c));
        for (const c of fastest) if (c.decision === 'unknown' && !c.leading) expect(['close', 'busy', 'measuring']).toContain(stateOf(c));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
