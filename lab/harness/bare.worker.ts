/**
 * The bare loops the engine is compared against: no calibration logic, no RPC, no statistics
 * module; just the cores (or crypto.subtle), performance.now() and a fixed batch.
 */
import initSimd, * as simd from '../../web/core/wasm/simd128/cores.js';
import { makeYield } from '../../web/core/worker/yield.ts';

export interface BareSpec {
  kind: 'wasm' | 'webcrypto';
  algorithm: string;
  sizeBytes: number;
  iterations: number;
  samples: number;
  warmupMs: number;
  /** Other work between samples (ms of synchronous work, `gapWork`, as other cases' turns in a run): the event loop and the crypto thread wait meanwhile. */
  gapMs?: number;
  /**
   * What fills the gap: 'spin' (the default) reads the clock, touching no memory; 'wasm' encrypts
   * `sizeBytes` with the WASM cores' AES-128-GCM (simd128) call after call, as a run's other
   * cases do between a case's samples, with their buffers and their traffic through the caches.
   */
  gapWork?: 'spin' | 'wasm';
  /** Untimed calls before each timed batch, after the gap (measure.ts SETTLE_CALLS). */
  settle?: number;
  /** A turn of the event loop before each timed batch (and its untimed calls): the engine's own, before every sample (worker/yield.ts makeYield). */
  turn?: boolean;
  /** Time each call of a batch on its own: the answer is then each position's mean ns over the samples, not a figure per sample. */
  profile?: boolean;
}

async function bare(spec: BareSpec): Promise<number[]> {
  let run: (n: number) => unknown;
  // The cores load only where they run: a Web Crypto loop's worker holds no WebAssembly module otherwise.
  if (spec.kind === 'wasm' || spec.gapWork === 'wasm') await initSimd();
  const other = spec.gapWork === 'wasm' ? new simd.Bench('aes-128-gcm', 'encrypt', spec.sizeBytes, 0) : undefined;
  if (spec.kind === 'wasm') {
    const bench = new simd.Bench(spec.algorithm, 'encrypt', spec.sizeBytes, 0);
    run = (n) => bench.run(n);
  } else {
    const key = await crypto.subtle.importKey('raw', new Uint8Array(spec.algorithm === 'aes-256-gcm' ? 32 : 16), 'AES-GCM', false, ['encrypt']);
    const iv = new Uint8Array(12);
    // Written, as a caller's data is: a buffer never written reads the kernel's one zero page.
    const pt = new Uint8Array(spec.sizeBytes).map((_, i) => (i * 31 + 7) & 255);
    run = async (n) => {
      for (let i = 0; i < n; i++) await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, pt);
    };
  }
  const t0 = performance.now();
  while (performance.now() - t0 < spec.warmupMs) await run(spec.iterations);
  const out: number[] = [];
  const byPosition = new Array<number>(spec.iterations).fill(0);
  const turn = spec.turn ? makeYield() : undefined;
  for (let i = 0; i < spec.samples; i++) {
    if (turn) await turn();
    if (spec.settle) await run(spec.settle);
    if (spec.profile) {
      let t = performance.now();
      for (let k = 0; k < spec.iterations; k++) {
        await run(1);
        const u = performance.now();
        byPosition[k]! += ((u - t) * 1e6) / spec.samples;
        t = u;
      }
    } else {
      const t = performance.now();
      await run(spec.iterations);
      out.push(((performance.now() - t) * 1e6) / spec.iterations);
    }
    if (spec.gapMs) for (const end = performance.now() + spec.gapMs; performance.now() < end;) other?.run(1);
  }
  return spec.profile ? byPosition : out;
}

self.onmessage = async (e: MessageEvent<BareSpec>) => {
  try {
    self.postMessage({ samples: await bare(e.data) });
  } catch (err) {
    self.postMessage({ error: (err as Error).message });
  }
};
