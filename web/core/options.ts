/** Options shared by the browser and Node entry points of the package. */
import { IMPLEMENTATION_IDS, type ImplementationId, type PresetId, isBuiltInImplementation } from './tables/algorithms.ts';
import { type ModuleRef, moduleUrlOf } from './implementations/custom.ts';
import { abSampleMs, presetParams } from './params.ts';
import type { PartialDocument, Progress, RunHooks } from './run/runner.ts';
import { type CaseResult, type RunParams, RunParamsSchema, type Validation, formatIssue } from './schema.ts';
import * as v from 'valibot';
import { closest, distance } from 'fastest-levenshtein';

export interface RunOptions extends Partial<Omit<RunParams, 'preset' | 'implementations'>> {
  /** Starting point for every parameter not given (default `quick`). */
  preset?: PresetId;
  /**
   * Built-in ids, and modules of yours (custom.ts): a module's URL (a path in Node), or its
   * export made with `defineImplementation({...}, import.meta.url)`. Each module is validated
   * by the gate before it is timed; with none of the built-ins named, the defaults run beside it
   * (unless `modulesAlone`).
   */
  implementations?: readonly (ImplementationId | ModuleRef)[];
  /**
   * Your modules without the default built-ins beside them: only the built-ins `implementations`
   * names run with them (none named: your modules alone, as a CI job of your own code wants).
   */
  modulesAlone?: boolean;
  onProgress?: (p: Progress) => void;
  onValidation?: (v: Validation[]) => void;
  onCase?: (c: CaseResult) => void;
  onWarning?: (message: string) => void;
  /** Live results: the document so far, about once a second while the run measures. */
  onPartial?: (doc: PartialDocument) => void;
  /** How long one module's gate may take before its worker is stopped (default 120 s). */
  gateTimeoutMs?: number;
  /**
   * Count each WebAssembly case's executed operations, exactly, in a worker of its own after
   * the timing (default true): `ops` in each such case.
   */
  counts?: boolean;
  /**
   * true: each module of yours, and each built-in whose calls are JavaScript's (noble,
   * node:crypto, libsodium.js, Web Crypto), measured in a thread of its own, its samples still
   * taking turns with the other cases; what a library's calls leave in a heap is then collected
   * in its own turns. Default false: every case in the measuring thread, so that a module and the
   * built-in it is compared with run under one condition (docs/decisions/002-one-condition.md).
   * Never in an A/B.
   */
  modulesApart?: boolean;
  /** Aborting terminates the worker; the promise resolves with what finished, status 'cancelled'. */
  signal?: AbortSignal;
}

/**
 * Splits `implementations` into built-in ids and the URLs of modules (`resolve` makes a
 * relative one absolute where the worker will import it). A string that is neither a built-in
 * id nor looks like a path or URL is left to the schema, which names it.
 */
export function modulesOf(o: RunOptions, resolve: (url: string) => string = (u) => u): { ids: string[] | undefined; modules: string[] } {
  if (!o.implementations) return { ids: undefined, modules: [] };
  const ids: string[] = [];
  const modules: string[] = [];
  for (const x of o.implementations) {
    // An A/B run's two ids name its modules, which come as URLs beside them.
    if (o.ab && (x === o.ab.base || x === o.ab.head)) continue;
    if (typeof x === 'string' && !/[./:\\]/.test(x)) {
      if (!isBuiltInImplementation(x))
        throw new Error(
          `Invalid options: implementations: '${x}' is neither a built-in implementation (${IMPLEMENTATION_IDS.join(', ')}) nor a module (give its path or URL)`,
        );
      ids.push(x);
    } else modules.push(resolve(moduleUrlOf(x as ModuleRef)));
  }
  return { ids: ids.length || !modules.length ? ids : undefined, modules };
}

/** The options RunOptions has beyond RunParams' fields: each a key of RunOptions, so a rename breaks this list at compile time. */
const OWN_OPTIONS = [
  'preset',
  'implementations',
  'modulesAlone',
  'onProgress',
  'onValidation',
  'onCase',
  'onWarning',
  'onPartial',
  'gateTimeoutMs',
  'counts',
  'modulesApart',
  'signal',
] as const satisfies readonly (keyof RunOptions)[];
/** Every option name runBenchmark takes. */
export const OPTION_NAMES: readonly string[] = Object.freeze(
  [...Object.keys(RunParamsSchema.entries).filter((k) => k !== 'preset' && k !== 'implementations'), ...OWN_OPTIONS].sort(),
);

/**
 * Refuses an option name runBenchmark does not know, naming the nearest known one: a
 * misspelt `algorithm` or `size` would otherwise be dropped without a word and the whole
 * preset run in its place.
 */
export function checkOptionNames(o: object, known: readonly string[] = OPTION_NAMES): void {
  for (const key of Object.keys(o)) {
    if (known.includes(key)) continue;
    const near = closest(key, [...known]);
    const hint = distance(key, near) <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean '${near}'?)` : '';
    throw new Error(`Invalid options: unknown option '${key.slice(0, 60)}'${hint}; the options are ${known.join(', ')}`);
  }
}

/** Merges options over the preset and validates; throws naming the offending field. */
export function resolveParams(o: RunOptions, defaults: Partial<RunParams> = {}): RunParams {
  checkOptionNames(o);
  const {
    preset = 'quick',
    onProgress: _p,
    onValidation: _v,
    onCase: _c,
    onWarning: _w,
    onPartial: _l,
    signal: _s,
    implementations: _i,
    gateTimeoutMs: _g,
    modulesAlone: _a,
    counts: _k,
    modulesApart: _m,
    ...opts
  } = o;
  // An A/B run's two modules are the run; built-ins run beside them only when named.
  const ids = modulesOf(o).ids;
  const rest = { ...opts, implementations: opts.ab ? [...(ids ?? []), opts.ab.base, opts.ab.head] : ids };
  const merged = { ...presetParams(preset), ...defaults, ...Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)) };
  if (opts.ab && opts.minSampleMs === undefined) merged.minSampleMs = abSampleMs(merged.minSampleMs);
  const r = v.safeParse(RunParamsSchema, merged);
  if (!r.success) throw new Error(`Invalid options: ${r.issues.map(formatIssue).join('; ')}`);
  return r.output;
}

/**
 * With `modulesAlone` and modules given, the built-ins that run beside them: exactly those
 * `implementations` names (RunPlatform builtIns); otherwise undefined, and the run's own.
 */
export function builtInsOf(o: RunOptions): ImplementationId[] | undefined {
  const { ids, modules } = modulesOf(o);
  return o.modulesAlone && modules.length ? ((ids ?? []) as ImplementationId[]) : undefined;
}

/** The run's hooks from the options: one path for the browser and Node entries. */
export function hooksOf(o: RunOptions): RunHooks {
  return { onProgress: o.onProgress, onValidation: o.onValidation, onCase: o.onCase, onWarning: o.onWarning, onPartial: o.onPartial };
}
