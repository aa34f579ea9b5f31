/**
 * The run's scheduler on the page's side: which cases, in which order, in how many passes. It
 * never touches the DOM (Speedometer's rule): the page passes hooks and reports visibility. How
 * a pass is measured (a fresh worker, the guard, progress, live documents) is run/session.ts.
 * Each round runs in a fresh worker (a V8 instance now and then compiles a slower variant for
 * its whole life), cases are interleaved in an order shuffled every round so drift and
 * neighbours spread evenly, and what is unresolved is measured again.
 * @module
 */
import { ALGORITHM_IDS, isBuiltInImplementation, needsWasm } from '../tables/algorithms.ts';
import type { Environment, ResultDocument, RunParams, Validation } from '../schema.ts';
import { EXECUTION_LABELS } from '../execution.ts';
import { sampleTargetMs, settleBatches } from '../worker/measure.ts';
import { CYCLES_PER_ROUND, median } from '../stats.ts';
import { isAaTwin, nextExtraRound, wantsOvertime } from './stop-rule.ts';
import type { PlannedCase, WorkerApi } from '../worker/api.ts';
import { type WorkerHandle, connect } from '../worker/rpc.ts';
import { type Available, aaTwin, balanceTwin, orderForRound, planCases } from './plan.ts';
import { NothingPassedError, gateModules } from './gate.ts';
import { RunSession, type RunPlatform } from './session.ts';

export { toCaseResult } from './document.ts';
export { type Available, aaTwin, planCases, roundOrder } from './plan.ts';
export { type GatedModules, NOTHING_PASSED, NothingPassedError, gateModules } from './gate.ts';
export type { PartialDocument, Progress, RunHooks, RunPlatform } from './session.ts';
export type { WorkerHandle } from '../worker/rpc.ts';

/**
 * The run, phase by phase: gate the modules of yours, validate every implementation, plan the
 * cases, measure them in the first rounds, then in extra rounds while the stop rule asks, then
 * count the WebAssembly cases' operations in a worker of their own.
 */
export function startRun(asked: RunParams, platform: RunPlatform): RunHandle {
  const session = new RunSession(asked, platform);
  const run = async () => {
    session.report();
    const gateRows = await gate(session);
    const info = await prepare(session, gateRows);
    const measured = plan(session, info.available, info.unavailable);
    const first = await firstRounds(session, measured);
    await extraRounds(session, measured, first);
    await count(session);
    return session.complete();
  };
  return {
    done: run().catch((e) => session.failed(e)),
    cancel: () => session.cancel(),
    visibility: (hidden) => session.visibility(hidden),
  };
}

export interface RunHandle {
  done: Promise<ResultDocument>;
  cancel(): void;
  /** The page reports visibility changes; samples taken while hidden are discarded. */
  visibility(hidden: boolean): void;
}

/** A module's file name, as a progress line shows it (its URL's last part; the CLI's bundles carry a hash there). */
const moduleFile = (url: string) => url.split(/[?#]/)[0]!.split('/').pop() || url;

/**
 * Modules of yours, each gated in a worker of its own (run/gate.ts): those that pass join the
 * run's implementations; the rows of those that do not are returned for the validation table.
 */
async function gate(s: RunSession): Promise<Validation[]> {
  const { modules, createWorker, gateTimeoutMs } = s.platform;
  if (!modules?.length) return [];
  Object.assign(s.progress, { phase: 'gating', done: 0, total: modules.length });
  s.report();
  const gated = await s.guard(
    gateModules(createWorker, s.params, modules, gateTimeoutMs, (i, url) => {
      Object.assign(s.progress, { done: i, current: moduleFile(url) });
      s.report();
    }),
  );
  // Validation, next, counts no cases.
  Object.assign(s.progress, { done: 0, total: 0, current: null });
  s.modules = gated.passed;
  // An A/B run names its two modules among the implementations already: each once. Modules run
  // alone (builtIns) replace the preset's built-ins with only those named.
  const implementations = [...new Set([...(s.platform.builtIns ?? s.params.implementations), ...s.modules.map((m) => m.info.id)])];
  if (implementations.length === 0) {
    throw new NothingPassedError([
      ...gated.refused.map((r) => `${r.what}: ${r.reason}`),
      ...gated.validation.filter((v) => v.excluded).map((v) => `${v.implementation} ${v.algorithm}: ${v.errors[0] ?? 'failed validation'}`),
    ]);
  }
  s.params = { ...s.params, implementations };
  for (const r of gated.refused) {
    s.skipped.push(r);
    s.warn(`${r.what} refused: ${r.reason}`);
  }
  // The gate's rows for what is not timed; what passed is validated again with the rest.
  return gated.validation.filter((r) => !s.modules.some((m) => m.info.id === r.implementation));
}

/**
 * The first worker: the environment, with what it says about the run's conditions, and every
 * implementation validated. Validation has a worker of its own, so that every measuring worker
 * starts from the same state.
 */
async function prepare(s: RunSession, gateRows: Validation[]) {
  const { remote, info } = await s.freshWorker();
  const environment = await s.platform.environment({ ...info, execution: await s.guard(remote.execution()) });
  s.environment = environment;
  if (environment.runtime === 'browser' && !environment.crossOriginIsolated) {
    s.warn(`not cross-origin isolated: timers are coarse (${info.timerResolutionMs.toFixed(3)} ms); samples are lengthened to 100× that`);
  }
  if (environment.execution && environment.execution.mode !== 'standard') {
    s.warn(`execution mode: ${EXECUTION_LABELS[environment.execution.mode]}; this result is kept out of the crowd's medians`);
  }
  s.progress.phase = 'validating';
  s.report();
  s.validation = [...(await s.guard(remote.validate(s.params.algorithms))), ...gateRows];
  s.hooks.onValidation?.(s.validation);
  for (const v of s.validation.filter((x) => x.excluded))
    s.warn(`${v.implementation} (${v.variant}) excluded for ${v.algorithm}: ${v.errors[0] ?? 'failed validation'}`);
  return info;
}

/** The run's cases, and what the workers measure: the plan, and the A/A twin beside its original (in an A/B, the other side's too: plan.ts balanceTwin). */
function plan(s: RunSession, available: Available[], unavailable: Parameters<typeof planCases>[4]): PlannedCase[] {
  const planned = planCases(s.params, available, s.validation, s.platform.payloadLimitBytes, unavailable);
  s.plan.push(...planned.plan);
  s.skipped.push(...planned.skipped);
  s.twin = aaTwin(s.plan);
  const balance = balanceTwin(s.plan, s.twin, s.params.ab);
  return [...s.plan, ...(s.twin ? [s.twin] : []), ...(balance ? [balance] : [])];
}

/**
 * Exact counts beside the times: each WebAssembly case, counted in a fresh worker after the
 * timing is over; the worker counts those whose backend it could load counted (the cores) and
 * skips the rest (a platform that cannot count, or a run without such a case, skips the pass).
 */
async function count(s: RunSession): Promise<void> {
  // The built-ins whose code is WebAssembly, and every module of yours (the worker counts its WebAssembly, or says it has none).
  const counted = s.plan.filter((c) => needsWasm(c.implementation) || !isBuiltInImplementation(c.implementation));
  if (!counted.length || !s.platform.counts) return;
  s.progress.phase = 'counting';
  s.report();
  await s.count(counted);
}

/** What the first rounds cost: the slowest fresh worker's start, and their time measuring. */
interface FirstRounds {
  startMs: number;
  measureMs: number;
}

/** Every case in every round, each round in a fresh worker and its own order (run/plan.ts orderForRound). */
async function firstRounds(s: RunSession, measured: PlannedCase[]): Promise<FirstRounds> {
  const { rounds, samplesPerRound } = s.params;
  s.beginPass('measuring', s.plan.length * rounds, s.plan.length);
  const cost = { startMs: 0, measureMs: 0 };
  for (let r = 0; r < rounds; r++) {
    s.progress.round = r + 1;
    const pass = await s.measure(orderForRound(measured, r, s.params), { samples: samplesPerRound, firstCycle: r * CYCLES_PER_ROUND }, false);
    cost.startMs = Math.max(cost.startMs, pass.startMs);
    cost.measureMs += pass.measureMs;
  }
  return cost;
}

/**
 * The stop rule (stop-rule.ts nextExtraRound): extra rounds of only what is unresolved — the
 * A/A pair, both sides of each undecided claim, cases whose median is not pinned down — while
 * the budget lasts. A case costs its share of a fresh worker, its warm-up and calibration, then
 * its samples, and a sample lasts from the target (2 ms) to one call of a large payload (30 ms
 * for noble at 1 MiB in Firefox). The overhead per case is what the first rounds spent beyond
 * their samples, a quarter more (a small round warms its code paths for fewer cases), then what
 * the extra rounds really spent.
 */
async function extraRounds(s: RunSession, measured: PlannedCase[], first: FirstRounds): Promise<void> {
  const { params, samples } = s;
  // A sample's time, and a settling case's turn of its own before it (measure.ts settleBatches).
  const settling = new Set(measured.filter((c) => s.settles(c)).map((c) => c.key));
  const sampleMsOf = (key: string) => {
    const m = samples.finished(key);
    const ms = Math.max(sampleTargetMs(params.minSampleMs, s.environment!.timerResolutionMs), m ? (median(m.samples) * m.iterations) / 1e6 : 0);
    return settling.has(key) ? ms * (1 + settleBatches(ms)) : ms;
  };
  const firstSamplesMs = measured.reduce((a, c) => a + params.rounds * params.samplesPerRound * sampleMsOf(c.key), 0);
  let overheadMs = (1.25 * Math.max(0, first.measureMs - firstSamplesMs)) / Math.max(1, measured.length * params.rounds);
  const keys = measured.map((c) => c.key);
  for (let extra = 0; ; extra++) {
    const doc = s.document('complete');
    const plan = () =>
      nextExtraRound(doc, keys, {
        leftMs: s.leftMs() - first.startMs,
        overheadMs,
        sampleMs: sampleMsOf,
        have: (k) => samples.finished(k)?.samples.length ?? 0,
        samplesPerRound: params.samplesPerRound,
      });
    // In the overtime only while too much is unresolved, and for no more of it than that is worth.
    if (s.inOvertime) {
      const worth = wantsOvertime(doc);
      if (worth === 0) break;
      s.overtime(worth);
    }
    let next = extra < s.extraRoundsAllowed ? plan() : null;
    // Budget or rounds spent with too much unresolved: the overtime opens, once, with as many
    // extra rounds again (none to a run that asked for none).
    if (!next && !s.inOvertime && params.maxReruns > 0 && s.overtime(wantsOvertime(doc))) next = plan();
    if (!next) break;
    const { samplesFor } = next;
    const targets = measured.filter((c) => c.key in samplesFor);
    const round = params.rounds + extra;
    // Each extra round is counted on its own: n of the cases it measures again.
    s.progress.round = round + 1;
    const cases = targets.filter((c) => !isAaTwin(c.key)).length;
    s.beginPass('rerunning', cases, cases);
    // What each case ran at once warm, so the fresh worker's warm-up can stop when it is there again.
    const warmNsPerOp = Object.fromEntries(
      targets.flatMap((c) => {
        const m = samples.finished(c.key);
        return m ? [[c.key, median(m.samples)]] : [];
      }),
    );
    const spentOnSamples = targets.reduce((a, c) => a + samplesFor[c.key]! * sampleMsOf(c.key), 0);
    const pass = await s.measure(
      orderForRound(targets, round, params),
      { samples: params.samplesPerRound, samplesFor, warmNsPerOp, firstCycle: round * CYCLES_PER_ROUND },
      true,
    );
    overheadMs = Math.max(overheadMs, (pass.measureMs - spentOnSamples) / targets.length);
  }
}

/**
 * What this environment offers: every implementation × variant with the algorithms it really
 * has (feature-detected in a worker, as a run would), and the WASM features.
 */
export async function detectAvailable(
  createWorker: () => WorkerHandle,
  params: RunParams,
): Promise<{ available: Available[]; wasm: Environment['wasm']; timerResolutionMs: number }> {
  const handle = createWorker();
  try {
    // Every algorithm, so that no implementation is skipped for having nothing to do.
    const info = await connect<WorkerApi>(handle).init({ ...params, algorithms: [...ALGORITHM_IDS], wasm: 'both' });
    return { available: info.available, wasm: info.wasm, timerResolutionMs: info.timerResolutionMs };
  } finally {
    handle.terminate();
  }
}
