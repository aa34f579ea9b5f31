/**
 * @noble/ciphers: audited pure JavaScript, what many web developers pick instead of WASM.
 * Its GCM refuses an output buffer ("cipher output not supported"), so every call allocates,
 * as an application using it would; a cipher instance is created per message, as its API asks.
 * @module
 */
import { gcm, gcmsiv } from '@noble/ciphers/aes.js';
import { chacha20poly1305, xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { algorithm, type AlgorithmId, implementationSupports, ALGORITHM_IDS } from '../../tables/algorithms.ts';
import { defineBuiltIn } from '../custom.ts';
import { contractBackend } from '../contract.ts';
import { type Backend, type MakeBackends, checkLengths } from '../shared.ts';

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

/**
 * noble as a module of the contract (custom.ts): what a module of yours is, line for line. Its
 * `prepare` looks the id's cipher up once per case, so that a timed call is the cipher and two
 * length checks; a cipher instance is still made per message, as noble's API asks.
 */
export const nobleModule = defineBuiltIn<Factory>({
  id: 'noble',
  label: '@noble/ciphers',
  algorithms: ALGORITHM_IDS.filter((a) => implementationSupports('noble', a) && FACTORIES[a]),
  prepare: (alg) => factory(alg),
  encrypt(alg, key, nonce, aad, pt, f) {
    checkLengths(algorithm(alg), key, nonce);
    return (f ?? factory(alg))(key, nonce, aad).encrypt(pt);
  },
  decrypt(alg, key, nonce, aad, sealed, f) {
    checkLengths(algorithm(alg), key, nonce);
    return (f ?? factory(alg))(key, nonce, aad).decrypt(sealed);
  },
});

export function noble(): Backend {
  return contractBackend(nobleModule, { implementation: 'noble', variant: 'js' });
}

const backends: MakeBackends = async () => [noble()];
export default backends;
