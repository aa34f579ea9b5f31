// Encrypts correctly but never checks the tag: CTR mode is its own inverse, so running the
// ciphertext through GCM's encryption yields the plaintext, whatever the tag says.
import { gcm } from '@noble/ciphers/aes.js';

export default {
  id: 'test-accepts-forged',
  label: 'GCM without tag check',
  algorithms: ['aes-128-gcm'],
  encrypt: (_alg, key, nonce, aad, pt) => gcm(key, nonce, aad).encrypt(pt),
  decrypt(_alg, key, nonce, aad, sealed) {
    if (sealed.length < 16) throw new Error('too short');
    return gcm(key, nonce, aad)
      .encrypt(sealed.subarray(0, sealed.length - 16))
      .subarray(0, sealed.length - 16);
  },
};
