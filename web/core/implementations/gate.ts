/**
 * The gate a module of yours passes before it is timed, as SUPERCOP checks an implementation
 * against its checksum: for every algorithm it declares,
 *  1. the Wycheproof (and RFC) vectors of that algorithm;
 *  2. every length from 0 to 2,048 bytes and a few large ones, with inputs chained from the
 *     previous ciphertext, each ciphertext held against the reference (RustCrypto's, in the same
 *     worker) and each decryption against its plaintext;
 *  3. a forged tag, a flipped ciphertext bit, a changed AAD and a truncated input, each of which
 *     must be refused.
 * It stops at the first failure and names it: the algorithm, the length, the check.
 * @module
 */
import { type AlgorithmId, algorithm } from '../tables/algorithms.ts';
import type { Backend } from './shared.ts';
import { ModuleCallError } from './contract.ts';
import type { Validation } from '../schema.ts';
import { type WycheproofVector, runVectors, sameBytes } from './validate.ts';

/** Every length up to 2 KiB (block edges, padding, the short cases), then a few large ones. */
export const GATE_LENGTHS: readonly number[] = [...Array.from({ length: 2049 }, (_, i) => i), 4096, 16_384, 65_536, 1 << 20];
/** Where the tamper checks run: empty, a byte, around a block, a typical small message. */
export const TAMPER_LENGTHS: readonly number[] = [0, 1, 15, 16, 17, 64, 1000];

/** Deterministic bytes from a 32-bit seed (xorshift): the gate's inputs, not a cipher. */
function stream(len: number, seed: number): Uint8Array {
  const out = new Uint8Array(len);
  let x = seed | 0 || 0x9e3779b9;
  for (let i = 0; i < len; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** FNV-1a over the bytes, folded into the chain. */
function fold(h: number, b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

const message = (e: unknown) => (e as Error)?.message ?? String(e);

/** The first failure of `backend` on `alg`, or null; `checked` counts what passed. */
export async function gateAlgorithm(
  backend: Backend,
  reference: Backend,
  alg: AlgorithmId,
  o: { lengths?: readonly number[]; tamperLengths?: readonly number[] } = {},
): Promise<{ failure: string | null; checked: number; checksum: string }> {
  const a = algorithm(alg);
  let chain = 0x811c9dc5 ^ alg.length;
  let checked = 0;
  const inputsAt = (len: number) => {
    const seed = fold(chain, new Uint8Array([len & 0xff, len >> 8, len >> 16]));
    return { key: stream(a.keyBytes, seed ^ 1), nonce: stream(a.nonceBytes, seed ^ 2), aad: stream((len * 7) % 65, seed ^ 3), pt: stream(len, seed ^ 4) };
  };
  for (const len of o.lengths ?? GATE_LENGTHS) {
    const { key, nonce, aad, pt } = inputsAt(len);
    let expected: Uint8Array;
    try {
      expected = await reference.encrypt(alg, key, nonce, aad, pt);
    } catch (e) {
      throw new Error(`the reference (${reference.implementation}) failed at ${len} bytes: ${message(e)}`);
    }
    let sealed: Uint8Array;
    try {
      sealed = await backend.encrypt(alg, key, nonce, aad, pt);
    } catch (e) {
      return { failure: `encrypt failed at ${len} bytes: ${message(e)}`, checked, checksum: '' };
    }
    if (!sameBytes(sealed, expected)) {
      const at = sealed.findIndex((x, i) => x !== expected[i]);
      const where = at < 0 || at >= expected.length ? 'in length' : at >= expected.length - a.tagBytes ? `in the tag (byte ${at})` : `at byte ${at}`;
      return { failure: `ciphertext differs from the reference at ${len} bytes (${where})`, checked, checksum: '' };
    }
    let opened: Uint8Array;
    try {
      opened = await backend.decrypt(alg, key, nonce, aad, sealed);
    } catch (e) {
      return { failure: `decrypt refused its own ciphertext at ${len} bytes: ${message(e)}`, checked, checksum: '' };
    }
    if (!sameBytes(opened, pt)) return { failure: `decrypt did not return the plaintext at ${len} bytes`, checked, checksum: '' };
    chain = fold(chain, sealed);
    checked++;
  }
  for (const len of o.tamperLengths ?? TAMPER_LENGTHS) {
    const { key, nonce, aad, pt } = inputsAt(len);
    const sealed = await backend.encrypt(alg, key, nonce, aad, pt);
    const flip = (at: number) => {
      const x = sealed.slice();
      x[at]! ^= 1;
      return x;
    };
    const changedAad = aad.length ? Uint8Array.from(aad, (x, i) => (i === 0 ? x ^ 1 : x)) : new Uint8Array([0]);
    const tampered: [string, Uint8Array, Uint8Array][] = [
      ['a forged tag', flip(sealed.length - 1), aad],
      ...(sealed.length > a.tagBytes ? ([['a flipped ciphertext bit', flip(0), aad]] as [string, Uint8Array, Uint8Array][]) : []),
      ['a changed AAD', sealed, changedAad],
      ['a truncated input', sealed.slice(0, sealed.length - 1), aad],
    ];
    for (const [what, input, ad] of tampered) {
      const accepted = await backend.decrypt(alg, key, nonce, ad, input).then(
        () => true,
        (e) => {
          // A module that hangs has not refused anything: say so rather than count it.
          if (e instanceof ModuleCallError) throw new Error(`${message(e)} on ${what} at ${len} bytes`);
          return false;
        },
      );
      if (accepted) return { failure: `accepted ${what} at ${len} bytes`, checked, checksum: '' };
      checked++;
    }
  }
  return { failure: null, checked, checksum: chain.toString(16).padStart(8, '0') };
}

/**
 * The gate for one module: a Validation row per algorithm it declares, `excluded` with the
 * first failure when it fails (then it is not timed). Lengths and tampering first, whose
 * messages name the length and the check; then the vectors, which catch what they do not.
 */
export async function gateBackend(
  backend: Backend,
  reference: Backend,
  vectors: readonly WycheproofVector[],
  o: { lengths?: readonly number[]; tamperLengths?: readonly number[] } = {},
): Promise<Validation[]> {
  const out: Validation[] = [];
  for (const alg of backend.algorithms) {
    const row: Validation = {
      implementation: backend.implementation,
      variant: backend.variant,
      algorithm: alg,
      vectorsPassed: 0,
      vectorsFailed: 0,
      crossCheck: 'agree',
      excluded: false,
      errors: [],
    };
    out.push(row);
    let g: Awaited<ReturnType<typeof gateAlgorithm>>;
    try {
      g = await gateAlgorithm(backend, reference, alg, o);
    } catch (e) {
      g = { failure: message(e), checked: 0, checksum: '' };
    }
    if (g.failure) {
      row.excluded = true;
      row.crossCheck = 'disagree';
      row.errors.push(g.failure);
      continue;
    }
    const r = await runVectors(
      backend,
      alg,
      vectors.filter((v) => v.algorithm === alg),
    );
    row.vectorsPassed = r.passed;
    row.vectorsFailed = r.failed;
    if (r.failed > 0) {
      row.excluded = true;
      row.errors.push(...r.errors.map((e) => `test vector ${e}`));
    }
  }
  return out;
}
