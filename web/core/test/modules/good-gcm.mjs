// A correct module: @noble/ciphers' GCM behind the contract, synchronous.
import { gcm } from '@noble/ciphers/aes.js';

export default {
  id: 'test-good-gcm',
  label: 'noble GCM through the contract',
  version: '1',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  encrypt: (_alg, key, nonce, aad, pt) => gcm(key, nonce, aad).encrypt(pt),
  decrypt: (_alg, key, nonce, aad, sealed) => gcm(key, nonce, aad).decrypt(sealed),
};
