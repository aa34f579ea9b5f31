/** How the worker finds the WASM cores and the vectors in a browser (bundled by Vite). */
import { BACKENDS } from '../implementations/backends.browser.ts';
import type { Platform } from './types.ts';
import { threadFromPage } from './page-thread.ts';
import type { WasmVariant } from '../implementations/shared.ts';
import type { AlgorithmId } from '../tables/algorithms.ts';
import type { WycheproofVector } from '../implementations/validate.ts';
import { BUILD_INFO, GLUE } from '../platform/builds.ts';

// `new URL(…, import.meta.url)` is the asset pattern every bundler (and no bundler) understands;
// one file per algorithm, so a run fetches only the vectors it validates (all of them: 1.4 MB).
const vectorsUrl = (id: AlgorithmId) => new URL(`../vectors/by-algorithm/${id}.json`, import.meta.url);

/** Each build's module, for the counting pass to rewrite a copy of (literal paths: every bundler emits them). */
const CORES_WASM: Record<WasmVariant, URL> = {
  baseline: new URL('../wasm/baseline/cores_bg.wasm', import.meta.url),
  simd128: new URL('../wasm/simd128/cores_bg.wasm', import.meta.url),
  'libaegis-simd128': new URL('../wasm/libaegis-simd128/cores_bg.wasm', import.meta.url),
  'libaegis-relaxed-simd': new URL('../wasm/libaegis-relaxed-simd/cores_bg.wasm', import.meta.url),
};

export const browserPlatform: Platform = {
  runtime: 'browser',
  backends: BACKENDS,
  // The page starts it (page-thread.ts): a worker's own `new Worker` can block for good in Firefox.
  startThread: () => threadFromPage(),
  async loadCores(variant) {
    const glue = await GLUE[variant]();
    await glue.default(); // fetches and instantiates cores_bg.wasm next to the glue
    return glue;
  },
  async loadCounter() {
    const counter = await import('../counter/counter.js');
    await counter.default(); // fetches counter_bg.wasm beside its glue (once: later calls return it)
    return { instrument: counter.instrument, exportName: counter.counterExport() };
  },
  async loadCountedCores(variant) {
    const counter = await this.loadCounter!();
    const res = await fetch(CORES_WASM[variant]);
    if (!res.ok) throw new Error(`cannot load the ${variant} cores to count them: HTTP ${res.status}`);
    const copy = counter.instrument(new Uint8Array(await res.arrayBuffer()));
    const glue = await GLUE[variant]();
    const exports = (await glue.default({ module_or_path: copy } as never)) as unknown as Record<string, WebAssembly.Global>;
    const global = exports[counter.exportName]!;
    return { ...glue, ops: () => global.value as bigint };
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
  async loadModule(url) {
    // The bytes are fetched to be hashed, then the same URL is imported (from the HTTP cache:
    // a blob: import would need the page's CSP to allow blob: scripts).
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot load ${url}: HTTP ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { exports: await import(/* @vite-ignore */ url), bytes };
  },
};
