import { describe, expect, it } from 'vitest';
import { validateResult } from '../schema.ts';
import { sampleDocument } from './fixtures.ts';

describe('result document schema', () => {
  it('accepts a well-formed document', () => {
    const r = validateResult(sampleDocument());
    expect(r.ok).toBe(true);
  });

  it('derives the case summary from raw samples', () => {
    const c = sampleDocument().cases[0]!;
    expect(c.summary.median).toBe(1000);
    expect(c.bytesPerSecond).toBeCloseTo(1.024e9, 0);
    expect(c.overheadBytes).toBe(28);
  });

  it.each([
    ['a wrong schema version', (d: any) => (d.schema = 'aeadbench/result@0'), 'schema'],
    ['an unknown algorithm', (d: any) => (d.cases[0].algorithm = 'rot13'), 'cases.0.algorithm'],
    ['a negative sample', (d: any) => (d.cases[0].samples[0] = -1), 'cases.0.samples.0'],
    ['a missing environment', (d: any) => delete d.environment, 'environment'],
    ['a size above 64 MiB', (d: any) => (d.cases[0].sizeBytes = 2 ** 30), 'cases.0.sizeBytes'],
    ['a run id that is not a UUID', (d: any) => (d.runId = 'x'), 'runId'],
  ])('rejects %s and names the path', (_, mutate, path) => {
    const d = sampleDocument();
    mutate(d);
    const r = validateResult(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.join('\n')).toContain(path);
  });
});
