import { defineConfig } from 'vitest/config';

// Smoke runs of the benchmarks (lab/bench/bench.smoke.test.ts), run by scripts/test after the site is
// built: three at a time, since their figures are printed, not judged (a benchmark's own run is
// alone on the machine), and most of a smoke run is a browser's fixed budget, not a core's work.
export default defineConfig({
  test: {
    include: ['lab/bench/*.smoke.test.ts'],
    testTimeout: 660_000,
    fileParallelism: false,
    maxConcurrency: 3,
    reporters: ['default'],
  },
});
