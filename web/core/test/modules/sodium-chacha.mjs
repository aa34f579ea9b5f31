// A module whose code is WebAssembly: libsodium.js's ChaCha20-Poly1305 (libsodium compiled by
// Emscripten, instantiated with WebAssembly.instantiate when the module loads).
import sodium from 'libsodium-wrappers';

await sodium.ready;

export default {
  id: 'test-sodium-chacha',
  label: 'libsodium.js ChaCha20-Poly1305 through the contract',
  version: '1',
  algorithms: ['chacha20-poly1305'],
  encrypt: (_alg, key, nonce, aad, pt) => sodium.crypto_aead_chacha20poly1305_ietf_encrypt(pt, aad, null, nonce, key),
  decrypt: (_alg, key, nonce, aad, sealed) => sodium.crypto_aead_chacha20poly1305_ietf_decrypt(null, sealed, aad, nonce, key),
};
