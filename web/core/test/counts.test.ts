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

describe('the counting pass with modules of yours', () => {
  const MODULES = ['sodium-chacha', 'sodium-chacha-more', 'good-gcm'].map((m) => new URL(`./modules/${m}.mjs`, import.meta.url).pathname);
  const mod = (implementation: string, algorithm: AlgorithmId, sizeBytes: number): PlannedCase => {
    const c = { implementation: implementation as never, variant: 'custom', algorithm, operation: 'encrypt' as const, sizeBytes, aadBytes: 0 };
    return { ...c, key: caseKey(c) };
  };
  const IDS = ['test-sodium-chacha', 'test-sodium-chacha-more', 'test-good-gcm'];
  /** One worker's counting pass, counting the same cases twice. (A module is imported once per worker: a second api in this process would find it loaded, uncounted.) */
  async function countModules(cases: PlannedCase[]) {
    const api = createApi(nodePlatform, () => {});
    const info = await api.init({ ...presetParams('quick'), algorithms: ['chacha20-poly1305', 'aes-128-gcm'], implementations: IDS as never }, MODULES, {
      count: true,
    });
    expect(info.moduleErrors).toEqual([]);
    return [await api.count(cases), await api.count(cases)] as const;
  }
  const sodium = [1024, 8192].map((n) => mod('test-sodium-chacha', 'chacha20-poly1305', n));
  const more = [1024, 8192].map((n) => mod('test-sodium-chacha-more', 'chacha20-poly1305', n));
  const js = mod('test-good-gcm', 'aes-128-gcm', 1024);

  it('counts the WebAssembly a module instantiates: exact, twice alike; one more ChaCha20 block a message is the same number of operations more at every size; a JavaScript module says it has nothing to count; a run through the package counts the same in its own worker and says which module is which', async () => {
    const [r1, r2] = await countModules([...sodium, ...more, js]);
    expect(r2).toEqual(r1);
    const per = (c: PlannedCase) => (r1[c.key] as { perMessage: number }).perMessage;
    for (const c of [...sodium, ...more]) expect(r1[c.key], c.key).toMatchObject({ perMessage: expect.any(Number), perCall: expect.any(Number) });
    const extra = per(more[0]!) - per(sodium[0]!);
    expect(extra).toBeGreaterThan(0);
    expect(per(more[1]!) - per(sodium[1]!)).toBe(extra);
    // About 1 % of the work at 8 KiB: what the 10-of-10 criterion of bench:counts rests on.
    expect(extra / per(sodium[1]!)).toBeGreaterThan(0.005);
    expect(extra / per(sodium[1]!)).toBeLessThan(0.02);
    expect(r1[js.key]).toEqual({ none: 'JavaScript (it executed no WebAssembly)' });
    console.log(`libsodium.js ChaCha20-Poly1305 ${JSON.stringify(r1[sodium[1]!.key])}; one more block: +${extra} operations a message`);
    // The package's run: its counting pass in a worker thread of its own.
    const { runBenchmark } = await import('../node.ts');
    const doc = await runBenchmark({
      ...presetParams('quick'),
      algorithms: ['chacha20-poly1305', 'aes-128-gcm'],
      sizes: [1024, 8192],
      operations: ['encrypt'],
      implementations: MODULES,
      rounds: 1,
      maxReruns: 0,
      budgetMs: 1000,
      overtimeMs: 0,
    });
    expect(Object.fromEntries((doc.modules ?? []).map((m) => [m.id, m.code]))).toEqual({
      'test-sodium-chacha': 'webassembly',
      'test-sodium-chacha-more': 'webassembly',
      'test-good-gcm': 'javascript',
    });
    for (const c of [...sodium, ...more]) expect(doc.cases.find((x) => caseKey(x) === c.key)?.ops?.perMessage, c.key).toBe(per(c));
    expect(doc.cases.filter((x) => x.implementation === 'test-good-gcm').every((x) => x.ops === undefined)).toBe(true);
    expect(doc.warnings).toContain('module test-good-gcm: no count: JavaScript (it executed no WebAssembly)');
  }, 120_000);
});
