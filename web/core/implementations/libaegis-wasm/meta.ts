/** libaegis (C), prebuilt for wasm32 by the aegis crate and linked into builds of the cores of its own. */
import type { ImplementationDocs, ImplementationMeta } from '../../tables/aeads.ts';

export default {
  id: 'libaegis-wasm',
  label: 'libaegis (C) → WASM',
  description: "The aegis crate's prebuilt libaegis, C compiled for wasm32 with SIMD (relaxed SIMD where the engine has it); the timing loop runs inside WASM.",
  rank: 5,
  algorithms: ['aegis-128l', 'aegis-256', 'aegis-128l-tag256', 'aegis-256-tag256'],
  variants: ['relaxed-simd', 'simd128'],
  needsWasm: true,
  runtimes: ['browser', 'node'],
  npm: [],
  classOf: () => 'constant-time', // a vector-permute (swizzle) AES round in SIMD
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: "the `aegis` crate's prebuilt libaegis (C, `wasm-libs/libaegis*.a`) linked into a build of the cores: variant `relaxed-simd` where the engine validates relaxed SIMD (Chromium, Firefox), else `simd128` (WebKit); there is no scalar build",
  timed: 'one JS call runs n operations inside WASM, as `rustcrypto-wasm`',
};
