// asmcrypto.js's AES-GCM (asm.js) behind aeadbench's contract: its one-shot calls, which
// expand the key each time (the library keeps no key object across nonces).
// asmcrypto.js itself accepts a zero-length nonce (Wycheproof aes_gcm #311), which SP 800-38D
// forbids and the gate refuses; this glue checks the length first, as aeadbench's built-ins do.
import { AES_GCM } from 'asmcrypto.js';

const twelve = (nonce) => {
  if (nonce.length !== 12) throw new Error(`nonce of ${nonce.length} bytes, expected 12`);
  return nonce;
};

export default {
  id: 'asmcrypto-gcm',
  label: 'asmcrypto.js AES-GCM',
  version: '2.3.2',
  url: 'https://github.com/asmcrypto/asmcrypto.js',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  encrypt: (_alg, key, nonce, aad, plaintext) => AES_GCM.encrypt(plaintext, key, twelve(nonce), aad, 16),
  decrypt: (_alg, key, nonce, aad, sealed) => AES_GCM.decrypt(sealed, key, twelve(nonce), aad, 16),
};
