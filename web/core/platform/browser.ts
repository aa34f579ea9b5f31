/** How the worker finds the WASM cores and the vectors in a browser (bundled by Vite). */
import type { Cores, WasmVariant } from '../backends/rustcrypto-wasm.ts';
import type { Platform } from '../worker/api.ts';
import type { AlgorithmId } from '../algorithms.ts';
import type { WycheproofVector } from '../validate.ts';
import baselineInfo from '../wasm/baseline/build-info.js';
import simd128Info from '../wasm/simd128/build-info.js';
import libaegisSimd128Info from '../wasm/libaegis-simd128/build-info.js';
import libaegisRelaxedInfo from '../wasm/libaegis-relaxed-simd/build-info.js';

// `new URL(…, import.meta.url)` is the asset pattern every bundler (and no bundler) understands;
// one file per algorithm, so a run fetches only the vectors it validates (all of them: 1.4 MB).
const vectorsUrl = (id: AlgorithmId) => new URL(`../vectors/by-algorithm/${id}.json`, import.meta.url);

const GLUE: Record<WasmVariant, () => Promise<Cores & { default: () => Promise<unknown> }>> = {
  baseline: () => import('../wasm/baseline/cores.js'),
  simd128: () => import('../wasm/simd128/cores.js'),
  // The same exported surface; only wasm-bindgen's internal exports differ between builds.
  'libaegis-simd128': () => import('../wasm/libaegis-simd128/cores.js') as Promise<never>,
  'libaegis-relaxed-simd': () => import('../wasm/libaegis-relaxed-simd/cores.js') as Promise<never>,
};

const BUILD_INFO: Record<WasmVariant, Record<string, unknown>> = {
  baseline: baselineInfo,
  simd128: simd128Info,
  'libaegis-simd128': libaegisSimd128Info,
  'libaegis-relaxed-simd': libaegisRelaxedInfo,
};

export const browserPlatform: Platform = {
  runtime: 'browser',
  async loadCores(variant) {
    const glue = await GLUE[variant]();
    await glue.default(); // fetches and instantiates cores_bg.wasm next to the glue
    return glue;
  },
  async loadBuildInfo(variant) {
    return BUILD_INFO[variant];
  },
  async loadVectors(algorithms) {
    const files = await Promise.all(
      algorithms.map(async (id) => {
        const res = await fetch(vectorsUrl(id));
        if (!res.ok) throw new Error(`cannot load the test vectors of ${id}: HTTP ${res.status}`);
        return (await res.json()).vectors as WycheproofVector[];
      }),
    );
    return files.flat();
  },
};
