/** Node's OpenSSL binding (node:crypto), beside WASM for server users. */
import { type ImplementationDocs, type ImplementationMeta, aesBased } from '../../tables/aeads.ts';

export default {
  id: 'node-crypto',
  label: 'node:crypto (OpenSSL)',
  description: "Node's OpenSSL binding, beside WASM for server users. Node only.",
  rank: 6,
  algorithms: ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256', 'aes-128-ocb3', 'aes-256-ocb3'],
  variants: ['openssl'],
  runtimes: ['node'],
  npm: [],
  // OpenSSL uses AES instructions where present; its ChaCha is constant-time code.
  classOf: (alg) => (aesBased(alg) ? 'hardware' : 'constant-time'),
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: 'Node only: OpenSSL through `node:crypto` (AES-GCM, ChaCha20-Poly1305, AES-OCB, CBC+HMAC composed)',
  timed: 'a JS loop',
};
