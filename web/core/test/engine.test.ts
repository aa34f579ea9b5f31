// The engine's worker logic in Node (no browser): every backend available here validated
// against the vectors and cross-checked, and the timing core on a fake clock.
import { describe, expect, it } from 'vitest';
import { noble } from '../backends/noble.ts';
import { rustcryptoWasm } from '../backends/rustcrypto-wasm.ts';
import { webcrypto } from '../backends/webcrypto.ts';
import type { Backend } from '../backends/types.ts';
import { calibrate, measureCase, measureInterleaved, timerResolutionMs } from '../measure.ts';
import { pairedRatio } from '../stats.ts';
import { validateBackends } from '../validate.ts';
import { ALGORITHM_IDS } from '../algorithms.ts';
import { loadCores, loadVectors } from './load-cores.ts';

describe('cross-validation in Node', () => {
  it('every implementation passes its vectors and all agree byte for byte', async () => {
    const backends: Backend[] = [
      await rustcryptoWasm('simd128', loadCores),
      await rustcryptoWasm('baseline', loadCores),
      await webcrypto('sequential'),
      noble(),
    ];
    const webAlgs = backends[2]!.algorithms;
    expect(webAlgs).toEqual(expect.arrayContaining(['aes-128-gcm', 'aes-256-gcm', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256']));
    const results = await validateBackends(backends, ALGORITHM_IDS, loadVectors());
    const bad = results.filter((r) => r.excluded);
    expect(bad).toEqual([]);
    const gcm = results.filter((r) => r.algorithm === 'aes-128-gcm');
    expect(gcm.map((r) => r.implementation).sort()).toEqual(['noble', 'rustcrypto-wasm', 'rustcrypto-wasm', 'webcrypto']);
    const gcmVectors = loadVectors().filter((v) => v.algorithm === 'aes-128-gcm').length;
    expect(gcmVectors).toBeGreaterThan(50);
    for (const r of gcm) {
      expect(r.vectorsPassed).toBe(gcmVectors);
      expect(r.crossCheck).toBe('agree');
    }
    // Ascon exists only in the cores (two variants), which still cross-check each other.
    expect(results.filter((r) => r.algorithm === 'ascon-aead128').every((r) => r.crossCheck === 'agree')).toBe(true);
  });

  it('excludes an implementation whose output differs from its peers', async () => {
    const good = noble();
    const broken: Backend = {
      ...good,
      variant: 'broken',
      async encrypt(alg, key, nonce, aad, pt) {
        const out = await good.encrypt(alg, key, nonce, aad, pt);
        out[0]! ^= 1;
        return out;
      },
    };
    const results = await validateBackends([await rustcryptoWasm('baseline', loadCores), good, broken], ['chacha20-poly1305'], loadVectors());
    const row = results.find((r) => r.variant === 'broken')!;
    expect(row.excluded).toBe(true);
    expect(row.vectorsFailed).toBeGreaterThan(0);
    expect(results.find((r) => r.implementation === 'noble' && r.variant === 'js')!.excluded).toBe(false);
  });

  it('forged decryption is rejected on every iteration by every backend', async () => {
    for (const b of [await rustcryptoWasm('baseline', loadCores), await webcrypto('pipelined'), noble()]) {
      const p = await b.prepare({ algorithm: 'aes-128-gcm', operation: 'forged-decrypt', sizeBytes: 64, aadBytes: 0 });
      await p.run(20); // would throw if any forged open succeeded
      p.dispose();
    }
  });
});

describe('timing core', () => {
  /** A fake clock where each operation costs `cost` ms. */
  function fake(cost: number) {
    let t = 0;
    return {
      now: () => t,
      prepared: { run: (n: number) => void (t += n * cost), stateBytes: null, dispose() {} },
    };
  }

  it('calibrates a batch to the sample target', async () => {
    const f = fake(0.001); // 1 µs per op
    expect(await calibrate(f.prepared, 2, f.now)).toBe(2000);
  });

  it('every sample lasts at least 100× the timer resolution', async () => {
    const f = fake(0.0001);
    const m = await measureCase(f.prepared, { samples: 5, minSampleMs: 0.1, timerResolutionMs: 0.02, now: f.now });
    expect(m.iterations * 0.0001).toBeGreaterThanOrEqual(2 - 1e-9); // 100 × 20 µs
    expect(m.samples).toHaveLength(5);
    for (const s of m.samples) expect(s).toBeCloseTo(100, 6); // 0.1 µs = 100 ns per op
  });

  it('discards samples taken while the page was hidden', async () => {
    const f = fake(0.001);
    let hiddenChecks = 0;
    const m = await measureCase(f.prepared, {
      samples: 3,
      minSampleMs: 1,
      timerResolutionMs: 0.005,
      now: f.now,
      wasHidden: () => hiddenChecks++ < 2,
    });
    expect(m.interruptions).toBe(2);
    expect(m.samples).toHaveLength(3);
  });

  it("samples compared cases interleaved in rotated order, and their paired ratio cancels the machine's swings", async () => {
    // One clock. Once sampling starts (the first yield), the machine's speed changes every
    // cycle of three samples: every case of a cycle sees the same speed.
    let t = 0;
    let sampling = false;
    let taken = 0;
    const order: string[] = [];
    const SPEED = [1, 1.9, 1.2, 2, 1.1];
    const mk = (name: string, cost: number) => ({
      run: (n: number) => {
        if (!sampling) return void (t += n * cost);
        t += n * cost * SPEED[Math.floor(taken / 3) % SPEED.length]!;
        taken++;
        order.push(name);
      },
      stateBytes: null,
      dispose() {},
    });
    const m = await measureInterleaved([mk('A', 0.003), mk('B', 0.002), mk('C', 0.001)], {
      samples: 5,
      minSampleMs: 1,
      timerResolutionMs: 0.005,
      now: () => t,
      firstCycle: 40,
      yieldNow: async () => void (sampling = true),
    });
    expect(order.slice(0, 9)).toEqual(['A', 'B', 'C', 'B', 'C', 'A', 'C', 'A', 'B']);
    for (const x of m) expect(x.cycles).toEqual([40, 41, 42, 43, 44]);
    // A's samples swing 2x with the machine; its ratio to B does not move.
    expect(Math.max(...m[0]!.samples) / Math.min(...m[0]!.samples)).toBeGreaterThan(1.5);
    expect(pairedRatio(m[0]!, m[1]!)!.ratio).toBeCloseTo(1.5, 6);
    expect(pairedRatio(m[0]!, m[2]!)!.ratio).toBeCloseTo(3, 6);
  });

  it('measures the timer resolution from a coarse clock', () => {
    let calls = 0;
    const coarse = () => Math.floor(calls++ / 10) * 0.1; // steps of 100 µs
    expect(timerResolutionMs(coarse)).toBeCloseTo(0.1, 9);
  });
});
