/**
 * The result document: one versioned schema shared by the site, the npm package, the CLI and
 * the collector. Validated with valibot; types are inferred from the schemas, never written twice.
 * @module
 */
import * as v from 'valibot';
import { ALGORITHM_IDS, IMPLEMENTATION_IDS, MAX_SIZES, MAX_SIZE_BYTES, OPERATIONS, PRESET_IDS } from './algorithms.ts';
import { CUSTOM_ID } from './custom.ts';

/**
 * @2 adds, all optional so that @1 documents still read: the engine in the environment, and
 * per case the two modes its samples fall in, the reasons it is flagged unstable, and the
 * cycle of each sample (interleaved sampling, for paired ratios); the interference record;
 * and multi-core scaling and raw block timings measured on the same page after the run.
 */
export const SCHEMA_VERSION = 'aeadbench/result@2';
/** Every version this engine reads (the collector accepts, `compare` compares). */
export const SCHEMA_VERSIONS = ['aeadbench/result@1', SCHEMA_VERSION] as const;
/** Why a case is flagged. `unresolved` is the flag's rule (run/stop-rule.ts); the rest say what made it so. */
export const UNSTABLE_REASONS = ['unresolved', 'modes', 'interference', 'spread', 'timer', 'too-few-samples'] as const;

/** One case's identity as a string: the same key in the planner, the worker, the stop rule and the verdict. */
export function caseKey(c: { implementation: string; variant: string; algorithm: string; operation: string; sizeBytes: number; aadBytes: number }): string {
  return `${c.implementation}/${c.variant}/${c.algorithm}/${c.operation}/${c.sizeBytes}/${c.aadBytes}`;
}

/** A module's id (custom.ts): what its cases carry; never a built-in id. */
const CustomImplementationIdSchema = v.pipe(
  v.string(),
  v.regex(CUSTOM_ID, 'an implementation is a built-in id or a module id (1–40 of a-z, 0-9 and -)'),
  v.check((id) => !(IMPLEMENTATION_IDS as readonly string[]).includes(id)),
  v.brand('CustomImplementation'),
);
/** A built-in implementation, or a module of yours. */
export const ImplementationRefSchema = v.union([v.picklist(IMPLEMENTATION_IDS), CustomImplementationIdSchema], (issue) => `Invalid implementation: ${JSON.stringify(issue.input)} is neither a built-in one (${IMPLEMENTATION_IDS.join(', ')}) nor a module id`);

/** Browser engines: what actually compiles the WASM and runs Web Crypto (V8 for Node). */
export const ENGINE_NAMES = Object.freeze(['Blink', 'Gecko', 'WebKit', 'V8', 'unknown'] as const);
export type EngineName = (typeof ENGINE_NAMES)[number];

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.finite(), v.minValue(0));
const sizeBytes = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_SIZE_BYTES));
const shortText = v.pipe(v.string(), v.maxLength(200));

export const WasmVariantChoice = v.picklist(['auto', 'both', 'baseline', 'simd128']);
export const WebCryptoModeChoice = v.picklist(['sequential', 'pipelined']);

export const RunParamsSchema = v.object({
  preset: v.picklist(PRESET_IDS),
  algorithms: v.pipe(v.array(v.picklist(ALGORITHM_IDS)), v.minLength(1)),
  implementations: v.pipe(v.array(ImplementationRefSchema), v.minLength(1)),
  sizes: v.pipe(v.array(sizeBytes), v.minLength(1), v.maxLength(MAX_SIZES)),
  operations: v.pipe(v.array(v.picklist(OPERATIONS)), v.minLength(1)),
  aadBytes: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1 << 20))), v.minLength(1)),
  rounds: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)),
  samplesPerRound: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)),
  minSampleMs: v.pipe(v.number(), v.minValue(0.1), v.maxValue(10_000)),
  wasm: WasmVariantChoice,
  webcrypto: v.pipe(v.array(WebCryptoModeChoice), v.minLength(1)),
  /** Estimate the core's clock (about 0.2 s) so cycles per byte can be shown. */
  estimateClock: v.optional(v.boolean(), false),
  /** Re-run a case whose CV exceeds this, up to `maxReruns` extra rounds, then flag it. */
  cvThreshold: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
  maxReruns: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10)),
  /**
   * @2: the run's time budget (ms, from start to end). After its rounds, a run re-measures only
   * what is not yet resolved (run/stop-rule.ts), in extra rounds of at most `maxReruns`, while
   * the next one fits in what is left of this. Absent: no time limit, only `maxReruns`.
   */
  budgetMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(3_600_000))),
});
export type RunParams = v.InferOutput<typeof RunParamsSchema>;

export const EnvironmentSchema = v.object({
  userAgent: v.pipe(v.string(), v.maxLength(1000)),
  browser: v.object({ name: shortText, version: shortText }),
  /** The engine: Blink, Gecko, WebKit (every iOS browser), V8 for Node. Absent in older documents. */
  engine: v.optional(v.object({ name: v.picklist(ENGINE_NAMES), version: shortText })),
  os: v.object({ name: shortText, version: shortText }),
  arch: shortText,
  platform: shortText,
  hardwareConcurrency: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024)),
  deviceMemoryGiB: v.nullable(positive),
  crossOriginIsolated: v.boolean(),
  timerResolutionMs: positive,
  wasm: v.object({ simd128: v.boolean(), relaxedSimd: v.boolean(), threads: v.boolean() }),
  engineVersion: shortText,
  cores: v.object({
    crates: v.record(v.string(), shortText),
    wasmBindgen: shortText,
    backends: v.record(v.string(), shortText),
  }),
  runtime: v.picklist(['browser', 'node']),
  /**
   * Versions of the libraries behind a platform's implementations, by name (OpenSSL behind
   * node:crypto). Kept here, not in a case's variant, so a variant is always a name the
   * implementation table lists. Absent in older documents.
   */
  libraries: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)), shortText),
      v.check((r) => Object.keys(r).length <= 16, 'at most 16 libraries'),
    ),
  ),
  /** The core's clock estimated in WASM (web/core/clock.ts), when the run asked for it. */
  clock: v.optional(v.nullable(v.object({ ghz: positive, spread: positive, trustworthy: v.boolean(), method: shortText }))),
});
export type Environment = v.InferOutput<typeof EnvironmentSchema>;

export const ValidationSchema = v.object({
  implementation: ImplementationRefSchema,
  variant: shortText,
  algorithm: v.picklist(ALGORITHM_IDS),
  vectorsPassed: count,
  vectorsFailed: count,
  /** Byte-for-byte agreement with every other implementation of the algorithm on random inputs. */
  crossCheck: v.picklist(['agree', 'disagree', 'alone']),
  excluded: v.boolean(),
  errors: v.array(v.pipe(v.string(), v.maxLength(500))),
});
export type Validation = v.InferOutput<typeof ValidationSchema>;

export const SummarySchema = v.object({
  n: count,
  min: positive,
  max: positive,
  median: positive,
  q1: positive,
  q3: positive,
  iqr: positive,
  mad: positive,
  mean: positive,
  sd: positive,
  cv: positive,
  robustCv: positive,
  trimmedMean: positive,
  ciLow: positive,
  ciHigh: positive,
});

export const CaseResultSchema = v.object({
  algorithm: v.picklist(ALGORITHM_IDS),
  implementation: ImplementationRefSchema,
  /** simd128 / baseline (WASM), sequential / pipelined (Web Crypto), js (noble). */
  variant: shortText,
  operation: v.picklist(OPERATIONS),
  sizeBytes,
  aadBytes: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1 << 20)),
  /** Operations timed in each sample, calibrated so a sample lasts ≥ 100× the timer resolution. */
  iterationsPerSample: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Raw samples, nanoseconds per operation, in the order taken. */
  samples: v.pipe(v.array(positive), v.minLength(1), v.maxLength(10_000)),
  /**
   * @2: the cycle each sample was taken in. Compared cases are sampled interleaved, one sample
   * each per cycle; two cases' samples with the same cycle id were taken back to back, and
   * their ratio is the paired ratio (stats.ts pairedRatio).
   */
  cycles: v.optional(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.maxLength(10_000))),
  summary: SummarySchema,
  /** From the median sample: what one typical batch of calls ran at. */
  bytesPerSecond: positive,
  /**
   * @2: every byte the timed loop processed over the whole time it took (the samples' mean):
   * what a caller encrypting message after message gets, slow calls included. Absent in older
   * documents.
   */
  totalBytesPerSecond: v.optional(positive),
  nsPerByte: positive,
  usPerOp: positive,
  opsPerSecond: positive,
  overheadBytes: count,
  stateBytes: v.nullable(count),
  reruns: count,
  unstable: v.boolean(),
  /** @2: why `unstable` (stats.ts unstableReasons); empty when it is not. */
  unstableReasons: v.optional(v.array(v.picklist(UNSTABLE_REASONS))),
  /** @2: the samples' two modes (stats.ts detectModes), null when they form one. */
  modes: v.optional(v.nullable(v.pipe(v.array(v.object({ center: positive, share: v.pipe(v.number(), v.minValue(0), v.maxValue(1)) })), v.length(2)))),
  /** Samples discarded because the page was hidden while they ran. */
  interruptions: count,
});
export type CaseResult = v.InferOutput<typeof CaseResultSchema>;

/**
 * @2: the interference monitor (measure.ts makeProbe): a fixed WASM integer chain timed at the
 * start of every sampling cycle. Its time moves only with the device's effective speed.
 */
export const InterferenceSchema = v.object({
  opsPerProbe: v.pipe(v.number(), v.integer(), v.minValue(1)),
  cycles: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.maxLength(100_000)),
  probeMs: v.pipe(v.array(positive), v.maxLength(100_000)),
});

/** @2: multi-core scaling measured with this run (scaling.ts): the same case on 1 … N workers at once. */
export const ScalingSchema = v.object({
  algorithm: v.picklist(ALGORITHM_IDS),
  implementation: v.picklist(IMPLEMENTATION_IDS),
  operation: v.picklist(OPERATIONS),
  sizeBytes,
  points: v.pipe(
    v.array(v.object({ workers: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256)), aggregateBytesPerSecond: positive, perWorkerBytesPerSecond: v.pipe(v.array(positive), v.maxLength(256)), efficiency: positive })),
    v.maxLength(256),
  ),
});

/** @2: raw block ciphers measured with this run (blocks.ts), one 16-byte block per call. */
export const BlockTimingSchema = v.object({
  cipher: v.picklist(['aes-128', 'twofish-128', 'serpent-128']),
  samples: v.pipe(v.array(positive), v.maxLength(1000)),
  nsPerBlock: positive,
  bytesPerSecond: positive,
  stateBytes: v.nullable(count),
});

export const ResultDocumentSchema = v.object({
  schema: v.picklist(SCHEMA_VERSIONS),
  runId: v.pipe(v.string(), v.uuid()),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  durationMs: positive,
  status: v.picklist(['complete', 'cancelled']),
  params: RunParamsSchema,
  environment: EnvironmentSchema,
  validation: v.pipe(v.array(ValidationSchema), v.maxLength(5000)),
  cases: v.array(CaseResultSchema),
  /** Sizes or cases not run, and why (e.g. above this device's memory cap). */
  skipped: v.pipe(v.array(v.object({ what: shortText, reason: v.pipe(v.string(), v.maxLength(500)) })), v.maxLength(5000)),
  warnings: v.pipe(v.array(v.pipe(v.string(), v.maxLength(500))), v.maxLength(5000)),
  interference: v.optional(InterferenceSchema),
  scaling: v.optional(v.pipe(v.array(ScalingSchema), v.maxLength(50))),
  blocks: v.optional(v.pipe(v.array(BlockTimingSchema), v.maxLength(3))),
  /**
   * @2: the modules of yours this run timed (custom.ts): id, label, what they declared, and the
   * SHA-256 of the exact bytes that were loaded. Such a run is never submitted to the crowd.
   */
  modules: v.optional(
    v.pipe(
      v.array(
        v.object({
          id: CustomImplementationIdSchema,
          label: v.pipe(v.string(), v.maxLength(100)),
          algorithms: v.array(v.picklist(ALGORITHM_IDS)),
          version: v.optional(shortText),
          url: v.optional(shortText),
          sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
        }),
      ),
      v.maxLength(16),
    ),
  ),
  /**
   * @2: the A/A check (runner.ts aaTwin): one case measured twice under two names, interleaved;
   * `ratio` is the twin's time over the original's with its 95 % interval, and `decision` must
   * be `same` for the run's small differences to be believed.
   */
  aaCheck: v.optional(
    v.object({
      implementation: ImplementationRefSchema,
      variant: shortText,
      algorithm: v.picklist(ALGORITHM_IDS),
      operation: v.picklist(OPERATIONS),
      sizeBytes,
      ratio: positive,
      low: positive,
      high: positive,
      decision: v.picklist(['same', 'different', 'unknown']),
    }),
  ),
});
export type ResultDocument = v.InferOutput<typeof ResultDocumentSchema>;

/** Validates a result document; on failure the error names each offending path and value. */
export function validateResult(doc: unknown): { ok: true; value: ResultDocument } | { ok: false; issues: string[] } {
  const r = v.safeParse(ResultDocumentSchema, doc);
  if (r.success) return { ok: true, value: r.output };
  return { ok: false, issues: r.issues.map(formatIssue) };
}

export function formatIssue(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((p) => String(p.key)).join('.') || '(root)';
  return `${path}: ${issue.message}`;
}
