/**
 * node:crypto (OpenSSL), the implementation server users compare WASM against. Node only.
 * AES-GCM, ChaCha20-Poly1305 and AES-OCB (RFC 7253) through createCipheriv; the CBC+HMAC ids composed from
 * AES-CBC and HMAC-SHA-256 exactly as the cores compose them (RFC 7518 §5.2.2.1).
 * The key is wrapped in a KeyObject once per case; OpenSSL still schedules it per message, as
 * every caller of this API pays.
 * @module
 */
import { type CipherGCMTypes, type KeyObject, createCipheriv, createDecipheriv, createHmac, createSecretKey, getCiphers, timingSafeEqual } from 'node:crypto';
import { ALGORITHM_IDS, algorithm, type AlgorithmId, implementationSupports } from '../../tables/algorithms.ts';
import { defineBuiltIn } from '../custom.ts';
import { contractBackend } from '../contract.ts';
import { type Backend, type MakeBackends, checkLengths } from '../shared.ts';

const TAG = 16;

type Seal = (nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array) => Uint8Array;
type Open = (nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array) => Uint8Array;

function aead(name: string, key: KeyObject): { seal: Seal; open: Open } {
  const opts = { authTagLength: TAG };
  return {
    seal(nonce, aad, pt) {
      const c = createCipheriv(name as CipherGCMTypes, key, nonce, opts);
      c.setAAD(aad, { plaintextLength: pt.length });
      return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
    },
    open(nonce, aad, sealed) {
      if (sealed.length < TAG) throw new Error(`ciphertext of ${sealed.length} bytes is shorter than the tag`);
      const d = createDecipheriv(name as CipherGCMTypes, key, nonce, opts);
      d.setAAD(aad, { plaintextLength: sealed.length - TAG });
      d.setAuthTag(sealed.subarray(sealed.length - TAG));
      return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG)), d.final()]);
    },
  };
}

function cbcHmac(key: Uint8Array): { seal: Seal; open: Open } {
  const half = key.length / 2;
  const macKey = createSecretKey(key.subarray(0, half));
  const encKey = createSecretKey(key.subarray(half));
  const cipher = half === 16 ? 'aes-128-cbc' : 'aes-256-cbc';
  const tagOf = (aad: Uint8Array, iv: Uint8Array, ct: Uint8Array) => {
    const al = Buffer.alloc(8);
    al.writeBigUInt64BE(BigInt(aad.length) * 8n);
    return createHmac('sha256', macKey).update(aad).update(iv).update(ct).update(al).digest().subarray(0, TAG);
  };
  return {
    seal(iv, aad, pt) {
      const c = createCipheriv(cipher, encKey, iv);
      const ct = Buffer.concat([c.update(pt), c.final()]);
      return Buffer.concat([ct, tagOf(aad, iv, ct)]);
    },
    open(iv, aad, sealed) {
      if (sealed.length < TAG + 16 || (sealed.length - TAG) % 16 !== 0) throw new Error(`ciphertext of ${sealed.length} bytes is malformed`);
      const ct = sealed.subarray(0, sealed.length - TAG);
      if (!timingSafeEqual(tagOf(aad, iv, ct), sealed.subarray(sealed.length - TAG))) throw new Error('authentication failed');
      const d = createDecipheriv(cipher, encKey, iv);
      return Buffer.concat([d.update(ct), d.final()]);
    },
  };
}

const OPENSSL_NAMES: Partial<Record<AlgorithmId, string>> = {
  'aes-128-gcm': 'aes-128-gcm',
  'aes-256-gcm': 'aes-256-gcm',
  'chacha20-poly1305': 'chacha20-poly1305',
  'aes-128-ocb3': 'aes-128-ocb',
  'aes-256-ocb3': 'aes-256-ocb',
};

function keyed(alg: AlgorithmId, key: Uint8Array) {
  if (alg === 'aes-128-cbc-hmac-sha256' || alg === 'aes-256-cbc-hmac-sha256') return cbcHmac(key);
  const name = OPENSSL_NAMES[alg];
  if (!name) throw new Error(`node:crypto is not measured for ${alg}`);
  return aead(name, createSecretKey(key));
}

/** node:crypto as a module of the contract (custom.ts): the KeyObject is its `prepare`. */
export function nodeCryptoModule() {
  const have = new Set(getCiphers());
  return defineBuiltIn<ReturnType<typeof keyed>>({
    id: 'node-crypto',
    label: 'node:crypto (OpenSSL)',
    algorithms: ALGORITHM_IDS.filter(
      (a) => implementationSupports('node-crypto', a) && have.has(OPENSSL_NAMES[a] ?? (a.startsWith('aes-128') ? 'aes-128-cbc' : 'aes-256-cbc')),
    ),
    prepare: (alg, key) => keyed(alg, key),
    // A Buffer is a Uint8Array: handed back as OpenSSL made it, not copied (a copy would be timed too).
    encrypt(alg, key, nonce, aad, pt, k) {
      checkLengths(algorithm(alg), key, nonce);
      return (k ?? keyed(alg, key)).seal(nonce, aad, pt);
    },
    decrypt(alg, key, nonce, aad, sealed, k) {
      checkLengths(algorithm(alg), key, nonce);
      return (k ?? keyed(alg, key)).open(nonce, aad, sealed);
    },
  });
}

export function nodeCrypto(): Backend {
  // OpenSSL's version is in the environment (libraries.openssl), not in the variant's name.
  return contractBackend(nodeCryptoModule(), { implementation: 'node-crypto', variant: 'openssl' });
}

const backends: MakeBackends = async () => [nodeCrypto()];
export default backends;
