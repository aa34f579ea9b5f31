/**
 * One run's state on the page's side, and how it measures: one worker at a time (a fresh one
 * per pass), the guard every await goes through so that cancel ends the run at once, progress
 * and its estimate, the samples of every pass, the live documents, the warnings. The scheduler
 * (runner.ts) decides what to measure and in which order; the session knows how.
 * @module
 */
import { type CaseResult, type Environment, type ResultDocument, type RunParams, type Validation, caseKey } from '../schema.ts';
import { summarize } from '../stats.ts';
import { caseResolved, isAaTwin, mostExtraRounds } from './stop-rule.ts';
import type { CaseCount, InterferenceRecord, MeasuredCase, PlannedCase, WorkerApi, WorkerEvent } from '../worker/api.ts';
import { type Remote, type WorkerHandle, connect } from '../worker/rpc.ts';
import type { WorkerFacts } from '../platform/env.ts';
import { type ImplementationId, isDense, settles } from '../tables/algorithms.ts';
import { RunSamples } from './samples.ts';
import { type PassHistory, remainingMs } from './estimate.ts';
import { assembleDocument, toCaseResult } from './document.ts';
import type { GatedModules } from './gate.ts';
import type { ThreadFailed, ThreadPort } from '../worker/page-thread.ts';

export interface Progress {
  /** 'gating': modules of yours, one by one (done/total count modules, current names the file). */
  phase: 'starting' | 'gating' | 'validating' | 'measuring' | 'rerunning' | 'counting' | 'done' | 'cancelled';
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

/**
 * A run's document while it runs: for display only, never exported or submitted. `awaiting`:
 * the payload sizes of planned cases with nothing measured yet (the live verdict makes no
 * statement that rests on them).
 */
export type PartialDocument = Omit<ResultDocument, 'status'> & { status: 'running'; awaiting: number[] };

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
  /**
   * When given, exactly these built-ins run beside the modules that pass the gate (none: the
   * modules alone), whatever the parameters' implementations say (options.ts builtInsOf).
   */
  builtIns?: readonly ImplementationId[];
  /** Count each WASM case's executed operations in a worker of its own after the timing (worker/api.ts count); off unless asked. */
  counts?: boolean;
  /** true: modules of yours, and the built-ins whose calls are JavaScript's, each in a thread of its own (worker/apart.ts); else all in the measuring thread. */
  modulesApart?: boolean;
}

/** What one pass asks of its worker beyond what the session fills in itself. */
export type PassOptions = Pick<Parameters<WorkerApi['measure']>[1], 'samples' | 'samplesFor' | 'warmNsPerOp' | 'firstCycle'>;

/**
 * A comparison group holds at most this many of the device's largest payloads at once (each
 * case about three copies): at 1 MiB every compared case is interleaved; at the device's
 * limit, one at a time (then those sizes have no paired ratios, and the result says so).
 */
const GROUP_PAYLOADS = 3;

export class RunSession {
  /** The run's parameters: what was asked, then with the ids of the modules that passed the gate. */
  params: RunParams;
  modules: GatedModules['passed'] = [];
  environment: Environment | null = null;
  validation: Validation[] = [];
  readonly plan: PlannedCase[] = [];
  /** The A/A check's twin of a planned case: measured beside it, not a case of the result. */
  twin: PlannedCase | null = null;
  /** Each WASM case's count from the counting pass (count()), by case key. */
  counts: Record<string, CaseCount> = {};
  readonly samples = new RunSamples();
  readonly skipped: ResultDocument['skipped'] = [];
  readonly warnings: string[] = [];
  readonly progress: Progress;
  /** What the run's estimate learns from (estimate.ts). */
  readonly history: PassHistory = { firstPass: { done: 0, unresolved: 0 }, passCases: [] };
  readonly interference: InterferenceRecord = { opsPerProbe: 0, cycles: [], probeMs: [] };
  readonly hooks: RunHooks;
  readonly now: () => number;
  readonly #startedAt: number;
  readonly #createdAt = new Date().toISOString();
  readonly #runId: string;
  #deadline: number;
  #overtime = false;
  #worker: { handle: WorkerHandle; remote: Remote<WorkerApi> } | null = null;
  /** The modules' threads the worker asked the page for (a browser's: worker/page-thread.ts), by its id for them. */
  #threads = new Map<number, WorkerHandle>();
  /** The clock (about 0.2 s) is estimated once, by the first worker: later ones are not asked. */
  #clockEstimated = false;
  #cancelled = false;
  #rejectCancelled: (e: Error) => void = () => {};
  readonly #cancelledPromise = new Promise<never>((_, reject) => (this.#rejectCancelled = reject));
  /** When the current pass began: its rate drives the estimate. */
  #passStartedAt = 0;
  #lastPartial = -Infinity;
  /** Each planned case's key → the keys of its payload size not measured yet (live): a size's last case shows at once. */
  #unmeasured: Map<string, Set<string>> | null = null;

  constructor(
    asked: RunParams,
    readonly platform: RunPlatform,
  ) {
    this.params = asked;
    this.now = platform.now ?? (() => performance.now());
    this.hooks = platform.hooks ?? {};
    this.#startedAt = this.now();
    this.#runId = (platform.randomUUID ?? (() => crypto.randomUUID()))();
    this.#deadline = asked.budgetMs === undefined ? Infinity : this.#startedAt + asked.budgetMs;
    this.#cancelledPromise.catch(() => {});
    this.progress = { phase: 'starting', round: 0, rounds: asked.rounds, done: 0, total: 0, current: null, etaMs: null };
  }

  report(): void {
    this.hooks.onProgress?.({ ...this.progress });
  }

  warn(message: string): void {
    this.warnings.push(message);
    this.hooks.onWarning?.(message);
  }

  /** `p`, or a rejection as soon as the run is cancelled. */
  guard<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.#cancelledPromise]);
  }

  /** What is left of the run's budget (Infinity without one). */
  leftMs(): number {
    return this.#deadline - this.now();
  }

  /** Whether the run has gone past its budget into its overtime (stop-rule.ts wantsOvertime). */
  get inOvertime(): boolean {
    return this.#overtime;
  }

  /** How many extra rounds the run may take now: `maxReruns`, and in its overtime as many again (stop-rule.ts mostExtraRounds). */
  get extraRoundsAllowed(): number {
    return this.#overtime ? mostExtraRounds(this.params) : this.params.maxReruns;
  }

  /**
   * Sets the end of the run `share` of `params.overtimeMs` past its budget (stop-rule.ts
   * wantsOvertime). The first call with time to give opens the overtime (the runner asks when
   * the budget is spent with too much unresolved); later ones only bring the end in, when what
   * is left is worth less of it than what opened it (the cases resolved, a claim not yet).
   * False when it gives no time.
   */
  overtime(share: number): boolean {
    const ms = Math.round(share * (this.params.overtimeMs ?? 0));
    if (this.params.budgetMs === undefined || (!this.#overtime && ms <= 0)) return false;
    const end = this.#startedAt + this.params.budgetMs + ms;
    if (this.#overtime) this.#deadline = Math.min(this.#deadline, end);
    else this.#deadline = end;
    const opened = !this.#overtime;
    this.#overtime = true;
    return opened;
  }

  /** A fresh worker (the previous one stopped), initialised with the run's parameters and modules (`count`: for the counting pass). */
  async freshWorker(o: { count?: boolean } = {}): Promise<{ remote: Remote<WorkerApi>; info: Awaited<ReturnType<WorkerApi['init']>> }> {
    this.#stopWorker();
    const handle = this.platform.createWorker();
    const remote = connect<WorkerApi>(handle, (e) => this.#event(e as WorkerEvent));
    this.#worker = { handle, remote };
    const params = this.#clockEstimated ? { ...this.params, estimateClock: false } : this.params;
    this.#clockEstimated = true;
    const info = await this.guard(
      remote.init(
        params,
        this.modules.map((m) => m.url),
        o,
      ),
    );
    return { remote, info };
  }

  /** A pass begins (the first rounds together, or one extra round): its cases are counted on their own. */
  beginPass(phase: 'measuring' | 'rerunning', total: number, cases: number): void {
    Object.assign(this.progress, { phase, done: 0, total });
    this.history.passCases.push(cases);
    this.#passStartedAt = this.now();
    // Said as it begins: its fresh worker and a module's threads start before any case ends.
    this.report();
  }

  /**
   * Whether a case takes a turn of its own before each sample (measure.ts SETTLE_MS): one whose
   * calls are not WebAssembly's (tables settles), except in an A/B, whose two sides take turns
   * alike and whose budget buys samples, not settling.
   */
  settles(c: PlannedCase): boolean {
    return !this.params.ab && settles(c.implementation);
  }

  /**
   * Whether modules of yours, and with them every built-in whose calls are JavaScript's, are each
   * measured in a thread of its own (worker/apart.ts): only when asked (RunOptions.modulesApart),
   * never in an A/B. By default everything compared shares the measuring thread, one condition
   * for a module and the built-in it is held against (docs/decisions/002-one-condition.md).
   */
  get apart(): boolean {
    return !this.params.ab && this.platform.modulesApart === true;
  }

  /**
   * One worker's pass over `cases`, in that order: its samples join the run's, and its
   * interference record the run's. Returns how long the fresh worker took to start, and then
   * to measure.
   */
  async measure(cases: PlannedCase[], options: PassOptions, rerun: boolean): Promise<{ startMs: number; measureMs: number }> {
    const t0 = this.now();
    const { remote } = await this.freshWorker();
    const t1 = this.now();
    const measureOptions = {
      ...options,
      minSampleMs: this.params.minSampleMs,
      iterations: this.samples.iterations,
      groupBytes: GROUP_PAYLOADS * this.platform.payloadLimitBytes,
      warmOnce: true,
      settling: cases.filter((c) => this.settles(c)).map((c) => c.key),
      apart: this.apart,
    };
    this.samples.absorb(await this.guard(remote.measure(cases, measureOptions)), rerun);
    const measureMs = this.now() - t1;
    this.live();
    const r = await this.guard(remote.interference());
    this.interference.opsPerProbe ||= r.opsPerProbe;
    this.interference.cycles.push(...r.cycles);
    this.interference.probeMs.push(...r.probeMs);
    return { startMs: t1 - t0, measureMs };
  }

  /**
   * The counting pass: a fresh worker of its own loads the WebAssembly counted and runs each
   * case a few messages (worker/api.ts count). The timed workers never run the counted copy.
   * A case whose count fails is named in a warning; the run keeps its times. A module of
   * yours with nothing to count (JavaScript) is named once.
   */
  async count(cases: PlannedCase[]): Promise<void> {
    const { remote } = await this.freshWorker({ count: true });
    this.counts = await this.guard(remote.count(cases));
    const nothing = new Map<string, string>();
    for (const [key, c] of Object.entries(this.counts)) {
      if ('error' in c) this.warn(`${key}: no count: ${c.error}`);
      if ('none' in c) nothing.set(cases.find((x) => x.key === key)!.implementation, c.none);
    }
    for (const [id, why] of nothing) this.warn(`module ${id}: no count: ${why}`);
  }

  /** The document from the samples measured so far (`measured`: what to read each case's from). */
  document(status: 'complete' | 'cancelled', measured = this.samples.finished): ResultDocument {
    return assembleDocument({
      status,
      plan: this.plan,
      twin: this.twin,
      measured,
      counts: this.counts,
      params: this.params,
      environment: this.environment!,
      validation: this.validation,
      skipped: this.skipped,
      warnings: this.warnings,
      interference: this.interference,
      modules: this.modules.map((m) => m.info),
      runId: this.#runId,
      createdAt: this.#createdAt,
      // Whole milliseconds: a clock's sum printed 41258.52000000002 in the review of what is sent.
      durationMs: Math.round(this.now() - this.#startedAt),
    });
  }

  /** The run is over: its worker stopped, progress done, its document. */
  complete(): ResultDocument {
    this.#stopWorker();
    Object.assign(this.progress, { phase: 'done', current: null, etaMs: 0 });
    this.report();
    return this.document('complete');
  }

  /**
   * The run threw. If it was cancelled, its document keeps every case that finished, in any
   * round, the unfinished round's included: what was on screen. Anything else is rethrown.
   */
  failed(e: unknown): ResultDocument {
    this.#stopWorker();
    if (this.#cancelled && this.environment) {
      this.progress.phase = 'cancelled';
      this.report();
      return this.document('cancelled', this.samples.sofar);
    }
    throw e;
  }

  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#stopWorker();
    this.#rejectCancelled(new Error('cancelled'));
  }

  /** The page reports visibility changes; samples taken while hidden are discarded. */
  visibility(hidden: boolean): void {
    void this.#worker?.remote.visibility(hidden, performance.timeOrigin + performance.now()).catch(() => {});
  }

  /**
   * Whether `key` was the last of its payload size's planned cases with nothing measured yet.
   * Never in a dense run: there a size is a handful of cases and 2,048 of them would each draw
   * the whole table at once (a dense run of two algorithms took 185 s, 30 s without), and no claim
   * waits on one.
   */
  #completesSize(key: string): boolean {
    if (!this.#unmeasured) {
      // Built at the first case measured (the plan is known by then), that case counted as unmeasured;
      // empty for a dense run, so that no case of it completes a size.
      const bySize = new Map<number, Set<string>>();
      this.#unmeasured = new Map();
      for (const c of isDense(this.params.sizes.length) ? [] : this.plan) {
        if (this.samples.sofar(c.key) && c.key !== key) continue;
        const left = bySize.get(c.sizeBytes) ?? new Set<string>();
        bySize.set(c.sizeBytes, left.add(c.key));
        this.#unmeasured.set(c.key, left);
      }
    }
    const left = this.#unmeasured.get(key);
    return left?.delete(key) === true && left.size === 0;
  }

  /** Stops the worker, and the threads it had the page start for it. */
  #stopWorker(): void {
    this.#worker?.handle.terminate();
    this.#worker = null;
    for (const t of this.#threads.values()) t.terminate();
    this.#threads.clear();
  }

  /**
   * A module's thread the worker asked for (page-thread.ts): a benchmark worker that answers
   * over `port`. If it fails, the worker is told, and its calls to it fail instead of waiting.
   */
  #startThread(id: number, port: MessagePort): void {
    const owner = this.#worker?.handle;
    const thread = this.platform.createWorker();
    this.#threads.set(id, thread);
    thread.addEventListener('error', (e) => {
      const failed: ThreadFailed = { threadFailed: id, message: e?.message || 'it could not be loaded' };
      owner?.postMessage(failed);
    });
    const handed: ThreadPort = { threadPort: port };
    thread.postMessage(handed, [port]);
  }

  #event(ev: WorkerEvent): void {
    // Each pass's worker says it again: the run says it once.
    if (ev.type === 'warning') return void (this.warnings.includes(ev.message) || this.warn(ev.message));
    if (ev.type === 'thread') return this.#startThread(ev.id, ev.port);
    if (ev.type === 'thread-stop') {
      this.#threads.get(ev.id)?.terminate();
      return void this.#threads.delete(ev.id);
    }
    const { progress } = this;
    if (ev.type === 'case-start') progress.current = ev.key;
    // The A/A twin is not a case of the result: progress counts what the result will hold.
    if (ev.type === 'case-done' && !isAaTwin(ev.key)) {
      progress.done++;
      const { firstPass } = this.history;
      if (progress.phase === 'measuring' && ev.measured) {
        firstPass.done++;
        if (!caseResolved({ summary: summarize(ev.measured.samples) })) firstPass.unresolved++;
      }
      const t = this.now();
      const phase = progress.phase === 'rerunning' ? 'rerunning' : 'measuring';
      const { rounds } = this.params;
      progress.etaMs = remainingMs({
        ...progress,
        phase,
        rounds,
        maxReruns: this.extraRoundsAllowed,
        elapsedMs: t - this.#passStartedAt,
        history: this.history,
        untilDeadlineMs: this.#deadline - t,
      });
      if (ev.measured) this.live(ev.measured);
    }
    this.report();
  }

  /** Live results: this pass's samples of each finished case, beside the earlier passes' ones. */
  live(m?: MeasuredCase): void {
    // Recorded even without a live view: a cancelled run keeps every case that finished.
    if (m) this.samples.finishedNow(m);
    if (m && this.hooks.onCase && !isAaTwin(m.key)) {
      const c = this.plan.find((x) => x.key === m.key);
      const sofar = this.samples.sofar(m.key);
      if (c && sofar) this.hooks.onCase(toCaseResult(c, sofar, this.params, this.environment?.timerResolutionMs));
    }
    if (!this.hooks.onPartial) return;
    const t = this.now();
    // A finished pass (no case given) always shows; single cases at most every liveEveryMs.
    // A second apart, longer for large plans (the dense preset's 8,192 cases: 8 s), so that
    // summarising and drawing stay a small share of the page's time. The last case of a payload
    // size shows at once: the live verdict speaks of a size only once all of it is in
    // (PartialDocument.awaiting), and the first claim waited up to a second for the throttle.
    if (m && !this.#completesSize(m.key) && t - this.#lastPartial < (this.platform.liveEveryMs ?? Math.max(1000, this.plan.length))) return;
    this.#lastPartial = t;
    const doc = this.document('complete', this.samples.sofar);
    const shown = new Set(doc.cases.map(caseKey));
    const awaiting = [...new Set(this.plan.filter((c) => !shown.has(c.key)).map((c) => c.sizeBytes))].sort((a, b) => a - b);
    this.hooks.onPartial({ ...doc, status: 'running', awaiting });
  }
}
