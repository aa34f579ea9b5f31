// Code size per algorithm (scripts/code-size.mjs, run by build-wasm) and the footprint rows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../tables/algorithms.ts';
import { footprint } from '../report/footprint.ts';
import codeSize from '../wasm/code-size.js';

describe('code size per algorithm', () => {
  it('measures every algorithm of the table, each alone: far below the whole module', () => {
    expect(Object.keys(codeSize.algorithms)).toEqual([...ALGORITHM_IDS]);
    const whole = readFileSync(new URL('../wasm/simd128/cores_bg.wasm', import.meta.url)).length;
    for (const [id, m] of Object.entries(codeSize.algorithms)) {
      expect(m.wasmBytes, id).toBeGreaterThan(1000);
      // Had the probe kept the cores' whole dispatch alive, every algorithm would weigh about
      // the whole module.
      expect(m.wasmBytes, id).toBeLessThan(whole / 2);
      expect(m.gzipBytes, id).toBeLessThan(m.wasmBytes);
    }
    // The same code under another key length weighs the same, within a few per cent.
    const [a, b] = [codeSize.algorithms['aes-128-gcm']!.wasmBytes, codeSize.algorithms['aes-256-gcm']!.wasmBytes];
    expect(Math.abs(a - b) / a).toBeLessThan(0.05);
  });

  it('gives one row per algorithm of a run with its WASM state size', () => {
    const cases = [
      { algorithm: 'chacha20-poly1305', implementation: 'noble', stateBytes: null },
      { algorithm: 'chacha20-poly1305', implementation: 'rustcrypto-wasm', stateBytes: 32 },
      { algorithm: 'aes-128-gcm', implementation: 'webcrypto', stateBytes: null },
    ] as Parameters<typeof footprint>[0]['cases'];
    expect(footprint({ cases }, codeSize)).toEqual([
      {
        algorithm: 'aes-128-gcm',
        stateBytes: null,
        codeBytes: codeSize.algorithms['aes-128-gcm']!.wasmBytes,
        codeGzipBytes: codeSize.algorithms['aes-128-gcm']!.gzipBytes,
      },
      {
        algorithm: 'chacha20-poly1305',
        stateBytes: 32,
        codeBytes: codeSize.algorithms['chacha20-poly1305']!.wasmBytes,
        codeGzipBytes: codeSize.algorithms['chacha20-poly1305']!.gzipBytes,
      },
    ]);
  });
});
