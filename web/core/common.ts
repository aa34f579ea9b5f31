/** What both entry points export beside `runBenchmark`: tables, schema, statistics, submission. */
export { ALGORITHMS, IMPLEMENTATIONS, OPERATIONS, PRESETS, type AlgorithmId, type ImplementationId, type Operation, type PresetId } from './algorithms.ts';
export { SCHEMA_VERSION, validateResult, type CaseResult, type Environment, type ResultDocument, type RunParams, type Validation } from './schema.ts';
export { summarize, derived, type Summary } from './stats.ts';
export { parseParams, presetParams, toSearch, formatSize, parseSize, ParamError } from './params.ts';
export { summarizeResult } from './summary.ts';
export { defineImplementation, ContractError, type CustomImplementation, type ModuleInfo, type ModuleRef } from './custom.ts';
export { toCsv } from './csv.ts';
export { DEVICE_CLASSES, SubmitError, submissionBody, submitResult, type DeviceClass } from './submit.ts';
export type { Available, Progress } from './runner.ts';
export type { ScalingCase, ScalingPoint } from './scaling.ts';
