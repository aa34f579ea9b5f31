// The plain loop `npm run bench:modules` holds the engine against, written apart from it (no
// backend, no sampler, no statistics module): the calls a module of yours gets, timed as a
// developer times code by hand. One file for both its homes, a Node worker thread
// (lab/bench/plain-loop.worker.mjs) and a browser worker (plain.worker.ts); plain JavaScript, so
// that Node runs it without a loader (the engine's workers start without one too).
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';

export const fill = (n, seed) => Uint8Array.from({ length: n }, (_, i) => (Math.imul(i & 0xff, 31) + seed) & 0xff);
const keyBytes = (algorithm) => (algorithm === 'aes-128-gcm' ? 16 : 32);
/** A case's inputs, [key, nonce, aad, plaintext]: the same bytes on every call. */
export const inputsOf = (algorithm, size) => [fill(keyBytes(algorithm), 1), fill(12, 2), new Uint8Array(0), fill(size, 4)];

/** A subject's encrypt: noble as the built-in backend calls it (a cipher object per message), or a module's, prepared once. */
export async function encryptOf({ module, algorithm }, load) {
  if (module === 'noble') {
    const f = algorithm === 'chacha20-poly1305' ? chacha20poly1305 : gcm;
    return (key, nonce, aad, pt) => f(key, nonce, aad).encrypt(pt);
  }
  const impl = await load(module);
  const state = impl.prepare ? await impl.prepare(algorithm, fill(keyBytes(algorithm), 1)) : undefined;
  return (key, nonce, aad, pt) => impl.encrypt(algorithm, key, nonce, aad, pt, state);
}

let sink = 0;
/**
 * About `mb` MiB of small live objects (an object, an array and a string each, as an
 * application's state is made of), held while the loop runs: every full collection marks them.
 * 140 bytes each with its slot in the array: in Node, 8 MiB asked read 8.35 MiB more heap after
 * a full collection (`node --expose-gc`, heapUsed).
 */
function liveHeap(mb) {
  const held = [];
  for (let i = 0; i < (mb * 2 ** 20) / 140; i++) held.push({ n: i, pair: [i, i + 1], tag: `k${i % 4096}` });
  return held;
}
/** The batch of the loop alone with pauses (`pauseMs`): as long as a quick run's sample. */
const PAUSED_BATCH_MS = 2;
/** Calls `call` for at least `forMs`, eight at a time: [calls, ms]. */
function loop(call, forMs) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < forMs) {
    for (let i = 0; i < 8; i++) sink ^= call()[0];
    n += 8;
    t = performance.now();
  }
  return [n, t - t0, t0];
}

/**
 * A turn's batch: calls for about `interleaveMs` at the fastest of `timings` ([calls, ms] each),
 * as the engine's calibrate sizes its batches (measure.ts: the fastest of three timings). A
 * timing slowed by something else (a collector's pause, a late compile, another thread on the
 * core) reads slow, never fast: sized by one timing, noble's AES-GCM at 64 B taking turns got
 * 13–27 calls a batch in some fresh workers and 69–135 in others.
 */
export const batchOf = (timings, interleaveMs) => Math.max(1, Math.round(interleaveMs / Math.min(...timings.map(([n, t]) => t / n))));

/** Warms a case through its batch loop `batchLoop` for `warmMs`, then sizes its turn's batch to about `interleaveMs` (batchOf). */
export function warmAndSize(batchLoop, encrypt, inputs, warmMs, interleaveMs) {
  // loop()'s every call here is one call of the case's.
  const one = () => [batchLoop(encrypt, inputs, 1)];
  loop(one, warmMs);
  return batchOf(
    [0, 1, 2].map(() => loop(one, interleaveMs)),
    interleaveMs,
  );
}

/**
 * Every subject at every size, keyed `name|algorithm|size`, in bytes per second: `bytesPerSecond`
 * is its bytes over its time, every call counted (what a caller gets, and what the engine's
 * "all calls" figure is); `medianStretch` the median of its stretches. Without `interleaveMs`
 * each case runs alone, one after the other: a third of a stretch to warm up, then `reps`
 * stretches of `ms`. With it the cases take turns as a run's do (turnOrder): size by size, one
 * batch of about `interleaveMs` a turn, each round in a shuffled order, for `ms` a case in all
 * (each case's turns add up to about one stretch) — how the engine samples — and have no
 * stretches of their own (`medianStretch` is then its bytes over its time too). With `settleMs` too, each turn first runs the case's own batch untimed for
 * that long (and at most `settleMaxBatches` batches, if given), as the engine's turn of its own does (measure.ts SETTLE_MS).
 * With `pauseMs` and no `interleaveMs`, each case runs alone but in batches of about 2 ms, each
 * followed by that long reading the clock: no other case runs, yet the thread stops encrypting.
 * With `liveMB`, about that much of live objects is held beside whichever loop runs.
 * `windows` holds each case's timed spans ([start, end], performance.now()); its figure is its
 * calls' bytes over their time.
 */
/** The time of timed windows, ms: a case's figure and its collector's share divide by the same. */
const spanOf = (windows) => windows.reduce((t, [a, b]) => t + b - a, 0);
/** A case's figure: every timed call's bytes over the time of its windows, in bytes per second. */
const rateOf = (c) => (c.calls * c.size) / (spanOf(c.windows) / 1000);

export async function plainLoop(spec, load, pausedWithin) {
  const live = spec.liveMB ? liveHeap(spec.liveMB) : [];
  const { windows, ...figures } = await loops(spec, load);
  // Where the home can tell (Node: perf_hooks' gc entries, plain-loop.worker.mjs), the share of
  // each case's timed time the collector's pauses took.
  const collectorShare = pausedWithin
    ? Object.fromEntries(await Promise.all(Object.entries(windows).map(async ([k, w]) => [k, (await pausedWithin(w)) / spanOf(w)])))
    : undefined;
  // Read after the loops, so that the objects stay live while they run.
  return { ...figures, ...(collectorShare && { collectorShare }), sink: figures.sink ^ live.length };
}

/** A case's key, as its figures are keyed: `name|algorithm|size`. */
const caseKey = (s, size) => `${s.name}|${s.algorithm}|${size}`;

/**
 * The run's turns (web/core/worker/groups.ts, measure.ts measureInterleaved): size by size, the
 * engine's comparison groups, each size's cases taking `count` rounds of turns, each round in a
 * new shuffled order, one case a turn. `order` holds the case keys turn by turn, `groupEnds` the
 * turn after each size's last. Until 2026-12-06 every case of every size took turns together,
 * and a worker's turn ran a batch of each of its cases: asmcrypto.js's 64 B batch came right
 * after its own 1 MiB one, which no run of the engine does.
 */
export function turnOrder(subjects, sizes, count) {
  const order = [];
  const groupEnds = [];
  for (const size of sizes) {
    const keys = subjects.map((s) => caseKey(s, size));
    for (let r = 0; r < count; r++) {
      for (let i = keys.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [keys[i], keys[j]] = [keys[j], keys[i]];
      }
      order.push(...keys);
    }
    groupEnds.push(order.length);
  }
  return { order, groupEnds };
}

/**
 * Turn by turn through `order`, shared by every thread of a set through `sab` (two Int32s: the
 * turn under way and how many threads have warmed up; a Float64: when the turns of the current size
 * began, on the epoch clock): each thread waits until the count reaches a turn of its own, runs
 * it and passes the count on. A size's turns end after `caseMs` of wall time for each of its
 * cases, whichever thread notices first moving the count to the next size, so that a slow case
 * (1 MiB: one call far longer than a batch) does not hold the loop for `count` rounds. The
 * threads warm up one after another, in the order of `me` (`warmUp`), and none takes a turn
 * until all have: warmed up together, six threads on two cores sized their batches on a shared
 * core (asmcrypto.js at 64 B: 13–51 calls against 47–79 one after another), and no warm-up runs
 * beside another's turns. Alone (no `turns`), the same over a buffer of its own.
 */
function turnsGate({ sab, me, of }, { order, groupEnds }, caseMs) {
  const word = new Int32Array(sab, 0, 2);
  // Every size holds the same cases (turnOrder), so one budget: `caseMs` for each of them.
  const budgetMs = caseMs * new Set(order.slice(0, groupEnds[0])).size;
  const began = new Float64Array(sab, 8, 1);
  const epoch = () => performance.timeOrigin + performance.now();
  return {
    /** Runs `warm` in this thread's warm-up turn, after every thread before it (`me`) has run its own, then waits for the rest. */
    warmUp(warm) {
      for (let v = Atomics.load(word, 1); v < me; v = Atomics.load(word, 1)) Atomics.wait(word, 1, v);
      warm();
      Atomics.store(word, 1, me + 1);
      Atomics.notify(word, 1);
      for (let v = Atomics.load(word, 1); v < of; v = Atomics.load(word, 1)) Atomics.wait(word, 1, v);
    },
    /** Waits for turn `p`: true when it is this thread's to run, false when its size's turns ended before it. */
    take(p) {
      let v = Atomics.load(word, 0);
      for (; v < p; v = Atomics.load(word, 0)) Atomics.wait(word, 0, v);
      if (v > p) return false;
      if (p === 0 || groupEnds.includes(p)) began[0] = epoch();
      else if (epoch() - began[0] > budgetMs) {
        Atomics.store(
          word,
          0,
          groupEnds.find((e) => e > p),
        );
        Atomics.notify(word, 0);
        return false;
      }
      return true;
    },
    pass(p) {
      Atomics.store(word, 0, p + 1);
      Atomics.notify(word, 0);
    },
  };
}

/**
 * The specs of a plain loop's workers: `spec` in one worker; or with `apart` and `interleaveMs`,
 * several workers taking the run's turns (turnOrder) through one shared counter (`turns`): with
 * `apart` true one per subject; with 'module' one per module, as the engine measures a run
 * (web/core/worker/apart.ts: each module of yours in a thread of its own, the built-ins'
 * subjects, noble's, together in the measuring thread).
 */
export function workerSpecs(spec, apart = false) {
  if (!apart || !spec.interleaveMs) return [spec];
  // A worker per subject, or with 'module' per module: the subjects of one module share it.
  const groups = new Map();
  for (const s of spec.subjects) {
    const key = apart === 'module' ? s.module : s;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const sab = new SharedArrayBuffer(16);
  const { order, groupEnds } = turnOrder(spec.subjects, spec.sizes, turnsPerCase(spec));
  return [...groups.values()].map((subjects, me) => ({ ...spec, subjects, turns: { sab, me, of: groups.size, order, groupEnds } }));
}

/** Turns per case, each a batch of about `interleaveMs`: about one stretch of `ms` in all. */
const turnsPerCase = ({ ms, interleaveMs }) => Math.max(1, Math.round(ms / interleaveMs));

/** The figures of several workers' loops, each keyed by its own subjects, as one. */
export function mergedFigures(parts) {
  const collectorShare = parts.every((p) => p.collectorShare) ? Object.assign({}, ...parts.map((p) => p.collectorShare)) : undefined;
  return {
    bytesPerSecond: Object.assign({}, ...parts.map((p) => p.bytesPerSecond)),
    medianStretch: Object.assign({}, ...parts.map((p) => p.medianStretch)),
    ...(collectorShare && { collectorShare }),
  };
}

async function loops({ subjects, sizes, ms, reps, interleaveMs, settleMs, settleMaxBatches = Infinity, pauseMs, turns }, load) {
  const cases = [];
  for (const s of subjects) {
    const encrypt = await encryptOf(s, load);
    for (const size of sizes) {
      const inputs = inputsOf(s.algorithm, size);
      const [key, nonce, aad, pt] = inputs;
      cases.push({
        key: caseKey(s, size),
        size,
        encrypt,
        inputs,
        call: () => encrypt(key, nonce, aad, pt),
        batch: 1,
        calls: 0,
        windows: [],
      });
    }
  }
  const bytesPerSecond = {};
  const medianStretch = {};
  const windowsOf = () => Object.fromEntries(cases.map((c) => [c.key, c.windows]));
  if (!interleaveMs && pauseMs) {
    for (const c of cases) {
      loop(c.call, ms / 3);
      for (const end = performance.now() + ms * reps; performance.now() < end;) {
        const [n, t, t0] = loop(c.call, PAUSED_BATCH_MS);
        c.calls += n;
        c.windows.push([t0, t0 + t]);
        for (const t1 = performance.now(); performance.now() - t1 < pauseMs;);
      }
      bytesPerSecond[c.key] = medianStretch[c.key] = rateOf(c);
    }
    return { bytesPerSecond, medianStretch, sink, windows: windowsOf() };
  }
  if (!interleaveMs) {
    for (const c of cases) {
      loop(c.call, ms / 3);
      const rates = [];
      for (let r = 0; r < reps; r++) {
        const [n, t, t0] = loop(c.call, ms);
        rates.push((n * c.size) / (t / 1000));
        c.calls += n;
        c.windows.push([t0, t0 + t]);
      }
      rates.sort((a, b) => a - b);
      bytesPerSecond[c.key] = rateOf(c);
      medianStretch[c.key] = rates[rates.length >> 1];
    }
    return { bytesPerSecond, medianStretch, sink, windows: windowsOf() };
  }
  // The run's turns, shared with the other threads of the set or this thread's own.
  const schedule = turns ?? turnOrder(subjects, sizes, turnsPerCase({ ms, interleaveMs }));
  // Each case's turns add up to about one stretch of `ms`; settling turns last as much longer.
  const span = settleMs ? 1 + Math.min(settleMaxBatches, Math.ceil(settleMs / interleaveMs)) : 1;
  const gate = turnsGate(turns ?? { sab: new ArrayBuffer(16), me: 0, of: 1 }, schedule, ms * span);
  // Warm every case, then size its batch to about interleaveMs; each case's batches run in its own
  // instance of plain-batch.mjs (its own call site), as the engine's loops do.
  const batchUrl = new URL('./plain-batch.mjs', import.meta.url).href;
  for (const [i, c] of cases.entries()) c.batchLoop = (await import(/* @vite-ignore */ `${batchUrl}?case=${i}`)).batch;
  gate.warmUp(() => {
    // Each warmed through its own batch loop.
    for (const c of cases) c.batch = warmAndSize(c.batchLoop, c.encrypt, c.inputs, ms / 3, interleaveMs);
  });
  const mine = new Map(cases.map((c) => [c.key, c]));
  for (const [p, key] of schedule.order.entries()) {
    const c = mine.get(key);
    if (!c || !gate.take(p)) continue;
    if (settleMs)
      for (let k = 0, t = performance.now(); k < settleMaxBatches && performance.now() - t < settleMs; k++) sink ^= c.batchLoop(c.encrypt, c.inputs, c.batch);
    const t0 = performance.now();
    sink ^= c.batchLoop(c.encrypt, c.inputs, c.batch);
    const t1 = performance.now();
    c.calls += c.batch;
    c.windows.push([t0, t1]);
    gate.pass(p);
  }
  for (const c of cases) bytesPerSecond[c.key] = medianStretch[c.key] = rateOf(c);
  return { bytesPerSecond, medianStretch, sink, windows: windowsOf() };
}
