/** What both entry points export beside `runBenchmark`: tables, schema, statistics, submission. */
export {
  ALGORITHMS,
  IMPLEMENTATIONS,
  OPERATIONS,
  PRESETS,
  type AlgorithmId,
  type ImplementationId,
  type Operation,
  type PresetId,
} from './tables/algorithms.ts';
export { SCHEMA_VERSION, validateResult, type CaseResult, type Environment, type ResultDocument, type RunParams, type Validation } from './schema.ts';
export { summarize, derived, type Summary } from './stats.ts';
export { parseParams, presetParams, toSearch, formatSize, parseSize, ParamError } from './params.ts';
export { summarizeResult } from './report/summary.ts';
export { SIZE_CLASSES, noteShown, verdict, type Claim, type ShownClaim, type Verdict } from './report/verdict.ts';
export { defineImplementation, ContractError, type CustomImplementation, type ModuleInfo, type ModuleRef } from './implementations/custom.ts';
export { NothingPassedError } from './run/gate.ts';
export { toCsv } from './report/csv.ts';
export { DEVICE_CLASSES, SubmitError, submissionBody, submitResult, type DeviceClass } from './submit.ts';
export type { Available, Progress } from './run/runner.ts';
export type { ScalingCase, ScalingPoint } from './run/scaling.ts';
