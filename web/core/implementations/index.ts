// Written by `npm run units` (scripts/units.ts) from the folders beside it: do not edit.
import rustcryptoWasm from './rustcrypto-wasm/meta.ts';
import webcrypto from './webcrypto/meta.ts';
import noble from './noble/meta.ts';
import libsodium from './libsodium/meta.ts';
import libaegisWasm from './libaegis-wasm/meta.ts';
import nodeCrypto from './node-crypto/meta.ts';

/** Every built-in implementation's description (its folder's meta.ts), in rank order. */
export const METAS = [rustcryptoWasm, webcrypto, noble, libsodium, libaegisWasm, nodeCrypto] as const;
