import { test as base, expect, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { webkit } from 'playwright-core';
import type { Automation } from '../web/core/automation.ts';

/** WebKit cannot be installed on Debian 12 without Playwright's download: skip, saying so. */
export const test = base.extend<{ skipMissingWebKit: void }>({
  skipMissingWebKit: [
    async ({ browserName }, use, info) => {
      if (browserName === 'webkit' && !existsSync(webkit.executablePath()))
        info.skip(true, 'WebKit is not installed on this machine (npx playwright install cannot run here)');
      await use();
    },
    { auto: true },
  ],
});
export { expect };

/**
 * A test whose assertion is a measurement (an A/B verdict, a staircase of times): npm test runs
 * these alone, one at a time, after the rest of the suite has run two at a time
 * (scripts/test), so that no other test's browser takes the core it measures on.
 */
export const TIMING = { tag: '@timing' };

/** Waits for the page's automation hook to report a finished run (Speedometer style). */
export async function finished(page: Page, timeout = 150_000): Promise<Automation> {
  await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(window.aeadbench?.status ?? ''), null, { timeout });
  return page.evaluate(() => window.aeadbench!) as Promise<Automation>;
}

/** The results table shows its first rows (fastest first) and the rest on request: this asks for every row. */
export async function showAllRows(page: Page): Promise<void> {
  const more = page.getByTestId('show-all');
  if (await more.count()) await more.click();
}
