/**
 * Any implementation of the contract (custom.ts) as a backend of the worker: a module of yours,
 * and the built-ins that are one-shot libraries — noble, libsodium.js, node:crypto — through the
 * same door, with the same inputs and timing loops. Synchronous implementations are timed in a
 * synchronous loop, ones that answer with promises in an awaited one (each call awaited, as Web
 * Crypto's sequential variant); the first calls of `prepare` decide which.
 * @module
 */
import { type AlgorithmId, type CustomImplementationId, algorithm, overheadBytes } from '../tables/algorithms.ts';
import { CUSTOM_VARIANT, type CustomImplementation } from './custom.ts';
import { type Backend, type CaseSpec, type PreparedCase, caseInputs, keepObservable } from './shared.ts';
import { asyncLoop, folded, syncLoop } from './loop.js';

/** Who a backend's cases name: a built-in's row of the table, or a module of yours by its id. */
type Identity = Pick<Backend, 'implementation' | 'variant'>;

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as { then?: unknown } | null)?.then === 'function';

/** A call of a module that misbehaved: the gate reports `message` as the module's failure. */
export class ModuleCallError extends Error {}

const describe = (x: unknown) =>
  x === null
    ? 'null'
    : x === undefined
      ? 'undefined'
      : ArrayBuffer.isView(x)
        ? x.constructor.name
        : typeof x === 'object'
          ? (x.constructor?.name ?? 'an object')
          : typeof x;

/** Awaits a call's answer, at most `ms`; a promise that never settles is the module's fault. */
function within<T>(x: T | PromiseLike<T>, ms: number, what: string): Promise<T> {
  if (!isThenable(x)) return Promise.resolve(x);
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ModuleCallError(`${what} did not answer within ${ms / 1000} s`)), ms)));
  return Promise.race([Promise.resolve(x), late]).finally(() => clearTimeout(timer));
}

/**
 * A call's answer as bytes: a Uint8Array, or an ArrayBuffer as crypto.subtle answers (a module
 * wrapping Web Crypto then makes exactly its calls, with no copy or extra turn in the timed loop).
 */
function bytes(x: unknown, what: string): Uint8Array {
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (!(x instanceof Uint8Array)) throw new ModuleCallError(`${what} returned ${describe(x)}, expected a Uint8Array or an ArrayBuffer`);
  return x;
}

/** A module of yours as a backend: its cases carry its id and the `custom` variant. */
export function customBackend(impl: CustomImplementation, o: { callTimeoutMs?: number } = {}): Backend {
  return contractBackend(impl, { implementation: impl.id as CustomImplementationId, variant: CUSTOM_VARIANT }, o);
}

export function contractBackend(impl: CustomImplementation, identity: Identity, o: { callTimeoutMs?: number } = {}): Backend {
  const timeout = o.callTimeoutMs ?? 5000;
  const states = new Map<string, unknown>();
  /** This backend's own instance of the timing loops per algorithm and operation (freshLoop). */
  const loops = new Map<string, Promise<LoopModule>>();
  const loopOf = (path: string) => loops.get(path) ?? loops.set(path, freshLoop()).get(path)!;
  /** The state of `prepare` for this key (kept per algorithm and key, for the one-shot calls). */
  const stateFor = async (alg: AlgorithmId, key: Uint8Array) => {
    if (!impl.prepare) return undefined;
    const k = `${alg}/${Array.from(key).join(',')}`;
    if (!states.has(k)) {
      if (states.size > 64) states.clear();
      states.set(
        k,
        await within(
          callSafely(() => impl.prepare!(alg, key), 'prepare'),
          timeout,
          'prepare',
        ),
      );
    }
    return states.get(k);
  };
  // (TypeScript cannot follow the identity union through a spread; each member is a valid one.)
  const id = identity as { implementation: CustomImplementationId; variant: typeof CUSTOM_VARIANT };
  return {
    implementation: id.implementation,
    variant: id.variant,
    algorithms: [...impl.algorithms],
    async encrypt(alg, key, nonce, aad, pt) {
      const state = await stateFor(alg, key);
      const sealed = bytes(
        await within(
          callSafely(() => impl.encrypt(alg, key.slice(), nonce.slice(), aad.slice(), pt.slice(), state), 'encrypt'),
          timeout,
          'encrypt',
        ),
        'encrypt',
      );
      const expected = pt.length + overheadBytes(alg, pt.length) - algorithm(alg).nonceBytes;
      if (sealed.length !== expected)
        throw new ModuleCallError(
          `encrypt returned ${sealed.length} bytes for ${pt.length} bytes of plaintext, expected ${expected} (ciphertext ‖ ${algorithm(alg).tagBytes}-byte tag)`,
        );
      return sealed;
    },
    async decrypt(alg, key, nonce, aad, sealed) {
      const state = await stateFor(alg, key);
      // A rejection is the module refusing the input (what decrypt must do when it is not
      // authentic); only a wrong answer or no answer is a fault of the module.
      return bytes(await within(impl.decrypt(alg, key.slice(), nonce.slice(), aad.slice(), sealed.slice(), state), timeout, 'decrypt'), 'decrypt');
    },
    async prepare(spec: CaseSpec): Promise<PreparedCase> {
      const alg = spec.algorithm;
      const { key, nonce, aad, pt } = caseInputs(spec);
      const state = impl.prepare ? await within(impl.prepare(alg, key), timeout, 'prepare') : undefined;
      // One call of each decides the loop: synchronous answers, a synchronous loop.
      const first = impl.encrypt(alg, key, nonce, aad, pt, state);
      const sealed = bytes(await within(first, timeout, 'encrypt'), 'encrypt');
      const opened = impl.decrypt(alg, key, nonce, aad, sealed, state);
      await within(opened, timeout, 'decrypt');
      const forged = sealed.slice();
      forged[forged.length - algorithm(alg).tagBytes]! ^= 1; // the tag's first bit, as every bench flips it
      const loop = await loopOf(`${alg}/${spec.operation}`);
      const make = isThenable(first) || isThenable(opened) ? loop.asyncLoop : loop.syncLoop;
      return {
        run: make(impl, alg, { key, nonce, aad, pt }, state, spec.operation, sealed, forged),
        stateBytes: null,
        dispose: () => keepObservable(loop.folded()),
      };
    },
  };
}

type LoopModule = typeof import('./loop.js');
/**
 * The statically imported instance, as a plain object: a namespace import (`import * as`) made
 * Vite's worker bundle hold its runtime helpers, which the worker's libsodium chunk then imported
 * from the worker's own script, and WebKit evaluated that script a second time (a second RPC
 * server answering every call, without the run's backends).
 */
const sharedLoop: LoopModule = { asyncLoop, folded, syncLoop };
let loopsLoaded = 0;
/**
 * A fresh instance of loop.js: a code path's timed calls go through call sites no other code
 * path has reached, as a caller's loop is its own code (loop.js says what sharing cost). Where
 * it cannot be loaded apart (a bundler that inlined it into a data: URL a CSP refuses), the
 * one shared instance times every code path, as before it existed.
 */
async function freshLoop(): Promise<LoopModule> {
  const url = new URL('./loop.js', import.meta.url);
  try {
    return (await import(/* @vite-ignore */ `${url.href}?loop=${++loopsLoaded}`)) as LoopModule;
  } catch {
    return sharedLoop;
  }
}

/** Runs a call; an exception it throws is the module's failure, with its own message. */
function callSafely<T>(f: () => T, what: string): T {
  try {
    return f();
  } catch (e) {
    throw new ModuleCallError(`${what} threw: ${(e as Error)?.message ?? String(e)}`);
  }
}
