/**
 * The run orchestrator on the page's side. It never touches the DOM (Speedometer's rule): the
 * page passes hooks and reports visibility. Each round runs in a fresh worker (a V8 instance
 * now and then compiles a slower variant for its whole life), cases are interleaved in an order
 * shuffled every round so drift and neighbours spread evenly, and unstable cases are re-run.
 * @module
 */
import { ALGORITHM_IDS, isDense } from './algorithms.ts';
import type { CaseResult, Environment, ResultDocument, RunParams, Validation } from './schema.ts';
import { EXECUTION_LABELS } from './execution.ts';
import { sampleTargetMs } from './measure.ts';
import { CYCLES_PER_ROUND, median, summarize } from './stats.ts';
import { caseResolved, isAaTwin, nextExtraRound } from './stop-rule.ts';
import type { InterferenceRecord, MeasuredCase, PlannedCase, WorkerApi, WorkerEvent } from './worker/api.ts';
import { type Remote, type WorkerHandle, connect } from './worker/rpc.ts';
import { type CaseSamples, RunSamples } from './run/samples.ts';
import { type PassHistory, remainingMs } from './run/estimate.ts';
import { assembleDocument, toCaseResult } from './run/document.ts';
import { type Available, aaTwin, planCases, roundOrder } from './run/plan.ts';
import { type GatedModules, gateModules } from './run/gate.ts';
import type { WorkerFacts } from './env.ts';

export { toCaseResult } from './run/document.ts';
export { type Available, aaTwin, planCases, roundOrder } from './run/plan.ts';
export { type GatedModules, gateModules } from './run/gate.ts';
export type { WorkerHandle } from './worker/rpc.ts';

export interface Progress {
  phase: 'starting' | 'validating' | 'measuring' | 'rerunning' | 'done' | 'cancelled';
  round: number;
  rounds: number;
  done: number;
  total: number;
  current: string | null;
  etaMs: number | null;
}

export interface RunHooks {
  onProgress?(p: Progress): void;
  onValidation?(v: Validation[]): void;
  onCase?(c: CaseResult): void;
  onWarning?(message: string): void;
  /**
   * Live results: the document so far (status 'running'), every case with what was measured
   * of it, at most every `liveEveryMs` (default 1 s) so the page's drawing does not compete
   * with the measuring worker.
   */
  onPartial?(doc: PartialDocument): void;
}

/** A run's document while it runs: for display only, never exported or submitted. */
export type PartialDocument = Omit<ResultDocument, 'status'> & { status: 'running' };

/** What a run runs on: its workers, its environment, its clocks (given by browser.ts and node.ts); the run's own choices are RunParams. */
export interface RunPlatform {
  createWorker(): WorkerHandle;
  environment(facts: WorkerFacts): Promise<Environment>;
  /** The largest payload this device may be asked to hold. */
  payloadLimitBytes: number;
  hooks?: RunHooks;
  /** How often onPartial may fire (ms). */
  liveEveryMs?: number;
  now?: () => number;
  randomUUID?: () => string;
  /** Modules of yours (custom.ts), by URL: gated (gate.ts) each in a worker of its own, then timed. */
  modules?: readonly string[];
  /** How long one module's gate may take before its worker is stopped (a call that never returns). */
  gateTimeoutMs?: number;
}

export interface RunHandle {
  done: Promise<ResultDocument>;
  cancel(): void;
  /** The page reports visibility changes; samples taken while hidden are discarded. */
  visibility(hidden: boolean): void;
}

/**
 * A comparison group holds at most this many of the device's largest payloads at once (each
 * case about three copies): at 1 MiB every compared case is interleaved; at the device's
 * limit, one at a time (then those sizes have no paired ratios, and the result says so).
 */
const GROUP_PAYLOADS = 3;

export function startRun(asked: RunParams, o: RunPlatform): RunHandle {
  /** The run's parameters: what was asked, and the ids of the modules that passed the gate. */
  let params = asked;
  let modules: GatedModules['passed'] = [];
  const now = o.now ?? (() => performance.now());
  const hooks = o.hooks ?? {};
  const startedAt = now();
  const createdAt = new Date().toISOString();
  const runId = (o.randomUUID ?? (() => crypto.randomUUID()))();
  let worker: { handle: WorkerHandle; remote: Remote<WorkerApi> } | null = null;
  let cancelled = false;
  let cancelReject: ((e: Error) => void) | null = null;
  const cancelledPromise = new Promise<never>((_, reject) => (cancelReject = reject));
  cancelledPromise.catch(() => {});

  const progress: Progress = { phase: 'starting', round: 0, rounds: params.rounds, done: 0, total: 0, current: null, etaMs: null };
  const report = () => hooks.onProgress?.({ ...progress });
  /** When the current phase (the first rounds, or one extra round) began: its rate drives the ETA. */
  const measuringStarted = { at: 0 };
  const deadline = params.budgetMs === undefined ? Infinity : startedAt + params.budgetMs;

  const spawn = () => {
    worker?.handle.terminate();
    const handle = o.createWorker();
    const remote = connect<WorkerApi>(handle, (e) => {
      const ev = e as WorkerEvent;
      if (ev.type === 'case-start') progress.current = ev.key;
      // The A/A twin is not a case of the result: progress counts what the result will hold.
      if (ev.type === 'case-done' && !isAaTwin(ev.key)) {
        progress.done++;
        if (progress.phase === 'measuring' && ev.measured) {
          firstPass.done++;
          if (!caseResolved({ summary: summarize(ev.measured.samples) })) firstPass.unresolved++;
        }
        const t = now();
        const phase = progress.phase === 'rerunning' ? 'rerunning' : 'measuring';
        progress.etaMs = remainingMs({ ...progress, phase, rounds: params.rounds, maxReruns: params.maxReruns, elapsedMs: t - measuringStarted.at, history, untilDeadlineMs: deadline - t });
        if (ev.measured) live(ev.measured);
      }
      report();
    });
    worker = { handle, remote };
    return remote;
  };
  /** What the run's estimate learns from (run/estimate.ts). */
  const history: PassHistory = { firstPass: { done: 0, unresolved: 0 }, passCases: [] };
  const { firstPass, passCases } = history;
  const guard = <T>(p: Promise<T>) => Promise.race([p, cancelledPromise]);

  const samples = new RunSamples();
  const skipped: ResultDocument['skipped'] = [];
  const warnings: string[] = [];
  let validation: Validation[] = [];
  let environment: Environment | null = null;

  const interference: InterferenceRecord = { opsPerProbe: 0, cycles: [], probeMs: [] };
  const recordInterference = async (remote: Remote<WorkerApi>) => {
    const r = await guard(remote.interference());
    interference.opsPerProbe ||= r.opsPerProbe;
    interference.cycles.push(...r.cycles);
    interference.probeMs.push(...r.probeMs);
  };

  /** The document from the samples measured so far (`measured`: what to read each case's from). */
  const finish = (status: 'complete' | 'cancelled', plan: PlannedCase[], measured: (key: string) => CaseSamples | undefined = samples.finished): ResultDocument =>
    assembleDocument({ status, plan, twin, measured, params, environment: environment!, validation, skipped, warnings, interference, modules: modules.map((m) => m.info), runId, createdAt, durationMs: now() - startedAt });

  // Live results: this round's samples of each finished case, beside the earlier rounds' ones.
  let lastPartial = -Infinity;
  const live = (m?: MeasuredCase) => {
    // Recorded even without a live view: a cancelled run keeps every case that finished.
    if (m) samples.finishedNow(m);
    if (m && hooks.onCase && !isAaTwin(m.key)) {
      const c = plan.find((x) => x.key === m.key);
      const sofar = samples.sofar(m.key);
      if (c && sofar) hooks.onCase(toCaseResult(c, sofar, params, environment?.timerResolutionMs));
    }
    if (!hooks.onPartial) return;
    const t = now();
    // A finished round (no case given) always shows; single cases at most every liveEveryMs.
    // A second apart, longer for large plans (the dense preset's 8,192 cases: 8 s), so that
    // summarising and drawing stay a small share of the page's time.
    if (m && t - lastPartial < (o.liveEveryMs ?? Math.max(1000, plan.length))) return;
    lastPartial = t;
    hooks.onPartial(partial());
  };
  const partial = (): PartialDocument => ({ ...finish('complete', plan, samples.sofar), status: 'running' });

  let plan: PlannedCase[] = [];
  let twin: PlannedCase | null = null;
  /** Thousands of lengths (the dense preset): one warm-up per code path, not per case. */
  const dense = isDense(params.sizes.length);
  const run = async (): Promise<ResultDocument> => {
    report();
    const gateRows: Validation[] = [];
    if (o.modules?.length) {
      progress.phase = 'validating';
      report();
      const gated = await guard(gateModules(o.createWorker, params, o.modules, o.gateTimeoutMs));
      modules = gated.passed;
      // An A/B run names its two modules among the implementations already: each once.
      params = { ...params, implementations: [...new Set([...params.implementations, ...modules.map((m) => m.info.id)])] };
      // The gate's rows for what is not timed; what passed is validated again with the rest.
      gateRows.push(...gated.validation.filter((r) => !modules.some((m) => m.info.id === r.implementation)));
      for (const r of gated.refused) {
        skipped.push(r);
        const w = `${r.what} refused: ${r.reason}`;
        warnings.push(w);
        hooks.onWarning?.(w);
      }
    }
    const urls = modules.map((m) => m.url);
    let remote = spawn();
    const info = await guard(remote.init(params, urls));
    // The clock (about 0.2 s) is estimated once, by the first worker: later ones are not asked.
    const reinit = { ...params, estimateClock: false };
    environment = await o.environment({ ...info, execution: await guard(remote.execution()) });
    if (environment.runtime === 'browser' && !environment.crossOriginIsolated) {
      const w = `not cross-origin isolated: timers are coarse (${info.timerResolutionMs.toFixed(3)} ms); samples are lengthened to 100× that`;
      warnings.push(w);
      hooks.onWarning?.(w);
    }
    if (environment.execution && environment.execution.mode !== 'standard') {
      const w = `execution mode: ${EXECUTION_LABELS[environment.execution.mode]}; this result is kept out of the crowd's medians`;
      warnings.push(w);
      hooks.onWarning?.(w);
    }
    progress.phase = 'validating';
    report();
    // Validation runs in its own worker, so every measuring worker starts from the same state.
    validation = [...(await guard(remote.validate(params.algorithms))), ...gateRows];
    hooks.onValidation?.(validation);
    for (const v of validation.filter((x) => x.excluded)) {
      const w = `${v.implementation} (${v.variant}) excluded for ${v.algorithm}: ${v.errors[0] ?? 'failed validation'}`;
      warnings.push(w);
      hooks.onWarning?.(w);
    }

    const planned = planCases(params, info.available, validation, o.payloadLimitBytes, info.unavailable);
    plan.push(...planned.plan);
    twin = aaTwin(plan);
    // What the worker measures: the plan, and the A/A twin beside its original.
    const measured = twin ? [...plan, twin] : plan;
    skipped.push(...planned.skipped);

    const { iterations } = samples;

    progress.phase = 'measuring';
    progress.total = plan.length * params.rounds;
    passCases.push(plan.length);
    measuringStarted.at = now();
    // What a round costs, to fit extra rounds in the budget: a fresh worker's start, then per case.
    let startMs = 0;
    let measureMs = 0;
    for (let r = 0; r < params.rounds; r++) {
      progress.round = r + 1;
      const t0 = now();
      remote = spawn();
      await guard(remote.init(reinit, urls));
      const t1 = now();
      startMs = Math.max(startMs, t1 - t0);
      samples.absorb(await guard(remote.measure(roundOrder(measured, r), { samples: params.samplesPerRound, minSampleMs: params.minSampleMs, iterations, firstCycle: r * CYCLES_PER_ROUND, groupBytes: GROUP_PAYLOADS * o.payloadLimitBytes, warmOnce: true })), false);
      measureMs += now() - t1;
      live();
      await recordInterference(remote);
    }
    // The stop rule (stop-rule.ts nextExtraRound): extra rounds of only what is unresolved —
    // the A/A pair, both sides of each undecided claim, cases whose median is not pinned down —
    // while the budget lasts. A case costs its share of a fresh worker, its warm-up and
    // calibration, then its samples, and a sample lasts from the target (2 ms) to one call of a
    // large payload (30 ms for noble at 1 MiB in Firefox). The overhead per case is what the
    // first rounds spent beyond their samples, a quarter more (a small round warms its code
    // paths for fewer cases), then what the extra rounds really spent.
    const sampleMsOf = (key: string) => {
      const m = samples.finished(key);
      return Math.max(sampleTargetMs(params.minSampleMs, environment!.timerResolutionMs), m ? (median(m.samples) * m.iterations) / 1e6 : 0);
    };
    const firstSamplesMs = measured.reduce((a, c) => a + params.rounds * params.samplesPerRound * sampleMsOf(c.key), 0);
    let overheadMs = (1.25 * Math.max(0, measureMs - firstSamplesMs)) / Math.max(1, measured.length * params.rounds);
    const keys = measured.map((c) => c.key);
    for (let extra = 0; extra < params.maxReruns; extra++) {
      const next = nextExtraRound(finish('complete', plan), keys, {
        leftMs: deadline - now() - startMs,
        overheadMs,
        sampleMs: sampleMsOf,
        have: (k) => samples.finished(k)?.samples.length ?? 0,
        samplesPerRound: params.samplesPerRound,
      });
      if (!next) break;
      const targets = measured.filter((c) => c.key in next.samplesFor);
      // Each extra round is counted on its own: n of the cases it measures again.
      progress.phase = 'rerunning';
      progress.round = params.rounds + extra + 1;
      progress.done = 0;
      progress.total = targets.filter((c) => !isAaTwin(c.key)).length;
      passCases.push(progress.total);
      measuringStarted.at = now();
      remote = spawn();
      await guard(remote.init(reinit, urls));
      const t1 = now();
      // What each case ran at once warm, so the fresh worker's warm-up can stop when it is there again.
      const warmNsPerOp = Object.fromEntries(targets.flatMap((c) => { const m = samples.finished(c.key); return m ? [[c.key, median(m.samples)]] : []; }));
      const samplesFor = next.samplesFor;
      const spentOnSamples = targets.reduce((a, c) => a + samplesFor[c.key]! * sampleMsOf(c.key), 0);
      samples.absorb(await guard(remote.measure(roundOrder(targets, params.rounds + extra), { samples: params.samplesPerRound, samplesFor, minSampleMs: params.minSampleMs, iterations, warmNsPerOp, firstCycle: (params.rounds + extra) * CYCLES_PER_ROUND, groupBytes: GROUP_PAYLOADS * o.payloadLimitBytes, warmOnce: true })), true);
      overheadMs = Math.max(overheadMs, (now() - t1 - spentOnSamples) / targets.length);
      live();
      await recordInterference(remote);
    }
    worker?.handle.terminate();
    worker = null;
    progress.phase = 'done';
    progress.current = null;
    progress.etaMs = 0;
    report();
    const doc = finish('complete', plan);
    return doc;
  };

  const done = run().catch((e) => {
    worker?.handle.terminate();
    worker = null;
    if (cancelled && environment) {
      progress.phase = 'cancelled';
      report();
      // Every case that finished, in any round, the unfinished round's included: what was on screen.
      return finish('cancelled', plan, samples.sofar);
    }
    throw e;
  });

  return {
    done,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      worker?.handle.terminate();
      cancelReject?.(new Error('cancelled'));
    },
    visibility(hidden: boolean) {
      void worker?.remote.visibility(hidden, performance.timeOrigin + performance.now()).catch(() => {});
    },
  };
}


/**
 * What this environment offers: every implementation × variant with the algorithms it really
 * has (feature-detected in a worker, as a run would), and the WASM features.
 */
export async function detectAvailable(createWorker: () => WorkerHandle, params: RunParams): Promise<{ available: Available[]; wasm: Environment['wasm']; timerResolutionMs: number }> {
  const handle = createWorker();
  try {
    // Every algorithm, so that no implementation is skipped for having nothing to do.
    const info = await connect<WorkerApi>(handle).init({ ...params, algorithms: [...ALGORITHM_IDS], wasm: 'both' });
    return { available: info.available, wasm: info.wasm, timerResolutionMs: info.timerResolutionMs };
  } finally {
    handle.terminate();
  }
}

