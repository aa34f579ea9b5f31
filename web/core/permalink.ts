/**
 * A submitted result as its permalink serves it (the collector's GET /api/v1/results/{id}),
 * turned back into a document the results view can draw, read-only. Only what was stored comes
 * back — the coarse environment and every case's raw samples — so the summaries are recomputed
 * from the samples; what was never kept (sampling cycles, validation, the user agent) is absent.
 * @module
 */
import {
  ALGORITHM_IDS,
  type AlgorithmId,
  IMPLEMENTATION_IDS,
  type ImplementationId,
  OPERATIONS,
  type Operation,
  PRESET_IDS,
  type PresetId,
} from './tables/algorithms.ts';
import { presetParams } from './params.ts';
import { toCaseResult } from './run/document.ts';
import { type CaseResult, type ResultDocument, SCHEMA_VERSION, caseKey } from './schema.ts';

/** The collector's answer (collector/store.ts StoredResult). */
export interface StoredResult {
  id: string;
  receivedOn: string;
  deviceClass: string;
  deviceModel: string | null;
  browser: string;
  browserMajor: number | null;
  engine: string;
  os: string;
  osMajor: number | null;
  arch: string;
  cores: number;
  /** GiB: 2, 4, 8, 16 or 32 (or more). */
  memoryBucket: number | null;
  runtime: string;
  /** The execution mode (execution.ts); absent from collectors older than migration 006. */
  execution?: string;
  isolated: boolean;
  timerUs: number;
  preset: string;
  scenario: string | null;
  quarantined: boolean;
  cases: {
    algorithm: string;
    implementation: string;
    variant: string;
    operation: string;
    sizeBytes: number;
    aadBytes: number;
    samples: number[];
    outlier: boolean;
  }[];
}

const known = <T extends string>(list: readonly T[], x: string, what: string): T => {
  if (!(list as readonly string[]).includes(x)) throw new Error(`the stored result names an unknown ${what} '${x}'`);
  return x as T;
};

export function fromStored(s: StoredResult): ResultDocument {
  const preset: PresetId = (PRESET_IDS as readonly string[]).includes(s.preset) ? (s.preset as PresetId) : 'quick';
  const params = presetParams(preset);
  const cases: CaseResult[] = s.cases.map((c) =>
    toCaseResult(
      {
        key: caseKey(c),
        algorithm: known<AlgorithmId>(ALGORITHM_IDS, c.algorithm, 'algorithm'),
        implementation: known<ImplementationId>(IMPLEMENTATION_IDS, c.implementation, 'implementation'),
        variant: c.variant,
        operation: known<Operation>(OPERATIONS, c.operation, 'operation'),
        sizeBytes: c.sizeBytes,
        aadBytes: c.aadBytes,
      },
      // Iterations per sample were not kept: the summaries need only the samples.
      { key: '', samples: c.samples, iterations: 1, interruptions: 0, stateBytes: null, reruns: 0 },
      params,
    ),
  );
  return {
    schema: SCHEMA_VERSION,
    runId: s.id,
    createdAt: `${s.receivedOn}T00:00:00.000Z`,
    durationMs: 0,
    status: 'complete',
    params,
    environment: {
      userAgent: '',
      browser: { name: s.browser, version: s.browserMajor === null ? '' : String(s.browserMajor) },
      engine: { name: s.engine as NonNullable<ResultDocument['environment']['engine']>['name'], version: '' },
      os: { name: s.os, version: s.osMajor === null ? '' : String(s.osMajor) },
      arch: s.arch,
      platform: '',
      hardwareConcurrency: s.cores,
      deviceMemoryGiB: s.memoryBucket,
      crossOriginIsolated: s.isolated,
      timerResolutionMs: Math.max(s.timerUs, 1) / 1000,
      // What the browser supported was not kept; the builds its cases ran on were.
      wasm: {
        simd128: cases.some((c) => c.variant === 'simd128' || c.variant === 'relaxed-simd'),
        relaxedSimd: cases.some((c) => c.variant === 'relaxed-simd'),
        threads: false,
      },
      engineVersion: '',
      cores: { crates: {}, wasmBindgen: '', backends: {} },
      runtime: s.runtime === 'node' ? 'node' : 'browser',
    },
    validation: [],
    cases,
    skipped: [],
    warnings: [
      `A ${s.deviceClass}${s.deviceModel ? ` (${s.deviceModel})` : ''} result received on ${s.receivedOn}, read from the collector: only what was submitted is kept, so the summaries are recomputed from the raw samples, and there is no validation report or sampling cycles.${s.quarantined ? ' An operator has quarantined it: it is left out of the crowd statistics.' : ''}${s.execution && s.execution !== 'standard' ? ` It ran in the execution mode '${s.execution}' (execution.ts), a population of its own outside the crowd's medians.` : ''}`,
    ],
  };
}
