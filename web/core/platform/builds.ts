/**
 * The built WASM variants (scripts/build-wasm), for both platforms: each one's wasm-bindgen
 * glue, imported on demand, and what the build recorded about it. Literal import paths, so
 * every bundler sees them.
 */
import type { Cores, WasmVariant } from '../implementations/shared.ts';
import baselineInfo from '../wasm/baseline/build-info.js';
import simd128Info from '../wasm/simd128/build-info.js';
import libaegisSimd128Info from '../wasm/libaegis-simd128/build-info.js';
import libaegisRelaxedInfo from '../wasm/libaegis-relaxed-simd/build-info.js';

/** `--target web` glue: `default()` fetches the .wasm beside it (browsers), `initSync` takes its bytes (Node). */
export type Glue = Cores & { default: () => Promise<unknown> };

export const GLUE: Record<WasmVariant, () => Promise<Glue>> = {
  baseline: () => import('../wasm/baseline/cores.js'),
  simd128: () => import('../wasm/simd128/cores.js'),
  // The same exported surface; only wasm-bindgen's internal exports differ between builds.
  'libaegis-simd128': () => import('../wasm/libaegis-simd128/cores.js') as Promise<never>,
  'libaegis-relaxed-simd': () => import('../wasm/libaegis-relaxed-simd/cores.js') as Promise<never>,
};

export const BUILD_INFO: Record<WasmVariant, Record<string, unknown>> = {
  baseline: baselineInfo,
  simd128: simd128Info,
  'libaegis-simd128': libaegisSimd128Info,
  'libaegis-relaxed-simd': libaegisRelaxedInfo,
};
