/**
 * Estimating the core's clock from time alone, for cycles per byte (seed 001 reports them;
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
import { summarize } from './stats.ts';

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

export function estimateClock(chain: (iterations: number, seed: number) => number, opsPerIteration: number, o: { now?: () => number; minSampleMs?: number; samples?: number } = {}): ClockEstimate {
  const now = o.now ?? (() => performance.now());
  const target = o.minSampleMs ?? 20;
  let n = 1 << 12;
  let sink = 0;
  for (;;) {
    const t = now();
    sink ^= chain(n, 1);
    const dt = now() - t;
    if (dt >= target / 4) {
      n = Math.max(1, Math.ceil((n * target) / dt));
      break;
    }
    n *= 2;
  }
  // Warm up until two consecutive full-length runs agree within 3 % (V8 compiles the chain with
  // Liftoff first and TurboFan in the background), for at most half a second.
  const warmStart = now();
  let previous = Infinity;
  for (;;) {
    const t = now();
    sink ^= chain(n, 2);
    const dt = now() - t;
    if (Math.abs(dt - previous) / previous < 0.03 || now() - warmStart > 500) break;
    previous = dt;
  }
  const ghz: number[] = [];
  for (let i = 0; i < (o.samples ?? 7); i++) {
    const t = now();
    sink ^= chain(n, i + 3);
    ghz.push((opsPerIteration * n) / ((now() - t) * 1e6));
  }
  const { median, iqr } = summarize(ghz);
  const spread = iqr / 1.349 / median;
  return {
    ghz: median,
    spread,
    trustworthy: spread <= 0.05 && median > 0.2 && median < 7 && sink !== 0.5,
    method: `dependent chain of ${opsPerIteration} single-cycle i32 operations × ${n} in WASM`,
  };
}
