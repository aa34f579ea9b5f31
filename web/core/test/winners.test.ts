// The picture of who wins at each size (report/winners.ts): one entry per size, its leader, and
// how it stands against the next by the verdict's rule.
import { describe, expect, it } from 'vitest';
import { winnersBySize } from '../report/winners.ts';
import { sampleDocument } from './fixtures.ts';

const base = sampleDocument().cases[0]!;
/** A case whose samples take `ns` each, taken in the same cycles as every other (paired). */
const at = (implementation: 'rustcrypto-wasm' | 'webcrypto', variant: string, sizeBytes: number, ns: number) => {
  const samples = Array.from({ length: 9 }, (_, i) => ns * (1 + ((i % 3) - 1) * 0.002));
  return {
    ...base,
    implementation,
    variant,
    sizeBytes,
    samples,
    cycles: samples.map((_, i) => i),
    summary: { ...base.summary, median: ns, ciLow: ns * 0.998, ciHigh: ns * 1.002 },
    bytesPerSecond: (sizeBytes * 1e9) / ns,
  };
};

describe('who wins at each size', () => {
  it('names the leader per size: ahead when the runner-up is beyond the margin; half a per cent apart in one worker, not told apart', () => {
    const w = winnersBySize([
      at('rustcrypto-wasm', 'simd128', 64, 500),
      at('webcrypto', 'sequential', 64, 2000),
      at('rustcrypto-wasm', 'simd128', 1048576, 10_000_000),
      at('webcrypto', 'sequential', 1048576, 10_050_000),
    ] as never);
    expect(w.map((x) => x.sizeBytes)).toEqual([64, 1048576]);
    expect(w[0]).toMatchObject({ implementation: 'rustcrypto-wasm', standing: 'ahead' });
    expect(w[0]!.leader).toContain('RustCrypto');
    // One worker's samples cannot show a tie: the spread between workers widens the interval past ±5 %.
    expect(w[1]).toMatchObject({ standing: 'open' });
    expect(w[1]!.ratio!.low).toBeLessThan(1);
    expect(w[1]!.ratio!.high).toBeGreaterThan(1);
    expect(w[1]!.runnerUp).toContain('Web Crypto');
  });

  it('a pipelined Web Crypto case is read beside, never as a winner (only contenders)', () => {
    const w = winnersBySize([at('rustcrypto-wasm', 'simd128', 64, 500), at('webcrypto', 'pipelined', 64, 100)] as never);
    expect(w[0]).toMatchObject({ implementation: 'rustcrypto-wasm', standing: 'alone' });
  });
});
