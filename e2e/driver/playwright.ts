/** The driver port over a Playwright page (Chromium and Firefox; Playwright's WebKit where installed). */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import type { Automation } from '../../web/core/automation.ts';
import type { Driver, Engine } from './port.ts';

export function playwrightDriver(first: Page, engine: Engine): Driver {
  let page = first;
  const opened: BrowserContext[] = [];
  const byId = (id: string) => page.getByTestId(id).first();
  return {
    engine,
    open: async (path) => void (await page.goto(path)),
    async openAfresh(url) {
      const context = await page.context().browser()!.newContext();
      opened.push(context);
      page = await context.newPage();
      await page.goto(url);
    },
    state: () => page.evaluate(() => (window.aeadbench ?? null) as Automation | null),
    script: <T>(body: string) => page.evaluate(`(() => { ${body} })()`) as Promise<T>,
    visible: (id, timeout = 30_000) => byId(id).waitFor({ state: 'visible', timeout }),
    text: async (id) => (await byId(id).innerText()).trim(),
    textContent: async (id) => (await byId(id).textContent()) ?? '',
    attribute: (id, name) => byId(id).getAttribute(name),
    enabled: (id) => byId(id).isEnabled(),
    count: (css) => page.locator(css).count(),
    click: (id) => byId(id).click(),
    async clickAll(css) {
      for (const el of await page.locator(css).all()) await el.click();
    },
    select: async (css, value) => void (await page.locator(css).selectOption(value)),
    setFile: (id, path) => byId(id).setInputFiles(path),
    resize: (width, height) => page.setViewportSize({ width, height }),
    axe: async () => (await new AxeBuilder({ page }).analyze()).violations,
    colorScheme: (colorScheme) => page.emulateMedia({ colorScheme }),
    async dispose() {
      for (const c of opened) await c.close();
    },
  };
}
