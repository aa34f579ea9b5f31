// Wrong at exactly one length: a byte of the ciphertext is changed for 1000-byte messages.
import { gcm } from '@noble/ciphers/aes.js';

export default {
  id: 'test-wrong-at-1000',
  label: 'GCM wrong at 1000 bytes',
  algorithms: ['aes-128-gcm'],
  encrypt(_alg, key, nonce, aad, pt) {
    const out = gcm(key, nonce, aad).encrypt(pt);
    if (pt.length === 1000) out[500] ^= 1;
    return out;
  },
  decrypt: (_alg, key, nonce, aad, sealed) => gcm(key, nonce, aad).decrypt(sealed),
};
