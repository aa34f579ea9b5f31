// Run by heap.test.ts in a Node started with --trace-protector-invalidation, which prints a line
// when the isolate's "array buffer detaching" protector falls. Plain JavaScript, so that nothing
// but the core runs in the isolate (tsx's loader detaches buffers of its own). Does to one WASM
// core what a measuring worker does: reports, the clock chain, the 1 MiB groups of a run (every
// algorithm of the quick preset held at once, encrypt then decrypt), then one payload of `bytes`.
import { readFileSync } from 'node:fs';

const [variant, bytes] = [process.argv[2], Number(process.argv[3])];
const dir = new URL(`../wasm/${variant}/`, import.meta.url);
const cores = await import(new URL('cores.js', dir).href);
cores.initSync({ module: readFileSync(new URL('cores_bg.wasm', dir)) });
const step = (name) => console.log(`step ${name}`);
cores.buildInfo();
cores.clockChain(1000, 1);
const algorithms = JSON.parse(cores.algorithms()).map((a) => a.id);
step('loaded');
for (const operation of ['encrypt', 'decrypt']) {
  const group = algorithms.slice(0, 7).map((a) => new cores.Bench(a, operation, 1 << 20, 0));
  for (const b of group) b.run(1);
  for (const b of group) b.free();
}
step('1 MiB groups');
const key = new Uint8Array(16),
  nonce = new Uint8Array(12);
const sealed = cores.encrypt('aes-128-gcm', key, nonce, new Uint8Array(0), new Uint8Array(bytes));
cores.decrypt('aes-128-gcm', key, nonce, new Uint8Array(0), sealed);
step(`${bytes} bytes`);
