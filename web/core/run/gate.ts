/**
 * The gate for modules of yours (gate.ts), run before anything is timed: each module in a
 * worker of its own, beside only the reference (RustCrypto), so that one that does not load,
 * throws, or never returns costs the run nothing but itself.
 * @module
 */
import type { CustomImplementationId } from '../tables/algorithms.ts';
import { CUSTOM_VARIANT, type ModuleInfo } from '../implementations/custom.ts';
import type { RunParams, Validation } from '../schema.ts';
import type { WorkerApi } from '../worker/api.ts';
import { LATE, type WorkerHandle, connect, deadline } from '../worker/rpc.ts';

/** What the gate decided about the modules of a run. */
export interface GatedModules {
  /** The modules that passed for at least one of the run's algorithms: timed with the built-ins. */
  passed: { url: string; info: ModuleInfo }[];
  /** A row per module × algorithm, `excluded` with the first failure. */
  validation: Validation[];
  /** Modules that could not be gated at all (did not load, broke the contract, declared nothing asked). */
  refused: { what: string; reason: string }[];
}

/**
 * The gate for modules of yours, before anything is timed: each module in a worker of its own,
 * so that one that does not load, throws, or never returns (synchronous code cannot be
 * interrupted: its worker is stopped after `timeoutMs`) costs the run nothing but itself.
 */
export async function gateModules(
  createWorker: () => WorkerHandle,
  params: RunParams,
  urls: readonly string[],
  timeoutMs = 120_000,
  /** Called as each module's gate begins (its index in `urls`), so a log can say which one a slow gate is on. */
  onModule: (index: number, url: string) => void = () => {},
): Promise<GatedModules> {
  const out: GatedModules = { passed: [], validation: [], refused: [] };
  // The gate's worker loads only the reference (RustCrypto, baseline) beside the module.
  const gateParams: RunParams = { ...params, implementations: ['rustcrypto-wasm'], wasm: 'baseline', estimateClock: false };
  for (const [index, url] of urls.entries()) {
    onModule(index, url);
    const handle = createWorker();
    try {
      const remote = connect<WorkerApi>(handle);
      const info = await deadline(remote.init(gateParams, [url]), timeoutMs, () => handle.terminate()).catch((e: Error) => e);
      if (info === LATE) {
        out.refused.push({ what: `module ${url}`, reason: `did not load within ${timeoutMs / 1000} s` });
        continue;
      }
      if (info instanceof Error) {
        out.refused.push({ what: `module ${url}`, reason: info.message });
        continue;
      }
      const failed = info.moduleErrors[0];
      const m = info.modules[0];
      if (failed || !m) {
        out.refused.push({ what: `module ${url}`, reason: failed?.message ?? 'it did not load' });
        continue;
      }
      // Each module is gated alone, so only here can two modules with one id meet: their cases
      // would share keys. The first one keeps the id.
      const first = out.passed.find((p) => p.info.id === m.id);
      if (first) {
        out.refused.push({ what: `module ${m.id} (${url})`, reason: `a second module with id '${m.id}' (the first is ${first.url})` });
        continue;
      }
      const asked = m.algorithms.filter((a) => params.algorithms.includes(a));
      if (asked.length === 0) {
        out.refused.push({
          what: `module ${m.id} (${url})`,
          reason: `it declares ${m.algorithms.join(', ')}, none of this run's algorithms (${params.algorithms.join(', ')})`,
        });
        continue;
      }
      const rows = await deadline(remote.gate(m.id, asked), timeoutMs, () => handle.terminate()).catch((e: Error) => e);
      const failAll = (why: string): Validation[] =>
        asked.map((algorithm) => ({
          implementation: m.id as CustomImplementationId,
          variant: CUSTOM_VARIANT,
          algorithm,
          vectorsPassed: 0,
          vectorsFailed: 0,
          crossCheck: 'alone',
          excluded: true,
          errors: [why],
        }));
      const gated =
        rows === LATE
          ? failAll(`did not finish the gate within ${timeoutMs / 1000} s (a call that never returns?); its worker was stopped`)
          : rows instanceof Error
            ? failAll(`the gate failed: ${rows.message}`)
            : rows;
      out.validation.push(...gated);
      if (gated.some((r) => !r.excluded)) out.passed.push({ url, info: m });
    } finally {
      handle.terminate();
    }
  }
  return out;
}

/** How a run's error begins when no implementation is left to time because every module of yours failed the gate: the CLI exits 1 on it, as on any gate failure. */
export const NOTHING_PASSED = 'no implementation passed the gate';

/**
 * Every module failed the gate and no built-in runs beside them (`modulesAlone`): there is
 * nothing to time, and a document of no cases would read as a run that went well. The message
 * names each failure, as the validation table would.
 */
export class NothingPassedError extends Error {
  constructor(readonly failures: readonly string[]) {
    super(`${NOTHING_PASSED}:${failures.map((f) => `\n  - ${f}`).join('')}`);
  }
}
