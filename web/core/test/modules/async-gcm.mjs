// A correct module that answers with promises: Web Crypto's AES-GCM, the key imported in prepare.
const params = (nonce, aad) => ({ name: 'AES-GCM', iv: nonce, additionalData: aad, tagLength: 128 });
const importKey = (key) => crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt', 'decrypt']);

export default {
  id: 'test-async-gcm',
  label: 'Web Crypto through the contract',
  algorithms: ['aes-128-gcm'],
  prepare: (_alg, key) => importKey(key),
  async encrypt(_alg, key, nonce, aad, pt, k) {
    return new Uint8Array(await crypto.subtle.encrypt(params(nonce, aad), k ?? (await importKey(key)), pt));
  },
  async decrypt(_alg, key, nonce, aad, sealed, k) {
    return new Uint8Array(await crypto.subtle.decrypt(params(nonce, aad), k ?? (await importKey(key)), sealed));
  },
};
