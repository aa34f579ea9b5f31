// Loads a built variant of the WASM cores in Node (the glue is wasm-bindgen's `--target web`,
// which takes the module's bytes through initSync).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { WycheproofVector } from '../implementations/validate.ts';
import { WASM_VARIANTS } from '../implementations/shared.ts';

export type { WycheproofVector };

// Node 20 compiles relaxed SIMD (the libaegis-relaxed-simd build) only behind this flag; later
// versions ship it. Set before any module is compiled.
setFlagsFromString('--experimental-wasm-relaxed-simd');

export const VARIANTS = WASM_VARIANTS;
export type Variant = (typeof VARIANTS)[number];
export type Cores = typeof import('../wasm/baseline/cores.js');

export async function loadCores(variant: Variant): Promise<Cores> {
  const dir = new URL(`../wasm/${variant}/`, import.meta.url);
  const glue: Cores = await import(/* @vite-ignore */ new URL('cores.js', dir).href);
  glue.initSync({ module: readFileSync(fileURLToPath(new URL('cores_bg.wasm', dir))) });
  return glue;
}

export function loadVectors(): WycheproofVector[] {
  const path = fileURLToPath(new URL('../vectors/wycheproof.json', import.meta.url));
  return JSON.parse(readFileSync(path, 'utf8')).vectors;
}
