import { defineConfig } from 'vitest/config';

/**
 * Tests whose assertion is a measurement on this machine: a clock read against the same chain
 * run natively, execution modes told apart by how fast two loops run. They run alone, after
 * the rest: beside a second worker the clock read 1.44 of native.
 */
const MEASURING = ['web/core/test/clock.test.ts', 'web/core/test/execution.test.ts'];

// Unit and integration tests that run in Node. Browser behaviour is proven by Playwright (e2e/).
export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Opening a PGlite store and migrating it took over 10 s (the default) on two loaded cores.
    hookTimeout: 30_000,
    // A real PostgreSQL for the collector suites (started from Debian's package on loopback).
    globalSetup: ['collector/test/global-setup.ts'],
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'web/**/*.test.ts',
            'lab/harness/*.test.ts',
            'lab/bench/*.test.ts',
            'cli/**/*.test.ts',
            'collector/**/*.test.ts',
            'scripts/**/*.test.ts',
            'e2e/*.test.ts',
          ],
          // The benchmarks' smoke runs measure, so they run alone, after the site is built (vitest.bench.config.ts).
          exclude: ['**/node_modules/**', 'lab/bench/*.smoke.test.ts', ...MEASURING],
          // Two files at a time: most of the suite waits on child processes, sockets and a database.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'measuring', include: MEASURING, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
