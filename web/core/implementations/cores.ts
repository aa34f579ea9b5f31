/**
 * What the WASM cores' builds share (scripts/build-wasm): their variants, the glue's shape, how a
 * platform loads them, and the engine's WASM features. RustCrypto's and libaegis's backends run
 * on them, and so do the worker's clock probe and the gate's reference.
 * @module
 */
import { ALGORITHM_IDS, type AlgorithmId, type VariantOf } from '../tables/algorithms.ts';
import type { Backend, BuildInfoLoader, CaseSpec, Cores, CoresLoader, PreparedCase, WasmFeatures, WasmVariant } from './shared.ts';

/** `WebAssembly.validate` of the smallest modules using each feature (wasm-feature-detect's). */
const PROBES = {
  simd128: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11],
  relaxedSimd: [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11],
  threads: [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1, 10, 11, 1, 9, 0, 65, 0, 254, 16, 2, 0, 26, 11],
};

export function wasmFeatures(): WasmFeatures {
  const ok = (bytes: number[]) => {
    try {
      return WebAssembly.validate(new Uint8Array(bytes));
    } catch {
      return false;
    }
  };
  return { simd128: ok(PROBES.simd128), relaxedSimd: ok(PROBES.relaxedSimd), threads: ok(PROBES.threads) };
}

function rethrow(e: unknown): never {
  // AeadError from the cores is a wasm-bindgen object: turn it into a real Error.
  const err = e as { kind?: string; message?: string };
  if (err && typeof err.kind === 'string') throw Object.assign(new Error(err.message), { kind: err.kind });
  throw e;
}

/**
 * One build of the cores as a backend: RustCrypto's own builds, and libaegis's, which share the
 * cores' wasm-bindgen surface and in-WASM loops.
 */
export async function coresBackend(
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
    /** WebAssembly operations executed so far, where the cores were loaded counted (the counting pass); else null. */
    ops: (() => bigint) | null;
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
    ops: cores.ops ?? null,
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

/** One build of the cores as a backend, with what only the cores have (the clock chain, the arena, raw block ciphers). */
export type CoresBackend = Awaited<ReturnType<typeof coresBackend>>;
export const isCoresBackend = (b: Backend): b is CoresBackend => 'clockChain' in b;
