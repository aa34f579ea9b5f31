// Opt-in submission and the crowd view, against the collector embedded in the site's server; the
// path from a run to its permalink and the crowd is in behaviours.ts (every engine).
import { expect, finished, test } from './fixtures.ts';

import { RUN_1K } from './behaviours.ts';

test('with the collector unreachable, the site says so, keeps the result, and a retry sends it', async ({ page }) => {
  await page.goto(RUN_1K);
  await finished(page);
  await page.route('**/api/v1/results', (route) => route.abort('connectionrefused'));
  await page.getByTestId('send').click();
  await expect(page.getByTestId('send-error')).toContainText('unreachable');
  await expect(page.getByTestId('send-error')).toContainText('Your result is still here');
  await expect(page.getByTestId('results-table')).toBeVisible();
  await expect(page.getByTestId('export-json')).toBeEnabled();
  await page.unroute('**/api/v1/results');
  await page.getByTestId('send').click(); // "Try again"
  await expect(page.getByTestId('sent')).toBeVisible();
});

test('a scenario run is submitted from its page and the crowd can filter by that scenario', async ({ page }) => {
  await page.goto('/?preset=lightweight-iot&sizes=1k&rounds=1&reruns=0&samples=3&autorun=1#/scenario/lightweight-iot');
  await finished(page);
  await page.getByTestId('class-laptop').check();
  await page.getByTestId('send').click();
  await expect(page.getByTestId('sent')).toBeVisible();
  await page.goto('/#/crowd');
  const crowd = page.getByTestId('crowd');
  await crowd.getByLabel('Algorithm').selectOption('ascon-aead128');
  await crowd.getByLabel('Scenario filter').selectOption('lightweight-iot');
  await expect(page.getByTestId('crowd-table').locator('tr', { hasText: 'laptop' })).toBeVisible();
});

test('a cohort under review says so beside its figure, and in words under the table', async ({ page }) => {
  // The collector's answer for a cohort whose undecided outside voices came from five networks or more (collector/crowd.ts).
  const cohort = (group: string, underReview: boolean) => ({
    group,
    deviceClass: group,
    n: 40,
    days: 9,
    runs: 52,
    outliers: underReview ? 30 : 1,
    underReview,
    tooFew: false,
    p05: 40e6,
    q1: 46e6,
    median: 51e6,
    q3: 55e6,
    p95: 60e6,
  });
  await page.route('**/api/v1/stats**', (route) =>
    route.fulfill({ json: { filter: {}, groupBy: 'deviceClass', unit: 'bytes/s', cohorts: [cohort('laptop', false), cohort('phone', true)] } }),
  );
  await page.goto('/#/crowd');
  const table = page.getByTestId('crowd-table');
  await expect(table.locator('tr', { hasText: 'phone' }).getByTestId('under-review')).toHaveText('under review');
  await expect(table.locator('tr', { hasText: 'laptop' }).getByTestId('under-review')).toHaveCount(0);
  await expect(page.getByTestId('under-review-note')).toContainText('no one has looked at them yet');
});
