// Written by `npm run units` (scripts/units.ts) from the folders beside it: do not edit.
import type { MakeBackends } from './shared.ts';
import rustcryptoWasm from './rustcrypto-wasm/backend.ts';
import webcrypto from './webcrypto/backend.ts';
import noble from './noble/backend.ts';
import libsodium from './libsodium/backend.ts';
import libaegisWasm from './libaegis-wasm/backend.ts';

/** How a browser's worker loads the backends of each implementation that runs there (bundled with it). */
export const BACKENDS: Readonly<Record<string, () => Promise<{ default: MakeBackends }>>> = {
  'rustcrypto-wasm': async () => ({ default: rustcryptoWasm }),
  webcrypto: async () => ({ default: webcrypto }),
  noble: async () => ({ default: noble }),
  libsodium: async () => ({ default: libsodium }),
  'libaegis-wasm': async () => ({ default: libaegisWasm }),
};
