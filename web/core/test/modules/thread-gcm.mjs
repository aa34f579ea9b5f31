// A correct module that says where it ran: each case it prepares appends this thread's id to
// the file THREAD_LOG names (apart.test.ts), then noble's GCM behind the contract.
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { gcm } from '@noble/ciphers/aes.js';

export default {
  id: 'test-thread-gcm',
  label: 'noble GCM that logs its thread',
  version: '1',
  algorithms: ['aes-128-gcm'],
  prepare: () => {
    if (process.env.THREAD_LOG) appendFileSync(process.env.THREAD_LOG, `${threadId}\n`);
  },
  encrypt: (_alg, key, nonce, aad, pt) => gcm(key, nonce, aad).encrypt(pt),
  decrypt: (_alg, key, nonce, aad, sealed) => gcm(key, nonce, aad).decrypt(sealed),
};
