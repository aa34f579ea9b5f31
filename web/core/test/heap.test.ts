// The WASM cores never grow their memory in a run whose payloads fit their arena (wasm/heap):
// a grow detaches the memory's old ArrayBuffer, which in V8 falls the isolate's "array buffer
// detaching" protector for good and slows every typed-array access of the JavaScript measured
// in the same worker. Proven in a fresh Node whose V8 prints when that protector falls.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VARIANTS } from './load-cores.ts';

const script = fileURLToPath(new URL('./detach-run.mjs', import.meta.url));
const FELL = 'Invalidating protector cell ArrayBufferDetaching';

/** The script's steps, with the line V8 prints where the protector fell. */
function run(variant: string, bytes: number): string[] {
  const out = execFileSync(process.execPath, ['--trace-protector-invalidation', '--experimental-wasm-relaxed-simd', script, variant, String(bytes)], { encoding: 'utf8', timeout: 60_000 });
  return out.trim().split('\n').map((l) => l.trim());
}

describe("the cores' memory", () => {
  it.each(VARIANTS)('%s: loading, reporting, the 1 MiB groups of the quick preset and a 4 MiB payload leave the protector standing', (variant) => {
    expect(run(variant, 4 << 20)).toEqual(['step loaded', 'step 1 MiB groups', `step ${4 << 20} bytes`]);
  });

  it('grows past the arena when a payload needs it, and V8 then reports the fall (the check sees it)', () => {
    expect(run('simd128', 64 << 20)).toEqual(['step loaded', 'step 1 MiB groups', FELL, `step ${64 << 20} bytes`]);
  });
});
