/**
 * A module of yours in a thread of its own: the measuring worker starts a second benchmark
 * worker (the platform's `startThread`) that loads only that module, and measures it through a
 * backend whose calls, settling and timing happen there (PreparedCase.timeApart). The cycles
 * stay the measuring worker's: the module's samples still take turns with every other case of
 * their group, but what its calls leave in a heap (garbage, a collector's work) stays in its own.
 * Where modules are apart, so is every built-in that runs JavaScript (api.ts threadsApart): what
 * is compared is measured under one condition (docs/decisions/002-one-condition.md).
 * In Node, beside asmcrypto.js in one thread noble's AES-128-GCM read 0.63 / 0.61 of its loop
 * alone at 64 B / 1 KiB, with a thread each taking the same turns 0.88 / 0.95; in Chromium the
 * cost crossed workers (bench:modules' neighbours tables; methodology.md, "A module of yours in
 * a thread of its own").
 * @module
 */
import type { RunParams } from '../schema.ts';
import type { Backend, PreparedCase, Settle } from '../implementations/shared.ts';
import type { PlannedCase } from './types.ts';

export { apartWithModules } from '../tables/algorithms.ts';

/** An implementation's thread is keyed by its id and variant (a built-in may have several variants). */
export const apartKey = (c: Pick<PlannedCase, 'implementation' | 'variant'>): string => `${c.implementation}/${c.variant}`;
import { LATE, type Remote, deadline } from './rpc.ts';

/**
 * What a module's thread answers: the methods of the benchmark worker's API (api.ts) that
 * measure apart. The measuring worker passes its connection to the thread typed as the whole
 * API, so the compiler holds the two to each other.
 */
export type ApartThread = {
  init(params: RunParams, modules: readonly string[], o: { bare: boolean }): Promise<{ moduleErrors: { url: string; message: string }[] }>;
  prepareApart(c: PlannedCase): Promise<{ id: number; stateBytes: number | null }>;
  timeApart(id: number, n: number, settle: Settle): Promise<{ ms: number; isAsync: boolean }>;
  disposeApart(id: number): void;
};

/** A thread holding one module, and the backend that measures it there. */
export interface Apart {
  backend: Backend;
  stop(): void;
}

/**
 * How long a module's thread may take to load it. The gate (run/gate.ts) already loaded the same
 * module in a worker within its own limit, so a thread that does not answer in this long is
 * stuck (a worker that never started, a nested worker the browser starves), not slow.
 */
export const START_LIMIT_MS = 120_000;

/**
 * Makes `remote` (a fresh worker; `stop` ends it) the thread of the module at `url` (whose
 * backend in this worker is `local`: its id and algorithms), and returns the backend that
 * prepares and times its cases there. Rejects, the worker stopped, if it does not load the
 * module, fails, or does not answer within `limitMs`.
 */
export async function startApart(
  remote: Remote<ApartThread>,
  stop: () => void,
  params: RunParams,
  local: Backend,
  url: string | null,
  limitMs = START_LIMIT_MS,
): Promise<Apart> {
  try {
    // Bare: the thread times one implementation and nothing else, so it loads no WebAssembly cores (clock, probe, gate).
    // `url` null: a built-in, which the thread loads by its id.
    const info = await deadline(
      remote.init({ ...params, implementations: [local.implementation] as never, estimateClock: false }, url === null ? [] : [url], { bare: true }),
      limitMs,
    );
    if (info === LATE) throw new Error(`it did not load ${url === null ? local.implementation : 'the module'} within ${limitMs / 1000} s`);
    const error = info.moduleErrors[0];
    if (error) throw new Error(error.message);
  } catch (e) {
    stop();
    throw e;
  }
  const backend: Backend = {
    ...local,
    async prepare(spec) {
      const { id, stateBytes } = await remote.prepareApart(spec as never);
      const prepared: PreparedCase = {
        stateBytes,
        // Every call of it is timed there (measure.ts timed): an untimed one too.
        run: async (n) => void (await remote.timeApart(id, n, null)),
        timeApart: (n, settle) => remote.timeApart(id, n, settle),
        dispose: () => void remote.disposeApart(id).catch(() => {}),
      };
      return prepared;
    },
  };
  return { backend, stop };
}
