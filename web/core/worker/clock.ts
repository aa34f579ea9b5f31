/**
 * Estimating the core's clock from time alone, for cycles per byte (the aead-vs-etm study reports them;
 * a browser does not reveal the clock). The WASM cores run a chain of dependent single-cycle
 * integer operations (`clockChain`, see wasm/src/bench.rs); cycles = operations, so the clock is
 * operations / seconds.
 *
 * What it measures is the clock the core ran at during the estimate — boost included. Where the
 * chain's assumption fails (a core that takes two cycles for an add, an emulator, a heavily
 * shared machine) the estimate is wrong, so it is only called trustworthy when the samples'
 * spread (IQR-based) is at most 5 % and the figure is one a real CPU runs at.
 * @module
 */
import { measureCase } from './measure.ts';
import { summarize } from '../stats.ts';

export interface ClockEstimate {
  ghz: number;
  /**
   * Spread of the samples: IQR / 1.349 / median, an SD-equivalent that one stray sample barely
   * moves but two clusters (a core migrating between big and little cores) do. MAD would not
   * see two clusters of 4 and 3 samples: its median deviation is then zero.
   */
  spread: number;
  trustworthy: boolean;
  method: string;
}

/**
 * Times the chain with the one sampling loop (measure.ts measureCase: calibrated batches,
 * warm-up until three batches agree, at most half a second of it here) and turns each sample
 * (ns per iteration) into GHz.
 */
export async function estimateClock(
  chain: (iterations: number, seed: number) => number,
  opsPerIteration: number,
  o: { now?: () => number; minSampleMs?: number; samples?: number; timerResolutionMs?: number } = {},
): Promise<ClockEstimate> {
  let sink = 0;
  let seed = 1;
  const prepared = { run: (n: number) => void (sink ^= chain(n, seed++)), stateBytes: null, dispose() {} };
  const m = await measureCase(prepared, {
    samples: o.samples ?? 7,
    minSampleMs: o.minSampleMs ?? 20,
    timerResolutionMs: o.timerResolutionMs ?? 0,
    now: o.now,
    warmupMaxMs: 500,
  });
  const ghz = m.samples.map((nsPerIteration) => opsPerIteration / nsPerIteration);
  const { median, iqr } = summarize(ghz);
  const spread = iqr / 1.349 / median;
  return {
    ghz: median,
    spread,
    trustworthy: spread <= 0.05 && median > 0.2 && median < 7 && sink !== 0.5,
    method: `dependent chain of ${opsPerIteration} single-cycle i32 operations × ${m.iterations} in WASM`,
  };
}
