/**
 * A run's samples, case by case: what its finished passes (rounds and extra rounds, each in a
 * fresh worker) measured, and what the pass under way has finished so far — shown live, and
 * kept if the run is cancelled. Each case's batch size is set by its first pass, and every
 * later worker times as many calls per sample, or more where its code runs so much faster
 * that those calls would fall well short of the sample's target (measure.ts atLeastTarget).
 * @module
 */
import type { MeasuredCase } from '../worker/api.ts';

/** A case's samples over every finished pass; `reruns` counts the extra rounds among them. */
export type CaseSamples = MeasuredCase & { reruns: number };

export class RunSamples {
  readonly #finished = new Map<string, CaseSamples>();
  readonly #current = new Map<string, MeasuredCase>();
  /** Calls per sample of each case: the first pass's, or the largest a later pass grew it to. */
  readonly iterations: Record<string, number> = {};

  /** A pass's results, appended to each case's samples and cycles; the pass's live cases are done with. */
  absorb(results: readonly MeasuredCase[], rerun: boolean): void {
    for (const r of results) {
      const iterations = (this.iterations[r.key] = Math.max(this.iterations[r.key] ?? 0, r.iterations));
      const prev = this.#finished.get(r.key);
      if (prev) {
        prev.iterations = iterations;
        prev.samples.push(...r.samples);
        prev.cycles = [...(prev.cycles ?? []), ...(r.cycles ?? [])];
        prev.interruptions += r.interruptions;
        if (rerun) prev.reruns++;
      } else this.#finished.set(r.key, { ...r, reruns: 0 });
    }
    this.#current.clear();
  }

  /** A case the pass under way has finished (its worker's case-done event). */
  finishedNow(m: MeasuredCase): void {
    this.#current.set(m.key, m);
  }

  /** The finished passes' samples of a case. */
  readonly finished = (key: string): CaseSamples | undefined => this.#finished.get(key);

  /** The finished passes' samples of a case and, if it has finished in it, the pass under way's. */
  readonly sofar = (key: string): CaseSamples | undefined => {
    const before = this.#finished.get(key);
    const current = this.#current.get(key);
    if (!before || !current) return before ?? (current && { ...current, reruns: 0 });
    return { ...before, samples: [...before.samples, ...current.samples], cycles: [...(before.cycles ?? []), ...(current.cycles ?? [])] };
  };
}
