/**
 * The result document from a run's samples: each case's record (its statistics taken on
 * levelled samples, its flag only when unresolved), the A/A check, and the run's facts. What
 * leaves a run leaves through here, in the schema (schema.ts).
 * @module
 */
import { overheadBytes } from '../tables/algorithms.ts';
import { decide } from '../decision.ts';
import { slowCycles, slowSampleShare } from './interference.ts';
import type { ModuleInfo } from '../implementations/custom.ts';
import { type CaseResult, type Environment, type ResultDocument, type RunParams, SCHEMA_VERSION, type Validation, caseIdentity } from '../schema.ts';
import { cycleLevels, derived, detectModes, levelled, mean, pairedRatio, summarize, unstableReasons } from '../stats.ts';
import { caseResolved } from './stop-rule.ts';
import { type InterferenceRecord, type MeasuredCase, type PlannedCase, caseKey } from '../worker/api.ts';
import type { CaseSamples } from './samples.ts';
import type { CaseCount } from '../worker/types.ts';

/**
 * A case's record. Its statistics are of its samples with each cycle's level divided out
 * (stats.ts cycleLevels: what slowed every case of a cycle alike is the device, not the code);
 * the samples are kept as measured, and the caller's throughput is their own total.
 */
export function toCaseResult(
  c: PlannedCase,
  m: MeasuredCase & { reruns: number },
  params: Pick<RunParams, 'cvThreshold'>,
  timerResolutionMs?: number,
  slow?: Set<number>,
  levels: ReadonlyMap<number, number> = new Map(),
): CaseResult {
  const steady = levelled(m, levels);
  const summary = summarize(steady);
  const d = derived(summary.median, c.sizeBytes);
  const slowShare = slow ? slowSampleShare(m, slow) : 0;
  // Flagged only when unresolved (stop-rule.ts); the other reasons say what kept it so.
  const unresolved = !caseResolved({ summary });
  const reasons = unresolved
    ? ([
        'unresolved',
        ...unstableReasons(steady, { threshold: params.cvThreshold, sampleMs: (summary.median * m.iterations) / 1e6, timerResolutionMs, slowShare }),
      ] as const)
    : [];
  return {
    ...caseIdentity(c),
    iterationsPerSample: m.iterations,
    samples: m.samples,
    ...(m.cycles && m.cycles.length === m.samples.length ? { cycles: m.cycles } : {}),
    summary,
    ...d,
    // Every sample times the same batch size, so the raw samples' mean is total time / total operations.
    totalBytesPerSecond: derived(mean(m.samples), c.sizeBytes).bytesPerSecond,
    overheadBytes: overheadBytes(c.algorithm, c.sizeBytes),
    stateBytes: m.stateBytes,
    reruns: m.reruns,
    unstable: unresolved,
    unstableReasons: [...reasons],
    modes: detectModes(steady),
    interruptions: m.interruptions,
  };
}

/** The A/A check's record, from the original's and the twin's samples (paired: measured side by side). */
function aaCheckOf(twin: PlannedCase | null, measured: (key: string) => MeasuredCase | undefined): { aaCheck?: NonNullable<ResultDocument['aaCheck']> } {
  if (!twin) return {};
  const a = measured(caseKey(twin));
  const b = measured(twin.key);
  const p = a && b ? pairedRatio(b, a) : null;
  if (!p) return {};
  const r = { value: p.ratio, low: p.ciLow, high: p.ciHigh };
  return {
    aaCheck: {
      implementation: twin.implementation,
      variant: twin.variant,
      algorithm: twin.algorithm,
      operation: twin.operation,
      sizeBytes: twin.sizeBytes,
      ratio: r.value,
      low: r.low,
      high: r.high,
      decision: decide(r),
    },
  };
}

/** Everything a document holds beside its cases' samples. */
export interface RunFacts {
  status: 'complete' | 'cancelled';
  plan: readonly PlannedCase[];
  twin: PlannedCase | null;
  /** Each case's samples (the finished passes', or with the pass under way's). */
  measured: (key: string) => CaseSamples | undefined;
  /** Each WASM case's count from the counting pass (worker/api.ts count), where it ran. */
  counts?: Readonly<Record<string, CaseCount>>;
  params: RunParams;
  environment: Environment;
  validation: Validation[];
  skipped: ResultDocument['skipped'];
  warnings: string[];
  interference: InterferenceRecord;
  modules: ModuleInfo[];
  runId: string;
  createdAt: string;
  durationMs: number;
}

/** What the counting pass found a module of yours runs: WebAssembly it counted, or JavaScript only (nothing to count). */
function codeOf(id: string, plan: readonly PlannedCase[], counts: RunFacts['counts']): { code?: 'webassembly' | 'javascript' } {
  const found = plan.filter((c) => c.implementation === id).flatMap((c) => counts?.[c.key] ?? []);
  if (!found.length) return {};
  return { code: found.every((c) => 'none' in c) ? 'javascript' : 'webassembly' };
}

/** The document of a run (finished, cancelled, or live while it runs). */
export function assembleDocument(o: RunFacts): ResultDocument {
  const slow = o.interference.cycles.length ? slowCycles(o.interference) : undefined;
  // Read from the document's cases, so that a report recomputing them (stats.ts steadySummaries) gets the same.
  const levels = cycleLevels(o.plan.flatMap((c) => o.measured(c.key) ?? []));
  const cases: CaseResult[] = o.plan.flatMap((c) => {
    const m = o.measured(c.key);
    if (!m) return [];
    const counted = o.counts?.[c.key];
    const ops = counted && 'perMessage' in counted ? { ops: { ...counted, perByte: c.sizeBytes ? counted.perMessage / c.sizeBytes : 0 } } : {};
    return [{ ...toCaseResult(c, m, o.params, o.environment?.timerResolutionMs, slow, levels), ...ops }];
  });
  return {
    schema: SCHEMA_VERSION,
    runId: o.runId,
    createdAt: o.createdAt,
    durationMs: o.durationMs,
    status: o.status,
    params: o.params,
    environment: o.environment,
    validation: o.validation,
    cases,
    skipped: o.skipped,
    warnings: o.warnings,
    ...(o.interference.cycles.length ? { interference: o.interference } : {}),
    ...(o.modules.length ? { modules: o.modules.map((m) => ({ ...m, ...codeOf(m.id, o.plan, o.counts) })) } : {}),
    ...aaCheckOf(o.twin, o.measured),
  };
}
