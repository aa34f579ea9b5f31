/**
 * The state of one benchmark run on the page. It owns the run handle (and through it the
 * worker), keeps the screen awake on long runs, reports page visibility to the engine, and
 * publishes Speedometer-style automation hooks: `window.aeadbench` and the
 * `aeadbench:ready` / `aeadbench:done` / `aeadbench:error` events.
 */
import { browserEnvironment, payloadLimitBytes } from '../../core/env.ts';
import { type Progress, type RunHandle, startRun } from '../../core/runner.ts';
import type { Status } from '../../core/automation.ts';
import { type ResultDocument, type RunParams, type Validation, validateResult } from '../../core/schema.ts';

export type { Automation, Status } from '../../core/automation.ts';

function createWorker() {
  return new Worker(new URL('../../core/worker/bench.worker.ts', import.meta.url), { type: 'module', name: 'aeadbench' });
}

export class RunState {
  status = $state<Status>('idle');
  params = $state.raw<RunParams | null>(null);
  progress = $state.raw<Progress | null>(null);
  validation = $state.raw<Validation[]>([]);
  result = $state.raw<ResultDocument | null>(null);
  error = $state<string | null>(null);
  warnings = $state.raw<string[]>([]);
  hiddenDuringRun = $state(false);

  #handle: RunHandle | null = null;
  #wakeLock: { release(): Promise<void> } | null = null;
  #onVisibility = () => {
    this.#handle?.visibility(document.hidden);
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

  async start(params: RunParams) {
    if (this.running) return;
    this.params = params;
    this.status = 'running';
    this.result = null;
    this.error = null;
    this.validation = [];
    this.warnings = [];
    this.hiddenDuringRun = false;
    this.progress = null;
    this.publish();
    document.addEventListener('visibilitychange', this.#onVisibility);
    if (params.preset !== 'quick') void this.#keepAwake();
    const mobile = /Mobi|Android|iPhone|iPad/.test(navigator.userAgent);
    const deviceMemory = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? null;
    this.#handle = startRun(params, {
      createWorker,
      environment: browserEnvironment,
      payloadLimitBytes: payloadLimitBytes(deviceMemory, mobile),
      hooks: {
        onProgress: (p) => {
          this.progress = p;
          if (window.aeadbench) window.aeadbench.progress = p;
        },
        onValidation: (v) => (this.validation = v),
        onWarning: (w) => (this.warnings = [...this.warnings, w]),
      },
    });
    try {
      const doc = await this.#handle.done;
      const checked = validateResult(doc);
      if (!checked.ok) throw new Error(`result failed its own schema: ${checked.issues.slice(0, 3).join('; ')}`);
      this.result = doc;
      this.status = doc.status === 'cancelled' ? 'cancelled' : 'done';
    } catch (e) {
      this.error = (e as Error).message;
      this.status = this.status === 'running' && (e as Error).message === 'cancelled' ? 'cancelled' : 'error';
    } finally {
      this.#handle = null;
      document.removeEventListener('visibilitychange', this.#onVisibility);
      void this.#wakeLock?.release().catch(() => {});
      this.#wakeLock = null;
      this.publish();
    }
  }

  cancel() {
    this.#handle?.cancel();
  }

  /** Shows an error that happened before any run (e.g. a bad URL parameter). */
  fail(message: string) {
    this.status = 'error';
    this.error = message;
    this.publish();
  }

  publish() {
    window.aeadbench = { status: this.status, params: this.params, result: this.result, error: this.error, validation: this.validation, progress: this.progress };
    const event = this.status === 'done' || this.status === 'cancelled' ? 'aeadbench:done' : this.status === 'error' ? 'aeadbench:error' : null;
    if (event) window.dispatchEvent(new CustomEvent(event, { detail: window.aeadbench }));
  }
}
