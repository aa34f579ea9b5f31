/**
 * What the benchmark worker does, independent of where it runs (browser module worker or, for
 * the npm package, a Node worker thread): detect implementations, validate them, time cases.
 * @module
 */
import { type AlgorithmId, type ImplementationId, type ImplementationRef, type Operation, implementationSupports, isBuiltInImplementation, needsWasm } from '../tables/algorithms.ts';
import { customBackend } from '../implementations/contract.ts';
import { type ModuleInfo, defineImplementation, moduleInfo } from '../implementations/custom.ts';
import { probeExecution, wasmLoops } from '../execution.ts';
import { gateBackend } from '../implementations/gate.ts';
import { type BuildInfoLoader, type CoresLoader, rustcryptoWasm, wasmFeatures, wasmVariants } from '../implementations/rustcrypto-wasm.ts';
import { libaegisVariants, libaegisWasm } from '../implementations/libaegis-wasm.ts';
import { libsodium } from '../implementations/libsodium.ts';
import type { Backend } from '../implementations/backend.ts';
import { noble } from '../implementations/noble.ts';
import { webcrypto } from '../implementations/webcrypto.ts';
import { estimateClock } from './clock.ts';
import { makeProbe, measureCase, measureInterleaved, timerResolutionMs } from './measure.ts';
import type { RunParams } from '../schema.ts';
import { type WycheproofVector, toHex, validateBackends } from '../implementations/validate.ts';

export interface Platform {
  runtime: 'browser' | 'node';
  loadCores: CoresLoader;
  loadBuildInfo: BuildInfoLoader;
  /** The test vectors of these algorithms (a browser fetches only their files). */
  loadVectors(algorithms: readonly AlgorithmId[]): Promise<WycheproofVector[]>;
  /** Backends of an implementation only this platform has (node:crypto in Node), asked for by id. */
  extraBackends?(params: RunParams, implementation: ImplementationId): Promise<Backend[]>;
  /** A module of yours: its exports, and the bytes that were loaded (hashed for the result). */
  loadModule(url: string): Promise<{ exports: Record<string, unknown>; bytes: Uint8Array }>;
}

const sha256 = async (bytes: Uint8Array) => toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));

export interface PlannedCase {
  key: string;
  implementation: ImplementationRef;
  variant: string;
  algorithm: AlgorithmId;
  operation: Operation;
  sizeBytes: number;
  aadBytes: number;
}

export interface MeasuredCase {
  key: string;
  samples: number[];
  /** The cycle of each sample (measure.ts measureInterleaved): equal ids were taken back to back. */
  cycles?: number[];
  iterations: number;
  interruptions: number;
  stateBytes: number | null;
}

/** The interference monitor's record: the probe's time at the start of every kept cycle. */
export interface InterferenceRecord {
  /** Dependent single-cycle operations in one probe: ops / time = the clock the core ran at. */
  opsPerProbe: number;
  cycles: number[];
  probeMs: number[];
}

export type WorkerEvent =
  | { type: 'case-start'; key: string }
  /** `measured`: the case's samples of this round, for live results (the same as measure returns). */
  | { type: 'case-done'; key: string; measured?: MeasuredCase };

export { caseKey } from '../schema.ts';

/**
 * The cases that are compared with each other — the same operation, size and AAD, across
 * implementations, variants and algorithms — in order of first appearance, each group split
 * so that its members' buffers (about three payloads each) stay within `groupBytes`. Members
 * are kept in plan order, so one algorithm's implementations stay together when a group splits.
 */
export function comparisonGroups(cases: PlannedCase[], groupBytes = Infinity): PlannedCase[][] {
  const groups = new Map<string, PlannedCase[]>();
  for (const c of cases) {
    const k = `${c.operation}/${c.sizeBytes}/${c.aadBytes}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const out: PlannedCase[][] = [];
  for (const members of groups.values()) {
    const per = Math.max(1, Math.floor(groupBytes / Math.max(1, 3 * members[0]!.sizeBytes)));
    for (let i = 0; i < members.length; i += per) out.push(members.slice(i, i + per));
  }
  return out;
}

const epochNow = () => performance.timeOrigin + performance.now();

/** A macrotask yield through a MessageChannel: lets queued messages in without a 4 ms clamp. */
function makeYield(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
}

interface BackendContext {
  params: RunParams;
  platform: Platform;
  features: ReturnType<typeof wasmFeatures>;
}

/**
 * The registry: how each implementation's backends are made in a worker, complete by type (a
 * row of the implementation table without an entry here does not compile). Adding an
 * implementation is its module, an entry here and a row in the table.
 */
const BACKENDS: Record<ImplementationId, (ctx: BackendContext) => Promise<Backend[]>> = {
  'rustcrypto-wasm': async ({ params, platform, features }) => {
    const out: Backend[] = [];
    for (const variant of wasmVariants(params.wasm, features.simd128)) out.push(await rustcryptoWasm(variant, platform.loadCores, platform.loadBuildInfo));
    return out;
  },
  'libaegis-wasm': async ({ params, platform, features }) => {
    const out: Backend[] = [];
    for (const variant of libaegisVariants(params.wasm, features)) out.push(await libaegisWasm(variant, platform.loadCores, platform.loadBuildInfo));
    return out;
  },
  webcrypto: async ({ params }) => {
    const out: Backend[] = [];
    for (const mode of params.webcrypto) out.push(await webcrypto(mode));
    return out;
  },
  noble: async () => [noble()],
  libsodium: async () => [await libsodium()],
  // Node only: its platform brings it (worker/platform-node.ts); a browser's brings none.
  'node-crypto': async ({ params, platform }) => (await platform.extraBackends?.(params, 'node-crypto')) ?? [],
};

/**
 * Whether a run's cases may outgrow the WASM cores' arena (wasm/heap): a core holds every case of
 * one size and operation at once (comparisonGroups), about two payloads each to encrypt and three
 * to open, and the A/A twin beside them. Past the arena the memory grows mid-run, which in V8
 * detaches a buffer and checks every typed-array access of the worker from then on: JavaScript
 * cases measured before the first large group would run faster than those after it.
 */
export function outgrowsArena(params: Pick<RunParams, 'algorithms' | 'sizes' | 'operations' | 'aadBytes'>, arenaBytes: number): boolean {
  const payloads = params.operations.some((o) => o !== 'encrypt') ? 3 : 2;
  const largest = Math.max(...params.sizes) + Math.max(0, ...params.aadBytes);
  // A mebibyte for what the core keeps besides (ciphers' state, the glue's strings).
  return (params.algorithms.length + 1) * payloads * largest + (1 << 20) > arenaBytes;
}

/**
 * So such a run levels instead: the worker detaches one empty buffer of its own before anything
 * is timed, and every case of the run is measured in the state the grow would have left.
 */
function detachOnce(): void {
  const b = new ArrayBuffer(0);
  // Older engines without structuredClone (Safari before 15.4) skip it: the protector is V8's.
  if (typeof structuredClone === 'function') structuredClone(b, { transfer: [b] });
}

const isWasmCore = (b: Backend): b is Awaited<ReturnType<typeof rustcryptoWasm>> => b.implementation === 'rustcrypto-wasm' && 'clockChain' in b;

export function createApi(platform: Platform, emit: (e: WorkerEvent) => void) {
  let backends: Backend[] = [];
  let resolution = 0;
  let probe: ReturnType<typeof makeProbe> | null = null;
  let wasmCore: Awaited<ReturnType<typeof rustcryptoWasm>> | null = null;
  let opsPerProbe = 0;
  let record: InterferenceRecord = { opsPerProbe: 0, cycles: [], probeMs: [] };
  // Hidden periods in epoch ms, reported by the page; samples overlapping one are discarded.
  const hidden: [number, number][] = [];
  let hiddenNow = false;
  let visibleWaiters: (() => void)[] = [];
  const yieldNow = makeYield();

  let reference: Awaited<ReturnType<typeof rustcryptoWasm>> | null = null;
  const customs = new Map<string, Backend>();

  return {
    /**
     * Loads the run's implementations (`modules`: the URLs of modules of yours, each loaded,
     * checked against the contract and hashed; one that fails is named in `moduleErrors`).
     */
    async init(params: RunParams, modules: readonly string[] = []) {
      resolution = timerResolutionMs();
      // WebAssembly off (Lockdown Mode, --jitless, a CSP): what needs it is named, the rest runs.
      const wasmOn = wasmLoops() !== null;
      const features = wasmOn ? wasmFeatures() : { simd128: false, relaxedSimd: false, threads: false };
      const unavailable: { implementation: ImplementationId; reason: string }[] = [];
      backends = [];
      customs.clear();
      const loaded: ModuleInfo[] = [];
      const moduleErrors: { url: string; message: string }[] = [];
      for (const url of modules) {
        try {
          const { exports, bytes } = await platform.loadModule(url);
          if (!('default' in exports)) throw new Error('it has no default export (export default defineImplementation({...}))');
          const impl = defineImplementation(exports.default as never);
          if (customs.has(impl.id)) throw new Error(`a second module with id '${impl.id}'`);
          const b = customBackend(impl);
          customs.set(impl.id, b);
          loaded.push(moduleInfo(impl, await sha256(bytes)));
        } catch (e) {
          moduleErrors.push({ url, message: (e as Error)?.message ?? String(e) });
        }
      }
      let buildInfo: Record<string, unknown> | null = null;
      let clockSource: Awaited<ReturnType<typeof rustcryptoWasm>> | null = null;
      for (const impl of params.implementations) {
        if (!isBuiltInImplementation(impl)) {
          const b = customs.get(impl);
          if (b && params.algorithms.some((a) => b.algorithms.includes(a))) backends.push(b);
          continue;
        }
        // Nothing asked of it, nothing loaded (libsodium.js alone is 1.7 MB of JavaScript).
        if (!params.algorithms.some((a) => implementationSupports(impl, a))) continue;
        if (!wasmOn && needsWasm(impl)) {
          unavailable.push({ implementation: impl, reason: 'WebAssembly is off here' });
          continue;
        }
        const make = BACKENDS[impl];
        // One implementation that cannot load (a refused import, a missing API) costs the run only itself.
        const made = await make({ params, platform, features }).catch((e: unknown) => e as Error);
        if (made instanceof Error) {
          unavailable.push({ implementation: impl, reason: `it did not load: ${made.message}` });
          continue;
        }
        for (const b of made) {
          if (isWasmCore(b)) {
            buildInfo ??= b.buildInfo;
            clockSource ??= b;
          }
          backends.push(b);
        }
      }
      if (!clockSource && wasmOn) clockSource = await rustcryptoWasm('baseline', platform.loadCores, platform.loadBuildInfo);
      buildInfo ??= clockSource?.buildInfo ?? {};
      // Without WebAssembly there is no reference for the gate, no interference probe and no clock.
      reference = clockSource;
      wasmCore = clockSource;
      probe = null;
      opsPerProbe = 0;
      if (clockSource) {
        // The probe lasts 50 timer steps (0.25 ms in Chromium, 1 ms in Firefox and WebKit): a
        // step is then 2 % of it, and a cycle of samples is tens of times longer.
        const source = clockSource;
        probe = makeProbe((n, seed) => source.clockChain(n, seed), Math.max(0.25, 50 * resolution));
        opsPerProbe = probe.iterations * source.clockChainOps;
      }
      record = { opsPerProbe, cycles: [], probeMs: [] };
      if (clockSource && outgrowsArena(params, clockSource.arenaBytes)) detachOnce();
      return {
        timerResolutionMs: resolution,
        clock: params.estimateClock && clockSource ? await estimateClock((n, seed) => clockSource.clockChain(n, seed), clockSource.clockChainOps, { timerResolutionMs: resolution }) : null,
        wasm: features,
        buildInfo,
        available: backends.map((b) => ({ implementation: b.implementation, variant: b.variant, algorithms: [...b.algorithms] })),
        unavailable,
        modules: loaded,
        moduleErrors,
      };
    },

    /** The execution mode (execution.ts): about 70 ms, asked once per run. */
    execution() {
      return probeExecution(resolution);
    },

    /** The gate (gate.ts) for one module loaded by init: a row per algorithm it declares. */
    async gate(id: string, algorithms: readonly AlgorithmId[]) {
      const b = customs.get(id);
      if (!b) throw new Error(`no module '${id}' in this worker`);
      if (!reference) throw new Error('the gate needs WebAssembly (its reference is RustCrypto), and WebAssembly is off here');
      const asked = b.algorithms.filter((a) => algorithms.includes(a));
      return gateBackend({ ...b, algorithms: asked }, reference, await platform.loadVectors(asked));
    },

    async validate(algorithms: AlgorithmId[]) {
      return validateBackends(backends, algorithms, await platform.loadVectors(algorithms));
    },

    /**
     * Measures `cases`, each group of compared cases interleaved (comparisonGroups); cycle ids
     * start at `firstCycle`, so the runner keeps them unique across rounds.
     */
    async measure(cases: PlannedCase[], o: { samples: number; samplesFor?: Record<string, number>; minSampleMs: number; iterations: Record<string, number>; warmNsPerOp?: Record<string, number>; firstCycle?: number; groupBytes?: number; warmOnce?: boolean }) {
      const out: MeasuredCase[] = [];
      // warmOnce (every run since the stop rule; first the dense preset's thousands of lengths):
      // each implementation × algorithm × operation runs one code path whatever the length, so
      // it is warmed up fully once, in its first group; later groups only calibrate their batch
      // on the optimised code (calibration runs each case, touching its buffers, before timing).
      const warmed = new Set<string>();
      const codePath = (c: PlannedCase) => `${c.implementation}/${c.variant}/${c.algorithm}/${c.operation}`;
      let firstCycle = o.firstCycle ?? 0;
      for (const group of comparisonGroups(cases, o.groupBytes)) {
        const prepared: Awaited<ReturnType<Backend['prepare']>>[] = [];
        try {
          for (const c of group) {
            const backend = backends.find((b) => b.implementation === c.implementation && b.variant === c.variant);
            if (!backend) throw new Error(`no backend ${c.implementation}/${c.variant} in this worker`);
            prepared.push(await backend.prepare(c));
          }
          emit({ type: 'case-start', key: group[0]!.key });
          const warm = o.warmOnce && group.every((c) => warmed.has(codePath(c)));
          const measured = await measureInterleaved(prepared, {
            // Cycle by cycle, each member until it has what was asked of it (the stop rule asks more of some).
            samples: o.samples,
            samplesFor: (i) => Math.max(o.samples, o.samplesFor?.[group[i]!.key] ?? 0),
            minSampleMs: o.minSampleMs,
            ...(warm ? { warmupMinMs: 0, warmupMaxMs: 0 } : {}),
            timerResolutionMs: resolution,
            iterationsFor: (i) => o.iterations[group[i]!.key],
            warmNsFor: (i) => o.warmNsPerOp?.[group[i]!.key],
            firstCycle,
            probe: probe?.run,
            yieldNow,
            wasHidden: (from, to) => {
              const [a, b] = [performance.timeOrigin + from, performance.timeOrigin + to];
              return hiddenNow || hidden.some(([h0, h1]) => h0 <= b && h1 >= a);
            },
            waitUntilVisible: () => (hiddenNow ? new Promise<void>((r) => visibleWaiters.push(r)) : Promise.resolve()),
          });
          if (o.warmOnce) for (const c of group) warmed.add(codePath(c));
          firstCycle += Math.max(...measured.map((m) => (m.cycles.length ? m.cycles[m.cycles.length - 1]! + 1 - firstCycle : 0)), 0);
          if (measured[0]?.probeMs) {
            record.cycles.push(...measured[0].cycles);
            record.probeMs.push(...measured[0].probeMs);
          }
          group.forEach((c, i) => {
            const m = measured[i]!;
            const result: MeasuredCase = { key: c.key, samples: m.samples, cycles: m.cycles, iterations: m.iterations, interruptions: m.interruptions, stateBytes: prepared[i]!.stateBytes };
            emit({ type: 'case-done', key: c.key, measured: result });
            out.push(result);
          });
        } finally {
          for (const p of prepared) p.dispose();
        }
      }
      return out;
    },

    /**
     * Raw block ciphers, one 16-byte block per call (the aes-candidates study's measurement), timed by the one
     * sampling loop. Returns ns per block, one per sample, and the key schedule's size.
     */
    async measureBlocks(ciphers: string[], o: { samples: number; minSampleMs: number }) {
      if (!wasmCore) throw new Error('raw block ciphers run in WebAssembly, which is off here (or init was not called)');
      const out: { cipher: string; samples: number[]; stateBytes: number | null }[] = [];
      for (const cipher of ciphers) {
        const prepared = wasmCore.blockBench(cipher);
        try {
          const m = await measureCase(prepared, { samples: o.samples, minSampleMs: o.minSampleMs, timerResolutionMs: resolution, yieldNow });
          out.push({ cipher, samples: m.samples, stateBytes: prepared.stateBytes });
        } finally {
          prepared.dispose();
        }
      }
      return out;
    },

    /** The interference record of everything this worker measured since init. */
    interference(): InterferenceRecord {
      return record;
    },

    /** The page became hidden or visible at `atEpochMs`. */
    visibility(isHidden: boolean, atEpochMs: number) {
      if (isHidden && !hiddenNow) {
        hiddenNow = true;
        hidden.push([atEpochMs, Infinity]);
      } else if (!isHidden && hiddenNow) {
        hiddenNow = false;
        const last = hidden[hidden.length - 1];
        if (last) last[1] = Math.max(atEpochMs, epochNow());
        const waiters = visibleWaiters;
        visibleWaiters = [];
        for (const w of waiters) w();
      }
    },
  };
}

export type WorkerApi = ReturnType<typeof createApi>;
