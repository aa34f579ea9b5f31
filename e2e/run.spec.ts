import { validateResult } from '../web/core/schema.ts';
import { NEWER_AEADS_RUN, newerAeadProblems, validationProblems } from './expectations.ts';
import { pairedRatio } from '../web/core/stats.ts';
import { SMALL_RUN, expect, finished, showAllRows, test } from './fixtures.ts';

test('a quick run completes and its result validates against the schema', async ({ page, browserName }) => {
  await page.goto(SMALL_RUN);
  const state = await finished(page);
  expect(state.error).toBeNull();
  expect(state.status).toBe('done');
  const checked = validateResult(state.result);
  expect(checked.ok ? [] : checked.issues).toEqual([]);
  const doc = state.result!;
  expect(doc.environment.crossOriginIsolated).toBe(true);
  expect(doc.environment.timerResolutionMs).toBeLessThanOrEqual(0.025); // 5 µs Chromium, 20 µs Firefox
  expect(new Set(doc.cases.map((c) => c.implementation))).toEqual(new Set(['rustcrypto-wasm', 'webcrypto', 'noble', 'libsodium']));
  for (const c of doc.cases) expect(c.samples.length).toBeGreaterThanOrEqual(5);
  // result@2: the engine, and every flag with its reasons (none without a flag).
  expect(doc.schema).toBe('aeadbench/result@2');
  expect(doc.environment.engine?.name).toBe({ chromium: 'Blink', firefox: 'Gecko', webkit: 'WebKit' }[browserName]);
  // A browser as shipped runs WebAssembly and its optimising JIT: the standard execution mode.
  expect(doc.environment.execution?.mode).toBe('standard');
  await expect(page.getByTestId('execution')).toHaveAttribute('data-mode', 'standard');
  for (const c of doc.cases) expect(c.unstable).toBe((c.unstableReasons ?? []).length > 0);
  // Compared cases were sampled interleaved: every sample has its cycle, and cases of one
  // size and operation share their cycles, so their paired ratio exists.
  for (const c of doc.cases) expect(c.cycles).toHaveLength(c.samples.length);
  const [a, b] = doc.cases.filter((c) => c.sizeBytes === 64 && c.operation === 'encrypt');
  expect(pairedRatio(a!, b!)?.n).toBeGreaterThanOrEqual(5);
  // The interference monitor's record, and the sentence it gives.
  expect(doc.interference!.probeMs.length).toBeGreaterThan(0);
  expect(doc.interference!.cycles).toHaveLength(doc.interference!.probeMs.length);
  await expect(page.getByTestId('interference')).toContainText('of its best speed');
  await expect(page.getByTestId('results-table')).toBeVisible();
  // A short page: the fastest rows first, every case one click away.
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(Math.min(30, doc.cases.length));
  await showAllRows(page);
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(doc.cases.length);
  // The verdict comes first, in plain words, from the same document.
  await expect(page.getByTestId('verdict')).toContainText(/(Fastest|Tie) for small messages/);
  await expect(page.getByTestId('verdict')).toContainText('Web Crypto');
  const box = async (id: string) => (await page.getByTestId(id).boundingBox())!.y;
  expect(await box('verdict')).toBeLessThan(await box('results-table'));
  // Memory and code per algorithm of the run, the code measured at build time.
  await page.getByTestId('footprint').locator('summary').click();
  await expect(page.getByTestId('footprint').locator('tbody tr')).toHaveCount(new Set(doc.cases.map((c) => c.algorithm)).size);
  await expect(page.getByTestId('footprint')).toContainText('KiB');
});

test('every implementation passes its Wycheproof vectors in the real browser, and WASM and Web Crypto AES-GCM agree byte for byte', async ({ page, browserName }) => {
  await page.goto(SMALL_RUN);
  const { validation } = await finished(page);
  expect(validationProblems(validation)).toEqual([]);
  // Web Crypto's ChaCha20-Poly1305 exists in Chromium only.
  const chachaWeb = validation.some((v) => v.algorithm === 'chacha20-poly1305' && v.implementation === 'webcrypto');
  expect(chachaWeb).toBe(browserName === 'chromium');
  await page.getByTestId('validation').locator('summary').click();
  await expect(page.getByTestId('validation')).toContainText('passed their Wycheproof vectors');
});

test('the newer AEADs validate in the browser in every implementation that offers them, and are timed', async ({ page }) => {
  await page.goto(NEWER_AEADS_RUN);
  const state = await finished(page);
  expect(state.status).toBe('done');
  expect(newerAeadProblems(state.validation, state.result!)).toEqual([]);
});

test('cancel stops the run and keeps what finished', async ({ page }) => {
  await page.goto('/?preset=standard&autorun=1');
  await expect(page.getByTestId('progress')).toBeVisible({ timeout: 60_000 });
  await page.waitForFunction(() => (window.aeadbench?.progress?.done ?? 0) >= 3, null, { timeout: 60_000 });
  // Live results: finished cases are in the table and the charts while the run goes on.
  await expect(page.getByTestId('live')).toBeVisible({ timeout: 15_000 });
  expect(await page.getByTestId('results-table').locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('results').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('export-json')).toHaveCount(0); // nothing to export until it ends
  expect(await page.evaluate(() => window.aeadbench!.status)).toBe('running');
  await page.getByTestId('cancel').click();
  const state = await finished(page, 15_000);
  expect(state.status).toBe('cancelled');
  expect(state.result?.status).toBe('cancelled');
  await expect(page.getByTestId('cancelled')).toBeVisible();
  await expect(page.getByTestId('progress')).toBeHidden();
  // The form is usable again.
  await expect(page.getByTestId('start')).toBeEnabled();
});

test('a bad URL parameter shows an error naming it', async ({ page }) => {
  await page.goto('/?sizes=64,abc&autorun=1');
  await expect(page.getByTestId('param-error')).toContainText("Invalid sizes param: '64,abc'");
  const state = await page.evaluate(() => window.aeadbench!);
  expect(state.status).toBe('error');
  expect(state.result).toBeNull();
});

test('the mobile viewport renders the results without horizontal scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/?preset=quick&sizes=1k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1');
  const state = await finished(page);
  expect(state.status).toBe('done');
  await expect(page.getByTestId('results')).toBeVisible();
  await expect(page.getByTestId('results').locator('svg').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await page.screenshot({ path: test.info().outputPath('mobile.png'), fullPage: true });
});

for (const [width, height] of [
  [1280, 800],
  [360, 800],
] as const) {
  test(`at ${width}×${height} Start is on the first screen, and the live verdict is in view within 10 s of it`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/?preset=quick');
    const start = page.getByTestId('start');
    const b = (await start.boundingBox())!;
    expect(b.y + b.height).toBeLessThanOrEqual(height);
    await start.click();
    await expect(page.getByTestId('verdict')).toBeInViewport({ timeout: 10_000 });
    await page.getByTestId('cancel').click();
    await expect(page.getByTestId('cancelled')).toBeVisible();
  });
}

test('cancel keeps every row that was on screen, and its message counts them', async ({ page }) => {
  // The standard preset runs for minutes: a quick run could end, on a busy host, between its
  // first rows and the click on Cancel.
  await page.goto('/?preset=standard');
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
