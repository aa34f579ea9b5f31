// Phones: at 360 px nothing scrolls sideways — not the page, not a table inside it — on every view.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { VIEWS } from './behaviours.ts';
import { playwrightDriver } from './driver/playwright.ts';

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

for (const [name, path, ready] of VIEWS) {
  test(`at 360 px nothing scrolls sideways: ${name}`, async ({ page, browserName }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(path);
    await ready(playwrightDriver(page, browserName));
    expect(await sideways(page)).toEqual([]);
  });
}
