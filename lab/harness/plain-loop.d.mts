/** Types of plain-loop.mjs (plain JavaScript, so that Node runs it without a loader). */
import type { CustomImplementation } from '../../web/core/implementations/custom.ts';

export interface PlainSpec {
  /** `module`: a module's path or URL (what `load` takes), or 'noble'; `name` keys its figures. */
  subjects: { name: string; module: string; algorithm: string }[];
  sizes: number[];
  /** One stretch of calls, ms; a third of one warms the case up first. */
  ms: number;
  /** Stretches per case (alone: the median one is its figure). */
  reps: number;
  /** Cases take turns in batches of about this long, ms; absent: each runs alone. */
  interleaveMs?: number;
  /** With `interleaveMs`: each turn first runs its case's batch untimed for this long, ms (measure.ts SETTLE_MS)… */
  settleMs?: number;
  /** … and at most this many batches (measure.ts SETTLE_MAX_BATCHES); absent: as many as fit in `settleMs`. */
  settleMaxBatches?: number;
  /** Without `interleaveMs`: each case alone in batches of about 2 ms, each followed by this long reading the clock, ms. */
  pauseMs?: number;
  /** About this many MiB of small live objects held beside the loop, as an application's heap holds them. */
  liveMB?: number;
  /**
   * With `interleaveMs`: this thread is one of `of` taking the turns of `order` (turnOrder: a case
   * key a turn, size by size, each size's last turn before `groupEnds`' entry) through `sab` (two
   * Int32s: the turn under way and how many threads are warm; a Float64: when the current size's
   * turns began), as thread `me`, running the turns of its own cases. Every thread of the set is
   * given the same `order`.
   */
  turns?: { sab: SharedArrayBuffer; me: number; of: number } & TurnOrder;
}

/** The run's turns: case keys (`name|algorithm|size`) turn by turn, and the turn after each size's last. */
export interface TurnOrder {
  order: string[];
  groupEnds: number[];
}
/** Size by size, `count` rounds of every subject's case of that size, each round in a new shuffled order. */
export function turnOrder(subjects: PlainSpec['subjects'], sizes: number[], count: number): TurnOrder;
/** A turn's batch: calls for about `interleaveMs` at the fastest of `timings` ([calls, ms] each). */
export function batchOf(timings: [number, number][], interleaveMs: number): number;
/** Warms a case through its batch loop for `warmMs`, then sizes its turn's batch to about `interleaveMs` (batchOf). */
export function warmAndSize(
  batchLoop: (encrypt: (...a: Uint8Array[]) => Uint8Array, inputs: Uint8Array[], n: number) => number,
  encrypt: (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array) => Uint8Array,
  inputs: Uint8Array[],
  warmMs: number,
  interleaveMs: number,
): number;
/** A subject's encrypt: noble as the built-in backend calls it, or a module's (loaded by `load`), prepared once. */
export function encryptOf(
  subject: PlainSpec['subjects'][number],
  load: (module: string) => Promise<unknown>,
): Promise<(key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array) => Uint8Array>;
/** A case's inputs, [key, nonce, aad, plaintext]: the same bytes on every call. */
export function inputsOf(algorithm: string, size: number): [Uint8Array, Uint8Array, Uint8Array, Uint8Array];

/** By `name|algorithm|size`, bytes per second: every call's bytes over their time, and the median stretch's. */
export interface PlainFigures {
  bytesPerSecond: Record<string, number>;
  medianStretch: Record<string, number>;
  /** Where the home can tell (Node): the share of each case's timed time the collector's pauses took. */
  collectorShare?: Record<string, number>;
}

/**
 * How a plain loop taking turns is spread over workers: true, a worker per subject; 'module', a
 * worker per module, as the engine measures a run (modules of yours apart, noble's subjects together).
 */
export type Apart = boolean | 'module';
/** The specs of a plain loop's workers: `spec` in one; with `apart` and `interleaveMs`, several, the workers taking the run's turns (turnOrder) through one shared counter (`turns`). */
export function workerSpecs(spec: PlainSpec, apart?: Apart): PlainSpec[];
/** The figures of several workers' loops, each keyed by its own subjects, as one. */
export function mergedFigures(parts: PlainFigures[]): PlainFigures;

/** `pausedWithin`: ms of the collector's pauses inside the given [start, end] windows (performance.now()), where the home can tell. */
export function plainLoop(
  spec: PlainSpec,
  load: (module: string) => Promise<CustomImplementation>,
  pausedWithin?: (windows: [number, number][]) => Promise<number>,
): Promise<PlainFigures & { sink: number }>;
