import { defineConfig } from 'vitest/config';

// End-to-end tests in WebKit (WebKitGTK over WebDriver), run by scripts/test after the site is
// built: one file, one browser session, nothing in parallel (benchmarks share two cores).
export default defineConfig({
  test: {
    include: ['e2e/webkit/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default'],
  },
});
