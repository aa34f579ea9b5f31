// A module that ends its thread: outside the thread whose id EXIT_OUTSIDE names, its first
// encryption calls process.exit(3) (apart.test.ts); there, noble's GCM behind the contract.
import { threadId } from 'node:worker_threads';
import { gcm } from '@noble/ciphers/aes.js';

const ends = () => process.env.EXIT_OUTSIDE !== undefined && threadId !== Number(process.env.EXIT_OUTSIDE);

export default {
  id: 'test-exit-gcm',
  label: 'noble GCM that ends its thread',
  version: '1',
  algorithms: ['aes-128-gcm'],
  encrypt: (_alg, key, nonce, aad, pt) => (ends() ? process.exit(3) : gcm(key, nonce, aad).encrypt(pt)),
  decrypt: (_alg, key, nonce, aad, sealed) => gcm(key, nonce, aad).decrypt(sealed),
};
