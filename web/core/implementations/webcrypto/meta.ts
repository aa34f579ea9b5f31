/** The platform's own crypto.subtle: what a web application gets for nothing. */
import { type ImplementationDocs, type ImplementationMeta, aesBased } from '../../tables/aeads.ts';

export default {
  id: 'webcrypto',
  label: 'Web Crypto',
  description: "The platform's native crypto.subtle; CBC+HMAC composed from AES-CBC and HMAC; AES-OCB where the platform has it (no browser yet).",
  rank: 2,
  algorithms: ['aes-128-gcm', 'aes-256-gcm', 'chacha20-poly1305', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256', 'aes-128-ocb3', 'aes-256-ocb3'],
  variants: ['sequential', 'pipelined'],
  sameCalls: true,
  runtimes: ['browser', 'node'],
  npm: [],
  // BoringSSL, NSS, CommonCrypto, OpenSSL: AES instructions where present; their ChaCha is constant-time code.
  classOf: (alg) => (aesBased(alg) ? 'hardware' : 'constant-time'),
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: '`crypto.subtle`: AES-GCM; ChaCha20-Poly1305 where offered (Chromium, key imported as `raw-secret`); CBC+HMAC composed from AES-CBC and HMAC exactly as the cores',
  timed: 'variant `sequential` awaits each call; `pipelined` keeps 16 in flight',
};
