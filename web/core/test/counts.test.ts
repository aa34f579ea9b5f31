// The counting pass: every executed WebAssembly operation of the cores counted (wasm/counter),
// exact and repeatable, apart from the timed workers.
import { describe, expect, it } from 'vitest';
import { createApi } from '../worker/api.ts';
import { nodePlatform } from '../worker/platform-node.ts';
import { presetParams } from '../params.ts';
import { caseKey } from '../schema.ts';
import type { PlannedCase } from '../worker/types.ts';
import type { AlgorithmId } from '../tables/algorithms.ts';

const plan = (variant: string, algorithm: AlgorithmId, sizeBytes: number): PlannedCase => {
  const c = { implementation: 'rustcrypto-wasm' as const, variant, algorithm, operation: 'encrypt' as const, sizeBytes, aadBytes: 0 };
  return { ...c, key: caseKey(c) };
};

async function countsOf(cases: PlannedCase[], count = true) {
  const api = createApi(nodePlatform, () => {});
  const algorithms = [...new Set(cases.map((c) => c.algorithm))];
  await api.init({ ...presetParams('quick'), wasm: 'both', algorithms, implementations: ['rustcrypto-wasm'] }, [], { count });
  return api.count(cases);
}

describe('the counting pass', () => {
  const cases = [
    plan('simd128', 'chacha20-poly1305', 1024),
    plan('baseline', 'chacha20-poly1305', 1024),
    plan('simd128', 'aes-128-gcm', 1024),
    plan('simd128', 'aes-128-gcm', 4096),
  ];

  it('counts operations per message exactly: the same in three fresh workers', async () => {
    const runs = [await countsOf(cases), await countsOf(cases), await countsOf(cases)];
    for (const c of cases) {
      const first = runs[0]![c.key]!;
      expect(first, c.key).toMatchObject({ perMessage: expect.any(Number), perCall: expect.any(Number) });
      for (const r of runs) expect(r[c.key]).toEqual(first);
    }
    console.log(cases.map((c) => `${c.key}: ${JSON.stringify(runs[0]![c.key])}`).join('\n'));
  });

  it('tells builds and sizes apart: simd128 does less work than baseline for ChaCha20-Poly1305, and four times the message is about four times the work', async () => {
    const r = await countsOf(cases);
    const per = (c: PlannedCase) => (r[c.key] as { perMessage: number }).perMessage;
    expect(per(cases[0]!)).toBeLessThan(per(cases[1]!));
    const ratio = per(cases[3]!) / per(cases[2]!);
    expect(ratio).toBeGreaterThan(3.5);
    expect(ratio).toBeLessThan(4.1);
  });

  it('a worker not made to count gives no count (timed workers run the cores as built)', async () => {
    expect(await countsOf(cases, false)).toEqual({});
  });
});
