/**
 * Exposes `window.harness` to scripts/bench-harness.ts: run the engine with given parameters,
 * or a bare loop in a fresh worker, in this same page.
 */
import { browserEnvironment, payloadLimitBytes } from '../../core/platform/env.ts';
import { parseParams } from '../../core/params.ts';
import { startRun } from '../../core/run/runner.ts';
import type { ResultDocument } from '../../core/schema.ts';
import type { BareSpec } from './bare.worker.ts';

const harness = {
  engine(search: string): Promise<ResultDocument> {
    const { params } = parseParams(search);
    return startRun(params, {
      createWorker: () => new Worker(new URL('../../core/worker/bench.worker.ts', import.meta.url), { type: 'module' }),
      environment: browserEnvironment,
      payloadLimitBytes: payloadLimitBytes(null, false),
    }).done;
  },
  bare(spec: BareSpec): Promise<number[]> {
    const worker = new Worker(new URL('./bare.worker.ts', import.meta.url), { type: 'module' });
    return new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        worker.terminate();
        if (e.data.error) reject(new Error(e.data.error));
        else resolve(e.data.samples);
      };
      worker.postMessage(spec);
    });
  },
};

declare global {
  interface Window {
    harness?: typeof harness;
  }
}
window.harness = harness;
document.body.dataset.ready = 'true';
