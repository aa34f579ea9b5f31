/**
 * What every implementation offers the worker: one-shot encrypt/decrypt for cross-validation,
 * and `prepare` for timing, which does the key schedule/import and buffer setup once per case.
 * @module
 */
import { type AlgorithmId, type CustomImplementationId, type ImplementationId, type Operation, type VariantOf, algorithm } from '../tables/algorithms.ts';
import type { RunParams } from '../schema.ts';

export interface CaseSpec {
  algorithm: AlgorithmId;
  operation: Operation;
  sizeBytes: number;
  aadBytes: number;
}

export interface PreparedCase {
  /** Performs `n` operations. Synchronous for WASM and noble; a promise for Web Crypto. */
  run(n: number): void | Promise<void>;
  /** `size_of` the keyed state where it is known (WASM), else null. */
  readonly stateBytes: number | null;
  dispose(): void;
  /**
   * A case whose calls run in a thread of their own (worker/apart.ts): times `n` of them there,
   * on that thread's clock, after `settle` (measure.ts Settle), so that no message between the
   * threads falls inside the time.
   */
  timeApart?(n: number, settle: Settle): Promise<{ ms: number; isAsync: boolean }>;
}

/**
 * What runs untimed right before a sample (measure.ts): one call that wakes an asynchronous
 * case's crypto thread (SETTLE_CALLS), or a synchronous case's turn of its own, batches for up
 * to `ms` (SETTLE_MS), at most `batches` of them; or nothing.
 */
export type Settle = { calls: number } | { ms: number; batches: number } | null;

/** One implementation and one of the variants its table row lists (never a free string). */
type Identity =
  | { [I in ImplementationId]: { readonly implementation: I; readonly variant: VariantOf<I> } }[ImplementationId]
  /** A module of yours (custom.ts): its own id, one variant. */
  | { readonly implementation: CustomImplementationId; readonly variant: 'custom' };

export type Backend = Identity & {
  /** The algorithms this environment really offers through this backend. */
  readonly algorithms: readonly AlgorithmId[];
  /** Returns ciphertext ‖ tag. */
  encrypt(alg: AlgorithmId, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array>;
  /** Verifies and decrypts ciphertext ‖ tag; throws on any failure. */
  decrypt(alg: AlgorithmId, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Promise<Uint8Array>;
  prepare(spec: CaseSpec): Promise<PreparedCase>;
  /** WebAssembly operations this backend's module has executed so far, where the counting pass loaded it counted; absent or null otherwise. */
  readonly ops?: (() => bigint) | null;
};

/** Deterministic, non-secret filler, the same pattern the WASM bench uses. */
export function pattern(len: number, seed: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = (Math.imul(i & 0xff, 31) + seed) & 0xff;
  return out;
}

/** A case's key, nonce, AAD and plaintext: the same fixed filler in every backend and in the WASM bench. */
export function caseInputs(spec: CaseSpec): { key: Uint8Array; nonce: Uint8Array; aad: Uint8Array; pt: Uint8Array } {
  const a = algorithm(spec.algorithm);
  return { key: pattern(a.keyBytes, 1), nonce: pattern(a.nonceBytes, 2), aad: pattern(spec.aadBytes, 3), pt: pattern(spec.sizeBytes, 4) };
}

/** Our ids fix the nonce length; an implementation that would accept another must not here. */
export function checkLengths(alg: { id: string; keyBytes: number; nonceBytes: number }, key: Uint8Array, nonce: Uint8Array): void {
  if (key.length !== alg.keyBytes) throw new Error(`key of ${key.length} bytes, expected ${alg.keyBytes}`);
  if (nonce.length !== alg.nonceBytes) throw new Error(`nonce of ${nonce.length} bytes, expected ${alg.nonceBytes}`);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Keeps a timing loop's `sink` (every result folded into it) observable, so no engine may drop
 * the work that produced it: a comparison that is never true, made once, outside the timing.
 */
export function keepObservable(sink: number): void {
  if (sink === 0.5) console.log(sink);
}

/** The built modules (scripts/build-wasm): two pure-Rust ones, two whose AEGIS is libaegis in C (libaegis-wasm.ts). */
export type WasmVariant = 'baseline' | 'simd128' | 'libaegis-simd128' | 'libaegis-relaxed-simd';
export const WASM_VARIANTS: readonly WasmVariant[] = ['baseline', 'simd128', 'libaegis-simd128', 'libaegis-relaxed-simd'];
/** The wasm-bindgen glue of one built variant, initialised. */
export type Cores = typeof import('../wasm/baseline/cores.js');
/** Cores loaded for the counting pass: the glue over an instrumented copy, and its counter (wasm/counter). */
export type CountedCores = Cores & { ops: () => bigint };
export type CoresLoader = (variant: WasmVariant) => Promise<Cores & { ops?: () => bigint }>;
/** build-info.json written by scripts/build-wasm: crate versions, flags, sizes. */
export type BuildInfoLoader = (variant: WasmVariant) => Promise<Record<string, unknown>>;

/** The WebAssembly features an engine validates (cores.ts wasmFeatures). */
export interface WasmFeatures {
  simd128: boolean;
  relaxedSimd: boolean;
  threads: boolean;
}

/** What a worker hands an implementation's backend.ts to make its backends. */
export interface BackendContext {
  /** The run's choices a backend reads: which WASM builds, which ways of timing Web Crypto. */
  params: Pick<RunParams, 'wasm' | 'webcrypto'>;
  loadCores: CoresLoader;
  loadBuildInfo: BuildInfoLoader;
  features: WasmFeatures;
}

/**
 * What implementations/<id>/backend.ts exports by default: the backends of its implementation
 * that this worker can make (one per variant the run asks for and the engine can run).
 */
export type MakeBackends = (ctx: BackendContext) => Promise<Backend[]>;
