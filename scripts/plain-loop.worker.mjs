// A plain loop, written apart from the engine (no backend, no sampler, no shared loop code):
// the same calls a module of yours gets, timed as a developer would time them by hand.
// workerData: { subjects: [{ module (path of an example module, or 'noble'), algorithm }], sizes, ms, reps, interleaveMs? }
// Without interleaveMs each case runs alone, one after the other, `reps` stretches of `ms`
// (the median stretch is its figure). With interleaveMs every case of every subject takes
// turns, one batch of about interleaveMs at a time in a shuffled order, for `ms` × reps in all —
// how the engine samples — and a case's figure is its bytes over its time.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';

const { subjects, sizes, ms, reps, interleaveMs } = workerData;
const fill = (n, seed) => Uint8Array.from({ length: n }, (_, i) => (Math.imul(i & 0xff, 31) + seed) & 0xff);
const keyBytes = (algorithm) => (algorithm === 'aes-128-gcm' ? 16 : 32);

async function encryptOf({ module, algorithm }) {
  if (module === 'noble') {
    // As the built-in noble backend calls it: a cipher object per message.
    const f = algorithm === 'chacha20-poly1305' ? chacha20poly1305 : gcm;
    return (key, nonce, aad, pt) => f(key, nonce, aad).encrypt(pt);
  }
  const impl = (await import(pathToFileURL(module).href)).default;
  const state = impl.prepare ? await impl.prepare(algorithm, fill(keyBytes(algorithm), 1)) : undefined;
  return (k, nonce, aad, pt) => impl.encrypt(algorithm, k, nonce, aad, pt, state);
}

let sink = 0;
const cases = [];
for (const s of subjects) {
  const encrypt = await encryptOf(s);
  for (const size of sizes) {
    const key = fill(keyBytes(s.algorithm), 1);
    const nonce = fill(12, 2);
    const aad = new Uint8Array(0);
    const pt = fill(size, 4);
    cases.push({ key: `${s.module}|${s.algorithm}|${size}`, size, call: () => encrypt(key, nonce, aad, pt) });
  }
}

/** Calls `call` for at least `forMs`, eight at a time; returns [calls, ms]. */
function loop(call, forMs) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < forMs) {
    for (let i = 0; i < 8; i++) sink ^= call()[0];
    n += 8;
    t = performance.now();
  }
  return [n, t - t0];
}

const out = {};
if (!interleaveMs) {
  for (const c of cases) {
    loop(c.call, ms / 3); // warm-up: a third of a rep
    const rates = [];
    for (let r = 0; r < reps; r++) {
      const [n, t] = loop(c.call, ms);
      rates.push((n * c.size) / (t / 1000));
    }
    rates.sort((a, b) => a - b);
    out[c.key] = { bytesPerSecond: rates[rates.length >> 1] };
  }
} else {
  // Warm every case, then size its batch to about interleaveMs.
  for (const c of cases) {
    loop(c.call, ms / 3);
    const [n, t] = loop(c.call, interleaveMs);
    c.batch = Math.max(1, Math.round((n * interleaveMs) / t));
    c.calls = 0;
    c.ms = 0;
  }
  const order = cases.map((_, i) => i);
  for (const end = performance.now() + ms * reps; performance.now() < end; ) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const c = cases[i];
      const t0 = performance.now();
      for (let k = 0; k < c.batch; k++) sink ^= c.call()[0];
      c.ms += performance.now() - t0;
      c.calls += c.batch;
    }
  }
  for (const c of cases) out[c.key] = { bytesPerSecond: (c.calls * c.size) / (c.ms / 1000) };
}
parentPort.postMessage({ out, sink: sink === 0.5 ? sink : 0 });
