import { defineConfig } from 'vitest/config';

// Unit and integration tests that run in Node. Browser behaviour is proven by Playwright (e2e/).
export default defineConfig({
  test: {
    include: ['web/**/*.test.ts', 'cli/**/*.test.ts', 'collector/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/*.test.ts'],
    // The benchmarks' smoke runs measure, so they run alone, after the site is built (vitest.bench.config.ts).
    exclude: ['**/node_modules/**', 'scripts/*.smoke.test.ts'],
    testTimeout: 60_000,
    // Opening a PGlite store and migrating it took over 10 s (the default) on two loaded cores.
    hookTimeout: 30_000,
    // A real PostgreSQL for the collector suites (started from Debian's package on loopback).
    globalSetup: ['collector/test/global-setup.ts'],
    reporters: ['default'],
  },
});
