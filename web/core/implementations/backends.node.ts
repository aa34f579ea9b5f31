// Written by `npm run units` (scripts/units.ts) from the folders beside it: do not edit.
import type { MakeBackends } from './shared.ts';

/** How a Node worker thread loads the backends of each implementation that runs there, when a run asks for it. */
export const BACKENDS: Readonly<Record<string, () => Promise<{ default: MakeBackends }>>> = {
  'rustcrypto-wasm': () => import('./rustcrypto-wasm/backend.ts'),
  webcrypto: () => import('./webcrypto/backend.ts'),
  noble: () => import('./noble/backend.ts'),
  libsodium: () => import('./libsodium/backend.ts'),
  'libaegis-wasm': () => import('./libaegis-wasm/backend.ts'),
  'node-crypto': () => import('./node-crypto/backend.ts'),
};
