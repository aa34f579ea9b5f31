/**
 * Exposes `window.harness` to lab/bench/bench-harness.ts and bench-modules.ts: run the engine with
 * given parameters (modules of yours by `module=`), or a bare or plain loop in a fresh worker, in
 * this same page.
 */
import { browserEnvironment, payloadLimitBytes } from '../../web/core/platform/env.ts';
import { parseParams } from '../../web/core/params.ts';
import { startRun } from '../../web/core/run/runner.ts';
import type { ResultDocument } from '../../web/core/schema.ts';
import type { BareSpec } from './bare.worker.ts';
import { type Apart, type PlainFigures, type PlainSpec, mergedFigures, workerSpecs } from './plain-loop.mjs';

/** One message to a fresh worker, its one answer (or its error) back. */
function once<T>(worker: Worker, spec: unknown, pick: (data: Record<string, unknown>) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      worker.terminate();
      if (e.data.error) reject(new Error(e.data.error));
      else resolve(pick(e.data));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message));
    };
    worker.postMessage(spec);
  });
}

const harness = {
  /** The engine's run of `search` (with `alone=1`, its modules without the preset's built-ins; `o.modulesApart` as RunOptions'). */
  engine(search: string, o: { modulesApart?: boolean } = {}): Promise<ResultDocument> {
    const { params, modules, builtIns } = parseParams(search);
    return startRun(params, {
      builtIns,
      createWorker: () => new Worker(new URL('../../web/core/worker/bench.worker.ts', import.meta.url), { type: 'module' }),
      environment: browserEnvironment,
      payloadLimitBytes: payloadLimitBytes(null, false),
      modules: modules.map((u) => new URL(u, location.href).href),
      modulesApart: o.modulesApart,
    }).done;
  },
  bare(spec: BareSpec): Promise<number[]> {
    return once(new Worker(new URL('./bare.worker.ts', import.meta.url), { type: 'module' }), spec, (d) => d.samples as number[]);
  },
  /**
   * The plain loop of bench:modules: bytes per second by `name|algorithm|size` (plain-loop.mjs);
   * with `apart` (and `interleaveMs`), in workers of their own (workerSpecs), the workers taking turns.
   */
  async plain(spec: PlainSpec, o: { apart?: Apart } = {}): Promise<PlainFigures> {
    const subjects = spec.subjects.map((s) => ({ ...s, module: s.module === 'noble' ? s.module : new URL(s.module, location.href).href }));
    const parts = workerSpecs({ ...spec, subjects }, o.apart).map((one) =>
      once(new Worker(new URL('./plain.worker.ts', import.meta.url), { type: 'module' }), one, (d) => d as unknown as PlainFigures),
    );
    return mergedFigures(await Promise.all(parts));
  },
};

declare global {
  interface Window {
    harness?: typeof harness;
  }
}
window.harness = harness;
document.body.dataset.ready = 'true';
