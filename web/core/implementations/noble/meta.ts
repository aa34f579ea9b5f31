/** @noble/ciphers: audited pure JavaScript, what many web developers pick instead of WASM. */
import { type ImplementationDocs, type ImplementationMeta, aesBased } from '../../tables/aeads.ts';

export default {
  id: 'noble',
  label: '@noble/ciphers',
  description: 'The audited pure-JavaScript library web developers often pick instead.',
  rank: 3,
  algorithms: ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305', 'xchacha20-poly1305', 'aes-128-gcm-siv', 'aes-256-gcm-siv'],
  variants: ['js'],
  runtimes: ['browser', 'node'],
  npm: ['@noble/ciphers'],
  // Its AES (GCM, GCM-SIV) is T-table based; its ChaCha is constant-time.
  classOf: (alg) => (aesBased(alg) ? 'table' : 'constant-time'),
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: 'AES-GCM, AES-GCM-SIV, ChaCha20-Poly1305, XChaCha20-Poly1305 in plain JS',
  timed: 'a JS loop; a cipher object per message, as its API asks',
};
