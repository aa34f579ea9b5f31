/**
 * aeadbench in Node ≥ 20: the same engine in a worker thread, with the WASM cores, Web Crypto
 * from globalThis.crypto, @noble/ciphers and node:crypto (OpenSSL) as `node-crypto`.
 *
 * @example
 * import { runBenchmark } from 'aeadbench';   // resolves here under Node
 * const result = await runBenchmark({ preset: 'quick', implementations: ['rustcrypto-wasm', 'node-crypto'] });
 * for (const c of result.cases) console.log(c.algorithm, c.implementation, c.sizeBytes, (c.bytesPerSecond / 1e6).toFixed(0), 'MB/s');
 * @module
 */
import { availableParallelism, release, totalmem } from 'node:os';
import { IMPLEMENTATION_IDS } from './tables/algorithms.ts';
import { NODE_ARCHES, NODE_OS_NAMES, coresInfo, type WorkerFacts } from './platform/env.ts';
import { type RunOptions, builtInsOf, hooksOf, modulesOf, resolveParams } from './options.ts';
import { type Available, detectAvailable, startRun } from './run/runner.ts';
import { nodeWorker } from './worker/node-thread.ts';
import type { Environment, ResultDocument } from './schema.ts';
import { ENGINE_VERSION } from './version.ts';
import { type ScalingCase, type ScalingPoint, measureScaling } from './run/scaling.ts';

export type { RunOptions } from './options.ts';
export * from './common.ts';

export async function nodeEnvironment(facts: WorkerFacts): Promise<Environment> {
  return {
    userAgent: `Node.js/${process.version} (${process.platform}; ${process.arch})`,
    browser: { name: 'Node.js', version: process.versions.node },
    engine: { name: 'V8', version: process.versions.v8 },
    os: { name: NODE_OS_NAMES[process.platform] ?? 'unknown', version: release() },
    arch: NODE_ARCHES[process.arch] ?? 'unknown',
    platform: process.platform,
    hardwareConcurrency: availableParallelism(),
    deviceMemoryGiB: Math.round(totalmem() / 2 ** 30),
    crossOriginIsolated: false,
    timerResolutionMs: facts.timerResolutionMs,
    wasm: facts.wasm,
    engineVersion: ENGINE_VERSION,
    cores: coresInfo(facts.buildInfo),
    runtime: 'node',
    libraries: { openssl: process.versions.openssl },
    clock: facts.clock ?? null,
    ...(facts.execution ? { execution: facts.execution } : {}),
  };
}

/** The implementations and algorithms this Node offers (feature-detected in a worker thread). */
export function listAvailable(): Promise<{ available: Available[]; wasm: Environment['wasm']; timerResolutionMs: number }> {
  return detectAvailable(nodeWorker, resolveParams({}, { implementations: [...IMPLEMENTATION_IDS] }));
}

/** The same case on 1 … maxWorkers worker threads at once (default: every core). */
export function runScaling(c: ScalingCase, o: { maxWorkers?: number; samples?: number; onPoint?: (p: ScalingPoint) => void } = {}): Promise<ScalingPoint[]> {
  return measureScaling(c, {
    createWorker: nodeWorker,
    params: resolveParams({}, { implementations: [...IMPLEMENTATION_IDS] }),
    maxWorkers: o.maxWorkers ?? availableParallelism(),
    samples: o.samples,
    onPoint: o.onPoint,
  });
}

/** Runs a benchmark in a Node worker thread. Every implementation is offered by default. */
export function runBenchmark(options: RunOptions = {}): Promise<ResultDocument> {
  const params = resolveParams(options, { implementations: [...IMPLEMENTATION_IDS] });
  const handle = startRun(params, {
    createWorker: nodeWorker,
    environment: nodeEnvironment,
    payloadLimitBytes: Math.min(64 << 20, Math.max(8 << 20, Math.floor(totalmem() / 64))),
    hooks: hooksOf(options),
    gateTimeoutMs: options.gateTimeoutMs,
    modules: modulesOf(options).modules,
    builtIns: builtInsOf(options),
    counts: options.counts ?? true,
    modulesApart: options.modulesApart,
  });
  options.signal?.addEventListener('abort', () => handle.cancel());
  return handle.done;
}
