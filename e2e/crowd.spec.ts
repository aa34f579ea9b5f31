// Opt-in submission and the crowd view, against the collector embedded in the site's server.
import { expect, finished, test } from './fixtures.ts';

// The default algorithms and implementations, at one size: every variant a default run reports
// must be one the collector accepts (a Node run once was not).
const RUN_1K = '/?preset=quick&sizes=1k&rounds=1&reruns=0&autorun=1';

test('run → review the exact payload → submit → the crowd page shows it with its device class', async ({ page, browserName }) => {
  await page.goto(RUN_1K);
  const state = await finished(page);
  expect(state.status).toBe('done');
  const panel = page.getByTestId('submit-panel');
  await expect(panel).toBeVisible();
  // The collector refuses an environment that does not hang together: this Linux desktop is no phone.
  await page.getByTestId('class-phone').check();
  await page.getByTestId('send').click();
  await expect(page.getByTestId('send-error')).toContainText('a phone does not run Linux');
  await page.getByTestId('class-desktop').check();
  await page.getByTestId('review').click();
  const payload = JSON.parse((await page.getByTestId('payload').textContent())!);
  expect(payload.deviceClass).toBe('desktop');
  expect(payload.deviceModel).toBeUndefined(); // not ticked, not sent
  expect(payload.result.runId).toBe(state.result!.runId);
  expect(payload.result.environment.userAgent).toBe('');
  expect(payload.result.environment.browser.version).toMatch(/^\d+$/); // major version only
  expect(payload.result.cases).toHaveLength(state.result!.cases.length);
  await page.getByTestId('send').click();
  await expect(page.getByTestId('sent')).toBeVisible();

  // Its permalink opens it read-only, in a fresh context (no state shared with this page).
  const link = (await page.getByTestId('permalink-link').getAttribute('href'))!;
  expect(link).toContain(`#/result/${state.result!.runId}`);
  const fresh = await page.context().browser()!.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(other.getByTestId('permalink-note')).toContainText('desktop result received on');
    await expect(other.getByTestId('results-table').locator('tbody tr')).toHaveCount(state.result!.cases.length);
    await expect(other.getByTestId('verdict')).toContainText(/(Fastest|Tie) for/);
    await expect(other.getByTestId('submit-panel')).toHaveCount(0); // read-only: nothing to send
    await other.goto(link.replace(/#\/result\/.*/, '#/result/not-a-uuid'));
    await expect(other.getByTestId('permalink-error')).toContainText("'not-a-uuid' is not a result id");
  } finally {
    await fresh.close();
  }

  await page.getByTestId('nav-crowd').click();
  const crowd = page.getByTestId('crowd');
  await expect(crowd).toBeVisible();
  const row = page.getByTestId('crowd-table').locator('tr', { hasText: 'desktop' });
  await expect(row).toBeVisible();
  expect(Number(await row.locator('td').nth(1).textContent())).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('you-vs-crowd')).toContainText('of');
  // The same crowd per engine: this browser's engine has a row.
  await crowd.getByLabel('Group by').selectOption('engine');
  const engine = { chromium: 'Blink', firefox: 'Gecko', webkit: 'WebKit' }[browserName];
  await expect(page.getByTestId('crowd-table').locator('tr', { hasText: engine })).toBeVisible();
  await crowd.getByLabel('Group by').selectOption('deviceClass');
  // A case nobody has measured shows the empty state.
  await crowd.getByLabel('Payload size').selectOption({ label: '64 MiB' });
  await expect(page.getByTestId('crowd-empty')).toBeVisible();

  // The next run of the same cases is placed among desktops right under its verdict.
  await page.goto(RUN_1K);
  await finished(page);
  await expect(page.getByTestId('standing')).toContainText('Among desktops');
  await expect(page.getByTestId('standing')).toContainText(/faster than \d+ % of \d+ desktop results/);
  await expect(page.getByTestId('standing').locator('svg circle')).toHaveCount(await page.getByTestId('standing').locator('li').count());
});

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
