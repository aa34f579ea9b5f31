/**
 * How a worker groups a run's cases: the cases compared with each other are measured
 * interleaved, in groups whose buffers stay within the WASM cores' arena.
 * @module
 */
import type { RunParams } from '../schema.ts';
import type { PlannedCase } from './types.ts';

/** The comparison group a case belongs to: its operation, size and AAD. */
export const groupKey = (c: Pick<PlannedCase, 'operation' | 'sizeBytes' | 'aadBytes'>) => `${c.operation}/${c.sizeBytes}/${c.aadBytes}`;

/**
 * Which cases of a group are twins, sampling with one batch (measure.ts sharedBatches): one code
 * doing one algorithm's work, an implementation's builds and the A/A pair, or an A/B's two sides.
 * Different libraries of one algorithm are not: a shared batch, the largest, gave asmcrypto.js at
 * 64 B SJCL's 202 calls a sample against its own 70, and with a 64 KiB heap a call it read 0.74–0.83
 * of a plain loop taking the same turns where its own batch read 0.99–1.13 (bench:modules, three
 * runs each way, docs/methodology.md "A batch of its own").
 */
export const twinKey = (c: { algorithm: string; implementation: string }, ab: RunParams['ab']) =>
  `${c.algorithm}/${otherSide(ab, c.implementation) ? 'a/b' : c.implementation}`;

/** In an A/B run, the side that is not `implementation` (null when it is neither, or no A/B). */
export const otherSide = (ab: RunParams['ab'], implementation: string): string | null =>
  !ab ? null : implementation === ab.base ? ab.head : implementation === ab.head ? ab.base : null;

/**
 * The cases that are compared with each other — the same operation, size and AAD, across
 * implementations, variants and algorithms — in order of first appearance, each group split
 * so that its members' buffers (about three payloads each) stay within `groupBytes`. Members
 * are kept in plan order, so one algorithm's implementations stay together when a group splits.
 */
export function comparisonGroups(cases: PlannedCase[], groupBytes = Infinity): PlannedCase[][] {
  const groups = new Map<string, PlannedCase[]>();
  for (const c of cases) {
    const k = groupKey(c);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const out: PlannedCase[][] = [];
  for (const members of groups.values()) {
    const per = Math.max(1, Math.floor(groupBytes / Math.max(1, 3 * members[0]!.sizeBytes)));
    for (let i = 0; i < members.length; i += per) out.push(members.slice(i, i + per));
  }
  return out;
}

/**
 * Whether a run's cases may outgrow the WASM cores' arena (wasm/heap): a core holds every case of
 * one size and operation at once (comparisonGroups), about two payloads each to encrypt and three
 * to open, and the A/A twin beside them. Past the arena the memory grows mid-run, which in V8
 * detaches a buffer and checks every typed-array access of the worker from then on: JavaScript
 * cases measured before the first large group would run faster than those after it.
 */
export function outgrowsArena(params: Pick<RunParams, 'algorithms' | 'sizes' | 'operations' | 'aadBytes'>, arenaBytes: number): boolean {
  const payloads = params.operations.some((o) => o !== 'encrypt') ? 3 : 2;
  const largest = Math.max(...params.sizes) + Math.max(0, ...params.aadBytes);
  // A mebibyte for what the core keeps besides (ciphers' state, the glue's strings).
  return (params.algorithms.length + 1) * payloads * largest + (1 << 20) > arenaBytes;
}

/**
 * So such a run levels instead: the worker detaches one empty buffer of its own before anything
 * is timed, and every case of the run is measured in the state the grow would have left.
 */
export function detachOnce(): void {
  const b = new ArrayBuffer(0);
  // Older engines without structuredClone (Safari before 15.4) skip it: the protector is V8's.
  if (typeof structuredClone === 'function') structuredClone(b, { transfer: [b] });
}
