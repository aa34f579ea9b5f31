// Accessibility: axe-core on every view, light and dark, with no serious or critical violation;
// and a run driven from the keyboard alone.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { axeProblems } from './expectations.ts';
import { expect, finished, test } from './fixtures.ts';

async function problems(page: Page): Promise<string[]> {
  return axeProblems((await new AxeBuilder({ page }).analyze()).violations);
}

const VIEWS: [string, string, (page: Page) => Promise<void>][] = [
  ['run form', '/', async (page) => void (await expect(page.getByTestId('start')).toBeEnabled())],
  [
    'results of a run',
    '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1',
    async (page) => {
      await finished(page);
      await expect(page.getByTestId('results-table')).toBeVisible();
      await page.getByTestId('footprint').locator('summary').click();
    },
  ],
  ['studies', '/#/scenarios', async (page) => void (await expect(page.getByTestId('scenario-list')).toBeVisible())],
  ['a study', '/#/scenario/lightweight-iot', async (page) => void (await expect(page.getByTestId('citation')).toBeVisible())],
  ['crowd', '/#/crowd', async (page) => void (await expect(page.getByTestId('nav-crowd')).toBeVisible())],
  ['compare', '/#/compare', async (page) => void (await expect(page.getByTestId('compare-file-a')).toBeVisible())],
];

for (const scheme of ['light', 'dark'] as const) {
  for (const [name, path, ready] of VIEWS) {
    test(`axe: no serious or critical violation on ${name} (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await ready(page);
      expect(await problems(page)).toEqual([]);
    });
  }
}

test('a run from the keyboard alone: start, cancel, start again', async ({ page }) => {
  await page.goto('/?preset=standard');
  const start = page.getByTestId('start');
  await expect(start).toBeEnabled();
  // Tab until the start button has focus, as a keyboard user would reach it.
  for (let i = 0; i < 80 && !(await start.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (window.aeadbench?.progress?.done ?? 0) >= 1, null, { timeout: 60_000 });
  const cancel = page.getByTestId('cancel');
  for (let i = 0; i < 80 && !(await cancel.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  expect((await finished(page, 15_000)).status).toBe('cancelled');
  await expect(start).toBeEnabled();
});
