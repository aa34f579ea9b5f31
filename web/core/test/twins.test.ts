// The same code reads the same wherever it runs: each built-in whose calls a module can make,
// timed beside its twin (modules/twin-*.mjs, the built-in's own calls under another id) in one
// run through the package, as an embedder compares their code with a built-in. By default the
// two share one measuring condition (docs/decisions/002-one-condition.md); a twin in a thread of
// its own read node:crypto 1.5× and 0.69× at 1 MiB. The figures are bench:twins'; this holds
// the mechanism to an effect far larger than a busy host's noise: never DIFFERENT at ±25 %.
import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../node.ts';
import { ratioOf } from '../report/ratio.ts';
import { decide } from '../decision.ts';

const twin = (name: string) => new URL(`./modules/twin-${name}.mjs`, import.meta.url).pathname;

describe('twins', () => {
  it('a module making exactly a built-in’s calls reads the same as that built-in, in the same run, at small and large sizes', async () => {
    const sizes = [1024, 1 << 20];
    const doc = await runBenchmark({
      preset: 'quick',
      algorithms: ['aes-128-gcm'],
      sizes,
      operations: ['encrypt'],
      implementations: ['node-crypto', 'noble', twin('node-crypto'), twin('noble')],
      budgetMs: 6000,
      overtimeMs: 0,
      counts: false,
    });
    expect(doc.warnings.filter((w) => /thread/.test(w))).toEqual([]);
    for (const [builtIn, copy] of [
      ['node-crypto', 'twin-node-crypto'],
      ['noble', 'twin-noble'],
    ] as const)
      for (const size of sizes) {
        const at = (impl: string) => doc.cases.find((c) => c.implementation === impl && c.sizeBytes === size)!;
        const r = ratioOf(at(builtIn), at(copy));
        console.log(`twins: ${copy} over ${builtIn} at ${size} B: ${r.value.toFixed(3)} [${r.low.toFixed(3)}–${r.high.toFixed(3)}]`);
        expect(decide(r, 0.25), `${copy} at ${size} B: ${r.value.toFixed(3)} [${r.low.toFixed(3)}–${r.high.toFixed(3)}]`).not.toBe('different');
      }
  }, 120_000);
});
