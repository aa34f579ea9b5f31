/**
 * libsodium.js (`libsodium-wrappers`): libsodium's C compiled to WASM by Emscripten, the WASM
 * crypto library most web applications already ship. Its loop cannot live inside WASM: every
 * call crosses JS → WASM with a copy in and a copy out, as an application calling it pays, so
 * it is timed as noble is (contract.ts, loop.js), not as our in-WASM loops are.
 * The module (about 1.7 MB of JavaScript with the WASM inlined) is imported only when a run
 * asks for this implementation.
 * @module
 */
import { ALGORITHM_IDS, algorithm, type AlgorithmId, implementationSupports } from '../../tables/algorithms.ts';
import { defineBuiltIn } from '../custom.ts';
import { contractBackend } from '../contract.ts';
import { type Backend, type MakeBackends, checkLengths } from '../shared.ts';

type Sodium = typeof import('libsodium-wrappers');
type Seal = (m: Uint8Array, ad: Uint8Array, nsec: null, npub: Uint8Array, k: Uint8Array) => Uint8Array;
type Open = (nsec: null, c: Uint8Array, ad: Uint8Array, npub: Uint8Array, k: Uint8Array) => Uint8Array;

/** Our id → libsodium's combined-mode functions (ciphertext ‖ tag, as our ids). */
function functions(sodium: Sodium): Partial<Record<AlgorithmId, { seal: Seal; open: Open }>> {
  return {
    'chacha20-poly1305': { seal: sodium.crypto_aead_chacha20poly1305_ietf_encrypt, open: sodium.crypto_aead_chacha20poly1305_ietf_decrypt },
    'xchacha20-poly1305': { seal: sodium.crypto_aead_xchacha20poly1305_ietf_encrypt, open: sodium.crypto_aead_xchacha20poly1305_ietf_decrypt },
    // crypto_aead_aegis*_ABYTES is 32: libsodium's AEGIS is our -tag256 ids.
    'aegis-128l-tag256': { seal: sodium.crypto_aead_aegis128l_encrypt, open: sodium.crypto_aead_aegis128l_decrypt },
    'aegis-256-tag256': { seal: sodium.crypto_aead_aegis256_encrypt, open: sodium.crypto_aead_aegis256_decrypt },
  } as Partial<Record<AlgorithmId, { seal: Seal; open: Open }>>;
}

/** libsodium.js as a module of the contract (custom.ts), once its WASM has loaded. */
export async function libsodiumModule() {
  const mod = await import('libsodium-wrappers');
  // The ESM build's default export is the library; a CommonJS interop may hand it over bare.
  const sodium = ((mod as unknown as { default?: Sodium }).default ?? mod) as Sodium;
  await sodium.ready;
  const table = functions(sodium);
  const fns = (alg: AlgorithmId) => {
    const f = table[alg];
    if (!f || typeof f.seal !== 'function') throw new Error(`libsodium.js is not measured for ${alg}`);
    return f;
  };
  return defineBuiltIn({
    id: 'libsodium',
    label: 'libsodium.js',
    version: sodium.SODIUM_VERSION_STRING,
    algorithms: ALGORITHM_IDS.filter((a) => implementationSupports('libsodium', a) && typeof table[a]?.seal === 'function'),
    encrypt(alg, key, nonce, aad, pt) {
      checkLengths(algorithm(alg), key, nonce);
      return fns(alg).seal(pt, aad, null, nonce, key);
    },
    decrypt(alg, key, nonce, aad, sealed) {
      checkLengths(algorithm(alg), key, nonce);
      return fns(alg).open(null, sealed, aad, nonce, key);
    },
  });
}

export async function libsodium(): Promise<Backend & { version: string }> {
  const m = await libsodiumModule();
  return { ...contractBackend(m, { implementation: 'libsodium', variant: 'wasm' }), version: m.version! };
}

const backends: MakeBackends = async () => [await libsodium()];
export default backends;
