/** The driver port over W3C WebDriver (selenium-webdriver): WebKitGTK's MiniBrowser, which Playwright cannot drive. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { By, type WebDriver } from 'selenium-webdriver';
import type { Automation } from '../../web/core/automation.ts';
import { type AxeViolation, type Driver, type Engine, until } from './port.ts';

const css = (id: string) => By.css(`[data-testid="${id}"]`);
let axeSource: string | undefined;

export function webdriverDriver(driver: WebDriver, siteUrl: string, engine: Engine = 'webkit'): Driver {
  const byId = (id: string) => driver.findElement(css(id));
  return {
    engine,
    open: (path) => driver.get(`${siteUrl}${path}`),
    async openAfresh(url) {
      // One MiniBrowser window: a load from the address bar, then a reload, keeps nothing of the page before.
      await driver.get(url);
      await driver.navigate().refresh();
    },
    state: () => driver.executeScript<Automation | null>('return window.aeadbench || null;'),
    script: <T>(body: string) => driver.executeScript<T>(body),
    visible: (id, timeoutMs = 30_000) =>
      until(`[data-testid=${id}] to show`, async () => (await driver.findElements(css(id))).length > 0 && (await byId(id).isDisplayed()), timeoutMs).then(
        () => {},
      ),
    text: async (id) => (await byId(id).getText()).trim(),
    textContent: async (id) => (await byId(id).getAttribute('textContent')) ?? '',
    attribute: (id, name) => byId(id).getAttribute(name),
    enabled: (id) => byId(id).isEnabled(),
    count: async (selector) => (await driver.findElements(By.css(selector))).length,
    click: (id) => byId(id).click(),
    async clickAll(selector) {
      for (const el of await driver.findElements(By.css(selector))) await el.click();
    },
    select: (selector, value) => driver.findElement(By.css(`${selector} option[value="${value}"]`)).click(),
    setFile: (id, path) => byId(id).sendKeys(path),
    resize: async (width, height) => void (await driver.manage().window().setRect({ width, height, x: 0, y: 0 })),
    async axe() {
      axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      await driver.executeScript(axeSource);
      const r = await driver.executeAsyncScript<{ violations: AxeViolation[] }>(
        'const done = arguments[arguments.length - 1]; axe.run().then((r) => done({ violations: r.violations }), (e) => done({ violations: [{ id: "axe-error", impact: "critical", help: String(e), nodes: [] }] }));',
      );
      return r.violations;
    },
    dispose: async () => {},
  };
}
