// A well-formed result document for tests of the schema, compare and the collector.
import type { EngineName } from '../platform/env.ts';
import { SCHEMA_VERSION } from '../schema.ts';
import { presetParams } from '../params.ts';
import { toCaseResult } from '../run/document.ts';
import { KiB, MiB } from '../tables/algorithms.ts';
import type { CaseResult } from '../schema.ts';
import { CYCLES_PER_ROUND } from '../stats.ts';

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

export const SYNTHETIC_SIZES = [64, KiB, 16 * KiB, MiB];
export type Model = {
  impl: CaseResult['implementation'];
  variant: string;
  alg: CaseResult['algorithm'];
  fixedNs: number;
  perByteNs: number;
  /** Times this at a size: a line bent by caches, as real cases are at 1 MiB. */
  bend?: Readonly<Record<number, number>>;
};

/** Cases whose time is fixed + size × per-byte, sampled in shared cycles, with ±`jitter` noise. */
export function syntheticRun(
  models: Model[],
  o: { jitter?: number; independent?: boolean; workers?: number; sizes?: readonly number[]; seed?: number } = {},
): { cases: CaseResult[] } {
  const jitter = o.jitter ?? 0.01;
  const workers = o.workers ?? 1;
  let seed = o.seed ?? 7;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const cases: CaseResult[] = [];
  for (const size of o.sizes ?? SYNTHETIC_SIZES) {
    // One machine-wide swing per cycle, shared by the cases of a size (what pairing cancels);
    // 12 cycles in each worker (a round), whose cycle ids name it.
    const swing = Array.from({ length: 12 * workers }, () => 1 + 0.3 * Math.abs(rand()));
    const cycles = swing.map((_, i) => Math.floor(i / 12) * CYCLES_PER_ROUND + size * 100 + (i % 12));
    for (const m of models) {
      const t = (m.fixedNs + size * m.perByteNs) * (m.bend?.[size] ?? 1);
      const samples = swing.map((s) => t * (o.independent ? 1 + jitter * rand() * 3 : s * (1 + jitter * rand())));
      const c = { key: 'k', implementation: m.impl, variant: m.variant, algorithm: m.alg, operation: 'encrypt' as const, sizeBytes: size, aadBytes: 0 };
      cases.push(toCaseResult(c, { key: 'k', samples, cycles, iterations: 10, interruptions: 0, stateBytes: null, reruns: 0 }, { cvThreshold: 0.035 }));
    }
  }
  return { cases };
}
