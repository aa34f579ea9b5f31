import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from './cli/browsers.ts';

/**
 * End-to-end tests in real browsers: Debian's Chromium and Firefox ESR (Playwright 1.64.1
 * drives Firefox ESR over WebDriver BiDi; 1.65 cannot). WebKit is a project too, skipped
 * with a message where it is not installed (e2e/fixtures.ts).
 * One worker by default: benchmarks must not compete for this machine's two cores. npm test
 * runs the tests that only check behaviour two at a time, and those tagged @timing (their
 * assertion is a measurement) alone afterwards (scripts/test).
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  // e2e/webkit/ is run by vitest over WebDriver (Playwright cannot drive WebKitGTK).
  testMatch: '*.spec.ts',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'retain-on-failure' },
  webServer: {
    // The site with its embedded collector, on a fresh PGlite directory for every test run.
    command: `npx tsx server/serve.ts --port ${PORT}`,
    // Two browsers at a time, all from 127.0.0.1, held more than the 32 connections one address
    // may (collector/http-guard.ts) and Firefox's pages were reset: as behind a balancer, loopback
    // carries everyone's connections here.
    env: {
      COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-e2e-collector-')),
      COLLECTOR_EXPORT_MIN_AGE_S: '0',
      COLLECTOR_TRUSTED_PROXIES: '127.0.0.1',
    },
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium', launchOptions: { executablePath: CHROMIUM_PATH, args: BROWSER_ARGS } } },
    { name: 'firefox', use: { browserName: 'firefox', channel: 'moz-firefox', launchOptions: { executablePath: FIREFOX_PATH } } },
    { name: 'webkit', use: { browserName: 'webkit' } },
  ],
});
