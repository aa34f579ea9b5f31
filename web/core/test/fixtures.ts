// A well-formed result document for tests of the schema, compare and the collector.
import type { EngineName } from '../platform/env.ts';
import { SCHEMA_VERSION } from '../schema.ts';
import { presetParams } from '../params.ts';
import { toCaseResult } from '../run/document.ts';

/** A fresh, valid document with one case (mutate freely). */
export function sampleDocument() {
  const c = toCaseResult(
    { key: 'k', implementation: 'rustcrypto-wasm', variant: 'simd128', algorithm: 'aes-128-gcm', operation: 'encrypt', sizeBytes: 1024, aadBytes: 0 },
    { key: 'k', samples: [1000, 1010, 990, 1005, 995], iterations: 500, interruptions: 0, stateBytes: 1024, reruns: 0 },
    { cvThreshold: 0.035 },
  );
  return {
    schema: SCHEMA_VERSION,
    runId: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
    createdAt: '2026-11-22T06:00:00.000Z',
    durationMs: 1234,
    status: 'complete',
    params: presetParams('quick'),
    environment: {
      userAgent: 'test',
      browser: { name: 'Chrome', version: '156.0' },
      engine: { name: 'Blink', version: '156' } as { name: EngineName; version: string } | undefined,
      os: { name: 'Linux', version: '' },
      arch: 'x86-64',
      platform: 'Linux',
      hardwareConcurrency: 2,
      deviceMemoryGiB: 16,
      crossOriginIsolated: true,
      timerResolutionMs: 0.005,
      wasm: { simd128: true, relaxedSimd: true, threads: true },
      engineVersion: '0.1.0',
      cores: { crates: { 'aes-gcm': '0.11.1' }, wasmBindgen: '0.2.130', backends: { aes: 'soft-fixslice64' } },
      runtime: 'browser',
    },
    validation: [
      {
        implementation: 'rustcrypto-wasm',
        variant: 'simd128',
        algorithm: 'aes-128-gcm',
        vectorsPassed: 137,
        vectorsFailed: 0,
        crossCheck: 'agree',
        excluded: false,
        errors: [],
      },
    ],
    cases: [c],
    skipped: [],
    warnings: [],
  };
}
