// A permalink's stored result becomes a document the results view draws, and only that.
import { describe, expect, it } from 'vitest';
import { type StoredResult, fromStored } from '../permalink.ts';
import { validateResult } from '../schema.ts';

const stored = (): StoredResult => ({
  id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  receivedOn: '2026-11-23',
  deviceClass: 'phone',
  deviceModel: 'Pixel 8',
  browser: 'Chrome',
  browserMajor: 156,
  engine: 'Blink',
  os: 'Android',
  osMajor: 15,
  arch: 'arm64',
  cores: 8,
  memoryBucket: 8,
  runtime: 'browser',
  isolated: true,
  timerUs: 5,
  preset: 'quick',
  scenario: null,
  quarantined: false,
  cases: [
    {
      algorithm: 'aes-128-gcm',
      implementation: 'rustcrypto-wasm',
      variant: 'simd128',
      operation: 'encrypt',
      sizeBytes: 1024,
      aadBytes: 0,
      samples: [1000, 1010, 990, 1005, 995],
      outlier: false,
    },
  ],
});

describe('fromStored', () => {
  it('gives a valid document whose summaries come from the stored samples', () => {
    const doc = fromStored(stored());
    expect(validateResult(doc).ok).toBe(true);
    expect(doc.cases[0]!.summary.median).toBe(1000);
    expect(doc.cases[0]!.bytesPerSecond).toBeCloseTo(1.024e9, -6);
    expect(doc.environment).toMatchObject({
      browser: { name: 'Chrome', version: '156' },
      os: { name: 'Android', version: '15' },
      hardwareConcurrency: 8,
      deviceMemoryGiB: 8,
    });
    expect(doc.warnings[0]).toContain('A phone (Pixel 8) result received on 2026-11-23');
  });

  it('says the run used simd128 when its WASM cases ran on that build (the browser features were not kept)', () => {
    expect(fromStored(stored()).environment.wasm.simd128).toBe(true);
    const baseline = stored();
    baseline.cases[0]!.variant = 'baseline';
    expect(fromStored(baseline).environment.wasm.simd128).toBe(false);
  });

  it('says when an operator quarantined it, and refuses an id it does not know', () => {
    expect(fromStored({ ...stored(), quarantined: true }).warnings[0]).toContain('quarantined');
    const bad = stored();
    bad.cases[0]!.algorithm = 'aes-512-gcm';
    expect(() => fromStored(bad)).toThrow("unknown algorithm 'aes-512-gcm'");
  });
});
