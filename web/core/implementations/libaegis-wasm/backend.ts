/**
 * libaegis (C, prebuilt for wasm32 and linked by the aegis crate) in its own builds of the cores
 * (scripts/build-wasm): the same wasm-bindgen surface and in-WASM loops as RustCrypto's, offering
 * only the AEGIS ids.
 * @module
 */
import { implementationSupports } from '../../tables/algorithms.ts';
import type { Backend, BuildInfoLoader, CoresLoader, MakeBackends } from '../shared.ts';
import { coresBackend } from '../cores.ts';

export type LibaegisVariant = 'relaxed-simd' | 'simd128';

/**
 * libaegis's builds to measure: both need SIMD, one relaxed SIMD. `auto` takes the best the
 * engine validates; `both` every one it can run; `baseline` none (there is no scalar build).
 */
export function libaegisVariants(choice: 'auto' | 'both' | 'baseline' | 'simd128', features: { simd128: boolean; relaxedSimd: boolean }): LibaegisVariant[] {
  const runnable: LibaegisVariant[] = [
    ...(features.simd128 && features.relaxedSimd ? (['relaxed-simd'] as const) : []),
    ...(features.simd128 ? (['simd128'] as const) : []),
  ];
  if (choice === 'both') return runnable;
  if (choice === 'simd128') return runnable.filter((v) => v === 'simd128');
  if (choice === 'baseline') return [];
  return runnable.slice(0, 1);
}

/** One libaegis build as an implementation of its own, on the cores' surface. */
export async function libaegisWasm(
  variant: LibaegisVariant,
  load: CoresLoader,
  loadBuildInfo?: BuildInfoLoader,
): Promise<Backend & { buildInfo: Record<string, unknown> }> {
  const core = await coresBackend(`libaegis-${variant}`, load, loadBuildInfo);
  return {
    implementation: 'libaegis-wasm',
    variant,
    buildInfo: core.buildInfo,
    algorithms: core.algorithms.filter((a) => implementationSupports('libaegis-wasm', a)),
    encrypt: core.encrypt,
    decrypt: core.decrypt,
    prepare: core.prepare,
    ops: core.ops,
  };
}

const backends: MakeBackends = async ({ params, loadCores, loadBuildInfo, features }) => {
  const out = [];
  for (const variant of libaegisVariants(params.wasm, features)) out.push(await libaegisWasm(variant, loadCores, loadBuildInfo));
  return out;
};
export default backends;
