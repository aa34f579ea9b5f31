// Every view of the site, with what "ready" means on each: the list the accessibility and phone
// specs walk, so that a view added here is checked by both.
import type { Page } from '@playwright/test';
import { expect, finished } from './fixtures.ts';

export const VIEWS: [name: string, path: string, ready: (page: Page) => Promise<void>][] = [
  ['run form', '/', async (page) => void (await expect(page.getByTestId('start')).toBeEnabled())],
  [
    'results of a run',
    '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1',
    async (page) => {
      await finished(page);
      await expect(page.getByTestId('results-table')).toBeVisible();
      // Open every disclosure (data tables, memory and code, validation): they are part of the view.
      for (const d of await page.locator('details').all()) await d.locator('summary').first().click();
    },
  ],
  ['studies', '/#/scenarios', async (page) => void (await expect(page.getByTestId('scenario-list')).toBeVisible())],
  ['a study with tables', '/#/scenario/aead-vs-etm', async (page) => void (await expect(page.getByTestId('citation')).toBeVisible())],
  ['a study with its demo', '/#/scenario/lightweight-iot', async (page) => void (await expect(page.getByTestId('citation')).toBeVisible())],
  ['crowd', '/#/crowd', async (page) => void (await expect(page.getByTestId('nav-crowd')).toBeVisible())],
  ['compare', '/#/compare', async (page) => void (await expect(page.getByTestId('compare-file-a')).toBeVisible())],
];
