/**
 * The result document: one versioned schema shared by the site, the npm package, the CLI and
 * the collector. Validated with valibot; types are inferred from the schemas, never written twice.
 * @module
 */
import * as v from 'valibot';
import { ALGORITHM_IDS, CUSTOM_ID, IMPLEMENTATION_IDS, MAX_SIZES, MAX_SIZE_BYTES, OPERATIONS, PRESET_IDS } from './tables/algorithms.ts';
import { EXECUTION_MODES } from './execution.ts';

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

/**
 * What names a case: the six fields a result, a submission's row, a cohort of the crowd and a
 * case key are made of, in the order a document writes them. Everything that names a case is
 * derived from this list (collector/cohorts.ts makes its SQL columns of it).
 */
export const CASE_IDENTITY = ['algorithm', 'implementation', 'variant', 'operation', 'sizeBytes', 'aadBytes'] as const;

/** A case's identity (CASE_IDENTITY). */
export interface CaseIdentity {
  algorithm: string;
  implementation: string;
  variant: string;
  operation: string;
  sizeBytes: number;
  aadBytes: number;
}

/** A case's identity alone, in the order a document writes it, with `c`'s own (narrower) types. */
export function caseIdentity<T extends CaseIdentity>(c: T): Pick<T, keyof CaseIdentity> {
  return Object.fromEntries(CASE_IDENTITY.map((k) => [k, c[k]])) as Pick<T, keyof CaseIdentity>;
}

/** One code's key: an implementation's build of one algorithm, whatever the operation and the sizes (validation, exclusion, the verdict's series). */
export const codeKey = (c: Pick<CaseIdentity, 'implementation' | 'variant' | 'algorithm'>): string => `${c.implementation}/${c.variant}/${c.algorithm}`;

/** Where contenders meet: a case without who measured it; the cases of one place are the ones compared (summaries, A/B pairs, speed-ups). */
export const placeKey = (c: Pick<CaseIdentity, 'algorithm' | 'operation' | 'sizeBytes' | 'aadBytes'>): string =>
  `${c.algorithm}/${c.operation}/${c.sizeBytes}/${c.aadBytes}`;

/** One case's identity as a string: the same key in the planner, the worker, the stop rule, the verdict and the collector. */
export function caseKey(c: CaseIdentity): string {
  return `${codeKey(c)}/${c.operation}/${c.sizeBytes}/${c.aadBytes}`;
}

/** A module's id (custom.ts): what its cases carry; never a built-in id. */
const CustomImplementationIdSchema = v.pipe(
  v.string(),
  v.regex(CUSTOM_ID, 'an implementation is a built-in id or a module id (1–40 of a-z, 0-9 and -)'),
  v.check((id) => !(IMPLEMENTATION_IDS as readonly string[]).includes(id)),
  v.brand('CustomImplementation'),
);
/** A built-in implementation, or a module of yours. */
export const ImplementationRefSchema = v.union(
  [v.picklist(IMPLEMENTATION_IDS), CustomImplementationIdSchema],
  (issue) => `Invalid implementation: ${JSON.stringify(issue.input)} is neither a built-in one (${IMPLEMENTATION_IDS.join(', ')}) nor a module id`,
);

/** Browser engines: what actually compiles the WASM and runs Web Crypto (V8 for Node). */
export const ENGINE_NAMES = Object.freeze(['Blink', 'Gecko', 'WebKit', 'V8', 'unknown'] as const);
export type EngineName = (typeof ENGINE_NAMES)[number];

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.finite(), v.minValue(0));
const sizeBytes = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_SIZE_BYTES));
const shortText = v.pipe(v.string(), v.maxLength(200));
/** A field and what it holds: the description is the package README's field reference (schema-doc.ts). */
const d = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

export const WasmVariantChoice = v.picklist(['auto', 'both', 'baseline', 'simd128']);
export const WebCryptoModeChoice = v.picklist(['sequential', 'pipelined']);

export const RunParamsSchema = v.object({
  preset: d(v.picklist(PRESET_IDS), 'The preset the run started from (PRESETS); the fields below say what it really measured.'),
  algorithms: d(v.pipe(v.array(v.picklist(ALGORITHM_IDS)), v.minLength(1)), 'AEAD ids asked for (ALGORITHMS).'),
  implementations: d(
    v.pipe(v.array(ImplementationRefSchema), v.minLength(1)),
    'Implementation ids asked for (IMPLEMENTATIONS), and the ids of modules of yours that passed the gate.',
  ),
  sizes: d(v.pipe(v.array(sizeBytes), v.minLength(1), v.maxLength(MAX_SIZES)), 'Plaintext lengths in bytes.'),
  operations: d(
    v.pipe(v.array(v.picklist(OPERATIONS)), v.minLength(1)),
    'What is timed: `encrypt`, `decrypt` of a valid message, `forged-decrypt` (rejecting a flipped tag bit).',
  ),
  aadBytes: d(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1 << 20))), v.minLength(1)), 'Associated-data lengths in bytes.'),
  rounds: d(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 'Full rounds: each in a fresh worker, cases in a new shuffled order.'),
  samplesPerRound: d(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 'Samples of each case per round.'),
  minSampleMs: d(v.pipe(v.number(), v.minValue(0.1), v.maxValue(10_000)), 'A sample lasts at least this long (ms), and at least 100× the timer resolution.'),
  wasm: d(WasmVariantChoice, 'Which WASM build runs: `auto` the fastest the engine supports (simd128 where it can), `both`, or one of them.'),
  webcrypto: d(
    v.pipe(v.array(WebCryptoModeChoice), v.minLength(1)),
    'Web Crypto variants: `sequential` awaits each call (what one request waits), `pipelined` keeps several in flight.',
  ),
  estimateClock: v.optional(d(v.boolean(), 'Whether the core clock was estimated (about 0.2 s) so cycles per byte can be shown.'), false),
  cvThreshold: d(v.pipe(v.number(), v.minValue(0), v.maxValue(10)), 'A robust CV above this is named as `spread` among the reasons of a flagged case.'),
  maxReruns: d(
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(50)),
    'At most this many extra rounds of only what is still unresolved (the stop rule); with a budget, the budget usually ends them first.',
  ),
  budgetMs: v.optional(
    d(
      v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(3_600_000)),
      '@2: the time budget (ms, start to end): after its rounds the run re-measures only what is unresolved while the next extra round fits. Absent: only `maxReruns` limits it.',
    ),
  ),
  overtimeMs: v.optional(
    d(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3_600_000)),
      '@2: how much longer than `budgetMs` the run may go on (ms), with as many extra rounds again as `maxReruns`, when the budget or the rounds are spent with more than a tenth of its cases unresolved (a quarter of it when only a claim of its verdict is undecided), and only while that is so (stop-rule.ts wantsOvertime). Never in an A/B run. Absent or 0: the budget is the end.',
    ),
  ),
  ab: v.optional(
    d(
      v.object({
        base: d(CustomImplementationIdSchema, 'The module measured as the base (A).'),
        head: d(CustomImplementationIdSchema, 'The module measured as the head (B), case by case beside the base.'),
        margin: d(v.pipe(v.number(), v.minValue(0), v.maxValue(0.5)), 'The equivalence margin (0.05 = ±5 %): differences inside it are SAME.'),
      }),
      '@2: an A/B run (`aeadbench compare --base --head`): two modules interleaved in one session, and the stop rule measures until each head/base comparison is decided against `margin`.',
    ),
  ),
});
export type RunParams = v.InferOutput<typeof RunParamsSchema>;

export const EnvironmentSchema = v.object({
  userAgent: d(v.pipe(v.string(), v.maxLength(1000)), 'The user agent string as the runtime reports it.'),
  browser: d(v.object({ name: d(shortText, 'Browser name (bowser), or `Node.js`.'), version: d(shortText, 'Its full version.') }), 'The browser, or Node.'),
  engine: v.optional(
    d(
      v.object({
        name: d(v.picklist(ENGINE_NAMES), 'Blink, Gecko, WebKit (every iOS browser), V8 for Node.'),
        version: d(shortText, 'Its version, where it is known apart from the browser’s.'),
      }),
      'The engine that compiled the WASM and ran Web Crypto. Absent in older documents.',
    ),
  ),
  os: d(v.object({ name: d(shortText, 'Operating system.'), version: d(shortText, 'Its version, as far as the runtime tells it.') }), 'The operating system.'),
  arch: d(shortText, 'CPU architecture as the runtime reports it (`x86`, `arm`, …), or `unknown`.'),
  platform: d(shortText, 'Platform string (`navigator.platform`, or Node’s `process.platform`).'),
  hardwareConcurrency: d(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024)), 'Logical cores the runtime reports (browsers may round or cap it).'),
  deviceMemoryGiB: d(v.nullable(positive), 'Memory in GiB as `navigator.deviceMemory` buckets it; null where the browser does not tell.'),
  crossOriginIsolated: d(v.boolean(), 'Whether the page was cross-origin isolated (COOP/COEP): only then are timers fine (5–20 µs).'),
  timerResolutionMs: d(positive, 'The measured step of `performance.now()` in the worker, ms.'),
  wasm: d(
    v.object({
      simd128: d(v.boolean(), 'WebAssembly SIMD (128-bit) is supported.'),
      relaxedSimd: d(v.boolean(), 'Relaxed SIMD is supported.'),
      threads: d(v.boolean(), 'Shared memory and atomics (threads) are supported.'),
    }),
    'WebAssembly features, detected by validating tiny modules.',
  ),
  engineVersion: d(shortText, 'The aeadbench version that ran.'),
  cores: d(
    v.object({
      crates: d(v.record(v.string(), shortText), 'Crate name → version of the RustCrypto crates compiled in.'),
      wasmBindgen: d(shortText, 'The wasm-bindgen version.'),
      backends: d(v.record(v.string(), shortText), 'Crate → the backend it runs on this target (e.g. `aes: soft-fixslice64`).'),
    }),
    'What the WASM cores were built from.',
  ),
  runtime: d(v.picklist(['browser', 'node']), 'Where the run ran.'),
  libraries: v.optional(
    d(
      v.pipe(
        v.record(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)), shortText),
        v.check((r) => Object.keys(r).length <= 16, 'at most 16 libraries'),
      ),
      'Versions of the libraries behind an implementation, by name (`openssl` behind node:crypto): kept here so a case’s variant is always a name the table lists. Absent in older documents.',
    ),
  ),
  execution: v.optional(
    d(
      v.object({
        mode: d(
          v.picklist(EXECUTION_MODES),
          '`standard`; `no-js-optimizer` (JavaScript ran without its optimising compiler); `wasm-interpreted` (no JIT: WebAssembly was interpreted); `wasm-off` (WebAssembly did not run). Anything but `standard` is kept out of the crowd’s medians, as a population of its own.',
        ),
        wasm: d(v.picklist(['compiled', 'interpreted', 'off']), 'WebAssembly compiled, interpreted, or off.'),
        jsOptimizer: d(v.boolean(), 'JavaScript ran optimised: its dependent chain took at least 1.8× the independent chains.'),
        jsOverlap: d(positive, 'The probe’s dependent chain over its independent chains in JavaScript: about 1 interpreted, 3–4 optimised.'),
        wasmOverlap: d(v.nullable(positive), 'The same in WebAssembly; null when it is off.'),
        jsNsPerStep: d(positive, 'ns per dependent step of the probe in JavaScript, warm.'),
        wasmNsPerStep: d(v.nullable(positive), 'The same in WebAssembly; null when it is off.'),
      }),
      '@2: the execution mode, detected by whether a chain of dependent steps runs slower than independent ones, in JavaScript and in WebAssembly (execution.ts). Absent in older documents.',
    ),
  ),
  clock: v.optional(
    d(
      v.nullable(
        v.object({
          ghz: d(positive, 'The estimated clock in GHz.'),
          spread: d(positive, 'Relative spread of the estimates (0.01 = 1 %).'),
          trustworthy: d(v.boolean(), 'Whether the spread was small enough to show cycles per byte.'),
          method: d(shortText, 'How it was estimated.'),
        }),
      ),
      'The core clock estimated in WASM from a chain of dependent additions, when the run asked for it (`estimateClock`).',
    ),
  ),
});
export type Environment = v.InferOutput<typeof EnvironmentSchema>;

export const ValidationSchema = v.object({
  implementation: d(ImplementationRefSchema, 'The implementation checked.'),
  variant: d(shortText, 'Its variant (see `cases[].variant`).'),
  algorithm: d(v.picklist(ALGORITHM_IDS), 'The AEAD checked.'),
  vectorsPassed: d(count, 'Known-answer vectors (Wycheproof, RFCs) that passed, tamper checks included.'),
  vectorsFailed: d(count, 'Vectors that failed.'),
  crossCheck: d(
    v.picklist(['agree', 'disagree', 'alone']),
    'Byte-for-byte agreement with every other implementation of the algorithm on random inputs; `alone` when there was none to compare with.',
  ),
  excluded: d(v.boolean(), 'True when it failed: it was not timed.'),
  errors: d(v.array(v.pipe(v.string(), v.maxLength(500))), 'What failed, first failure first.'),
});
export type Validation = v.InferOutput<typeof ValidationSchema>;

/** A case's statistics, recomputed from its samples with each cycle's level divided out (stats.ts steadySummaries): ns per operation unless said. */
export const SummarySchema = v.object({
  n: d(count, 'Number of samples.'),
  min: d(positive, 'Fastest sample, ns per operation.'),
  max: d(positive, 'Slowest sample, ns per operation.'),
  median: d(positive, 'Median sample, ns per operation: the figure the table shows.'),
  q1: d(positive, 'First quartile, ns per operation.'),
  q3: d(positive, 'Third quartile, ns per operation.'),
  iqr: d(positive, 'q3 − q1, ns.'),
  mad: d(positive, 'Median absolute deviation, ns.'),
  mean: d(positive, 'Mean of the levelled samples, ns per operation (`totalBytesPerSecond` is the raw samples’ total).'),
  sd: d(positive, 'Standard deviation, ns.'),
  cv: d(positive, 'sd / mean (0.05 = 5 %).'),
  robustCv: d(positive, '1.4826 × mad / median: the spread outliers do not inflate.'),
  trimmedMean: d(positive, 'Mean of the middle 90 % of samples, ns.'),
  ciLow: d(positive, 'Lower end of the median’s 95 % interval (order statistics), ns.'),
  ciHigh: d(positive, 'Upper end of the median’s 95 % interval, ns. A case is resolved when the interval lies within ±5 % of the median.'),
});

export const CaseResultSchema = v.object({
  algorithm: d(v.picklist(ALGORITHM_IDS), 'The AEAD (ALGORITHMS).'),
  implementation: d(ImplementationRefSchema, 'Who implements it (IMPLEMENTATIONS), or a module of yours by its id (see `modules`).'),
  variant: d(
    shortText,
    'How: `simd128` / `baseline` (WASM builds), `sequential` / `pipelined` (Web Crypto), `js` (noble), `wasm` (libsodium), `openssl` (node:crypto), `custom` (a module of yours).',
  ),
  operation: d(v.picklist(OPERATIONS), 'What was timed.'),
  sizeBytes: d(sizeBytes, 'Plaintext length in bytes.'),
  aadBytes: d(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1 << 20)), 'Associated-data length in bytes.'),
  iterationsPerSample: d(
    v.pipe(v.number(), v.integer(), v.minValue(1)),
    'Operations timed in each sample, calibrated so a sample lasts at least `minSampleMs` and 100× the timer resolution.',
  ),
  samples: d(
    v.pipe(v.array(positive), v.minLength(1), v.maxLength(10_000)),
    'Raw samples, nanoseconds per operation, in the order taken: everything else of the case is derived from them.',
  ),
  cycles: v.optional(
    d(
      v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.maxLength(10_000)),
      '@2: the cycle each sample was taken in. Compared cases are sampled interleaved, one sample each per cycle; two cases’ samples with the same cycle were taken back to back, and their ratio is the paired ratio.',
    ),
  ),
  summary: d(
    SummarySchema,
    'Statistics of `samples`, each divided by its cycle’s level: how slow the device ran in that cycle, read from every case sampled in it (Tukey’s median polish over cycles × cases; cycles of fewer than 5 cases keep level 1). What slowed every case alike is the device, not the code; a paired ratio is unchanged.',
  ),
  bytesPerSecond: d(positive, 'Throughput of the median sample, bytes per second: what a typical batch of calls ran at.'),
  totalBytesPerSecond: v.optional(
    d(
      positive,
      '@2: every byte the timed loop processed over the whole time it took (the samples’ mean): what a caller encrypting message after message gets, slow calls and slow cycles included (the raw samples, not levelled). Absent in older documents.',
    ),
  ),
  nsPerByte: d(positive, 'Median time per plaintext byte, ns.'),
  usPerOp: d(positive, 'Median time per operation, µs.'),
  opsPerSecond: d(positive, 'Operations per second at the median.'),
  overheadBytes: d(count, 'Bytes the ciphertext adds to the plaintext (tag, padding).'),
  stateBytes: d(v.nullable(count), 'Size of the keyed state in memory where it is known (WASM cores), else null.'),
  reruns: d(count, 'Extra rounds the stop rule measured this case in.'),
  unstable: d(v.boolean(), 'The ⚠ flag: true when the median was not resolved (its 95 % interval reaches beyond ±5 % of it) within the run’s budget.'),
  unstableReasons: v.optional(
    d(
      v.array(v.picklist(UNSTABLE_REASONS)),
      '@2: why it is flagged: `unresolved` first, then what kept it so (two `modes`, `interference`, `spread`, `timer` too coarse, `too-few-samples`); empty when not flagged.',
    ),
  ),
  modes: v.optional(
    d(
      v.nullable(
        v.pipe(
          v.array(
            v.object({
              center: d(positive, 'The mode’s centre, ns per operation.'),
              share: d(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 'Share of the samples in it.'),
            }),
          ),
          v.length(2),
        ),
      ),
      '@2: the two modes its samples fall in, when they form two (its speed is then not one figure); null when they form one.',
    ),
  ),
  interruptions: d(count, 'Sampling cycles discarded because the page was hidden while they ran.'),
  ops: v.optional(
    d(
      v.object({
        perMessage: d(count, 'WebAssembly operations one message executes: exact, the same in every engine (the counting pass, wasm/counter).'),
        perByte: d(v.pipe(v.number(), v.minValue(0)), '`perMessage` over the message size in bytes.'),
        perCall: d(count, 'Operations a call costs besides its messages (entering the loop).'),
      }),
      '@2: executed WebAssembly operations, counted in a pass of their own apart from the timed workers, for cases whose code is WebAssembly the run could count; absent otherwise.',
    ),
  ),
});
export type CaseResult = v.InferOutput<typeof CaseResultSchema>;

/**
 * @2: the interference monitor (measure.ts makeProbe): a fixed WASM integer chain timed at the
 * start of every sampling cycle. Its time moves only with the device's effective speed.
 */
export const InterferenceSchema = v.object({
  opsPerProbe: d(v.pipe(v.number(), v.integer(), v.minValue(1)), 'Integer operations in one probe.'),
  cycles: d(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.maxLength(100_000)), 'The cycle each probe was timed at the start of.'),
  probeMs: d(v.pipe(v.array(positive), v.maxLength(100_000)), 'The probe’s time, ms, per cycle: longer means the device was slower then.'),
});

/** @2: multi-core scaling measured with this run (scaling.ts): the same case on 1 … N workers at once. */
export const ScalingSchema = v.object({
  algorithm: d(v.picklist(ALGORITHM_IDS), 'The AEAD.'),
  implementation: d(v.picklist(IMPLEMENTATION_IDS), 'The implementation.'),
  operation: d(v.picklist(OPERATIONS), 'The operation.'),
  sizeBytes: d(sizeBytes, 'Plaintext length in bytes.'),
  points: d(
    v.pipe(
      v.array(
        v.object({
          workers: d(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256)), 'Workers running the case at once.'),
          aggregateBytesPerSecond: d(positive, 'Their throughput together, bytes per second.'),
          perWorkerBytesPerSecond: d(v.pipe(v.array(positive), v.maxLength(256)), 'Each worker’s throughput.'),
          efficiency: d(positive, 'Aggregate over workers × one worker alone (1 = perfect scaling).'),
        }),
      ),
      v.maxLength(256),
    ),
    'One point per worker count.',
  ),
});

/** @2: raw block ciphers measured with this run (blocks.ts), one 16-byte block per call. */
export const BlockTimingSchema = v.object({
  cipher: d(v.picklist(['aes-128', 'twofish-128', 'serpent-128']), 'The block cipher.'),
  samples: d(v.pipe(v.array(positive), v.maxLength(1000)), 'Raw samples, ns per block.'),
  nsPerBlock: d(positive, 'Median ns per 16-byte block.'),
  bytesPerSecond: d(positive, 'Throughput at the median.'),
  stateBytes: d(v.nullable(count), 'Size of the key schedule where known.'),
});

export const ResultDocumentSchema = v.object({
  schema: d(v.picklist(SCHEMA_VERSIONS), 'The schema version; `@1` documents still validate (everything marked @2 is optional).'),
  runId: d(v.pipe(v.string(), v.uuid()), 'A random id for the run: a retried submission with the same id is stored once.'),
  createdAt: d(v.pipe(v.string(), v.isoTimestamp()), 'When the run started (UTC).'),
  durationMs: d(positive, 'How long it took, ms.'),
  status: d(v.picklist(['complete', 'cancelled']), '`cancelled` when it was stopped: it then holds every case that finished, in any round.'),
  params: d(RunParamsSchema, 'What was asked.'),
  environment: d(EnvironmentSchema, 'Where it ran: coarse facts only.'),
  validation: d(v.pipe(v.array(ValidationSchema), v.maxLength(5000)), 'One row per implementation × variant × algorithm, checked before anything was timed.'),
  cases: d(v.array(CaseResultSchema), 'One entry per timed case: implementation × variant × algorithm × operation × size × AAD.'),
  skipped: d(
    v.pipe(v.array(v.object({ what: d(shortText, 'What was not run.'), reason: d(v.pipe(v.string(), v.maxLength(500)), 'Why.') })), v.maxLength(5000)),
    'Sizes, implementations or modules not run, and why (e.g. above this device’s memory limit).',
  ),
  warnings: d(
    v.pipe(v.array(v.pipe(v.string(), v.maxLength(500))), v.maxLength(5000)),
    'Things a reader should know (coarse timers, an excluded implementation, a refused module).',
  ),
  interference: v.optional(
    d(
      InterferenceSchema,
      '@2: the interference monitor: a fixed WASM integer chain timed at the start of every sampling cycle; its time moves only with the device’s effective speed.',
    ),
  ),
  scaling: v.optional(
    d(v.pipe(v.array(ScalingSchema), v.maxLength(50)), '@2: multi-core scaling measured after the run, when asked: the same case on 1 … N workers at once.'),
  ),
  blocks: v.optional(
    d(v.pipe(v.array(BlockTimingSchema), v.maxLength(3)), '@2: raw block ciphers measured after the run, when asked, one 16-byte block per call.'),
  ),
  modules: v.optional(
    d(
      v.pipe(
        v.array(
          v.object({
            id: d(CustomImplementationIdSchema, 'The id its cases carry as `implementation`.'),
            label: d(v.pipe(v.string(), v.maxLength(100)), 'The label it declared.'),
            algorithms: d(v.array(v.picklist(ALGORITHM_IDS)), 'The AEAD ids it declared.'),
            version: v.optional(d(shortText, 'The version it declared.')),
            url: v.optional(d(shortText, 'The address it declared (its home page).')),
            sha256: d(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), 'SHA-256 (hex) of the exact bytes that were loaded and timed.'),
            code: v.optional(
              d(
                v.picklist(['webassembly', 'javascript']),
                '@2: what the counting pass found it runs: `webassembly`, counted through every instance it made (its cases carry `ops`), or `javascript`, when its cases executed no WebAssembly (nothing to count). Absent without a counting pass.',
              ),
            ),
          }),
        ),
        v.maxLength(16),
      ),
      '@2: the modules of yours this run timed. Such a run is never submitted to the crowd.',
    ),
  ),
  aaCheck: v.optional(
    d(
      v.object({
        implementation: d(ImplementationRefSchema, 'The case measured twice: its implementation.'),
        variant: d(shortText, 'Its variant.'),
        algorithm: d(v.picklist(ALGORITHM_IDS), 'Its AEAD.'),
        operation: d(v.picklist(OPERATIONS), 'Its operation.'),
        sizeBytes: d(sizeBytes, 'Its size in bytes.'),
        ratio: d(positive, 'The twin’s time over the original’s (paired, cycle by cycle).'),
        low: d(positive, 'Lower end of the ratio’s 95 % interval.'),
        high: d(positive, 'Upper end of the ratio’s 95 % interval.'),
        decision: d(v.picklist(['same', 'different', 'unknown']), 'Must be `same` (within ±3 %) for the run’s small differences to be believed.'),
      }),
      '@2: the A/A check: one case measured twice under two names, interleaved as any compared cases are.',
    ),
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
