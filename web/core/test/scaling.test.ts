// Multi-core scaling in Node worker threads: one point per worker count, efficiency from 1.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runScaling } from '../node.ts';

describe('multi-core scaling', () => {
  it('measures the same case on 1 … N workers at once', async () => {
    const n = Math.min(2, availableParallelism());
    const points = await runScaling(
      { algorithm: 'ascon-aead128', implementation: 'rustcrypto-wasm', operation: 'encrypt', sizeBytes: 4096 },
      { maxWorkers: n, samples: 3 },
    );
    console.log(
      'scaling:',
      points.map((p) => `${p.workers} worker(s): ${(p.aggregateBytesPerSecond / 1e6).toFixed(0)} MB/s, efficiency ${p.efficiency.toFixed(2)}`).join('; '),
    );
    expect(points.map((p) => p.workers)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(points[0]!.efficiency).toBe(1);
    for (const p of points) {
      expect(p.perWorkerBytesPerSecond).toHaveLength(p.workers);
      expect(p.aggregateBytesPerSecond).toBeCloseTo(
        p.perWorkerBytesPerSecond.reduce((a, b) => a + b, 0),
        0,
      );
      // Efficiency is aggregate(k) / (k × aggregate(1)), exactly. (How close to 1 it comes is a
      // measurement, reported by the page and the notes, not something a test on a shared
      // machine can bound: another test file slowing the 1-worker point inflates it.)
      expect(p.efficiency).toBeCloseTo(p.aggregateBytesPerSecond / (p.workers * points[0]!.aggregateBytesPerSecond), 12);
      expect(p.efficiency).toBeGreaterThan(0);
    }
  }, 120_000);
});
