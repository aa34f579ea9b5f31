// Phones: at 360 px nothing scrolls sideways — not the page, not a table inside it — on every view.
import type { Page } from '@playwright/test';
import { expect, finished, test } from './fixtures.ts';

/** Everything wider than its box: the page itself, and any element that would scroll sideways. */
async function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(`page ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(el);
      if (el.offsetParent === null && style.position !== 'fixed') continue; // not rendered
      if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
      if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    return out;
  });
}

const VIEWS: [string, string, (page: Page) => Promise<void>][] = [
  ['run form', '/', async (page) => void (await expect(page.getByTestId('start')).toBeEnabled())],
  [
    'results',
    '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1',
    async (page) => {
      await finished(page);
      await expect(page.getByTestId('results-table')).toBeVisible();
      for (const d of await page.locator('details').all()) await d.locator('summary').first().click();
    },
  ],
  ['studies', '/#/scenarios', async (page) => void (await expect(page.getByTestId('scenario-list')).toBeVisible())],
  ['a study', '/#/scenario/aead-vs-etm', async (page) => void (await expect(page.getByTestId('citation')).toBeVisible())],
  ['crowd', '/#/crowd', async (page) => void (await expect(page.getByTestId('nav-crowd')).toBeVisible())],
  ['compare', '/#/compare', async (page) => void (await expect(page.getByTestId('compare-file-a')).toBeVisible())],
];

for (const [name, path, ready] of VIEWS) {
  test(`at 360 px nothing scrolls sideways: ${name}`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(path);
    await ready(page);
    expect(await sideways(page)).toEqual([]);
  });
}
