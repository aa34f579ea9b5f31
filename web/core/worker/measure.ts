/**
 * The timing core, run inside the worker. Pure with respect to the DOM: it needs only a clock.
 * @module
 */
import type { PreparedCase, Settle } from '../implementations/shared.ts';

export type Clock = () => number;

/**
 * The timer's resolution: the median of the non-zero steps between consecutive readings
 * (the minimum would be fooled by the jitter browsers add on top of coarsening).
 */
export function timerResolutionMs(now: Clock = () => performance.now(), budgetMs = 30): number {
  const steps: number[] = [];
  const start = now();
  let last = start;
  while (steps.length < 200 && last - start < budgetMs) {
    const t = now();
    if (t !== last) {
      steps.push(t - last);
      last = t;
    }
  }
  if (steps.length === 0) return budgetMs;
  steps.sort((a, b) => a - b);
  return steps[steps.length >> 1]!;
}

/**
 * Times one batch: [start, duration ms, asynchronous?]. An asynchronous batch is timed as a
 * caller's loop of awaited calls is, from its first call to its last call's answer: what each
 * call leaves behind is paid inside the batch by the call after it, and what the last one leaves
 * runs in the untimed turn before the next sample (measureInterleaved), not in another case's.
 */
export async function timed(prepared: PreparedCase, n: number, now: Clock, settle: Settle = null): Promise<[number, number, boolean]> {
  // A case in a thread of its own settles and is timed there; the messages stay outside its time.
  if (prepared.timeApart) {
    const t0 = now();
    const { ms, isAsync } = await prepared.timeApart(n, settle);
    if (isAsync) answersLater.add(prepared);
    return [t0, ms, isAsync];
  }
  if (settle && 'calls' in settle) await prepared.run(settle.calls);
  // A synchronous case's turn of its own: its batches back to back, with no turn between them and the sample.
  else if (settle) for (let k = 0, t = now(); k < settle.batches && now() - t < settle.ms; k++) void prepared.run(n);
  const t0 = now();
  const pending = prepared.run(n);
  if (pending) {
    answersLater.add(prepared);
    await pending;
  }
  return [t0, now() - t0, Boolean(pending)];
}

/** The cases whose calls have answered with a promise (timed): Web Crypto's, a module's async ones. */
const answersLater = new WeakSet<PreparedCase>();

/**
 * An asynchronous implementation (Web Crypto) pays a hand-off to its crypto thread and back on
 * every call, and the first call of a batch also waits for that thread to wake: a batch of two
 * 1 MiB calls measured that wake-up, not throughput. So an async batch holds at least this many
 * calls, as a plain await loop does.
 */
export const ASYNC_MIN_CALLS = 8;

/**
 * Untimed calls before each sample of an asynchronous case: the first call after the other
 * cases' turn waits for the crypto thread to wake. Timed call by call after 35 ms of other work
 * (bench:verdict, docs/measured/verdict.md), Web Crypto's AES-128-GCM at 1 and 16 KiB took
 * 95–390 µs more on the first call than on the fifth and later ones in Chromium, Firefox and
 * WebKit, and the second call up to 50 µs more: 5–19 % of a quick run's 2 ms batch. A caller's loop
 * pays it once. With this call, Firefox's in-run figures at 1 and 16 KiB went from 0.79 and 0.85
 * of a plain await loop to 0.96 (methodology.md, "Web Crypto in a run: taking turns").
 */
export const SETTLE_CALLS = 1;

/**
 * A turn of its own: before each sample of a synchronous case that settles (`settleFor`;
 * RunSession.settles: every case whose code is not WebAssembly's, noble, node:crypto, modules of
 * yours, except in an A/B),
 * its own batch runs untimed, back to back with the sample, until SETTLE_MS have passed or
 * SETTLE_MAX_BATCHES batches have run. A caller's loop of one case runs on and on; a run's case
 * takes turns with the others of its group, and JavaScript timed right after such a switch runs
 * slower for a few milliseconds (noble's AES-GCM at 1 KiB in Node: a plain loop taking turns in
 * 2 ms batches read 0.82 of the loop alone, and 0.97 with 8 ms of its own calls before each).
 * bench:modules, three runs each side by side, noble in the run over the plain loop alone:
 * AES-GCM 64 B / 1 KiB / 1 MiB from 0.82 / 0.85 / 0.94 to 0.93 / 0.89 / 0.97 in Chromium and from
 * 0.92 / 0.81 / 0.93 to 0.93 / 0.92 / 0.96 in Node (docs/methodology.md, "A turn of its own").
 */
export const SETTLE_MS = 8;
export const SETTLE_MAX_BATCHES = 4;

/** How many untimed batches a settling case runs before a sample of `sampleMs` (as measureInterleaved does): for the stop rule's costs. */
export const settleBatches = (sampleMs: number): number => Math.min(SETTLE_MAX_BATCHES, Math.ceil(SETTLE_MS / Math.max(sampleMs, 1e-3)));

export interface MeasureOptions {
  samples: number;
  /** A sample lasts at least max(minSampleMs, 100 × timer resolution). */
  minSampleMs: number;
  timerResolutionMs: number;
  /**
   * Iterations calibrated in an earlier round, reused so rounds are comparable; grown only if
   * the warmed-up code would finish them well short of the target (atLeastTarget).
   */
  iterations?: number;
  /**
   * The case's warmed-up time per operation seen in an earlier round (ns): a fresh worker's
   * warm-up may end as soon as a batch runs that fast (within WARM_AGAIN), since the code is
   * then in the tier it was measured in before.
   */
  warmNsPerOp?: number;
  /** Warm-up lasts at least this long, and at most `warmupMaxMs`. */
  warmupMinMs?: number;
  warmupMaxMs?: number;
  now?: Clock;
  /**
   * Lets other events in (pause messages) between samples, untimed: what a sample's calls left
   * for the next task runs there too, not in the next case's sample.
   */
  yieldNow?: () => Promise<void>;
  /** True if the page was hidden at any time in [from, to] (clock's time base). */
  wasHidden?: (from: number, to: number) => boolean;
  waitUntilVisible?: () => Promise<void>;
}

export interface Measured {
  /** Nanoseconds per operation, one per sample. */
  samples: number[];
  iterations: number;
  interruptions: number;
  warmupMs: number;
}

export function sampleTargetMs(minSampleMs: number, resolutionMs: number): number {
  return Math.max(minSampleMs, 100 * resolutionMs);
}

/** A checked batch that lasts less than this share of the target is sized again by its own time (calibrate). */
const TARGET_SHORT = 0.8;

/**
 * Doubles the batch until it lasts a quarter of the target, then scales it to the target, by
 * the fastest of three timings of that batch, and times that proposal: far too short, it
 * keeps growing; short, it is scaled again by its own time.
 */
export async function calibrate(prepared: PreparedCase, targetMs: number, now: Clock): Promise<number> {
  let n = 1;
  for (let checks = 0; ;) {
    let [, dt, isAsync] = await timed(prepared, n, now);
    // A slow stretch of the device (a collector's pause, the scheduler) during the one batch
    // that crossed the mark, and during the check below, sized WebKit's Web Crypto samples at
    // 1 KiB to 8 calls, a fifth of the target. So a batch crosses the mark only if the fastest
    // of three timings does; if it does not, the batch keeps doubling (a first call that also
    // compiles is no mark either). Two more timings cost about one sample (the batch before
    // lasted less than a quarter of the target); a single call that lasts the target has
    // nothing to gain.
    if (dt >= targetMs / 4) for (let k = 0; k < 2 && (n > 1 || dt < targetMs); k++) dt = Math.min(dt, (await timed(prepared, n, now))[1]);
    if (dt >= targetMs / 4 || n >= 1 << 30) {
      const next = Math.max(isAsync ? ASYNC_MIN_CALLS : 1, Math.ceil((n * targetMs) / Math.max(dt, 1e-6)));
      // The batch that crossed the mark may have held one slow call (a page fault on fresh
      // buffers, a late compile, the scheduler): every sample would then be a few calls long,
      // below the timer's resolution. Time the proposed batch; if it is far too short, keep growing.
      if (checks++ < 3) {
        const [, check] = await timed(prepared, next, now);
        if (check < targetMs / 2) {
          n = next * 2;
          continue;
        }
        // Short of the target, the proposal sizes itself: a larger batch, timed later, on code
        // that may have tiered up since the mark. Sized by the mark alone, an A/B's noble GCM at
        // 1 KiB sampled for less than its 10 ms target in 28 of 32 Chromium sessions under load
        // (bench:ab; below 6 ms in 10), and the shorter its samples, the noisier its cycles (a
        // cycle's head/base moved 45 % below 6 ms, 21 % at 10 ms and over).
        if (check < TARGET_SHORT * targetMs) return Math.ceil((next * targetMs) / check);
      }
      return next;
    }
    n *= 2;
  }
}

/** A warm-up that knows the case's earlier warmed-up time ends once a batch runs within this of it. */
export const WARM_AGAIN = 0.05;
/** ... and not before this long: the first call of a fresh worker also instantiates and compiles. */
const WARM_AGAIN_MIN_MS = 10;

/**
 * Warms a case up and returns the batch size to sample with. Warm-up lasts at least
 * `warmupMinMs` and until three consecutive batches agree within 3 %: V8 tiers WASM up from
 * Liftoff to TurboFan (and JS through Maglev to TurboFan) in the background once code is hot,
 * so two equally slow early batches prove nothing. In a later round (`warmNsPerOp` known), a
 * batch as fast as the earlier warmed-up time proves the optimised tier is running: on a busy
 * device three batches within 3 % took up to its whole budget, per case, in every fresh worker
 * of the stop rule's extra rounds — most of their time. A worker that stays slower (V8 now and
 * then compiles a slower variant for a worker's life) warms up by the first rule, and its
 * samples say what it ran at.
 */
async function warmUp(prepared: PreparedCase, o: MeasureOptions, now: Clock): Promise<number> {
  const target = sampleTargetMs(o.minSampleMs, o.timerResolutionMs);
  // Code already warm (warmupMaxMs 0: its code path ran in an earlier group of this worker):
  // calibrating runs the case and touches its buffers, which is all a warm-up would add. A
  // batch and a second calibration on top were five calls of each 1 MiB case, a sixth of a
  // quick run's first round.
  if (o.warmupMaxMs === 0) {
    if (o.iterations === undefined) return calibrate(prepared, target, now);
    // A batch given its size still runs once before it is timed.
    return atLeastTarget(o.iterations, (await timed(prepared, o.iterations, now))[1] / o.iterations, target);
  }
  const warmStart = now();
  let n = o.iterations ?? (await calibrate(prepared, target, now));
  const minMs = o.warmupMinMs ?? Math.max(50, 2 * target);
  const budget = o.warmupMaxMs ?? Math.max(1000, 8 * target);
  const recent: number[] = [];
  for (;;) {
    const [, dt] = await timed(prepared, n, now);
    recent.push(dt / n);
    if (recent.length > 3) recent.shift();
    const elapsed = now() - warmStart;
    if (elapsed >= budget) break;
    if (o.warmNsPerOp !== undefined && elapsed >= WARM_AGAIN_MIN_MS && (dt * 1e6) / n <= o.warmNsPerOp * (1 + WARM_AGAIN)) break;
    if (elapsed >= minMs && recent.length === 3 && (Math.max(...recent) - Math.min(...recent)) / Math.min(...recent) < 0.03) break;
  }
  // Recalibrate on the warmed-up code: the first calibration saw the slow tiers.
  if (o.iterations === undefined) n = await calibrate(prepared, target, now);
  else n = atLeastTarget(n, Math.min(...recent), target);
  return n;
}

/**
 * A batch given by an earlier round, grown when the warmed-up code (`msPerCall`, its fastest
 * timing here) would finish it in less than TARGET_SHORT of the target; never shrunk. The first
 * round sizes its batch in a fresh browser: noble's GCM at 16 KiB ran 2.5-5 ms a call there
 * and 1.1-2.5 ms in every later round of an A/B under load, so its 3-call samples lasted
 * 5-8 ms of their 10 ms target, and their cycles' head/base moved 42-51 % (bench:ab).
 */
function atLeastTarget(n: number, msPerCall: number, targetMs: number): number {
  return n * msPerCall < TARGET_SHORT * targetMs ? Math.min(1 << 30, Math.ceil(targetMs / Math.max(msPerCall, 1e-9))) : n;
}

export async function measureCase(prepared: PreparedCase, o: MeasureOptions): Promise<Measured> {
  const [m] = await measureInterleaved([prepared], o);
  return m!;
}

export interface MeasuredInterleaved extends Measured {
  /** For each sample, the cycle it was taken in: samples of one cycle were taken back to back. */
  cycles: number[];
  /** The reference probe's time (ms) at the start of each kept cycle, when a probe was given. */
  probeMs?: number[];
}

/**
 * The interference monitor's probe: a fixed chain of dependent single-cycle integer operations
 * in WASM (the clock estimate's kernel), sized to last about `targetMs`. Its time moves only
 * with the core's effective speed — boost, throttling, another process on the core — never
 * with the cipher being measured, so timed once per cycle it records how fast the device was
 * while each cycle's samples were taken.
 */
export function makeProbe(
  chain: (iterations: number, seed: number) => number,
  targetMs: number,
  now: Clock = () => performance.now(),
): { run: () => number; iterations: number } {
  let sink = 0;
  // Warm up first, call after call for 30 ms: engines tier WASM up between calls, never inside
  // one, and a probe sized on the baseline tier would last a few timer steps once optimised.
  let n = 1 << 10;
  const warmEnd = now() + 30;
  while (now() < warmEnd) {
    sink ^= chain(n, 5);
    if (n < 1 << 20) n *= 2;
  }
  n = 1 << 10;
  for (;;) {
    const t = now();
    sink ^= chain(n, 7);
    const dt = now() - t;
    if (dt >= targetMs / 4 || n >= 1 << 28) {
      n = Math.max(1, Math.ceil((n * targetMs) / Math.max(dt, 1e-6)));
      break;
    }
    n *= 2;
  }
  return {
    iterations: n,
    run: () => {
      const t = now();
      sink ^= chain(n, 11);
      return now() - t + (sink === 0.5 ? 1 : 0);
    },
  };
}

/** A small seeded generator (mulberry32): the same run parameters give the same orders, so tests can pin them. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `xs` in a seeded random order (Fisher–Yates). */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  const rand = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The order of the n cases in cycle `cycle`: balanced and randomised. Within each block of n
 * cycles every case takes every position once (a rotation), and every block starts from a new
 * seeded shuffle, so no case always runs right after the same neighbour. A fixed rotation kept
 * the neighbours fixed, and a case that always follows another inherits its garbage, its cache
 * state and its page faults on every sample — the same error in every run.
 *
 * With `unitOf`, cases of one unit (twins: an A/B's two sides, an implementation's builds, the
 * A/A pair; groups.ts twinKey) run back to back in every cycle, the units ordered as cases are
 * above and each unit's members taking turns at going first (cycle by cycle). A paired ratio
 * cancels only what lasts from one of its samples to the next: in a group of eight, a pair's
 * samples up to six others apart, the run's A/A check (one case beside its twin) read above 1
 * in every Chromium session with one core busy (1.06–1.38, and 1.15–1.31 again), side by side
 * 0.96–1.02 in Chromium and Firefox (docs/decisions/010-twins-side-by-side.md).
 */
export function cycleOrder(n: number, cycle: number, unitOf?: (i: number) => string): number[] {
  if (!unitOf) return rotation(n, cycle);
  const units = new Map<string, number[]>();
  for (let i = 0; i < n; i++) units.set(unitOf(i), [...(units.get(unitOf(i)) ?? []), i]);
  const members = [...units.values()];
  return rotation(members.length, cycle).flatMap((u) => {
    const m = members[u]!;
    const k = cycle % m.length;
    return [...m.slice(k), ...m.slice(0, k)];
  });
}

/** 0 … n−1 in a seeded shuffle per block of n cycles, rotated by the cycle's place in its block (cycleOrder). */
function rotation(n: number, cycle: number): number[] {
  const base = shuffled(
    Array.from({ length: n }, (_, i) => i),
    Math.floor(cycle / n) * 0x9e3779b9 + 1,
  );
  const k = cycle % n;
  return [...base.slice(k), ...base.slice(0, k)];
}

/** Twins whose time per call is within this factor of each other share a batch (sharedBatches). */
const SHARE_BATCH_WITHIN = 4;

/**
 * The batches twins sample with: cases of one code doing the same work per call (the same
 * algorithm, operation, size and AAD: an A/B's base and head, the A/A pair, two builds of one
 * cipher; groups.ts twinKey, not two libraries) and take about as long per call (within SHARE_BATCH_WITHIN, `msPerCall` timed on their
 * calibrated batches) take one batch, the largest calibrated among them, so a sample of each
 * holds as many calls. Calibration under load drew 1 to 5 calls at 16 KiB for identical code,
 * and once 1 call against 32 at 1 KiB; a case's time per call moved with its batch, and every
 * later worker of a run reuses the first one's batches, so an A/B of the same code read one
 * side slower in every worker of a session. Twins further apart (a build 4× faster) keep their
 * own batches.
 */
export function sharedBatches(batch: readonly number[], msPerCall: readonly number[], twinOf: (i: number) => string): number[] {
  const out = [...batch];
  const byTwin = new Map<string, number[]>();
  batch.forEach((_, i) => byTwin.set(twinOf(i), [...(byTwin.get(twinOf(i)) ?? []), i]));
  for (const members of byTwin.values()) {
    if (members.length < 2) continue;
    // Fastest first: each cluster is the cases within the factor of its fastest.
    const left = [...members].sort((x, y) => msPerCall[x]! - msPerCall[y]!);
    while (left.length) {
      const fastest = msPerCall[left[0]!]!;
      const near = left.filter((i) => msPerCall[i]! <= fastest * SHARE_BATCH_WITHIN);
      const n = Math.max(...near.map((i) => batch[i]!));
      for (const i of near) out[i] = n;
      left.splice(0, near.length);
    }
  }
  return out;
}

/**
 * Samples several cases interleaved: every cycle takes one sample of each, in an order that
 * changes from cycle to cycle (cycleOrder), so that each case sees the same machine —
 * boost, throttling, a neighbour's load — as the others within milliseconds. The ratio of two
 * cases is then taken cycle by cycle (stats.ts pairedRatio), and a slow minute slows both
 * sides of it alike. A cycle in which the page was hidden is discarded for every case, so the
 * cycles stay aligned. One case alone is the plain sampling loop.
 */
export async function measureInterleaved(
  cases: PreparedCase[],
  o: MeasureOptions & {
    firstCycle?: number;
    iterationsFor?: (i: number) => number | undefined;
    warmNsFor?: (i: number) => number | undefined;
    samplesFor?: (i: number) => number | undefined;
    probe?: () => number;
    /** Which cases are twins (sharedBatches): the same label, the same work per call (api.ts: the algorithm, within a group of one operation, size and AAD). */
    twinOf?: (i: number) => string;
    /** Which synchronous cases take a turn of their own before each sample (SETTLE_MS). */
    settleFor?: (i: number) => boolean;
  },
): Promise<MeasuredInterleaved[]> {
  const now = o.now ?? (() => performance.now());
  const out: MeasuredInterleaved[] = [];
  const batch: number[] = [];
  for (let i = 0; i < cases.length; i++) {
    const t = now();
    batch.push(
      await warmUp(
        cases[i]!,
        { ...o, iterations: o.iterationsFor ? o.iterationsFor(i) : o.iterations, warmNsPerOp: o.warmNsFor ? o.warmNsFor(i) : o.warmNsPerOp },
        now,
      ),
    );
    out.push({ samples: [], cycles: [], iterations: batch[i]!, interruptions: 0, warmupMs: now() - t });
  }
  // Each case's twin label, once: the batches share by it, and every cycle's order keeps twins side by side by it.
  const labels = o.twinOf ? cases.map((_, i) => o.twinOf!(i)) : null;
  if (labels) {
    const twinned = labels.map((l) => labels.indexOf(l) !== labels.lastIndexOf(l));
    // Only a case with a twin is timed once more (a case alone keeps its batch, sharedBatches).
    const msPerCall: number[] = [];
    for (let i = 0; i < cases.length; i++) msPerCall.push(twinned[i] ? (await timed(cases[i]!, batch[i]!, now))[1] / batch[i]! : 0);
    // Twins that read more than the factor apart are timed again, in turns, up to twice, each
    // keeping its fastest: under load one timed batch read over 4× its identical twin's (3 of 20
    // same-code sessions of bench:ab), and a batch a neighbour interrupted reads slow, never fast.
    const fastest = new Map<string, number>();
    for (let again = 0; again < 2; again++) {
      labels.forEach((l, i) => twinned[i] && fastest.set(l, Math.min(fastest.get(l) ?? Infinity, msPerCall[i]!)));
      const apart = new Set(labels.filter((l, i) => twinned[i] && msPerCall[i]! > SHARE_BATCH_WITHIN * fastest.get(l)!));
      if (apart.size === 0) break;
      for (let i = 0; i < cases.length; i++)
        if (apart.has(labels[i]!)) msPerCall[i] = Math.min(msPerCall[i]!, (await timed(cases[i]!, batch[i]!, now))[1] / batch[i]!);
    }
    if (twinned.some(Boolean)) sharedBatches(batch, msPerCall, (i) => labels[i]!).forEach((n, i) => (batch[i] = out[i]!.iterations = n));
  }
  let interruptions = 0;
  const probeMs: number[] = [];
  // Each case as many samples as asked of it: a case that has them leaves the cycles, the others go on.
  const wants = cases.map((_, i) => Math.max(1, o.samplesFor?.(i) ?? o.samples));
  const settling = cases.map((_, i) => o.settleFor?.(i) ?? false);
  for (let cycle = 0; ; cycle++) {
    const active = wants.flatMap((w, i) => (out[i]!.samples.length < w ? [i] : []));
    if (active.length === 0) break;
    const taken: number[] = [];
    let hidden = false;
    const probed = o.probe?.();
    const order = cycleOrder(active.length, (o.firstCycle ?? 0) + cycle, labels ? (j) => labels[active[j]!]! : undefined).map((j) => active[j]!);
    for (const i of order) {
      if (o.yieldNow) await o.yieldNow();
      if (o.waitUntilVisible) await o.waitUntilVisible();
      // An asynchronous case wakes its crypto thread with an untimed call (SETTLE_CALLS); a
      // synchronous one that settles runs its own batch untimed first (SETTLE_MS).
      const settle = answersLater.has(cases[i]!) ? { calls: SETTLE_CALLS } : settling[i] ? { ms: SETTLE_MS, batches: SETTLE_MAX_BATCHES } : null;
      // Every sample starts after an untimed turn of the event loop (above): what the case before
      // left behind runs there, not in this one's time.
      const [t0, dt, isAsync] = await timed(cases[i]!, batch[i]!, now, settle);
      // A pause message that arrived mid-sample lands before the check: an async batch let it in
      // between its calls, a sync one needs a turn.
      if (o.yieldNow && !isAsync) await o.yieldNow();
      if (o.wasHidden?.(t0, t0 + dt)) hidden = true;
      taken[i] = (dt * 1e6) / batch[i]!;
    }
    if (hidden) {
      interruptions++;
      if (interruptions > 3 * Math.max(...wants)) throw new Error('the page stayed hidden; measurement abandoned');
      continue;
    }
    for (const i of active) {
      out[i]!.samples.push(taken[i]!);
      out[i]!.cycles.push((o.firstCycle ?? 0) + cycle);
    }
    if (probed !== undefined) probeMs.push(probed);
  }
  for (const m of out) {
    m.interruptions = interruptions;
    if (o.probe) m.probeMs = probeMs;
  }
  return out;
}
