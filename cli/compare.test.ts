import { describe, expect, it } from 'vitest';
import { sampleDocument } from '../web/core/test/fixtures.ts';
import { type ResultDocument, validateResult } from '../web/core/schema.ts';
import { compareResults, compareTable } from './compare.ts';

/** A document whose one case has the given ns/op samples (summaries are recomputed anyway). */
function doc(samples: number[]): ResultDocument {
  const d = sampleDocument() as unknown as ResultDocument;
  d.cases[0] = { ...d.cases[0]!, samples };
  return d;
}
const steady = (center: number) => Array.from({ length: 20 }, (_, i) => center * (1 + ((i % 5) - 2) * 0.002));

describe('compare', () => {
  it('reads a result@1 document beside a result@2 one', () => {
    const v1 = doc(steady(1000)) as ResultDocument & { schema: string };
    v1.schema = 'aeadbench/result@1';
    delete (v1.environment as { engine?: unknown }).engine;
    for (const c of v1.cases) delete (c as { modes?: unknown; unstableReasons?: unknown }).modes, delete (c as { unstableReasons?: unknown }).unstableReasons;
    expect(validateResult(v1).ok).toBe(true);
    const v2 = doc(steady(800));
    expect(v2.schema).toBe('aeadbench/result@2');
    expect(compareResults(v1, v2).cases[0]!.verdict).toBe('faster');
  });

  it('equal runs are within noise', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(1000)));
    expect(r.cases).toEqual([expect.objectContaining({ verdict: 'same', ratio: 1 })]);
  });

  it('a faster B beyond both intervals is marked faster', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(800)));
    expect(r.cases[0]!.verdict).toBe('faster');
    expect(r.cases[0]!.ratio).toBeCloseTo(1.25, 6);
  });

  it('a slower B beyond both intervals is marked slower (a regression)', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(1300)));
    expect(r.cases[0]!.verdict).toBe('slower');
    expect(compareTable(r)).toContain('▼ SLOWER');
  });

  it('a large difference with overlapping intervals is noisy, not proven', () => {
    const wide = [500, 700, 900, 1000, 1100, 1300, 1500, 1700];
    const r = compareResults(doc(wide), doc(wide.map((x) => x * 1.2)));
    expect(r.cases[0]!.verdict).toBe('noisy');
  });

  it('reports cases present in only one document', () => {
    const b = doc(steady(1000));
    b.cases[0] = { ...b.cases[0]!, sizeBytes: 2048 };
    const r = compareResults(doc(steady(1000)), b);
    expect(r.cases).toHaveLength(0);
    expect(r.onlyInA).toHaveLength(1);
    expect(r.onlyInB).toHaveLength(1);
  });
});
