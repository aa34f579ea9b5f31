/**
 * Bring your own implementation: the contract a module of yours fulfils to be validated (the
 * gate, gate.ts) and then timed beside the built-ins, in a browser worker or a Node thread.
 *
 * @example
 * // my-gcm.mjs
 * import { defineImplementation } from 'aeadbench';
 * export default defineImplementation({
 *   id: 'my-gcm',
 *   label: 'My AES-GCM 1.2',
 *   algorithms: ['aes-128-gcm', 'aes-256-gcm'],
 *   encrypt(algorithm, key, nonce, aad, plaintext) { return sealed },   // ciphertext ‖ tag
 *   decrypt(algorithm, key, nonce, aad, sealed) { return plaintext },   // throws when not authentic
 * }, import.meta.url);
 * @module
 */
import { ALGORITHM_IDS, type AlgorithmId, CUSTOM_ID, type CustomImplementationId, IMPLEMENTATION_IDS } from '../tables/algorithms.ts';

type Bytes = Uint8Array;
type MaybePromise<T> = T | Promise<T>;

/** What your module's default export is. `state` is what `prepare` returned, when it is given. */
export interface CustomImplementation<State = unknown> {
  /** `[a-z0-9-]`, 1–40 characters, not a built-in id: what the result's cases carry. */
  id: string;
  /** Shown beside your figures, e.g. "My AES-GCM 1.2". */
  label: string;
  /** Ids from the algorithm table (ALGORITHMS); an unknown id is an error naming it. */
  algorithms: readonly AlgorithmId[];
  /** Returns ciphertext ‖ tag, synchronously or as a promise; a Uint8Array, or an ArrayBuffer as crypto.subtle answers. */
  encrypt(algorithm: AlgorithmId, key: Bytes, nonce: Bytes, aad: Bytes, plaintext: Bytes, state?: State): MaybePromise<Bytes | ArrayBuffer>;
  /** Returns the plaintext (a Uint8Array or an ArrayBuffer); throws (or rejects) when the input is not authentic. */
  decrypt(algorithm: AlgorithmId, key: Bytes, nonce: Bytes, aad: Bytes, sealed: Bytes, state?: State): MaybePromise<Bytes | ArrayBuffer>;
  /**
   * Optional: the per-key work (a key schedule, an imported CryptoKey) done once per case,
   * before timing; its result is passed to every encrypt and decrypt as `state`.
   */
  prepare?(algorithm: AlgorithmId, key: Bytes): MaybePromise<State>;
  /** Optional: the library's version, recorded with the result. */
  version?: string;
  /** Optional: where the library lives (a homepage or repository), recorded with the result. */
  url?: string;
}

/** What a result records of a module: who it is and the SHA-256 of the exact bytes that were timed. */
export interface ModuleInfo {
  id: CustomImplementationId;
  label: string;
  algorithms: AlgorithmId[];
  version?: string;
  url?: string;
  sha256: string;
}

export { CUSTOM_ID, CUSTOM_VARIANT } from '../tables/algorithms.ts';

/** Where a module given to `runBenchmark` is loaded from, in the benchmark worker. */
const MODULE_URL = Symbol.for('aeadbench.moduleUrl');

export class ContractError extends Error {}

const describe = (x: unknown) => (typeof x === 'string' ? `'${x}'` : x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x);

/**
 * Checks a module's default export against the contract and returns it; throws a ContractError
 * naming the first field that is wrong and its value. `moduleUrl` (pass `import.meta.url`)
 * lets `runBenchmark({ implementations: [mod] })` load the same module in its worker.
 */
export function defineImplementation<S>(impl: CustomImplementation<S>, moduleUrl?: string | URL): CustomImplementation<S> {
  checkContract(impl, 'module');
  if (moduleUrl !== undefined) Object.defineProperty(impl, MODULE_URL, { value: String(moduleUrl), enumerable: false });
  return impl;
}

/**
 * A built-in that is a one-shot library (noble, libsodium.js, node:crypto) as a module of the
 * same contract, checked by the same rules but for its id, which must be the built-in's own.
 */
export function defineBuiltIn<S>(impl: CustomImplementation<S>): CustomImplementation<S> {
  checkContract(impl, 'built-in');
  return impl;
}

function checkContract(impl: unknown, kind: 'module' | 'built-in'): void {
  const o = impl as Record<string, unknown>;
  if (typeof o !== 'object' || o === null)
    throw new ContractError(`an implementation is an object with id, label, algorithms, encrypt and decrypt; got ${describe(o)}`);
  const name = typeof o.id === 'string' ? `'${o.id}'` : 'the implementation';
  if (typeof o.id !== 'string' || !CUSTOM_ID.test(o.id))
    throw new ContractError(`id: ${describe(o.id)} is not an id (1–40 of a-z, 0-9 and -, starting with a letter or digit)`);
  const builtIn = (IMPLEMENTATION_IDS as readonly string[]).includes(o.id);
  if (kind === 'module' && builtIn) throw new ContractError(`id: '${o.id}' is a built-in implementation; choose another id`);
  if (kind === 'built-in' && !builtIn) throw new ContractError(`id: '${o.id}' is not a built-in implementation (${IMPLEMENTATION_IDS.join(', ')})`);
  if (typeof o.label !== 'string' || o.label.trim() === '' || o.label.length > 100)
    throw new ContractError(`${name}: label ${describe(o.label)} must be a non-empty string of at most 100 characters`);
  if (!Array.isArray(o.algorithms) || o.algorithms.length === 0)
    throw new ContractError(`${name}: algorithms must be a non-empty array of ids from the algorithm table; got ${describe(o.algorithms)}`);
  for (const a of o.algorithms) {
    if (!(ALGORITHM_IDS as readonly unknown[]).includes(a))
      throw new ContractError(`${name}: unknown algorithm ${describe(a)} (known: ${ALGORITHM_IDS.join(', ')})`);
  }
  if (new Set(o.algorithms).size !== o.algorithms.length) throw new ContractError(`${name}: algorithms lists an id twice`);
  for (const f of ['encrypt', 'decrypt'] as const)
    if (typeof o[f] !== 'function') throw new ContractError(`${name}: ${f} must be a function; got ${describe(o[f])}`);
  if (o.prepare !== undefined && typeof o.prepare !== 'function')
    throw new ContractError(`${name}: prepare must be a function when given; got ${describe(o.prepare)}`);
  for (const f of ['version', 'url'] as const) {
    if (o[f] !== undefined && (typeof o[f] !== 'string' || (o[f] as string).length > 200))
      throw new ContractError(`${name}: ${f} must be a string of at most 200 characters when given; got ${describe(o[f])}`);
  }
}

/** A module for a run: its URL (importable where the run's worker runs), or one defined with its URL. */
export type ModuleRef = string | URL | CustomImplementation;

/** The URL a run's worker imports a module from; throws naming what is missing. */
export function moduleUrlOf(ref: ModuleRef): string {
  if (typeof ref === 'string' || ref instanceof URL) return String(ref);
  const url = (ref as unknown as Record<symbol, unknown>)[MODULE_URL];
  if (typeof url === 'string') return url;
  const id = typeof (ref as { id?: unknown })?.id === 'string' ? `'${(ref as { id: string }).id}'` : 'a module';
  throw new ContractError(
    `${id} cannot be loaded in the benchmark worker: export it as defineImplementation({...}, import.meta.url), or pass the module's URL`,
  );
}

/** The module's record for the result: what it declared, and the hash of its bytes. */
export function moduleInfo(impl: CustomImplementation, sha256: string): ModuleInfo {
  return {
    id: impl.id as CustomImplementationId,
    label: impl.label,
    algorithms: [...impl.algorithms],
    ...(impl.version !== undefined ? { version: impl.version } : {}),
    ...(impl.url !== undefined ? { url: impl.url } : {}),
    sha256,
  };
}
