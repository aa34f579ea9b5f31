/**
 * The RustCrypto cores compiled to WebAssembly. Timing calls `Bench.run(n)`, whose loop runs
 * inside WASM with the key schedule done once, so a sample contains no JS↔WASM crossing
 * beyond the one call.
 * @module
 */
import { ALGORITHM_IDS, type AlgorithmId, type VariantOf } from '../tables/algorithms.ts';
import type { Backend, CaseSpec, PreparedCase } from './backend.ts';

/** The built modules (scripts/build-wasm): two pure-Rust ones, two whose AEGIS is libaegis in C (libaegis-wasm.ts). */
export type WasmVariant = 'baseline' | 'simd128' | 'libaegis-simd128' | 'libaegis-relaxed-simd';
export const WASM_VARIANTS: readonly WasmVariant[] = ['baseline', 'simd128', 'libaegis-simd128', 'libaegis-relaxed-simd'];
/** The wasm-bindgen glue of one built variant, initialised. */
export type Cores = typeof import('../wasm/baseline/cores.js');
export type CoresLoader = (variant: WasmVariant) => Promise<Cores>;
/** build-info.json written by scripts/build-wasm: crate versions, flags, sizes. */
export type BuildInfoLoader = (variant: WasmVariant) => Promise<Record<string, unknown>>;

/** `WebAssembly.validate` of the smallest modules using each feature (wasm-feature-detect's). */
const PROBES = {
  simd128: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11],
  relaxedSimd: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11],
  threads: [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1, 10, 11, 1, 9, 0, 65, 0, 254, 16, 2, 0, 26, 11],
};

export function wasmFeatures(): { simd128: boolean; relaxedSimd: boolean; threads: boolean } {
  const ok = (bytes: number[]) => {
    try {
      return WebAssembly.validate(new Uint8Array(bytes));
    } catch {
      return false;
    }
  };
  return { simd128: ok(PROBES.simd128), relaxedSimd: ok(PROBES.relaxedSimd), threads: ok(PROBES.threads) };
}

/** The variants to measure: `auto` is simd128 where supported, else baseline. */
export function wasmVariants(choice: 'auto' | 'both' | WasmVariant, simd128: boolean): WasmVariant[] {
  if (choice === 'both') return simd128 ? ['simd128', 'baseline'] : ['baseline'];
  if (choice === 'simd128') return simd128 ? ['simd128'] : [];
  if (choice === 'baseline') return ['baseline'];
  return [simd128 ? 'simd128' : 'baseline'];
}

function rethrow(e: unknown): never {
  // AeadError from the cores is a wasm-bindgen object: turn it into a real Error.
  const err = e as { kind?: string; message?: string };
  if (err && typeof err.kind === 'string') throw Object.assign(new Error(err.message), { kind: err.kind });
  throw e;
}

export async function rustcryptoWasm(
  variant: WasmVariant,
  load: CoresLoader,
  loadBuildInfo?: BuildInfoLoader,
): Promise<
  Backend & {
    buildInfo: Record<string, unknown>;
    clockChain(iterations: number, seed: number): number;
    clockChainOps: number;
    /** Bytes of the allocator's arena (wasm/heap): cases whose buffers fit in it never grow the memory. */
    arenaBytes: number;
    /** One raw 16-byte block per call of a block cipher (`aes-128`, `twofish-128`, `serpent-128`), as a case to time. */
    blockBench(cipher: string): PreparedCase;
  }
> {
  const cores = await load(variant);
  // What the build recorded, then what the module reports about itself (which wins).
  const buildInfo = { ...(loadBuildInfo ? await loadBuildInfo(variant) : {}), ...(JSON.parse(cores.buildInfo()) as Record<string, unknown>) };
  const offered = (JSON.parse(cores.algorithms()) as { id: string }[]).map((a) => a.id);
  return {
    implementation: 'rustcrypto-wasm',
    // The libaegis builds share this surface; libaegis-wasm.ts gives them their own identity.
    variant: variant as VariantOf<'rustcrypto-wasm'>,
    buildInfo,
    blockBench(cipher) {
      let b: InstanceType<typeof cores.BlockBench>;
      try {
        b = new cores.BlockBench(cipher);
      } catch (e) {
        rethrow(e);
      }
      return { run: (n: number) => void b.run(n), stateBytes: b.stateBytes, dispose: () => b.free() };
    },
    clockChain: (n, seed) => cores.clockChain(n, seed),
    clockChainOps: cores.clockChainOps(),
    arenaBytes: cores.arenaBytes(),
    algorithms: ALGORITHM_IDS.filter((id) => offered.includes(id)),
    async encrypt(alg, key, nonce, aad, pt) {
      try {
        return cores.encrypt(alg, key, nonce, aad, pt);
      } catch (e) {
        rethrow(e);
      }
    },
    async decrypt(alg, key, nonce, aad, sealed) {
      try {
        return cores.decrypt(alg, key, nonce, aad, sealed);
      } catch (e) {
        rethrow(e);
      }
    },
    async prepare(spec: CaseSpec): Promise<PreparedCase> {
      let bench: InstanceType<Cores['Bench']>;
      try {
        bench = new cores.Bench(spec.algorithm as AlgorithmId, spec.operation, spec.sizeBytes, spec.aadBytes);
      } catch (e) {
        rethrow(e);
      }
      return {
        run: (n) => {
          bench.run(n);
        },
        stateBytes: bench.stateBytes,
        dispose: () => bench.free(),
      };
    },
  };
}
