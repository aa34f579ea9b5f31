// The run page's own behaviours in Playwright's browsers; what WebKit proves too is in behaviours.ts.
import { expect, finished, showAllRows, test } from './fixtures.ts';
import { LONG_QUICK } from './expectations.ts';

for (const [width, height] of [
  [1280, 800],
  [360, 800],
] as const) {
  test(`at ${width}×${height} Start is on the first screen, and the live verdict is in view while the run still measures`, async ({ page }, info) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?preset=quick');
    const start = page.getByTestId('start');
    const b = (await start.boundingBox())!;
    expect(b.y + b.height).toBeLessThanOrEqual(height);
    const clicked = Date.now();
    await start.click();
    // The order of events, not a time: the verdict is in view before the run ends (a quick run
    // lasts 20 s or more). How long it took is printed, for the record, never judged here.
    await expect(page.getByTestId('verdict')).toBeInViewport({ timeout: 60_000 });
    expect(await page.evaluate(() => window.aeadbench?.status)).toBe('running');
    info.annotations.push({ type: 'verdict in view after', description: `${((Date.now() - clicked) / 1000).toFixed(1)} s` });
    // The headline leads the verdict, in plain words, while the run measures.
    await expect(page.getByTestId('headline')).toContainText('Fastest on this device:');
    // One count of cases while it measures: the progress bar's, and no other figure of cases beside it.
    await expect(page.getByTestId('progress')).toContainText(/\d+ \/ \d+ (undecided )?cases/);
    await expect(page.getByTestId('live')).toHaveText('live');
    await expect(page.getByTestId('environment')).toContainText('measuring');
    expect(await page.getByTestId('environment').textContent()).not.toMatch(/\d+ cases/);
    await page.getByTestId('cancel').click();
    await expect(page.getByTestId('cancelled')).toBeVisible();
  });
}

test('cancel keeps every row that was on screen, and its message counts them', async ({ page }) => {
  // Twenty full rounds run for minutes (a quick run could end, on a busy host, between its first
  // rows and the click on Cancel), and its first rows come within seconds: the standard preset's
  // first group, every algorithm at 64 B, took 15-30 s to arrive.
  await page.goto(`/?${LONG_QUICK}`);
  await page.getByTestId('start').click();
  const rows = page.getByTestId('results-table').locator('tbody tr');
  // Rows arrive as blocks of cases finish: seconds on a quiet host, longer on a busy one (a
  // limit, not a figure under test).
  await expect.poll(() => rows.count(), { timeout: 90_000 }).toBeGreaterThan(3);
  // Every case shown so far: the table's first rows, and the rest behind "Show all".
  await showAllRows(page);
  const shown = await rows.count();
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('cancelled')).toBeVisible();
  await showAllRows(page);
  const kept = await rows.count();
  expect(kept).toBeGreaterThanOrEqual(shown);
  await expect(page.getByTestId('cancelled')).toContainText(`Run cancelled. ${kept} cases finished before it stopped and are kept below.`);
});

test('the page forbids forms posting elsewhere, in its header and in a meta policy for header-less hosts', async ({ page }) => {
  const response = await page.goto('/');
  const header = (await response!.allHeaders())['content-security-policy'];
  expect(header).toContain("form-action 'self'");
  expect(header).toContain("frame-ancestors 'none'");
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("form-action 'self'");
  expect(meta).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(meta).not.toContain('frame-ancestors'); // a meta policy may not carry it
});

test('at 1280×800 the results table fits its card, and the charts speak bytes and ratios', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?preset=quick&sizes=64,1k,16k,1m&rounds=1&reruns=0&algorithms=aes-128-cbc-hmac-sha256,aes-256-gcm,chacha20-poly1305&autorun=1');
  expect((await finished(page)).status).toBe('done');
  const table = page.getByTestId('results-table');
  const { scroll, room } = await table.evaluate((t) => ({ scroll: t.scrollWidth, room: t.parentElement!.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(room);
  // The size axis reads 64 B … 1 MiB in binary units; the speedup axis reads ratios (0.5×), not SI (500m).
  const results = page.getByTestId('results');
  const ticks = async () => (await results.locator('svg [data-plot$="tick label"] text').allTextContents()).map((t) => t.trim());
  expect(await ticks()).toEqual(expect.arrayContaining(['1 KiB', '1 MiB']));
  for (const t of await ticks()) expect(t).not.toMatch(/^\d{4,}( B)?$/);
  await results.getByRole('tab', { name: 'Speedup' }).click();
  await expect.poll(async () => (await ticks()).filter((t) => t.endsWith('×')).length).toBeGreaterThan(1);
  for (const t of await ticks()) expect(t).not.toMatch(/\d+m$/);
});
