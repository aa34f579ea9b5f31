/** libsodium.js: libsodium's C compiled to WASM by Emscripten, the WASM crypto most web applications already ship. */
import type { ImplementationDocs, ImplementationMeta } from '../../tables/aeads.ts';

export default {
  id: 'libsodium',
  label: 'libsodium.js',
  description:
    "libsodium's C compiled to WASM by Emscripten (libsodium-wrappers), the WASM crypto most web apps already ship; timed from JS per call, as noble is.",
  rank: 4,
  // libsodium's AEGIS always has a 256-bit tag.
  algorithms: ['chacha20-poly1305', 'xchacha20-poly1305', 'aegis-128l-tag256', 'aegis-256-tag256'],
  variants: ['wasm'],
  needsWasm: true,
  runtimes: ['browser', 'node'],
  npm: ['libsodium-wrappers'],
  // No AES instructions in WASM: its AEGIS runs a table-based software AES round.
  classOf: (alg) => (alg.startsWith('aegis-') ? 'table' : 'constant-time'),
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: "libsodium's C compiled to WASM by Emscripten, inlined in 1.7 MB of JS and loaded only when a run asks for it: ChaCha20-Poly1305 (IETF), XChaCha20-Poly1305, and AEGIS-128L / AEGIS-256 with libsodium's only tag length, 256 bits (`-tag256` ids)",
  timed: "a JS loop like noble's: its loop cannot live inside WASM, each call copies in and out of the module's heap, as an application's call does",
};
