/**
 * A worker's first phase: loading what a run measures. Modules of yours are loaded, checked
 * against the contract and hashed; built-in implementations are loaded through the platform's
 * table of backends (implementations/backends.*.ts), only those the run asks something of.
 * @module
 */
import { type ImplementationId, isBuiltInImplementation, implementationSupports, needsWasm } from '../tables/algorithms.ts';
import type { RunParams } from '../schema.ts';
import { customBackend } from '../implementations/contract.ts';
import { type ModuleInfo, defineImplementation, moduleInfo } from '../implementations/custom.ts';
import { type CoresBackend, coresBackend, isCoresBackend } from '../implementations/cores.ts';
import type { Backend, WasmFeatures } from '../implementations/shared.ts';
import { toHex } from '../implementations/validate.ts';
import type { Platform } from './types.ts';

const sha256 = async (bytes: Uint8Array) => toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));

/** Modules of yours by URL: each loaded, checked and hashed; one that fails is named in `moduleErrors`, the rest go on. */
export async function loadModules(platform: Platform, urls: readonly string[]) {
  const customs = new Map<string, Backend>();
  /** Each module's URL by its id: a thread of its own loads it from there (apart.ts). */
  const urlOf = new Map<string, string>();
  const loaded: ModuleInfo[] = [];
  const moduleErrors: { url: string; message: string }[] = [];
  for (const url of urls) {
    try {
      const { exports, bytes } = await platform.loadModule(url);
      if (!('default' in exports)) throw new Error('it has no default export (export default defineImplementation({...}))');
      const impl = defineImplementation(exports.default as never);
      if (customs.has(impl.id)) throw new Error(`a second module with id '${impl.id}'`);
      customs.set(impl.id, customBackend(impl));
      urlOf.set(impl.id, url);
      loaded.push(moduleInfo(impl, await sha256(bytes)));
    } catch (e) {
      moduleErrors.push({ url, message: (e as Error)?.message ?? String(e) });
    }
  }
  return { customs, urlOf, loaded, moduleErrors };
}

/**
 * The run's backends in the order it names implementations, and the WASM cores that serve as
 * the worker's clock and the gate's reference (the first RustCrypto build loaded, else the
 * baseline one; none where WebAssembly is off). One implementation that cannot load costs the
 * run only itself: it is named in `unavailable`.
 */
export async function loadBackends(
  params: RunParams,
  platform: Platform,
  customs: ReadonlyMap<string, Backend>,
  features: WasmFeatures | null,
  o: { count?: boolean; bare?: boolean } = {},
) {
  // The counting pass loads the WASM cores counted (platform.loadCountedCores); every other worker loads them as built.
  const loadCores = o.count && platform.loadCountedCores ? (v: Parameters<typeof platform.loadCores>[0]) => platform.loadCountedCores!(v) : platform.loadCores;
  const backends: Backend[] = [];
  const unavailable: { implementation: ImplementationId; reason: string }[] = [];
  let cores: CoresBackend | null = null;
  for (const impl of params.implementations) {
    if (!isBuiltInImplementation(impl)) {
      const b = customs.get(impl);
      if (b && params.algorithms.some((a) => b.algorithms.includes(a))) backends.push(b);
      continue;
    }
    // Nothing asked of it, nothing loaded (libsodium.js alone is 1.7 MB of JavaScript).
    if (!params.algorithms.some((a) => implementationSupports(impl, a))) continue;
    if (!features && needsWasm(impl)) {
      unavailable.push({ implementation: impl, reason: 'WebAssembly is off here' });
      continue;
    }
    const load = platform.backends[impl];
    if (!load) {
      unavailable.push({ implementation: impl, reason: `it does not run in ${platform.runtime === 'node' ? 'Node' : 'a browser'}` });
      continue;
    }
    const ctx = {
      params,
      loadCores,
      loadBuildInfo: platform.loadBuildInfo,
      features: features ?? { simd128: false, relaxedSimd: false, threads: false },
    };
    const made = await load()
      .then((m) => m.default(ctx))
      .catch((e: unknown) => e as Error);
    if (made instanceof Error) {
      unavailable.push({ implementation: impl, reason: `it did not load: ${made.message}` });
      continue;
    }
    for (const b of made) {
      if (!cores && b.implementation === 'rustcrypto-wasm' && isCoresBackend(b)) cores = b;
      backends.push(b);
    }
  }
  // The cores are the clock, the probe and the gate's reference; a module's bare thread (apart.ts) needs none of them.
  if (!cores && features && !o.bare) cores = await coresBackend('baseline', platform.loadCores, platform.loadBuildInfo);
  return { backends, unavailable, cores };
}
