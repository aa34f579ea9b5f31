// Each paper scenario runs in a reduced form and shows the published figures beside measured ones.
import { DOC_FILE_SIZES } from '../web/core/tables/algorithms.ts';
import { validateResult } from '../web/core/schema.ts';
import { expect, finished, test } from './fixtures.ts';

const REDUCED: Record<string, string> = {
  'doc-encryption': `sizes=${DOC_FILE_SIZES.slice(0, 2).join(',')},1M&rounds=1&reruns=0&samples=3`,
  'aead-vs-etm': 'sizes=64,1k,16k&rounds=1&reruns=0&samples=3',
  'key-length': 'sizes=16k,1M&rounds=1&reruns=0&samples=3',
  'aes-candidates': 'sizes=32,1k&rounds=1&reruns=0&samples=3',
  'lightweight-iot': 'sizes=8,64,1k,16k&rounds=1&reruns=0&samples=3',
};

for (const [id, reduced] of Object.entries(REDUCED)) {
  test(`the ${id} scenario shows published figures beside this device's`, async ({ page }) => {
    await page.goto(`/?preset=${id}&${reduced}&autorun=1#/scenario/${id}`);
    const state = await finished(page);
    expect(state.status, state.error ?? '').toBe('done');
    expect(state.result!.params.preset).toBe(id);
    if (id === 'aead-vs-etm') {
      // Cycles per byte need the clock: estimated in the worker, and shown when it can be trusted.
      const clock = state.result!.environment.clock!;
      expect(clock.ghz).toBeGreaterThan(0.2);
      await expect(page.getByTestId('measured').first().locator('figcaption')).toContainText(clock.trustworthy ? 'cycles per byte' : 'ns per byte');
    }
    await expect(page.getByTestId('published').first()).toBeVisible();
    const measured = page.getByTestId('measured');
    expect(await measured.count()).toBeGreaterThan(0);
    // Every measured table has at least one row with a figure in it, not only dashes.
    for (const table of await measured.all()) {
      const cells = await table.locator('tbody td.num').allTextContents();
      expect(
        cells.some((c) => /\d/.test(c)),
        (await table.locator('figcaption').textContent()) ?? '',
      ).toBe(true);
    }
  });
}

test('the studies page lists every scenario', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('nav-scenarios').click();
  const list = page.getByTestId('scenario-list');
  for (const id of Object.keys(REDUCED)) await expect(list.locator(`a[href="#/scenario/${id}"]`)).toBeVisible();
  await expect(list).toContainText('Muhammad Arifin Ilham et al. (2025)');
});

test('every study page cites its paper by title, authors, venue and year, never by a file name', async ({ page }) => {
  for (const id of Object.keys(REDUCED)) {
    await page.goto(`/#/scenario/${id}`);
    await expect(page.getByTestId('citation')).toContainText('Source: ');
    await expect(page.locator('body')).not.toContainText(/[0-9]{3}_[0-9a-f]{16}\.txt/);
  }
  await page.goto('/#/scenario/key-length');
  await expect(page.getByTestId('citation')).toContainText('Router: Jurnal Teknik Informatika dan Terapan');
  await expect(page.getByTestId('citation').locator('a')).toHaveAttribute('href', 'https://doi.org/10.62951/router.v3i4.743');
});

test('the aes-candidates page measures the three raw block ciphers', async ({ page }) => {
  await page.goto('/#/scenario/aes-candidates');
  await page.getByTestId('block-run').click();
  const rows = page.getByTestId('block-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) expect(Number(await row.locator('td').nth(2).textContent())).toBeGreaterThan(0);
});

test('multi-core scaling runs the same case on 1 … hardwareConcurrency workers', async ({ page }) => {
  await page.goto('/#/scenario/lightweight-iot');
  const cores = await page.evaluate(() => Math.min(16, navigator.hardwareConcurrency || 1));
  await page.getByLabel('Scaling payload size').selectOption({ label: '1 KiB' });
  await page.getByTestId('scaling-run').click();
  const rows = page.getByTestId('scaling-table').locator('tbody tr');
  await expect(rows).toHaveCount(cores, { timeout: 60_000 });
  await expect(page.getByTestId('scaling-run')).toBeEnabled({ timeout: 60_000 });
  await expect(rows.first().locator('td').nth(3)).toHaveText('100 %');
});

test('scaling and raw block timings measured after a study run go into its result document', async ({ page }) => {
  await page.goto('/?preset=aes-candidates&sizes=1k&rounds=1&reruns=0&samples=3&autorun=1#/scenario/aes-candidates');
  await finished(page);
  await page.getByTestId('block-run').click();
  await expect(page.getByTestId('block-table').locator('tbody tr')).toHaveCount(3);
  await page.getByLabel('Scaling payload size').selectOption({ label: '1 KiB' });
  await page.getByTestId('scaling-run').click();
  await expect(page.getByTestId('scaling-run')).toBeEnabled({ timeout: 60_000 });
  await expect.poll(() => page.evaluate(() => window.aeadbench?.result?.scaling?.[0]?.points.length ?? 0), { timeout: 30_000 }).toBeGreaterThan(0);
  const doc = await page.evaluate(() => window.aeadbench!.result!);
  expect(doc.blocks!.map((b) => b.cipher)).toEqual(['aes-128', 'twofish-128', 'serpent-128']);
  expect(doc.scaling![0]).toMatchObject({ operation: 'encrypt', sizeBytes: 1024 });
  const checked = validateResult(doc);
  expect(checked.ok ? [] : checked.issues).toEqual([]);
});
