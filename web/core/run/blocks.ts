/**
 * Raw block ciphers — Rijndael (AES-128), Twofish and Serpent, the AES finalists the aes-candidates study
 * compared — one 16-byte block per call, in a worker of their own, timed by the one sampling
 * loop (measure.ts). Bitsliced AES encrypts several blocks at once: fed one block per call it
 * does that work for one block, which is what this shows.
 * @module
 */
import { median } from '../stats.ts';
import { presetParams } from '../params.ts';
import type { WorkerHandle } from '../worker/rpc.ts';
import type { WorkerApi } from '../worker/api.ts';
import { connect } from '../worker/rpc.ts';

export const BLOCK_CIPHERS = ['aes-128', 'twofish-128', 'serpent-128'] as const;

export interface BlockTiming {
  cipher: (typeof BLOCK_CIPHERS)[number];
  /** Nanoseconds per block, one per sample. */
  samples: number[];
  nsPerBlock: number;
  bytesPerSecond: number;
  stateBytes: number | null;
}

export async function measureBlocks(createWorker: () => WorkerHandle, o: { samples?: number; minSampleMs?: number } = {}): Promise<BlockTiming[]> {
  const handle = createWorker();
  try {
    const remote = connect<WorkerApi>(handle);
    await remote.init({ ...presetParams('quick'), implementations: ['rustcrypto-wasm'], estimateClock: false });
    const rows = await remote.measureBlocks([...BLOCK_CIPHERS], { samples: o.samples ?? 9, minSampleMs: o.minSampleMs ?? 20 });
    return rows.map((r) => {
      const ns = median(r.samples);
      return { cipher: r.cipher as BlockTiming['cipher'], samples: r.samples, nsPerBlock: ns, bytesPerSecond: (16 * 1e9) / ns, stateBytes: r.stateBytes };
    });
  } finally {
    handle.terminate();
  }
}
