/**
 * The RustCrypto cores compiled to WebAssembly (cores.ts runs them). Timing calls `Bench.run(n)`,
 * whose loop runs inside WASM with the key schedule done once, so a sample contains no JS↔WASM
 * crossing beyond the one call.
 * @module
 */
import { coresBackend } from '../cores.ts';
import type { MakeBackends, WasmVariant } from '../shared.ts';

/** The variants to measure: `auto` is simd128 where supported, else baseline. */
export function wasmVariants(choice: 'auto' | 'both' | WasmVariant, simd128: boolean): WasmVariant[] {
  if (choice === 'both') return simd128 ? ['simd128', 'baseline'] : ['baseline'];
  if (choice === 'simd128') return simd128 ? ['simd128'] : [];
  if (choice === 'baseline') return ['baseline'];
  return [simd128 ? 'simd128' : 'baseline'];
}

const backends: MakeBackends = async ({ params, loadCores, loadBuildInfo, features }) => {
  const out = [];
  for (const variant of wasmVariants(params.wasm, features.simd128)) out.push(await coresBackend(variant, loadCores, loadBuildInfo));
  return out;
};
export default backends;
