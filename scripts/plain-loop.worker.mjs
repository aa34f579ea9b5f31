// A plain loop, written apart from the engine (no backend, no sampler, no shared loop code):
// the same calls a module of yours gets, timed as a developer would time them by hand.
// workerData: { module (path of an example module, or 'noble'), algorithm, sizes, ms, reps }
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';

const { module, algorithm, sizes, ms, reps } = workerData;
const fill = (n, seed) => Uint8Array.from({ length: n }, (_, i) => (Math.imul(i & 0xff, 31) + seed) & 0xff);
const keyBytes = algorithm === 'aes-128-gcm' ? 16 : 32;

let encrypt;
if (module === 'noble') {
  // As the built-in noble backend calls it: a cipher object per message.
  const f = algorithm === 'chacha20-poly1305' ? chacha20poly1305 : gcm;
  encrypt = (key, nonce, aad, pt) => f(key, nonce, aad).encrypt(pt);
} else {
  const impl = (await import(pathToFileURL(module).href)).default;
  const key = fill(keyBytes, 1);
  const state = impl.prepare ? await impl.prepare(algorithm, key) : undefined;
  encrypt = (k, nonce, aad, pt) => impl.encrypt(algorithm, k, nonce, aad, pt, state);
}

const out = {};
for (const size of sizes) {
  const key = fill(keyBytes, 1);
  const nonce = fill(12, 2);
  const aad = new Uint8Array(0);
  const pt = fill(size, 4);
  let sink = 0;
  // Warm-up: a third of a rep.
  for (const end = performance.now() + ms / 3; performance.now() < end; ) sink ^= encrypt(key, nonce, aad, pt)[0];
  const rates = [];
  for (let r = 0; r < reps; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < ms) {
      for (let i = 0; i < 8; i++) sink ^= encrypt(key, nonce, aad, pt)[0];
      n += 8;
      t = performance.now();
    }
    rates.push((n * size) / ((t - t0) / 1000));
  }
  rates.sort((a, b) => a - b);
  out[size] = { bytesPerSecond: rates[rates.length >> 1], sink };
}
parentPort.postMessage(out);
