// bench:modules' pauses of its own (Node): one worker, no other thread of ours working, timing
// batches of about `batchMs` back to back and each after a pause of its own thread (`pauses`, as
// bench-modules.ts parses them: sleeping or spinning on the clock for `ms`, then its own batches
// untimed for `ownMs`, as the engine's turn of its own), in stretches
// of `turns` batches, each held against the stretches back to back on either side of it, over
// `rotations` rotated orders. What it times is a case of the modules' (`subject` at `size`, as the
// plain loop calls it); with `wasm`, the RustCrypto core's own loop of that algorithm's encrypt at
// `size` (the simd128 build, as the engine runs it where WebAssembly SIMD exists); or, with `kib`,
// the walk of wasm/examples/pause_native.rs written in JavaScript: dependent reads at random over
// a working set of that many KiB. Answers, in the pauses' order, each pause's ratios (back to back
// over paused, a rate), one a rotation; how long its pauses lasted on the clock; and how many of
// its own batches ran after each (means per turn), as pause_native.rs does.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { encryptOf, inputsOf, warmAndSize } from '../../lab/harness/plain-loop.mjs';
import { batch } from '../../lab/harness/plain-batch.mjs';

const { subject, wasm, size, kib, turns, rotations, batchMs, pauses } = workerData;

/** n dependent reads at random over a working set (as pause_native.rs's Walk). */
const walkOf = (words) => {
  const set = new Uint32Array(words);
  let x = 0x9e3779b9;
  for (let i = 0; i < words; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    set[i] = x >>> 0;
  }
  const mask = words - 1;
  let at = 0;
  return (n) => {
    for (let i = 0; i < n; i++) at = set[(at ^ i) & mask];
    return at;
  };
};

// `run(n)`: n of its calls (or reads), and the batch's length in them, after 300 ms of warm-up.
let run;
let n;
if (kib) {
  const reads = walkOf(2 ** Math.ceil(Math.log2((kib * 1024) / 4)));
  run = (k) => reads(k);
  // warmAndSize's one call is a call of `encrypt`: here a read.
  n = warmAndSize((r, _, k) => r(k), reads, null, 300, batchMs);
} else if (wasm) {
  const dir = new URL('../../web/core/wasm/simd128/', import.meta.url);
  const cores = await import(new URL('cores.js', dir).href);
  cores.initSync({ module: readFileSync(new URL('cores_bg.wasm', dir)) });
  const bench = new cores.Bench(wasm, 'encrypt', size, 0);
  run = (k) => bench.run(k);
  // One call of warmAndSize's is one message of the core's loop.
  n = warmAndSize((b, _, k) => b.run(k), bench, null, 300, batchMs);
} else {
  const encrypt = await encryptOf(subject, async (path) => (await import(pathToFileURL(path).href)).default);
  const inputs = inputsOf(subject.algorithm, size);
  run = (k) => batch(encrypt, inputs, k);
  n = warmAndSize(batch, encrypt, inputs, 300, batchMs);
}

// A cell no thread notifies: waiting on it sleeps.
const nobody = new Int32Array(new SharedArrayBuffer(4));
let sink = 0;
const stop = ({ how, ms }) => {
  if (how === 'sleep') Atomics.wait(nobody, 0, 0, ms);
  else for (const t = performance.now(); performance.now() - t < ms;) sink++;
};
// Summed over every stretch of each pause: the time its pauses lasted, and its own batches after them.
const pausedMs = pauses.map(() => 0);
const ownBatches = pauses.map(() => 0);
const stretch = (i) => {
  let ms = 0;
  for (let k = 0; k < turns; k++) {
    if (i !== null) {
      const t = performance.now();
      stop(pauses[i]);
      pausedMs[i] += performance.now() - t;
      // Its own batches, untimed, as the engine's turn of its own.
      for (const t = performance.now(); performance.now() - t < pauses[i].ownMs; ownBatches[i]++) sink ^= run(n);
    }
    const t = performance.now();
    sink ^= run(n);
    ms += performance.now() - t;
  }
  return ms;
};
const ratios = pauses.map(() => []);
for (let r = 0; r < rotations; r++)
  for (let j = 0; j < pauses.length; j++) {
    const i = (j + r) % pauses.length;
    const before = stretch(null);
    const paused = stretch(i);
    const after = stretch(null);
    // The same calls in each stretch: a rate ratio is the inverse of the time ratio.
    ratios[i].push((before + after) / 2 / paused);
  }
const perTurn = (xs) => xs.map((x) => x / Math.max(1, turns * rotations));
parentPort.postMessage({ ratios, pausedMs: perTurn(pausedMs), ownBatches: perTurn(ownBatches), sink });
