/**
 * aeadbench in a browser page: run a benchmark in a module worker and get the result document.
 *
 * @example
 * import { runBenchmark } from 'aeadbench';
 * const result = await runBenchmark({ preset: 'quick', algorithms: ['aes-128-gcm'], onProgress: (p) => console.log(p.done, p.total) });
 * console.log(result.cases.map((c) => `${c.implementation} ${c.sizeBytes} B: ${(c.bytesPerSecond / 1e6).toFixed(0)} MB/s`));
 * @module
 */
import { browserEnvironment, payloadLimitBytes } from './platform/env.ts';
import { type RunOptions, builtInsOf, hooksOf, modulesOf, resolveParams } from './options.ts';
import { type Available, detectAvailable, startRun } from './run/runner.ts';
import { type ScalingCase, type ScalingPoint, measureScaling } from './run/scaling.ts';
import { type BlockTiming, measureBlocks } from './run/blocks.ts';
import type { ResultDocument } from './schema.ts';

export type { RunOptions } from './options.ts';
export * from './common.ts';

const createWorker = () => new Worker(new URL('./worker/bench.worker.ts', import.meta.url), { type: 'module' });

/** The implementations and algorithms this browser really offers (feature-detected in a worker). */
export function listAvailable(): Promise<{
  available: Available[];
  wasm: { simd128: boolean; relaxedSimd: boolean; threads: boolean };
  timerResolutionMs: number;
}> {
  return detectAvailable(createWorker, resolveParams({}));
}

/** The same case on 1 … maxWorkers module workers at once (default: hardwareConcurrency). */
export function runScaling(c: ScalingCase, o: { maxWorkers?: number; samples?: number; onPoint?: (p: ScalingPoint) => void } = {}): Promise<ScalingPoint[]> {
  return measureScaling(c, {
    createWorker,
    params: resolveParams({}),
    maxWorkers: o.maxWorkers ?? navigator.hardwareConcurrency ?? 1,
    samples: o.samples,
    onPoint: o.onPoint,
  });
}

/** Runs a benchmark in a dedicated module worker (created the way bundlers understand). */
/** Raw single-block speed of AES-128, Twofish and Serpent (the aes-candidates study), in a worker of its own. */
export function runBlocks(o: { samples?: number } = {}): Promise<BlockTiming[]> {
  return measureBlocks(createWorker, o);
}

export function runBenchmark(options: RunOptions = {}): Promise<ResultDocument> {
  const params = resolveParams(options);
  const deviceMemory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? null;
  const handle = startRun(params, {
    createWorker,
    environment: browserEnvironment,
    payloadLimitBytes: payloadLimitBytes(deviceMemory, /Mobi|Android|iPhone|iPad/.test(navigator.userAgent)),
    hooks: hooksOf(options),
    // The worker imports each module: a relative URL is the page's, made absolute here.
    gateTimeoutMs: options.gateTimeoutMs,
    modules: modulesOf(options, (u) => new URL(u, location.href).href).modules,
    builtIns: builtInsOf(options),
    counts: options.counts ?? true,
    modulesApart: options.modulesApart,
  });
  options.signal?.addEventListener('abort', () => handle.cancel());
  const onVisibility = () => handle.visibility(document.hidden);
  document.addEventListener('visibilitychange', onVisibility);
  return handle.done.finally(() => document.removeEventListener('visibilitychange', onVisibility));
}
