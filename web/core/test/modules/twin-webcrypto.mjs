// A twin: Web Crypto's AES-GCM as its built-in calls it (the key imported once per case, one
// crypto.subtle.encrypt per message, its promise of an ArrayBuffer awaited as it is), as a module
// of the contract under another id.
// The parameters the built-in writes: no AAD member when there is none, GCM's 128-bit tag by default.
const params = (iv, aad) => (aad.length > 0 ? { name: 'AES-GCM', iv, additionalData: aad } : { name: 'AES-GCM', iv });
const keyOf = (key) => crypto.subtle.importKey('raw', key, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);

export default {
  id: 'twin-webcrypto',
  label: 'Web Crypto, as a module',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  prepare: (_alg, key) => keyOf(key),
  encrypt: (_alg, key, iv, aad, pt, k) =>
    k ? crypto.subtle.encrypt(params(iv, aad), k, pt) : keyOf(key).then((k) => crypto.subtle.encrypt(params(iv, aad), k, pt)),
  decrypt: (_alg, key, iv, aad, sealed, k) =>
    k ? crypto.subtle.decrypt(params(iv, aad), k, sealed) : keyOf(key).then((k) => crypto.subtle.decrypt(params(iv, aad), k, sealed)),
};
