/**
 * What crosses between the run (web/core/run) and the worker, and what a platform (browser
 * module worker, Node worker thread) gives the worker.
 * @module
 */
import type { AlgorithmId, ImplementationRef, Operation } from '../tables/algorithms.ts';
import type { BuildInfoLoader, CoresLoader, CountedCores, MakeBackends, WasmVariant } from '../implementations/shared.ts';
import type { WycheproofVector } from '../implementations/validate.ts';
import type { Counter } from './intercept.ts';
import type { TracedCores } from '../ct.ts';
import type { WorkerHandle } from './rpc.ts';

export interface Platform {
  runtime: 'browser' | 'node';
  loadCores: CoresLoader;
  loadBuildInfo: BuildInfoLoader;
  /**
   * The cores with every executed WebAssembly operation counted: the glue initialised with a
   * copy the counter rewrote (wasm/counter, itself WebAssembly, so every platform runs the same
   * one). Only the counting pass's worker loads these; timed workers never do.
   */
  loadCountedCores?(variant: WasmVariant): Promise<CountedCores>;
  /** A traced copy of the cores (ct.ts), instantiated apart from the timed and counted ones. */
  loadTracedCores?(variant: WasmVariant): Promise<TracedCores>;
  /** The counter itself (for the WebAssembly of modules of yours: intercept.ts). */
  loadCounter?(): Promise<Counter>;
  /** The test vectors of these algorithms (a browser fetches only their files). */
  loadVectors(algorithms: readonly AlgorithmId[]): Promise<WycheproofVector[]>;
  /** How this platform's worker loads each implementation's backends (implementations/backends.*.ts). */
  backends: Readonly<Record<string, () => Promise<{ default: MakeBackends }>>>;
  /** A module of yours: its exports, and the bytes that were loaded (hashed for the result). */
  loadModule(url: string): Promise<{ exports: Record<string, unknown>; bytes: Uint8Array }>;
  /**
   * Starts another benchmark worker for this one: a thread of its own for a module of yours
   * (apart.ts); in Node a thread of this thread, in a browser one the page starts (page-thread.ts).
   * Absent where that cannot be; the worker then measures every case itself.
   */
  startThread?(): WorkerHandle;
}

export interface PlannedCase {
  key: string;
  implementation: ImplementationRef;
  variant: string;
  algorithm: AlgorithmId;
  operation: Operation;
  sizeBytes: number;
  aadBytes: number;
}

export interface MeasuredCase {
  key: string;
  samples: number[];
  /** The cycle of each sample (measure.ts measureInterleaved): equal ids were taken back to back. */
  cycles?: number[];
  iterations: number;
  interruptions: number;
  stateBytes: number | null;
}

/** The interference monitor's record: the probe's time at the start of every kept cycle. */
export interface InterferenceRecord {
  /** Dependent single-cycle operations in one probe: ops / time = the clock the core ran at. */
  opsPerProbe: number;
  cycles: number[];
  probeMs: number[];
}

export type WorkerEvent =
  | { type: 'case-start'; key: string }
  /** `measured`: the case's samples of this round, for live results (the same as measure returns). */
  | { type: 'case-done'; key: string; measured?: MeasuredCase }
  /** Something the run should say (a module measured beside the other cases: api.ts threadsApart). */
  | { type: 'warning'; message: string }
  /** A module's thread of its own, for the page to start and connect to `port` (page-thread.ts); and its end. */
  | { type: 'thread'; id: number; port: MessagePort }
  | { type: 'thread-stop'; id: number };

/**
 * A case's count from the counting pass: WebAssembly operations per message and per call; or
 * `error`, why counting failed; or `none`, why there is nothing to count (a module of yours
 * that runs no WebAssembly).
 */
export type CaseCount = { perMessage: number; perCall: number } | { error: string } | { none: string };
