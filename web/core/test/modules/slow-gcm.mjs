// The same noble GCM as good-gcm.mjs doing its work twice: a head that is plainly SLOWER (A/B tests).
import { gcm } from '@noble/ciphers/aes.js';

export default {
  id: 'test-slow-gcm',
  label: 'noble GCM, each encryption done twice',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  encrypt: (_alg, key, nonce, aad, pt) => (gcm(key, nonce, aad).encrypt(pt), gcm(key, nonce, aad).encrypt(pt)),
  decrypt: (_alg, key, nonce, aad, sealed) => gcm(key, nonce, aad).decrypt(sealed),
};
