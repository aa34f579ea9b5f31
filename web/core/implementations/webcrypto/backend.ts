/**
 * The platform's own Web Crypto (`crypto.subtle`). AES-GCM everywhere; ChaCha20-Poly1305 where
 * the browser has it (Chromium imports its key as 'raw-secret'); the two CBC+HMAC ids composed
 * from AES-CBC and HMAC-SHA-256 exactly as the WASM cores compose them (RFC 7518 §5.2.2.1);
 * AES-OCB (the WICG modern-algorithms draft: 'raw-secret' keys, 96-bit nonce, 128-bit tag)
 * wherever an engine ships it, which today is Node ≥ 24.7 and no browser: detected, not assumed.
 *
 * Every call is asynchronous, so it is timed two ways and the variant says which:
 * `sequential` awaits each call (latency, what one request sees), `pipelined` keeps
 * PIPELINE_DEPTH calls in flight (throughput, what a server or a batch sees).
 * @module
 */
import { ALGORITHM_IDS, PIPELINE_DEPTH, algorithm, type AlgorithmId, implementationSupports } from '../../tables/algorithms.ts';
import { type Backend, type MakeBackends, type CaseSpec, type PreparedCase, caseInputs, checkLengths, concatBytes, pattern } from '../shared.ts';

type Subtle = SubtleCrypto;

interface Keyed {
  seal(nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array): Promise<Uint8Array>;
  open(nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Promise<Uint8Array>;
  /**
   * The timed calls: for an AEAD, `crypto.subtle`'s own promise, as a caller's loop awaits it.
   * Wrapped in an async function and a Uint8Array, each call took a second turn of the microtask
   * queue (201 for 100 calls, a plain await loop 101), and the engine with the case alone read
   * 0.89 of that loop at 1 KiB in Firefox.
   */
  sealCall(nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array): Promise<unknown>;
  openCall(nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Promise<unknown>;
}

const TAG = 16;
const bs = (b: Uint8Array) => b as Uint8Array<ArrayBuffer>;

async function keyAead(subtle: Subtle, name: 'AES-GCM' | 'ChaCha20-Poly1305' | 'AES-OCB', key: Uint8Array): Promise<Keyed> {
  // The modern-algorithms draft's ChaCha20-Poly1305 and AES-OCB take 'raw-secret'; plain 'raw' is refused.
  const format = name === 'AES-GCM' ? 'raw' : 'raw-secret';
  const k = await subtle.importKey(format as 'raw', bs(key), { name }, false, ['encrypt', 'decrypt']);
  // The parameters a caller writes for AES-GCM and ChaCha20-Poly1305: no AAD member when there is
  // none, GCM's 128-bit tag by default. The AES-OCB draft's, in full.
  const p = (iv: Uint8Array, aad: Uint8Array) =>
    name === 'AES-OCB'
      ? { name, iv: bs(iv), additionalData: bs(aad), tagLength: 128 }
      : aad.length > 0
        ? { name, iv: bs(iv), additionalData: bs(aad) }
        : { name, iv: bs(iv) };
  const sealCall = (iv: Uint8Array, aad: Uint8Array, pt: Uint8Array) => subtle.encrypt(p(iv, aad), k, bs(pt));
  const openCall = (iv: Uint8Array, aad: Uint8Array, sealed: Uint8Array) => subtle.decrypt(p(iv, aad), k, bs(sealed));
  return {
    seal: async (iv, aad, pt) => new Uint8Array(await sealCall(iv, aad, pt)),
    open: async (iv, aad, sealed) => new Uint8Array(await openCall(iv, aad, sealed)),
    sealCall,
    openCall,
  };
}

async function keyCbcHmac(subtle: Subtle, key: Uint8Array): Promise<Keyed> {
  const half = key.length / 2;
  const mac = await subtle.importKey('raw', bs(key.slice(0, half)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const enc = await subtle.importKey('raw', bs(key.slice(half)), { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
  const tagOf = async (aad: Uint8Array, iv: Uint8Array, ct: Uint8Array) => {
    const al = new Uint8Array(8);
    new DataView(al.buffer).setBigUint64(0, BigInt(aad.length) * 8n);
    return new Uint8Array(await subtle.sign('HMAC', mac, bs(concatBytes(aad, iv, ct, al)))).subarray(0, TAG);
  };
  const keyed: Keyed = {
    async seal(iv, aad, pt) {
      const ct = new Uint8Array(await subtle.encrypt({ name: 'AES-CBC', iv: bs(iv) }, enc, bs(pt)));
      return concatBytes(ct, await tagOf(aad, iv, ct));
    },
    async open(iv, aad, sealed) {
      if (sealed.length < TAG + 16 || (sealed.length - TAG) % 16 !== 0) throw new Error(`ciphertext of ${sealed.length} bytes is malformed`);
      const ct = sealed.subarray(0, sealed.length - TAG);
      const expected = await tagOf(aad, iv, ct);
      // Compare in full, without an early exit, before anything is decrypted.
      let diff = 0;
      for (let i = 0; i < TAG; i++) diff |= expected[i]! ^ sealed[sealed.length - TAG + i]!;
      if (diff !== 0) throw new Error('authentication failed');
      return new Uint8Array(await subtle.decrypt({ name: 'AES-CBC', iv: bs(iv) }, enc, bs(ct)));
    },
    // Two calls and a comparison each way: the composition is the operation.
    sealCall: (iv, aad, pt) => keyed.seal(iv, aad, pt),
    openCall: (iv, aad, sealed) => keyed.open(iv, aad, sealed),
  };
  return keyed;
}

function keyFor(subtle: Subtle, alg: AlgorithmId, key: Uint8Array): Promise<Keyed> {
  switch (alg) {
    case 'aes-128-gcm':
    case 'aes-256-gcm':
      return keyAead(subtle, 'AES-GCM', key);
    case 'chacha20-poly1305':
      return keyAead(subtle, 'ChaCha20-Poly1305', key);
    case 'aes-128-ocb3':
    case 'aes-256-ocb3':
      return keyAead(subtle, 'AES-OCB', key);
    case 'aes-128-cbc-hmac-sha256':
    case 'aes-256-cbc-hmac-sha256':
      return keyCbcHmac(subtle, key);
    default:
      throw new Error(`Web Crypto has no ${alg}`);
  }
}

/** Feature detection: an algorithm is offered if a key imports and a message round-trips. */
async function works(subtle: Subtle, alg: AlgorithmId): Promise<boolean> {
  try {
    const a = algorithm(alg);
    const k = await keyFor(subtle, alg, pattern(a.keyBytes, 1));
    const nonce = pattern(a.nonceBytes, 2);
    const sealed = await k.seal(nonce, new Uint8Array(1), new Uint8Array(3));
    return (await k.open(nonce, new Uint8Array(1), sealed)).length === 3;
  } catch {
    return false;
  }
}

export type WebCryptoMode = 'sequential' | 'pipelined';

export async function webcrypto(mode: WebCryptoMode, subtle: Subtle | undefined = globalThis.crypto?.subtle): Promise<Backend> {
  const candidates = ALGORITHM_IDS.filter((a) => implementationSupports('webcrypto', a));
  const available = subtle ? (await Promise.all(candidates.map(async (a) => ((await works(subtle, a)) ? a : null)))).filter((a) => a !== null) : [];
  const need = () => {
    if (!subtle) throw new Error('crypto.subtle is unavailable (not a secure context?)');
    return subtle;
  };
  return {
    implementation: 'webcrypto',
    variant: mode,
    algorithms: available,
    async encrypt(alg, key, nonce, aad, pt) {
      checkLengths(algorithm(alg), key, nonce);
      return (await keyFor(need(), alg, key)).seal(nonce, aad, pt);
    },
    async decrypt(alg, key, nonce, aad, sealed) {
      checkLengths(algorithm(alg), key, nonce);
      return (await keyFor(need(), alg, key)).open(nonce, aad, sealed);
    },
    async prepare(spec: CaseSpec): Promise<PreparedCase> {
      const { key, nonce, aad, pt } = caseInputs(spec);
      const keyed = await keyFor(need(), spec.algorithm, key); // imported once per case
      let op: () => Promise<unknown>;
      if (spec.operation === 'encrypt') {
        op = () => keyed.sealCall(nonce, aad, pt);
      } else {
        const sealed = await keyed.seal(nonce, aad, pt);
        if (spec.operation === 'decrypt') {
          op = () => keyed.openCall(nonce, aad, sealed);
        } else {
          const forged = sealed.slice();
          forged[forged.length - TAG]! ^= 1; // the tag's first bit, as the WASM bench flips it
          op = () =>
            keyed.openCall(nonce, aad, forged).then(
              () => Promise.reject(new Error('a forged ciphertext was accepted')),
              () => undefined,
            );
        }
      }
      const run =
        mode === 'sequential'
          ? async (n: number) => {
              for (let i = 0; i < n; i++) await op();
            }
          : async (n: number) => {
              // Keep PIPELINE_DEPTH calls in flight until n have completed.
              let started = 0;
              const lane = async () => {
                while (started < n) {
                  started++;
                  await op();
                }
              };
              await Promise.all(Array.from({ length: Math.min(PIPELINE_DEPTH, n) }, lane));
            };
      return { run, stateBytes: null, dispose() {} };
    },
  };
}

const backends: MakeBackends = async ({ params }) => {
  const out = [];
  for (const mode of params.webcrypto) out.push(await webcrypto(mode));
  return out;
};
export default backends;
