import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, validateResult } from '../schema.ts';
import { presetParams } from '../params.ts';
import { toCaseResult } from '../runner.ts';

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
    validation: [{ implementation: 'rustcrypto-wasm', variant: 'simd128', algorithm: 'aes-128-gcm', vectorsPassed: 137, vectorsFailed: 0, crossCheck: 'agree', excluded: false, errors: [] }],
    cases: [c],
    skipped: [],
    warnings: [],
  };
}

describe('result document schema', () => {
  it('accepts a well-formed document', () => {
    const r = validateResult(sampleDocument());
    expect(r.ok).toBe(true);
  });

  it('derives the case summary from raw samples', () => {
    const c = sampleDocument().cases[0]!;
    expect(c.summary.median).toBe(1000);
    expect(c.bytesPerSecond).toBeCloseTo(1.024e9, 0);
    expect(c.overheadBytes).toBe(28);
  });

  it.each([
    ['a wrong schema version', (d: any) => (d.schema = 'aeadbench/result@0'), 'schema'],
    ['an unknown algorithm', (d: any) => (d.cases[0].algorithm = 'rot13'), 'cases.0.algorithm'],
    ['a negative sample', (d: any) => (d.cases[0].samples[0] = -1), 'cases.0.samples.0'],
    ['a missing environment', (d: any) => delete d.environment, 'environment'],
    ['a size above 64 MiB', (d: any) => (d.cases[0].sizeBytes = 2 ** 30), 'cases.0.sizeBytes'],
    ['a run id that is not a UUID', (d: any) => (d.runId = 'x'), 'runId'],
  ])('rejects %s and names the path', (_, mutate, path) => {
    const d = sampleDocument();
    mutate(d);
    const r = validateResult(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.join('\n')).toContain(path);
  });
});
