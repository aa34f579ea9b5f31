// The WASM cores never grow their memory in a run whose payloads fit their arena (wasm/heap):
// a grow detaches the memory's old ArrayBuffer, which in V8 falls the isolate's "array buffer
// detaching" protector for good and slows every typed-array access of the JavaScript measured
// in the same worker. Proven in a fresh Node whose V8 prints when that protector falls.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { VARIANTS, loadCores } from './load-cores.ts';
import { createApi, outgrowsArena } from '../worker/api.ts';
import { nodePlatform } from '../worker/platform-node.ts';
import { presetParams } from '../params.ts';

const script = fileURLToPath(new URL('./detach-run.mjs', import.meta.url));
const FELL = 'Invalidating protector cell ArrayBufferDetaching';

/** The script's steps, with the line V8 prints where the protector fell. */
function run(variant: string, bytes: number): string[] {
  const out = execFileSync(process.execPath, ['--trace-protector-invalidation', '--experimental-wasm-relaxed-simd', script, variant, String(bytes)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return out
    .trim()
    .split('\n')
    .map((l) => l.trim());
}

describe("the cores' memory", () => {
  it.each(VARIANTS)('%s: loading, reporting, the 1 MiB groups of the quick preset and a 4 MiB payload leave the protector standing', (variant) => {
    expect(run(variant, 4 << 20)).toEqual(['step loaded', 'step 1 MiB groups', `step ${4 << 20} bytes`]);
  });

  it('grows past the arena when a payload needs it, and V8 then reports the fall (the check sees it)', () => {
    expect(run('simd128', 64 << 20)).toEqual(['step loaded', 'step 1 MiB groups', FELL, `step ${64 << 20} bytes`]);
  });
});

describe('a run that would outgrow the arena', () => {
  it('is told from its largest payloads, its operations and how many algorithms a core holds at once', async () => {
    // The arena the cores really have (wasm/heap ARENA_BYTES), so a smaller one fails here.
    const arena = (await loadCores('baseline')).arenaBytes();
    // Quick: 7 algorithms and the A/A twin, two 1 MiB payloads each to encrypt: 17 MiB.
    expect(outgrowsArena(presetParams('quick'), arena)).toBe(false);
    // Opening holds three payloads: 25 MiB, still inside.
    expect(outgrowsArena({ ...presetParams('quick'), operations: ['encrypt', 'decrypt'] }, arena)).toBe(false);
    // Standard: every general algorithm at 4 MiB, encrypt and decrypt.
    expect(outgrowsArena(presetParams('standard'), arena)).toBe(true);
    // One algorithm at 8 MiB: 2 cases × 2 payloads × 8 MiB is the whole arena, and the core keeps more.
    expect(outgrowsArena({ ...presetParams('quick'), algorithms: ['aes-128-gcm'], sizes: [8 << 20] }, arena)).toBe(true);
  });

  it("detaches one buffer of its own in the worker's init, before anything is timed, so every case is measured in one state; a run that fits does not", async () => {
    const spy = vi.spyOn(globalThis, 'structuredClone');
    try {
      const api = createApi(nodePlatform, () => {});
      await api.init({ ...presetParams('quick'), implementations: ['rustcrypto-wasm'] });
      expect(spy).not.toHaveBeenCalled();
      await api.init({ ...presetParams('standard'), implementations: ['rustcrypto-wasm'] });
      expect(spy).toHaveBeenCalledTimes(1);
      const [buffer, options] = spy.mock.calls[0]!;
      expect(options?.transfer).toEqual([buffer]);
    } finally {
      spy.mockRestore();
    }
  });
});
