// Two results compared by their exact counts (report/ops.ts): the change is exact, so the
// threshold is a policy, and a case without a count in either is named, not compared.
import { describe, expect, it } from 'vitest';
import { compareOps, opsExitCode, opsTable, uncountedWhy } from '../report/ops.ts';
import { sampleDocument } from './fixtures.ts';

const withOps = (perMessage: number | null) => {
  const doc = sampleDocument();
  if (perMessage !== null) doc.cases[0] = { ...doc.cases[0]!, ops: { perMessage, perByte: perMessage / 1024, perCall: 208 } };
  return doc;
};

describe('compare --metric ops', () => {
  it('the same counts read exactly 0 %, the same work, exit 0', () => {
    const r = compareOps(withOps(206210), withOps(206210));
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ change: 0, verdict: 'same-work' });
    expect(opsExitCode(r)).toBe(0);
    expect(opsTable(r)).toContain('+0.000 %');
  });

  it('1 % more work is more work at the default threshold (0.5 %) and fails; 1 % less is less work and passes', () => {
    const more = compareOps(withOps(100_000), withOps(101_000));
    expect(more.rows[0]).toMatchObject({ verdict: 'more-work' });
    expect(more.rows[0]!.change).toBeCloseTo(0.01, 12);
    expect(opsExitCode(more)).toBe(1);
    const less = compareOps(withOps(101_000), withOps(100_000));
    expect(less.rows[0]!.verdict).toBe('less-work');
    expect(opsExitCode(less)).toBe(0);
  });

  it('a threshold of 0 reports any change, even one operation per message, and no change as the same work', () => {
    expect(compareOps(withOps(100_000), withOps(100_001), 0).rows[0]!.verdict).toBe('more-work');
    expect(compareOps(withOps(100_000), withOps(99_999), 0).rows[0]!.verdict).toBe('less-work');
    const same = compareOps(withOps(100_000), withOps(100_000), 0);
    expect(same.rows[0]!.verdict).toBe('same-work');
    expect(opsExitCode(same)).toBe(0);
    expect(compareOps(withOps(100_000), withOps(100_001)).rows[0]!.verdict).toBe('same-work');
  });

  it('a case without a count in one result is named, not compared; nothing counted in common exits 3', () => {
    const r = compareOps(withOps(100_000), withOps(null));
    expect(r.rows).toEqual([]);
    expect(r.uncounted).toHaveLength(1);
    expect(opsExitCode(r)).toBe(3);
    expect(opsTable(r)).toContain('1 case(s) in both without a count');
  });

  it('says why a case has no count: JavaScript, WebAssembly the library loads itself (libsodium.js), or a module not counted', () => {
    const doc = (implementation: string) => ({ cases: [{ ...withOps(null).cases[0]!, implementation: implementation as never }] });
    expect(uncountedWhy({ implementation: 'noble' })).toBe('javascript');
    expect(uncountedWhy({ implementation: 'libsodium' })).toBe('own-wasm');
    expect(uncountedWhy({ implementation: 'my-wasm' as never }, [{ id: 'my-wasm', code: 'webassembly' } as never])).toBe('not-counted');
    const r = compareOps(doc('libsodium'), doc('libsodium'));
    expect(opsTable(r)).toContain('not compared: 1 WebAssembly the library loads itself, which the counting pass does not rewrite');
    expect(opsTable(r)).not.toMatch(/JavaScript, or a run without counts/);
  });
});
