/**
 * A module of yours in a thread of its own: the measuring worker starts a second benchmark
 * worker (the platform's `startThread`) that loads only that module, and measures it through a
 * backend whose calls, settling and timing happen there (PreparedCase.timeApart). The cycles
 * stay the measuring worker's: the module's samples still take turns with every other case of
 * their group, but what its calls leave in a heap (garbage, a collector's work) stays in its own.
 * In Node, beside asmcrypto.js in one thread noble's AES-128-GCM read 0.63 / 0.61 of its loop
 * alone at 64 B / 1 KiB, with a thread each taking the same turns 0.88 / 0.95; in Chromium the
 * cost crossed workers (bench:modules' neighbours tables; methodology.md, "A module of yours in
 * a thread of its own").
 * @module
 */
import type { RunParams } from '../schema.ts';
import type { Backend, PreparedCase } from '../implementations/shared.ts';
import { type Remote, type WorkerHandle, connect } from './rpc.ts';
import type { WorkerApi } from './api.ts';

/** A thread holding one module, and the backend that measures it there. */
export interface Apart {
  backend: Backend;
  stop(): void;
}

/**
 * Starts `handle` as the thread of the module at `url` (whose backend in this worker is
 * `local`: its id and algorithms), and returns the backend that prepares and times its cases
 * there. Rejects if the thread does not start or does not load the module.
 */
export async function startApart(handle: WorkerHandle, params: RunParams, local: Backend, url: string): Promise<Apart> {
  const remote: Remote<WorkerApi> = connect<WorkerApi>(handle);
  try {
    const info = await remote.init({ ...params, implementations: [local.implementation] as never, estimateClock: false }, [url]);
    const error = info.moduleErrors[0];
    if (error) throw new Error(error.message);
  } catch (e) {
    handle.terminate();
    throw e;
  }
  const backend: Backend = {
    ...local,
    async prepare(spec) {
      const { id, stateBytes } = await remote.prepareApart(spec as never);
      const prepared: PreparedCase = {
        stateBytes,
        run: (n) => remote.runApart(id, n),
        timeApart: (n, settle) => remote.timeApart(id, n, settle),
        dispose: () => void remote.disposeApart(id).catch(() => {}),
      };
      return prepared;
    },
  };
  return { backend, stop: () => handle.terminate() };
}
