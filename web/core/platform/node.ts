/** How the worker finds the WASM cores and the vectors in Node (files beside this module). */
import { readFileSync } from 'node:fs';
import type { Cores, WasmVariant } from '../backends/rustcrypto-wasm.ts';
import { nodeCrypto } from '../backends/node-crypto.ts';
import type { Platform } from '../worker/api.ts';
import type { WycheproofVector } from '../validate.ts';
import baselineInfo from '../wasm/baseline/build-info.js';
import simd128Info from '../wasm/simd128/build-info.js';
import libaegisSimd128Info from '../wasm/libaegis-simd128/build-info.js';
import libaegisRelaxedInfo from '../wasm/libaegis-relaxed-simd/build-info.js';

const GLUE: Record<WasmVariant, () => Promise<Cores>> = {
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

export const nodePlatform: Platform = {
  runtime: 'node',
  async loadCores(variant) {
    const glue = await GLUE[variant]();
    glue.initSync({ module: readFileSync(new URL(`../wasm/${variant}/cores_bg.wasm`, import.meta.url)) });
    return glue;
  },
  async loadBuildInfo(variant) {
    return BUILD_INFO[variant];
  },
  async loadVectors(algorithms) {
    const all: WycheproofVector[] = JSON.parse(readFileSync(new URL('../vectors/wycheproof.json', import.meta.url), 'utf8')).vectors;
    return all.filter((v) => (algorithms as readonly string[]).includes(v.algorithm));
  },
  async extraBackends(_params, implementation) {
    return implementation === 'node-crypto' ? [nodeCrypto()] : [];
  },
};
