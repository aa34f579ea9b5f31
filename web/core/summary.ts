/** A short human summary of a result document: the fastest implementation per algorithm and size. */
import type { ResultDocument } from './schema.ts';
import { summarize } from './stats.ts';

export interface ResultSummary {
  cases: number;
  unstable: number;
  excluded: string[];
  /** Per algorithm × operation × size: the fastest implementation and its MB/s. */
  fastest: { algorithm: string; operation: string; sizeBytes: number; implementation: string; variant: string; megabytesPerSecond: number }[];
}

/** Recomputes every case's median from its raw samples (a document's own summary is not trusted). */
export function summarizeResult(doc: ResultDocument): ResultSummary {
  const best = new Map<string, ResultSummary['fastest'][number]>();
  for (const c of doc.cases) {
    const mbps = (c.sizeBytes * 1e3) / summarize(c.samples).median;
    const key = `${c.algorithm}/${c.operation}/${c.sizeBytes}`;
    const prev = best.get(key);
    if (!prev || mbps > prev.megabytesPerSecond) best.set(key, { algorithm: c.algorithm, operation: c.operation, sizeBytes: c.sizeBytes, implementation: c.implementation, variant: c.variant, megabytesPerSecond: mbps });
  }
  return {
    cases: doc.cases.length,
    unstable: doc.cases.filter((c) => c.unstable).length,
    excluded: doc.validation.filter((v) => v.excluded).map((v) => `${v.implementation}/${v.variant}/${v.algorithm}`),
    fastest: [...best.values()],
  };
}
