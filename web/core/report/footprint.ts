/**
 * What an algorithm costs in memory and in code, beside its speed (the lightweight-iot study compares memory; on
 * a device the code's size matters too): the keyed state's `size_of` as the run's WASM cases
 * report it, and the WASM bytes the algorithm adds (scripts/code-size.mjs, at build time).
 * @module
 */
import { ALGORITHM_IDS, type AlgorithmId } from '../tables/algorithms.ts';
import type { ResultDocument } from '../schema.ts';

export interface CodeSize {
  method: string;
  algorithms: Record<string, { wasmBytes: number; gzipBytes: number }>;
}

export interface FootprintRow {
  algorithm: AlgorithmId;
  /** Bytes of the keyed cipher in WASM memory, or null when no WASM case reported it. */
  stateBytes: number | null;
  codeBytes: number | null;
  codeGzipBytes: number | null;
}

/** One row per algorithm of the run, in the table's order. */
export function footprint(doc: Pick<ResultDocument, 'cases'>, codeSize: CodeSize): FootprintRow[] {
  const ran = new Set(doc.cases.map((c) => c.algorithm));
  return ALGORITHM_IDS.filter((id) => ran.has(id)).map((id) => {
    const state = doc.cases.find((c) => c.algorithm === id && c.implementation === 'rustcrypto-wasm' && c.stateBytes !== null);
    const code = codeSize.algorithms[id];
    return { algorithm: id, stateBytes: state?.stateBytes ?? null, codeBytes: code?.wasmBytes ?? null, codeGzipBytes: code?.gzipBytes ?? null };
  });
}
