// The first visit's JavaScript stays within its budget: what index.html names, and what the
// browser really fetched before any run (the chart library, the studies and the crowd view load
// when they are needed).
import { gzipSync } from 'node:zlib';
import { INITIAL_JS_BUDGET, initialJs } from '../scripts/initial-js.ts';
import { expect, test } from './fixtures.ts';

test.skip(({ browserName }) => browserName !== 'chromium', 'the budget is a property of the build, measured once');

test(`the initial JavaScript is at most ${INITIAL_JS_BUDGET / 1000} kB gzip`, async ({ page }) => {
  const built = initialJs('dist');
  expect(built.gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET);

  const scripts: { url: string; gzipBytes: number }[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script') scripts.push({ url: r.url(), gzipBytes: gzipSync(await r.body(), { level: 9 }).length });
  });
  await page.goto('/');
  await expect(page.getByTestId('start')).toBeEnabled();
  await page.waitForLoadState('networkidle');
  const total = scripts.reduce((n, s) => n + s.gzipBytes, 0);
  expect(total, scripts.map((s) => `${s.url.split('/').pop()} ${s.gzipBytes}`).join(', ')).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  // Nothing of the chart library, the studies or the crowd before they are shown.
  expect(scripts.map((s) => s.url).filter((u) => /Chart-|Results-|ScenarioView-|CrowdView-/.test(u))).toEqual([]);

  // The studies page fetches its view on demand, and works.
  await page.getByTestId('nav-scenarios').click();
  await expect(page.getByTestId('scenario-list')).toBeVisible();
  expect(scripts.some((s) => /ScenarioView-/.test(s.url))).toBe(true);
});
