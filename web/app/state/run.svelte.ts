/**
 * The state of one benchmark run on the page. It runs it through `runBenchmark`, the entry the
 * npm package ships (which owns the worker, the payload limit and the visibility wiring),
 * keeps the screen awake on long runs, and publishes Speedometer-style automation hooks:
 * `window.aeadbench` and the `aeadbench:ready` / `aeadbench:done` / `aeadbench:error` events.
 */
import { runBenchmark, runBlocks, runScaling } from '../../core/browser.ts';
import type { BlockTiming } from '../../core/run/blocks.ts';
import { toHex } from '../../core/implementations/validate.ts';
import type { ScalingCase, ScalingPoint } from '../../core/run/scaling.ts';
import type { PartialDocument, Progress } from '../../core/run/runner.ts';
import type { Status } from '../../core/automation.ts';
import { type ShownClaim, type Verdict, noteShown, verdict } from '../../core/report/verdict.ts';
import { type ResultDocument, type RunParams, type Validation, validateResult } from '../../core/schema.ts';
import type { ImplementationId } from '../../core/tables/algorithms.ts';

export type { Automation, Status } from '../../core/automation.ts';

export class RunState {
  status = $state<Status>('idle');
  params = $state.raw<RunParams | null>(null);
  progress = $state.raw<Progress | null>(null);
  validation = $state.raw<Validation[]>([]);
  result = $state.raw<ResultDocument | null>(null);
  /** Live results while the run measures (about once a second); null once it ends. */
  partial = $state.raw<PartialDocument | null>(null);
  error = $state<string | null>(null);
  warnings = $state.raw<string[]>([]);
  hiddenDuringRun = $state(false);
  /** The verdict's claims as shown during the run, each with any reversal: published for scripts (bench:verdict counts them). */
  claimsShown: ShownClaim[] = [];
  /** The verdict of the live document, computed once per live view (Verdict.svelte shows it). */
  liveVerdict = $state.raw<Verdict | null>(null);

  #abort: AbortController | null = null;
  #wakeLock: { release(): Promise<void> } | null = null;
  // The engine hears about visibility itself (runBenchmark); this only tells the page and keeps the screen awake.
  #onVisibility = () => {
    if (document.hidden) this.hiddenDuringRun = true;
    else if (this.status === 'running') void this.#keepAwake();
  };

  constructor() {
    this.publish();
  }

  get running() {
    return this.status === 'running';
  }

  async #keepAwake() {
    try {
      const nav = navigator as Navigator & { wakeLock?: { request(t: 'screen'): Promise<{ release(): Promise<void> }> } };
      this.#wakeLock = (await nav.wakeLock?.request('screen')) ?? null;
    } catch {
      /* refused (battery saver, no user gesture): the run goes on, visibility is still tracked */
    }
  }

  /**
   * `modules`: modules of yours by URL (custom.ts), gated and timed beside `params`'
   * implementations, or beside only `builtIns` when given (a link's `alone=1`); `apart` a link's
   * `apart=1` (options.ts modulesApart).
   */
  async start(params: RunParams, modules: readonly string[] = [], builtIns?: readonly ImplementationId[], apart = false) {
    if (this.running) return;
    this.params = params;
    this.status = 'running';
    this.result = null;
    this.partial = null;
    this.error = null;
    this.validation = [];
    this.warnings = [];
    this.hiddenDuringRun = false;
    this.progress = null;
    this.claimsShown = [];
    this.liveVerdict = null;
    this.publish();
    document.addEventListener('visibilitychange', this.#onVisibility);
    if (params.preset !== 'quick') void this.#keepAwake();
    this.#abort = new AbortController();
    const started = performance.now();
    try {
      // The same entry the npm package ships: one payload limit, one mobile guess, one visibility wiring.
      const doc = await runBenchmark({
        ...params,
        implementations: [...(builtIns ?? params.implementations), ...modules],
        modulesAlone: builtIns !== undefined,
        modulesApart: apart,
        signal: this.#abort.signal,
        onProgress: (p) => {
          this.progress = p;
          if (window.aeadbench) window.aeadbench.progress = p;
        },
        onValidation: (v) => (this.validation = v),
        onWarning: (w) => (this.warnings = [...this.warnings, w]),
        onPartial: (d) => {
          this.liveVerdict = verdict(d, { live: true });
          this.partial = d;
          this.claimsShown = noteShown(this.claimsShown, this.liveVerdict.claims, performance.now() - started);
        },
      });
      const checked = validateResult(doc);
      if (!checked.ok) throw new Error(`result failed its own schema: ${checked.issues.slice(0, 3).join('; ')}`);
      if (doc.status === 'complete') this.claimsShown = noteShown(this.claimsShown, verdict(doc).claims, performance.now() - started);
      this.result = doc;
      this.status = doc.status === 'cancelled' ? 'cancelled' : 'done';
    } catch (e) {
      this.error = (e as Error).message;
      this.status = this.status === 'running' && (e as Error).message === 'cancelled' ? 'cancelled' : 'error';
    } finally {
      this.partial = null;
      this.liveVerdict = null;
      this.#abort = null;
      document.removeEventListener('visibilitychange', this.#onVisibility);
      void this.#wakeLock?.release().catch(() => {});
      this.#wakeLock = null;
      this.publish();
    }
  }

  /**
   * Adds what the page measured after the run — multi-core scaling, raw block timings — to its
   * result document, so that exports and submissions carry them (result@2).
   */
  attach(extra: { scaling?: NonNullable<ResultDocument['scaling']>[number]; blocks?: ResultDocument['blocks'] }) {
    const doc = this.result;
    if (!doc) return;
    const same = (a: { algorithm: string; implementation: string; operation: string; sizeBytes: number }) => (b: typeof a) =>
      a.algorithm === b.algorithm && a.implementation === b.implementation && a.operation === b.operation && a.sizeBytes === b.sizeBytes;
    this.result = {
      ...doc,
      ...(extra.scaling ? { scaling: [...(doc.scaling ?? []).filter((x) => !same(extra.scaling!)(x)), extra.scaling] } : {}),
      ...(extra.blocks ? { blocks: extra.blocks } : {}),
    };
    this.publish();
  }

  /**
   * Multi-core scaling of one case, by the engine's own workers (never a component's); the
   * curve joins this run's document when `attach` (the run is the study's own).
   */
  async scaling(c: ScalingCase, o: { maxWorkers: number; samples?: number; onPoint?: (p: ScalingPoint) => void }, attach: boolean): Promise<ScalingPoint[]> {
    const points = await runScaling(c, o);
    if (attach && c.operation === 'encrypt') this.attach({ scaling: { ...c, operation: 'encrypt', points } });
    return points;
  }

  /** Raw single-block timings of the AES finalists (the aes-candidates study), joined to the document when `attach`. */
  async blocks(attach: boolean): Promise<BlockTiming[]> {
    const blocks = await runBlocks();
    if (attach) this.attach({ blocks });
    return blocks;
  }

  /**
   * The lightweight-iot study's unlock token sealed with Ascon-AEAD128 from the WASM cores, opened, then opened
   * again with one ciphertext bit flipped, which must fail.
   */
  async unlockDemo(): Promise<{ token: string; aad: string; sealed: string; opened: string; tampered: string }> {
    // Loaded on demand: the platform module carries every build's info, not needed on first load.
    const { browserPlatform } = await import('../../core/worker/platform-browser.ts');
    const cores = await browserPlatform.loadCores('baseline');
    const enc = new TextEncoder();
    const token = `UNLOCK:BIKE-0042:${Math.floor(Date.now() / 1000)}`;
    const aad = 'ACME:BIKE-0042';
    const key = crypto.getRandomValues(new Uint8Array(16));
    const nonce = crypto.getRandomValues(new Uint8Array(16));
    const sealed = cores.encrypt('ascon-aead128', key, nonce, enc.encode(aad), enc.encode(token));
    const opened = new TextDecoder().decode(cores.decrypt('ascon-aead128', key, nonce, enc.encode(aad), sealed));
    const forged = sealed.slice();
    forged[0]! ^= 1;
    let tampered: string;
    try {
      cores.decrypt('ascon-aead128', key, nonce, enc.encode(aad), forged);
      tampered = 'ACCEPTED — this must never happen';
    } catch (e) {
      tampered = `rejected: ${(e as { message?: string }).message ?? e}`;
    }
    return { token, aad, sealed: toHex(sealed), opened, tampered };
  }

  cancel() {
    this.#abort?.abort();
  }

  /** Shows an error that happened before any run (e.g. a bad URL parameter). */
  fail(message: string) {
    this.status = 'error';
    this.error = message;
    this.publish();
  }

  publish() {
    window.aeadbench = {
      status: this.status,
      params: this.params,
      result: this.result,
      error: this.error,
      validation: this.validation,
      progress: this.progress,
      claimsShown: this.claimsShown,
    };
    const event = this.status === 'done' || this.status === 'cancelled' ? 'aeadbench:done' : this.status === 'error' ? 'aeadbench:error' : null;
    if (event) window.dispatchEvent(new CustomEvent(event, { detail: window.aeadbench }));
  }
}
