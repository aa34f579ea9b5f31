import { defineConfig } from 'vitest/config';

// Smoke runs of the benchmarks (scripts/bench.smoke.test.ts), run by scripts/test after the site is
// built: one at a time, since each one measures and they share two cores.
export default defineConfig({
  test: {
    include: ['scripts/*.smoke.test.ts'],
    testTimeout: 660_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
