/** How the worker finds the WASM cores and the vectors in Node (files beside this module). */
import { readFileSync } from 'node:fs';
import type { Cores, WasmVariant } from '../backends/rustcrypto-wasm.ts';
import { nodeCrypto } from '../backends/node-crypto.ts';
import type { Platform } from '../worker/api.ts';
import baselineInfo from '../wasm/baseline/build-info.js';
import simd128Info from '../wasm/simd128/build-info.js';

const GLUE: Record<WasmVariant, () => Promise<Cores>> = {
  baseline: () => import('../wasm/baseline/cores.js'),
  simd128: () => import('../wasm/simd128/cores.js'),
};

export const nodePlatform: Platform = {
  runtime: 'node',
  async loadCores(variant) {
    const glue = await GLUE[variant]();
    glue.initSync({ module: readFileSync(new URL(`../wasm/${variant}/cores_bg.wasm`, import.meta.url)) });
    return glue;
  },
  async loadBuildInfo(variant) {
    return variant === 'simd128' ? simd128Info : baselineInfo;
  },
  async loadVectors() {
    return JSON.parse(readFileSync(new URL('../vectors/wycheproof.json', import.meta.url), 'utf8')).vectors;
  },
  async extraBackends(_params, implementation) {
    return implementation === 'node-crypto' ? [nodeCrypto()] : [];
  },
};
