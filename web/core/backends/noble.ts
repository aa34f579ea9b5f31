/**
 * @noble/ciphers: audited pure JavaScript, what many web developers pick instead of WASM.
 * Its GCM refuses an output buffer ("cipher output not supported"), so every call allocates,
 * as an application using it would; a cipher instance is created per message, as its API asks.
 * @module
 */
import { gcm, gcmsiv } from '@noble/ciphers/aes.js';
import { chacha20poly1305, xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { algorithm, type AlgorithmId, implementationSupports, ALGORITHM_IDS } from '../algorithms.ts';
import { type Backend, type CaseSpec, type PreparedCase, checkLengths, syncRun } from './types.ts';

type Factory = (key: Uint8Array, nonce: Uint8Array, aad?: Uint8Array) => { encrypt(pt: Uint8Array): Uint8Array; decrypt(ct: Uint8Array): Uint8Array };

const FACTORIES: Partial<Record<AlgorithmId, Factory>> = {
  'aes-128-gcm': gcm,
  'aes-256-gcm': gcm,
  'chacha20-poly1305': chacha20poly1305,
  'xchacha20-poly1305': xchacha20poly1305,
  'aes-128-gcm-siv': gcmsiv,
  'aes-256-gcm-siv': gcmsiv,
};

function factory(alg: AlgorithmId): Factory {
  const f = FACTORIES[alg];
  if (!f) throw new Error(`@noble/ciphers is not measured for ${alg}`);
  return f;
}

export function noble(): Backend {
  return {
    implementation: 'noble',
    variant: 'js',
    algorithms: ALGORITHM_IDS.filter((a) => implementationSupports('noble', a) && FACTORIES[a]),
    async encrypt(alg, key, nonce, aad, pt) {
      checkLengths(algorithm(alg), key, nonce);
      return factory(alg)(key, nonce, aad).encrypt(pt);
    },
    async decrypt(alg, key, nonce, aad, sealed) {
      checkLengths(algorithm(alg), key, nonce);
      return factory(alg)(key, nonce, aad).decrypt(sealed);
    },
    async prepare(spec: CaseSpec): Promise<PreparedCase> {
      const f = factory(spec.algorithm);
      return syncRun(spec, (i) => f(i.key, i.nonce, i.aad).encrypt(i.pt), (i, sealed) => f(i.key, i.nonce, i.aad).decrypt(sealed));
    },
  };
}
