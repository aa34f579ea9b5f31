// Accessibility from the keyboard alone; axe on every view, light and dark, is in behaviours.ts.
import { expect, finished, test } from './fixtures.ts';
import { LONG_QUICK } from './expectations.ts';

test('a run from the keyboard alone: start, cancel, start again', async ({ page }) => {
  await page.goto(`/?${LONG_QUICK}`);
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
  // And again: the form is reachable and usable from the keyboard after a cancel.
  await expect(start).toBeEnabled();
  // The settings folded into one line when the run started: back up to it with Shift+Tab,
  // open it with Enter, and Tab on to Start.
  const settings = page.getByTestId('settings-summary');
  for (let i = 0; i < 80 && !(await settings.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
  await expect(settings).toBeFocused();
  await page.keyboard.press('Enter');
  for (let i = 0; i < 80 && !(await start.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.aeadbench?.status === 'running', null, { timeout: 15_000 });
  await page.getByTestId('cancel').click();
  expect((await finished(page, 15_000)).status).toBe('cancelled');
});
