/**
 * The frozen tables everything else derives from: algorithms, implementations, operations and
 * presets. Ids are the same kebab-case strings in Rust, TypeScript, URLs, JSON and the database.
 * @module
 */
import type { Brand } from 'valibot';
import { type AlgorithmId, type ImplementationClass, type Runtime, QUICK_ALGORITHM_IDS, algorithm } from './aeads.ts';
import { METAS } from './implementations.ts';

export * from './aeads.ts';

/**
 * The built-in implementations, each described in its own folder (implementations/<id>/meta.ts,
 * beside its backend), in rank order. `detect()` in each backend says what the running
 * environment really has (e.g. ChaCha20-Poly1305 in Web Crypto is Chromium-only).
 */
export const IMPLEMENTATIONS = METAS;

export type ImplementationId = (typeof IMPLEMENTATIONS)[number]['id'];
/** The id of a module you brought (custom.ts): checked, never a built-in one. */
export type CustomImplementationId = string & Brand<'CustomImplementation'>;
/** A module of yours names itself with such an id (implementations/custom.ts), never a built-in one. */
export const CUSTOM_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** The variant every custom implementation's cases carry. */
export const CUSTOM_VARIANT = 'custom' as const;
/** What a run, a case or a validation names: a built-in implementation or a module of yours. */
export type ImplementationRef = ImplementationId | CustomImplementationId;
/**
 * The variants the table lists for one implementation: a backend can only report one of these,
 * so the name a case carries is the name the collector checks it against. A library's version
 * (OpenSSL's, say) belongs in the environment, never in the variant.
 */
export type VariantOf<I extends ImplementationId> = Extract<(typeof IMPLEMENTATIONS)[number], { id: I }>['variants'][number];

/** The class of one implementation × algorithm (see IMPLEMENTATION_CLASSES); a module of yours is 'unknown'. */
export function implementationClass(impl: ImplementationRef, alg: AlgorithmId): ImplementationClass {
  return (IMPLEMENTATION_BY_ID.get(impl)?.classes[alg] as ImplementationClass | undefined) ?? 'unknown';
}
export const IMPLEMENTATION_IDS = IMPLEMENTATIONS.map((i) => i.id) as readonly ImplementationId[] as [ImplementationId, ...ImplementationId[]];

export const OPERATIONS = Object.freeze(['encrypt', 'decrypt', 'forged-decrypt'] as const);
export type Operation = (typeof OPERATIONS)[number];

/** Calls in flight for Web Crypto's pipelined variant. */
export const PIPELINE_DEPTH = 16;

/**
 * Bytes a sealed message carries beyond its plaintext: nonce + tag + padding (the nonce is sent
 * with the message in every protocol these studies model; the doc-encryption study counts AES-GCM's 12 + 16 = 28).
 */
export function overheadBytes(id: AlgorithmId, sizeBytes: number): number {
  const a = algorithm(id);
  const padding = a.blockBytes ? a.blockBytes - (sizeBytes % a.blockBytes) : 0;
  return a.nonceBytes + a.tagBytes + padding;
}

/** Log-spaced payload sizes: powers of `step` from `from` to `to` bytes, inclusive. */
export function logSizes(from: number, to: number, step = 4): number[] {
  const out: number[] = [];
  for (let s = from; s <= to; s *= step) out.push(s);
  return out;
}

export const KiB = 1024;
export const MiB = 1024 * 1024;

/** Largest payload any preset or URL may ask for. */
export const MAX_SIZE_BYTES = 64 * MiB;

export interface Preset {
  id: string;
  label: string;
  description: string;
  sizes: readonly number[];
  operations: readonly Operation[];
  aadBytes: readonly number[];
  /** Rounds, each in a fresh worker, cases interleaved. */
  rounds: number;
  samplesPerRound: number;
  /** A sample lasts at least this long, and at least 100× the timer resolution. */
  minSampleMs: number;
  /** A paper scenario (web/core/scenarios): its own page, algorithms and implementations. */
  scenario?: boolean;
  algorithms?: readonly AlgorithmId[];
  implementations?: readonly ImplementationId[];
  webcrypto?: readonly ('sequential' | 'pipelined')[];
  /** Estimate the clock for cycles per byte. */
  estimateClock?: boolean;
  /** Extra rounds of what is still unresolved (stop-rule.ts; default: 3 for quick, 2 otherwise). */
  maxReruns?: number;
  /** The whole run's time budget in ms, extra rounds included (RunParams.budgetMs). */
  budgetMs?: number;
  /** How much longer the run may go on while more than a tenth of its cases, or a claim, is unresolved (RunParams.overtimeMs). */
  overtimeMs?: number;
}

/** Every length from 1 to 2,048 bytes: the dense preset's sizes (eBACS-style). */
export const DENSE_SIZES = Array.from({ length: 2048 }, (_, i) => i + 1);
/** The most sizes a run may ask for (the dense preset's). */
export const MAX_SIZES = DENSE_SIZES.length;
/**
 * A run of more sizes than this is dense: each code path is warmed up once, not per case,
 * and its results read as a staircase (time per operation against length).
 */
export const isDense = (sizeCount: number) => sizeCount > 64;

/**
 * The doc-encryption study's PDF sizes: `count` sizes drawn log-uniformly from 100 KB to 8 MB by a fixed-seed
 * generator (mulberry32), so every visitor measures the same "files".
 */
export function drawFileSizes(count: number, seed = 0x000f919a): number[] {
  let t = seed >>> 0;
  const random = () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const [lo, hi] = [Math.log(100_000), Math.log(8_000_000)];
  return Array.from({ length: count }, () => Math.round(Math.exp(lo + random() * (hi - lo)))).sort((a, b) => a - b);
}

/** The doc-encryption study, scenario 1: the "PDF files" of the batch. */
export const DOC_FILE_SIZES = drawFileSizes(10);
/** The doc-encryption study, scenario 2: single large files (the study went to 200 MB; 64 MiB is this project's cap). */
export const DOC_LARGE_SIZES = [MiB, 4 * MiB, 16 * MiB, 64 * MiB];

export const PRESETS = Object.freeze({
  quick: {
    id: 'quick',
    label: 'Quick',
    description:
      'Four sizes, encrypt only, the seven established AEADs, Web Crypto awaited call by call; then what is still undecided, within about 20 seconds (up to 40 on a device too noisy to settle most of it in 20).',
    algorithms: QUICK_ALGORITHM_IDS,
    // Web Crypto as a caller awaiting each message gets it, which is what the verdict reads. The
    // pipelined variant (calls in flight) is a concurrency figure, and in Firefox it unsettles the
    // cases measured after it in the same worker (methodology: "Web Crypto pipelined"). Standard
    // and full keep it.
    webcrypto: ['sequential'],
    sizes: [64, KiB, 16 * KiB, MiB],
    operations: ['encrypt'],
    aadBytes: [0],
    // One full round of 12 samples, then extra rounds of only what is unresolved (stop-rule.ts):
    // warm-ups, not samples, were most of a round's time, so one round and targeted ones buy
    // more evidence in 20 s than two full rounds did.
    rounds: 1,
    samplesPerRound: 12,
    minSampleMs: 2,
    // The budget, not a count, ends the extra rounds: the cap is set high enough that a quick
    // engine's run reaches its budget before it (bench:verdict measures how often claims settle).
    maxReruns: 12,
    budgetMs: 20_000,
    // A run that ends its budget with more than a tenth of its cases unresolved (WebKit's, whose
    // Web Crypto and noble run at one of two speeds) goes on for at most this much more (with a
    // claim undecided, a quarter of it), only on what is unresolved and only while that is so; a
    // run that resolves in its budget ends there (stop-rule.ts wantsOvertime).
    overtimeMs: 20_000,
  },
  standard: {
    id: 'standard',
    label: 'Standard',
    description: 'Ten sizes from 16 B to 4 MiB, encrypt and decrypt, three rounds.',
    sizes: logSizes(16, 4 * MiB),
    operations: ['encrypt', 'decrypt'],
    aadBytes: [0],
    rounds: 3,
    samplesPerRound: 7,
    minSampleMs: 5,
  },
  full: {
    id: 'full',
    label: 'Full',
    description: '8 B to 64 MiB in doubling steps, all three operations, 0 and 64 B of AAD, five rounds.',
    sizes: logSizes(8, 64 * MiB, 2),
    operations: ['encrypt', 'decrypt', 'forged-decrypt'],
    aadBytes: [0, 64],
    rounds: 5,
    samplesPerRound: 10,
    minSampleMs: 10,
  },
  dense: {
    id: 'dense',
    label: 'Dense (every length to 2 KiB)',
    description:
      'Every length from 1 to 2,048 bytes, five samples each, algorithms interleaved, one warm-up per algorithm: time per operation against length shows the block staircases (AES 16 B, ChaCha 64 B, Ascon 16 B, CBC padding). About half a minute.',
    algorithms: ['aes-128-gcm', 'chacha20-poly1305', 'ascon-aead128', 'aes-128-cbc-hmac-sha256'],
    implementations: ['rustcrypto-wasm'],
    sizes: DENSE_SIZES,
    operations: ['encrypt'],
    aadBytes: [0],
    rounds: 1,
    samplesPerRound: 5,
    minSampleMs: 0.5,
    maxReruns: 0,
  },
  'doc-encryption': {
    id: 'doc-encryption',
    label: 'Document encryption',
    description: 'AES-256-GCM vs ChaCha20-Poly1305 on PDF-sized files and single large files.',
    scenario: true,
    algorithms: ['aes-256-gcm', 'chacha20-poly1305'],
    implementations: ['rustcrypto-wasm', 'webcrypto'],
    webcrypto: ['sequential'],
    sizes: [...DOC_FILE_SIZES, ...DOC_LARGE_SIZES].sort((a, b) => a - b),
    operations: ['encrypt', 'decrypt'],
    aadBytes: [0],
    rounds: 3,
    samplesPerRound: 5,
    minSampleMs: 5,
  },
  'aead-vs-etm': {
    id: 'aead-vs-etm',
    label: 'AEAD vs Encrypt-then-MAC',
    description: "AES-GCM vs AES-CBC + HMAC-SHA256, 128 and 256, on the study's 15 sizes from 64 B to 1 MiB.",
    scenario: true,
    algorithms: ['aes-128-gcm', 'aes-256-gcm', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256'],
    implementations: ['rustcrypto-wasm', 'webcrypto'],
    webcrypto: ['sequential'],
    sizes: logSizes(64, MiB, 2),
    operations: ['encrypt'],
    aadBytes: [0],
    rounds: 3,
    samplesPerRound: 10,
    minSampleMs: 2,
    estimateClock: true,
  },
  'key-length': {
    id: 'key-length',
    label: 'Key length',
    description: 'AES-128-GCM vs AES-256-GCM: bulk throughput and TLS-record-sized (16 KiB) chunks.',
    scenario: true,
    algorithms: ['aes-128-gcm', 'aes-256-gcm'],
    implementations: ['rustcrypto-wasm', 'webcrypto'],
    webcrypto: ['sequential', 'pipelined'],
    sizes: [16 * KiB, 64 * MiB],
    operations: ['encrypt'],
    aadBytes: [0],
    rounds: 5,
    samplesPerRound: 6,
    minSampleMs: 5,
  },
  'aes-candidates': {
    id: 'aes-candidates',
    label: 'AES candidates',
    description: 'Rijndael vs Twofish vs Serpent in the same GCM construction: a short message, then a sweep.',
    scenario: true,
    algorithms: ['aes-128-gcm', 'twofish-128-gcm', 'serpent-128-gcm'],
    implementations: ['rustcrypto-wasm'],
    sizes: [32, 256, KiB, 16 * KiB, MiB],
    operations: ['encrypt', 'decrypt'],
    aadBytes: [0],
    rounds: 3,
    samplesPerRound: 7,
    minSampleMs: 2,
  },
  'lightweight-iot': {
    id: 'lightweight-iot',
    label: 'Lightweight IoT',
    description: 'Ascon vs AES-128-GCM (and ChaCha20-Poly1305) from 8 B unlock tokens to 1 MiB: latency, state size, cost model, crossover.',
    scenario: true,
    algorithms: ['ascon-aead128', 'aes-128-gcm', 'chacha20-poly1305'],
    implementations: ['rustcrypto-wasm', 'webcrypto', 'noble'],
    webcrypto: ['sequential'],
    sizes: [8, 16, 32, 64, KiB, 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, MiB],
    operations: ['encrypt'],
    aadBytes: [14], // "ACME:BIKE-0042": manufacturer id + bike id, as the study's AAD
    rounds: 3,
    samplesPerRound: 7,
    minSampleMs: 2,
  },
} as const satisfies Record<string, Preset>);

export const SCENARIO_IDS = Object.values(PRESETS as Record<string, Preset>)
  .filter((p) => p.scenario)
  .map((p) => p.id);

export type PresetId = keyof typeof PRESETS;
export const PRESET_IDS = Object.keys(PRESETS) as [PresetId, ...PresetId[]];

/** The built-in implementations a runtime can offer (its folder's meta.ts says where it runs). */
export const implementationsOf = (runtime: Runtime): ImplementationId[] =>
  IMPLEMENTATIONS.filter((i) => (i.runtimes as readonly Runtime[]).includes(runtime)).map((i) => i.id);
/** Implementations a browser can offer (node-crypto exists only in Node). */
export const BROWSER_IMPLEMENTATIONS = implementationsOf('browser');
/** The built-in implementations of a runtime that offer one of these algorithms at best: what a run of them by default loads. */
export const implementationsOffering = (algorithms: readonly AlgorithmId[], runtime: Runtime): ImplementationId[] =>
  implementationsOf(runtime).filter((id) => algorithms.some((a) => implementationSupports(id, a)));

/** The implementation table by id: the checks below look a row up per case. */
const IMPLEMENTATION_BY_ID: ReadonlyMap<string, (typeof IMPLEMENTATIONS)[number]> = new Map(IMPLEMENTATIONS.map((i) => [i.id, i]));

export const isBuiltInImplementation = (id: string): id is ImplementationId => (IMPLEMENTATION_IDS as readonly string[]).includes(id);

/** What the table says an implementation can offer; a module of yours offers what it declares (false here). */
export function implementationSupports(impl: ImplementationRef, alg: AlgorithmId): boolean {
  return ((IMPLEMENTATION_BY_ID.get(impl)?.algorithms ?? []) as readonly string[]).includes(alg);
}

/** An implementation's primary variant (its row's first): Web Crypto's sequential calls, RustCrypto's SIMD build; a module of yours has none here. */
export function primaryVariant(impl: ImplementationRef): string | undefined {
  return IMPLEMENTATION_BY_ID.get(impl)?.variants[0];
}

/** Whether a case is one the verdict weighs: any variant that is a build of its own, only the primary one of ways to time the same calls. */
export function isContender(c: { implementation: ImplementationRef; variant: string }): boolean {
  const row = IMPLEMENTATION_BY_ID.get(c.implementation);
  return !row || !('sameCalls' in row) || c.variant === row.variants[0];
}

/** Whether a label needs the case's variant to tell it apart: not for an implementation of one variant, nor for the primary way of timing the same calls. */
export function variantNamed(c: { implementation: ImplementationRef; variant: string }): boolean {
  const row = IMPLEMENTATION_BY_ID.get(c.implementation);
  if (!row) return true;
  return row.variants.length > 1 && !('sameCalls' in row && c.variant === row.variants[0]);
}

/** Whether an implementation runs WebAssembly (and so cannot run where it is off). */
export const needsWasm = (impl: ImplementationRef): boolean => IMPLEMENTATIONS.some((i) => i.id === impl && 'needsWasm' in i);

/**
 * Whether an implementation is one of the engine's WebAssembly cores (RustCrypto's, libaegis's),
 * whose timing loop runs inside WebAssembly: it needs WebAssembly and no npm package.
 */
export const loopsInWasm = (impl: ImplementationRef): boolean => IMPLEMENTATIONS.some((i) => i.id === impl && 'needsWasm' in i && i.npm.length === 0);

/**
 * Whether a built-in is measured in a thread of its own where modules of yours are (apart.ts):
 * every built-in whose calls are made from JavaScript, so that a module is compared with it
 * under the module's own condition; the engine's cores, which allocate nothing, stay.
 */
export const apartWithModules = (impl: ImplementationRef): boolean => isBuiltInImplementation(impl) && !loopsInWasm(impl);

/**
 * Whether a case of this implementation takes a turn of its own before each sample (measure.ts
 * SETTLE_MS): every one whose calls are not WebAssembly's (noble, node:crypto, a module of
 * yours). Web Crypto's calls answer later, and settle with one untimed call instead (SETTLE_CALLS).
 */
export const settles = (impl: ImplementationRef): boolean => !needsWasm(impl);

/** An implementation's label: the table's, or for a module of yours the label it declared. */
export function implementationLabel(impl: ImplementationRef, modules: readonly { id: string; label: string }[] = []): string {
  return IMPLEMENTATION_BY_ID.get(impl)?.label ?? modules.find((m) => m.id === impl)?.label ?? impl;
}
