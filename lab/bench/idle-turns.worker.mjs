// bench:modules' idle turns (Node): one case in one isolate, against itself. Worker 0 times the
// case's batches of about 2 ms back to back, then `turns` batches each taking a round-robin turn
// with `others` threads (each, in its turn, sleeping, streaming through 8 MiB, or calling its
// `neighbour` case, another module's, for `othersMs`), then back to back again; with `settleMs`, each
// of its turns first runs its own batches untimed for that long (at most `settleMaxBatches`), as
// the engine's turn of its own does (measure.ts SETTLE_MS), or, with `ownAfter`, runs them after
// its timed batch instead: whether what they buy is the time since the wait or the thread's
// share of the time spent on its own code. Worker 0 answers the turns' rate over
// the mean of the two back-to-back stretches: what the turns cost the same code in the same heap,
// with no other isolate as the reference.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { encryptOf, inputsOf, warmAndSize } from '../../lab/harness/plain-loop.mjs';
import { batch } from '../../lab/harness/plain-batch.mjs';

const { sab, me, of, kind, subject, neighbour, size, turns, settleMs, settleMaxBatches, ownAfter, batchMs, othersMs } = workerData;
// [the turn under way, how many of the others are ready]
const word = new Int32Array(sab);
const take = (p) => {
  for (let v = Atomics.load(word, 0); v < p; v = Atomics.load(word, 0)) Atomics.wait(word, 0, v);
};
const pass = (p) => {
  Atomics.store(word, 0, p + 1);
  Atomics.notify(word, 0);
};

/** A case's encrypt and its inputs, as the plain loop makes them. */
const caseOf = async (s) => [await encryptOf(s, async (path) => (await import(pathToFileURL(path).href)).default), inputsOf(s.algorithm, size)];

if (me === 0) {
  const [encrypt, inputs] = await caseOf(subject);
  // Nothing runs beside the stretches back to back: the others have loaded their cases and wait for their turns.
  for (let v = Atomics.load(word, 1); v < of - 1; v = Atomics.load(word, 1)) Atomics.wait(word, 1, v);
  const timed = (n) => {
    const t = performance.now();
    batch(encrypt, inputs, n);
    return performance.now() - t;
  };
  // Warm up for 300 ms, then size the batch by the fastest of three timings, as the plain loop does.
  const n = warmAndSize(batch, encrypt, inputs, 300, batchMs);
  const backToBack = () => {
    let ms = 0;
    for (let i = 0; i < turns; i++) ms += timed(n);
    return ms;
  };
  const before = backToBack();
  let ms = 0;
  // Its own calls, untimed: the turn of its own, before the timed batch or after it; how many batches ran.
  const own = () => {
    let k = 0;
    for (const t = performance.now(); k < settleMaxBatches && performance.now() - t < settleMs; k++) timed(n);
    return k;
  };
  // What the turns held, for the table's last line: the others' time between two turns, and the own batches on each side.
  let waited = 0;
  let passedAt = 0;
  const ownRan = [0, 0];
  for (let turn = 0; turn < turns; turn++) {
    const p = turn * of;
    take(p);
    if (turn > 0) waited += performance.now() - passedAt;
    if (!ownAfter) ownRan[0] += own();
    ms += timed(n);
    if (ownAfter) ownRan[1] += own();
    // Read before passing the turn, so that none of the others' time falls before it.
    passedAt = performance.now();
    pass(p);
  }
  take(turns * of);
  const after = backToBack();
  // The same calls on each side: a rate ratio is the inverse of the time ratio.
  parentPort.postMessage({
    ratio: (before + after) / 2 / ms,
    waitMs: waited / Math.max(1, turns - 1),
    ownBefore: ownRan[0] / turns,
    ownAfter: ownRan[1] / turns,
  });
} else {
  const buffer = new Float64Array(1 << 20);
  // A cell no thread notifies: waiting on it sleeps for the turn.
  const nobody = new Int32Array(new SharedArrayBuffer(4));
  let sink = 0;
  const [encrypt, inputs] = kind === 'modules' ? await caseOf(neighbour) : [];
  const work = {
    sleep: () => Atomics.wait(nobody, 0, 0, othersMs),
    stream: () => {
      for (let j = 0, t = performance.now(); performance.now() - t < othersMs; j = (j + 4096) & (buffer.length - 1))
        for (let i = j; i < j + 4096; i++) sink += buffer[i] += 1;
    },
    modules: () => {
      for (const t = performance.now(); performance.now() - t < othersMs;) sink ^= batch(encrypt, inputs, 1);
    },
  }[kind];
  // Warm, so that no compiler works beside the case's stretches or turns.
  if (kind !== 'sleep') for (const t = performance.now(); performance.now() - t < 200;) work();
  Atomics.add(word, 1, 1);
  Atomics.notify(word, 1);
  for (let turn = 0; turn < turns; turn++) {
    const p = turn * of + me;
    take(p);
    work();
    pass(p);
  }
  parentPort.postMessage({ sink });
}
