import { describe, expect, it } from 'vitest';
import { plainLoop } from './plain-loop.mjs';

describe("bench:modules' plain loop taking turns (plain-loop.mjs)", () => {
  it('runs each case through its own instance of plain-batch.mjs, and no two cases through the same', async () => {
    /** Per case (algorithm and size), the instances of plain-batch.mjs its calls came through, from the stack. */
    const callers = new Map<string, Set<string>>();
    const impl = {
      id: 'traced',
      label: 'traced',
      algorithms: ['aes-128-gcm', 'chacha20-poly1305'] as const,
      decrypt: (_a: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, sealed: Uint8Array) => sealed.subarray(0, sealed.length - 16),
      encrypt: (alg: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, pt: Uint8Array) => {
        const via = /plain-batch\.mjs\?case=\d+/.exec(new Error().stack ?? '')?.[0] ?? 'no batch loop of its own';
        const key = `${alg}|${pt.length}`;
        callers.set(key, (callers.get(key) ?? new Set()).add(via));
        return new Uint8Array(pt.length + 16);
      },
    };
    const subjects = ['aes-128-gcm', 'chacha20-poly1305'].map((algorithm) => ({ name: 'traced', module: 'traced.mjs', algorithm }));
    const figures = await plainLoop({ subjects, sizes: [64, 1024], ms: 6, reps: 1, interleaveMs: 1 }, async () => impl);
    expect(Object.keys(figures.bytesPerSecond)).toHaveLength(4);
    expect([...callers.keys()].sort()).toEqual(['aes-128-gcm|1024', 'aes-128-gcm|64', 'chacha20-poly1305|1024', 'chacha20-poly1305|64']);
    const instances = [...callers.values()].map((s) => [...s]);
    for (const via of instances) expect(via).toEqual([expect.stringMatching(/^plain-batch\.mjs\?case=\d+$/)]);
    expect(new Set(instances.map((v) => v[0])).size).toBe(4);
  });
});
