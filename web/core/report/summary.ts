/**
 * A short summary of a result document for an embedder: per algorithm, operation and size, the
 * fastest implementation with its figure's 95 % interval and flag, and how it stands against
 * the runner-up, decided by the same rule as the verdict (decision.ts): a tie is a tie.
 */
import { type Decision, decide } from '../decision.ts';
import { type ResultDocument, codeKey, placeKey } from '../schema.ts';
import { steadySummaries } from '../stats.ts';
import { VERDICT_MARGIN, ratioOf } from './ratio.ts';

/**
 * A case's median MB/s (plaintext) and the MB/s at the ends of its median's 95 % interval,
 * recomputed from the raw samples of its document's cases (stats.ts steadySummaries: each
 * cycle's level divided out, as the run recorded it); with the ns/op they come from. The one
 * place a case's throughput interval is derived (the summary, the CI formats).
 */
export function throughputOf<T extends { sizeBytes: number; samples: readonly number[]; cycles?: readonly number[] }>(c: T, cases: readonly T[] = [c]) {
  const s = steadySummaries(cases).get(c)!;
  const perNs = c.sizeBytes * 1e3; // bytes per ns → MB/s
  return { value: perNs / s.median, low: perNs / s.ciHigh, high: perNs / s.ciLow, nsLow: s.ciLow, ns: s.median, nsHigh: s.ciHigh };
}

/** MB/s to four significant digits: the samples do not carry more. */
const mb = (x: number) => Number(x.toPrecision(4));

export interface FastestEntry {
  algorithm: string;
  operation: string;
  sizeBytes: number;
  implementation: string;
  variant: string;
  /** Median MB/s (10⁶ bytes of plaintext per second), recomputed from the raw samples. */
  megabytesPerSecond: number;
  /** The 95 % interval of that median, in MB/s. */
  low: number;
  high: number;
  /** The case did not resolve within its run's budget (its figure is less certain than shown). */
  unstable: boolean;
  /**
   * Against the next fastest implementation: its time over the winner's (> 1 means the winner
   * is faster) with its interval — paired where the two were sampled side by side — and the
   * decision; 'same' means a tie within 3 %. Null when only one implementation ran.
   */
  runnerUp: { implementation: string; variant: string; ratio: number; low: number; high: number; paired: boolean; decision: Decision } | null;
}

export interface ResultSummary {
  cases: number;
  unstable: number;
  excluded: string[];
  /** Per algorithm × operation × size × AAD (placeKey): the fastest implementation, its interval, flag and lead. */
  fastest: FastestEntry[];
}

/** Recomputes every case's median from its raw samples (a document's own summary is not trusted). */
export function summarizeResult(doc: ResultDocument): ResultSummary {
  const groups = new Map<string, ResultDocument['cases']>();
  const steady = steadySummaries(doc.cases);
  for (const c of doc.cases) {
    const key = placeKey(c);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const fastest = [...groups.values()].map((cases): FastestEntry => {
    const ranked = cases.map((c) => ({ c, s: steady.get(c)! })).sort((a, b) => a.s.median - b.s.median);
    const [{ c, s }, next] = [ranked[0]!, ranked[1]];
    const t = throughputOf(c, doc.cases);
    let runnerUp: FastestEntry['runnerUp'] = null;
    if (next) {
      // The verdict's ratio and rule (verdict.ts ratioOf): paired, the workers counted, else medians.
      const r = ratioOf({ ...c, summary: s }, { ...next.c, summary: next.s });
      runnerUp = {
        implementation: next.c.implementation,
        variant: next.c.variant,
        ratio: mb(r.value),
        low: mb(r.low),
        high: mb(r.high),
        paired: r.paired,
        decision: decide(r, VERDICT_MARGIN),
      };
    }
    return {
      algorithm: c.algorithm,
      operation: c.operation,
      sizeBytes: c.sizeBytes,
      implementation: c.implementation,
      variant: c.variant,
      megabytesPerSecond: mb(t.value),
      low: mb(t.low),
      high: mb(t.high),
      unstable: c.unstable,
      runnerUp,
    };
  });
  return {
    cases: doc.cases.length,
    unstable: doc.cases.filter((c) => c.unstable).length,
    excluded: doc.validation.filter((v) => v.excluded).map(codeKey),
    fastest,
  };
}
