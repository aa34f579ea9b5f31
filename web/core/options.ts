/** Options shared by the browser and Node entry points of the package. */
import type { PresetId } from './algorithms.ts';
import { presetParams } from './params.ts';
import type { PartialDocument, Progress, RunHooks } from './runner.ts';
import { type CaseResult, type RunParams, RunParamsSchema, type Validation, formatIssue } from './schema.ts';
import * as v from 'valibot';

export interface RunOptions extends Partial<Omit<RunParams, 'preset'>> {
  /** Starting point for every parameter not given (default `quick`). */
  preset?: PresetId;
  onProgress?: (p: Progress) => void;
  onValidation?: (v: Validation[]) => void;
  onCase?: (c: CaseResult) => void;
  onWarning?: (message: string) => void;
  /** Live results: the document so far, about once a second while the run measures. */
  onPartial?: (doc: PartialDocument) => void;
  /** Aborting terminates the worker; the promise resolves with what finished, status 'cancelled'. */
  signal?: AbortSignal;
}

/** Merges options over the preset and validates; throws naming the offending field. */
export function resolveParams(o: RunOptions, defaults: Partial<RunParams> = {}): RunParams {
  const { preset = 'quick', onProgress: _p, onValidation: _v, onCase: _c, onWarning: _w, onPartial: _l, signal: _s, ...rest } = o;
  const merged = { ...presetParams(preset), ...defaults, ...Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined)) };
  const r = v.safeParse(RunParamsSchema, merged);
  if (!r.success) throw new Error(`Invalid options: ${r.issues.map(formatIssue).join('; ')}`);
  return r.output;
}

/** The run's hooks from the options: one path for the browser and Node entries. */
export function hooksOf(o: RunOptions): RunHooks {
  return { onProgress: o.onProgress, onValidation: o.onValidation, onCase: o.onCase, onWarning: o.onWarning, onPartial: o.onPartial };
}
