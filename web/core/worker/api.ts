/**
 * What the benchmark worker does, independent of where it runs (browser module worker or, for
 * the npm package, a Node worker thread), in the runner's phases: load (load.ts: modules of
 * yours, then the built-in backends), set up the clock and the interference probe on the WASM
 * cores, gate and validate, measure (groups.ts: compared cases interleaved), and report what the
 * page's visibility did to the samples (visibility.ts).
 * @module
 */
import type { AlgorithmId, ImplementationId } from '../tables/algorithms.ts';
import { makeYield } from './yield.ts';
import { probeExecution, wasmLoops } from '../execution.ts';
import { gateBackend } from '../implementations/gate.ts';
import { type CoresBackend, wasmFeatures } from '../implementations/cores.ts';
import type { Backend, PreparedCase, Settle } from '../implementations/shared.ts';
import { validateBackends } from '../implementations/validate.ts';
import type { ModuleInfo } from '../implementations/custom.ts';
import { type RunParams, codeKey } from '../schema.ts';
import { estimateClock } from './clock.ts';
import { comparisonGroups, detachOnce, outgrowsArena, twinKey } from './groups.ts';
import { loadBackends, loadModules } from './load.ts';
import { makeProbe, measureCase, measureInterleaved, timed, timerResolutionMs } from './measure.ts';
import { type Apart, apartKey, apartWithModules, startApart } from './apart.ts';
import { connect } from './rpc.ts';
import type { CaseCount, InterferenceRecord, MeasuredCase, PlannedCase, Platform, WorkerEvent } from './types.ts';
import { createVisibility } from './visibility.ts';
import { type Interception, interceptWebAssembly } from './intercept.ts';

export type { CaseCount, InterferenceRecord, MeasuredCase, PlannedCase, Platform, WorkerEvent } from './types.ts';
export { comparisonGroups, outgrowsArena } from './groups.ts';
export { caseKey } from '../schema.ts';

/** The probe lasts 50 timer steps (0.25 ms in Chromium, 1 ms in Firefox and WebKit): a step is then 2 % of it, and a cycle of samples is tens of times longer. */
function probeOn(cores: CoresBackend, resolution: number) {
  const probe = makeProbe((n, seed) => cores.clockChain(n, seed), Math.max(0.25, 50 * resolution));
  return { probe, opsPerProbe: probe.iterations * cores.clockChainOps };
}

/** What one pass asks of a measuring worker (RunSession.measure). */
export type PassRequest = {
  samples: number;
  samplesFor?: Record<string, number>;
  minSampleMs: number;
  iterations: Record<string, number>;
  warmNsPerOp?: Record<string, number>;
  firstCycle?: number;
  groupBytes?: number;
  warmOnce?: boolean;
  /** The keys of the cases that take a turn of their own before each sample (measure.ts SETTLE_MS; RunSession.settles). */
  settling?: readonly string[];
  /** Each module of yours measured in a thread of its own (apart.ts), where the platform can start one. */
  apart?: boolean;
};

/** What a worker holds between the runner's calls: the platform, then what `init` loaded. */
interface Here {
  readonly platform: Platform;
  readonly emit: (e: WorkerEvent) => void;
  readonly visibility: ReturnType<typeof createVisibility>;
  readonly yieldNow: ReturnType<typeof makeYield>;
  backends: Backend[];
  unavailable: { implementation: ImplementationId; reason: string }[];
  customs: ReadonlyMap<string, Backend>;
  moduleUrls: ReadonlyMap<string, string>;
  runParams: RunParams | null;
  resolution: number;
  /** The WASM cores: the clock, the interference probe's work and the gate's reference (null where WebAssembly is off). */
  cores: CoresBackend | null;
  probe: ReturnType<typeof makeProbe> | null;
  record: InterferenceRecord;
  /** The counting pass with modules of yours: their WebAssembly, counted (intercept.ts). */
  interception: Interception | null;
}

/**
 * Loads the run's implementations (`modules`: the URLs of modules of yours, each loaded,
 * checked against the contract and hashed; one that fails is named in `moduleErrors`).
 * `bare`: a module's thread of its own (apart.ts), which only times that module: no WASM cores.
 */
async function init(h: Here, params: RunParams, modules: readonly string[], o: { count?: boolean; bare?: boolean }) {
  const { platform } = h;
  h.resolution = timerResolutionMs();
  // WebAssembly off (Lockdown Mode, --jitless, a CSP): what needs it is named, the rest runs.
  const features = wasmLoops() !== null ? wasmFeatures() : null;
  // Counting, the modules' WebAssembly is counted from their import on; the built-ins load as they are.
  if (o.count && modules.length && features && platform.loadCounter) h.interception = interceptWebAssembly(await platform.loadCounter());
  const mods = await loadModules(platform, modules);
  h.customs = mods.customs;
  h.moduleUrls = mods.urlOf;
  h.runParams = params;
  const loadAll = () => loadBackends(params, platform, h.customs, features, o);
  const loaded = h.interception ? await h.interception.bypass(loadAll) : await loadAll();
  h.backends = loaded.backends;
  h.unavailable = loaded.unavailable;
  const cores = (h.cores = loaded.cores);
  const measuredBy = cores ? probeOn(cores, h.resolution) : null;
  h.probe = measuredBy?.probe ?? null;
  h.record = { opsPerProbe: measuredBy?.opsPerProbe ?? 0, cycles: [], probeMs: [] };
  if (cores && outgrowsArena(params, cores.arenaBytes)) detachOnce();
  return {
    timerResolutionMs: h.resolution,
    clock:
      params.estimateClock && cores
        ? await estimateClock((n, seed) => cores.clockChain(n, seed), cores.clockChainOps, { timerResolutionMs: h.resolution })
        : null,
    wasm: features ?? { simd128: false, relaxedSimd: false, threads: false },
    buildInfo: cores?.buildInfo ?? {},
    available: h.backends.map((b) => ({ implementation: b.implementation, variant: b.variant, algorithms: [...b.algorithms] })),
    unavailable: loaded.unavailable as { implementation: ImplementationId; reason: string }[],
    modules: mods.loaded as ModuleInfo[],
    moduleErrors: mods.moduleErrors,
  };
}

/**
 * A thread of its own for each module of yours among `cases` (apart.ts), and then for every
 * built-in among them whose calls are JavaScript's (apartWithModules): a module is compared
 * with those, and a comparison is made under one condition, or a module making exactly
 * node:crypto's calls read 1.5× and 0.69× of node:crypto at 1 MiB in two runs
 * (docs/decisions/002-one-condition.md). One that does not start is measured here, and the
 * run is told why. Keyed by implementation/variant.
 */
async function threadsApart(h: Here, cases: PlannedCase[]): Promise<Map<string, Apart>> {
  const { customs, moduleUrls, backends, platform, runParams, emit } = h;
  const modules = [...new Set(cases.map((c) => c.implementation as string))].filter((id) => customs.has(id) && moduleUrls.has(id));
  const builtIns = modules.length
    ? [...new Map(cases.filter((c) => apartWithModules(c.implementation)).map((c) => [apartKey(c), c])).values()].flatMap((c) => {
        const local = backends.find((b) => b.implementation === c.implementation && b.variant === c.variant);
        return local ? [{ key: apartKey(c), name: c.implementation as string, local, url: null as string | null }] : [];
      })
    : [];
  const wanted = [
    ...modules.map((id) => {
      const local = customs.get(id)!;
      return { key: apartKey(local), name: `module ${id}`, local, url: moduleUrls.get(id)! as string | null };
    }),
    ...builtIns,
  ];
  // Started together: each loads its implementation and nothing else (about 0.3 s in Node from the sources, most of it the thread's own start).
  const started = await Promise.allSettled(
    wanted.map(async (w) => {
      if (!platform.startThread || !runParams) throw new Error('this platform cannot start a worker from a worker');
      const handle = platform.startThread();
      return startApart(connect<WorkerApi>(handle), () => handle.terminate(), runParams, w.local, w.url);
    }),
  );
  const out = new Map<string, Apart>();
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') out.set(wanted[i]!.key, r.value);
    else
      emit({
        type: 'warning',
        message: `${wanted[i]!.name} measured in the measuring thread, beside the other cases: its own thread did not start (${(r.reason as Error)?.message ?? r.reason})`,
      });
  });
  return out;
}

/** Measures `cases` group by group (the pass of `measure`), a module of yours through its thread in `apart`. */
async function measureGroups(h: Here, cases: PlannedCase[], o: PassRequest, apart: ReadonlyMap<string, Apart>): Promise<MeasuredCase[]> {
  const { backends, unavailable, emit, runParams, probe, record, visibility, yieldNow, resolution } = h;
  const out: MeasuredCase[] = [];
  // warmOnce (every run since the stop rule; first the dense preset's thousands of lengths):
  // each implementation × algorithm × operation runs one code path whatever the length, so
  // it is warmed up fully once, in its first group; later groups only calibrate their batch
  // on the optimised code (calibration runs each case, touching its buffers, before timing).
  const warmed = new Set<string>();
  const codePath = (c: PlannedCase) => `${codeKey(c)}/${c.operation}`;
  let firstCycle = o.firstCycle ?? 0;
  for (const group of comparisonGroups(cases, o.groupBytes)) {
    const prepared: Awaited<ReturnType<Backend['prepare']>>[] = [];
    try {
      for (const c of group) {
        const backend = apart.get(apartKey(c))?.backend ?? backends.find((b) => b.implementation === c.implementation && b.variant === c.variant);
        if (!backend) {
          const why = unavailable.find((u) => u.implementation === c.implementation)?.reason;
          throw new Error(`no backend ${c.implementation}/${c.variant} in this worker${why ? `: ${why}` : ''}`);
        }
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
        // A group is one operation, size and AAD (comparisonGroups): its twins are one code's cases of one algorithm.
        twinOf: (i) => twinKey(group[i]!, runParams?.ab),
        settleFor: (i) => o.settling?.includes(group[i]!.key) ?? false,
        probe: probe?.run,
        yieldNow,
        wasHidden: visibility.wasHidden,
        waitUntilVisible: visibility.waitUntilVisible,
      });
      if (o.warmOnce) for (const c of group) warmed.add(codePath(c));
      firstCycle += Math.max(...measured.map((m) => (m.cycles.length ? m.cycles[m.cycles.length - 1]! + 1 - firstCycle : 0)), 0);
      if (measured[0]?.probeMs) {
        record.cycles.push(...measured[0].cycles);
        record.probeMs.push(...measured[0].probeMs);
      }
      group.forEach((c, i) => {
        const m = measured[i]!;
        const result: MeasuredCase = {
          key: c.key,
          samples: m.samples,
          cycles: m.cycles,
          iterations: m.iterations,
          interruptions: m.interruptions,
          stateBytes: prepared[i]!.stateBytes,
        };
        emit({ type: 'case-done', key: c.key, measured: result });
        out.push(result);
      });
    } finally {
      for (const p of prepared) p.dispose();
    }
  }
  return out;
}

/**
 * The counting pass (a worker initialised with `count`): each case whose backend's
 * WebAssembly is counted runs one message as a warm-up (a module may instantiate or fill
 * tables on its first call), then 1, 2 and 3 messages, and the differences give its
 * operations per message (exact, the same in every engine; linearity is checked) and per
 * call (what a call costs besides its messages). Key schedules and buffers (prepare) are
 * not counted. A module of yours is counted through every instance its WebAssembly made
 * (intercept.ts); a case of it that executes none is JavaScript, and says so.
 */
async function countCases({ backends, interception, customs }: Here, cases: PlannedCase[]): Promise<Record<string, CaseCount>> {
  const out: Record<string, CaseCount> = {};
  for (const c of cases) {
    const b = backends.find((x) => x.implementation === c.implementation && x.variant === c.variant);
    const yours = b && interception && customs.get(c.implementation) === b ? interception : null;
    const ops = b?.ops ?? yours?.total;
    if (!b || !ops) continue;
    const prepared = await b.prepare(c);
    try {
      await prepared.run(1);
      const opsOf = async (n: number) => {
        const before = ops();
        await prepared.run(n);
        return ops() - before;
      };
      const [one, two, three] = [await opsOf(1), await opsOf(2), await opsOf(3)];
      const perMessage = two - one;
      out[c.key] =
        yours && one + two + three === 0n
          ? { none: 'JavaScript (it executed no WebAssembly)' }
          : three - two === perMessage
            ? { perMessage: Number(perMessage), perCall: Number(one - perMessage) }
            : { error: `not linear in the message count: 1, 2 and 3 messages executed ${one}, ${two} and ${three} operations` };
    } finally {
      prepared.dispose();
    }
  }
  return out;
}

/**
 * Raw block ciphers, one 16-byte block per call (the aes-candidates study's measurement), timed by the one
 * sampling loop. Returns ns per block, one per sample, and the key schedule's size.
 */
async function measureBlocks({ cores, resolution, yieldNow }: Here, ciphers: string[], o: { samples: number; minSampleMs: number }) {
  if (!cores) throw new Error('raw block ciphers run in WebAssembly, which is off here (or init was not called)');
  const out: { cipher: string; samples: number[]; stateBytes: number | null }[] = [];
  for (const cipher of ciphers) {
    const prepared = cores.blockBench(cipher);
    try {
      const m = await measureCase(prepared, { samples: o.samples, minSampleMs: o.minSampleMs, timerResolutionMs: resolution, yieldNow });
      out.push({ cipher, samples: m.samples, stateBytes: prepared.stateBytes });
    } finally {
      prepared.dispose();
    }
  }
  return out;
}

/** The worker's calls, as the runner makes them over rpc.ts; each phase is a function above. */
export function createApi(platform: Platform, emit: (e: WorkerEvent) => void) {
  const h: Here = {
    platform,
    emit,
    visibility: createVisibility(),
    yieldNow: makeYield(),
    backends: [],
    unavailable: [],
    customs: new Map(),
    moduleUrls: new Map(),
    runParams: null,
    resolution: 0,
    cores: null,
    probe: null,
    record: { opsPerProbe: 0, cycles: [], probeMs: [] },
    interception: null,
  };
  /** In a module's thread of its own (apart.ts): the cases the measuring worker prepared here, by id. */
  const apartCases = new Map<number, PreparedCase>();
  let nextApart = 1;
  const apartCase = (id: number) => {
    const p = apartCases.get(id);
    if (!p) throw new Error(`no case ${id} prepared in this thread`);
    return p;
  };

  return {
    init: (params: RunParams, modules: readonly string[] = [], o: { count?: boolean; bare?: boolean } = {}) => init(h, params, modules, o),

    /** The execution mode (execution.ts): about 70 ms, asked once per run. */
    execution: () => probeExecution(h.resolution),

    /** The gate (gate.ts) for one module loaded by init: a row per algorithm it declares. */
    async gate(id: string, algorithms: readonly AlgorithmId[]) {
      const b = h.customs.get(id);
      if (!b) throw new Error(`no module '${id}' in this worker`);
      if (!h.cores) throw new Error('the gate needs WebAssembly (its reference is RustCrypto), and WebAssembly is off here');
      const asked = b.algorithms.filter((a) => algorithms.includes(a));
      return gateBackend({ ...b, algorithms: asked }, h.cores, await platform.loadVectors(asked));
    },

    validate: async (algorithms: AlgorithmId[]) => validateBackends(h.backends, algorithms, await platform.loadVectors(algorithms)),

    /**
     * Measures `cases`, each group of compared cases interleaved (comparisonGroups); cycle ids
     * start at `firstCycle`, so the runner keeps them unique across rounds.
     */
    async measure(cases: PlannedCase[], o: PassRequest) {
      const apart = o.apart ? await threadsApart(h, cases) : new Map<string, Apart>();
      try {
        return await measureGroups(h, cases, o, apart);
      } finally {
        for (const t of apart.values()) t.stop();
      }
    },

    /** In a module's thread of its own (apart.ts): prepares a case of it here. */
    async prepareApart(c: PlannedCase) {
      const b = h.backends.find((x) => x.implementation === c.implementation && x.variant === c.variant);
      if (!b) throw new Error(`no backend ${c.implementation}/${c.variant} in this thread`);
      const p = await b.prepare(c);
      const id = nextApart++;
      apartCases.set(id, p);
      return { id, stateBytes: p.stateBytes };
    },

    /** ... settles it and times `n` calls on this thread's clock (measure.ts timed). */
    async timeApart(id: number, n: number, settle: Settle) {
      const [, ms, isAsync] = await timed(apartCase(id), n, () => performance.now(), settle);
      return { ms, isAsync };
    },

    disposeApart(id: number) {
      apartCases.get(id)?.dispose();
      apartCases.delete(id);
    },

    measureBlocks: (ciphers: string[], o: { samples: number; minSampleMs: number }) => measureBlocks(h, ciphers, o),

    count: (cases: PlannedCase[]) => countCases(h, cases),

    /** The interference record of everything this worker measured since init. */
    interference: (): InterferenceRecord => h.record,

    /** The page became hidden or visible at `atEpochMs`. */
    visibility(isHidden: boolean, atEpochMs: number) {
      h.visibility.set(isHidden, atEpochMs);
    },
  };
}

export type WorkerApi = ReturnType<typeof createApi>;
