/**
 * Runs the built site in a headless system browser through Playwright and returns the result
 * document: serve dist/ with COOP/COEP on a free loopback port, open the page with the run's
 * parameters and autorun, follow the automation hook, read `window.aeadbench.result`.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { BROWSER_ARGS, CHROMIUM_PATH, FIREFOX_PATH, INSTALL_HINT } from '../scripts/browsers.ts';
import { serveStatic } from '../scripts/serve.ts';
import type { Progress } from '../web/core/runner.ts';
import type { ResultDocument } from '../web/core/schema.ts';
import type {} from '../web/core/automation.ts';

export type BrowserName = 'chromium' | 'firefox';

export class CliError extends Error {}

/** The built site: `site/` beside the installed package, else the repository's `dist/`. */
export function siteDir(): string {
  const packaged = fileURLToPath(new URL('../../site', import.meta.url));
  return existsSync(join(packaged, 'index.html')) ? packaged : 'dist';
}

export async function launch(name: BrowserName, executable?: string): Promise<Browser> {
  const path = executable ?? (name === 'chromium' ? CHROMIUM_PATH : FIREFOX_PATH);
  if (!existsSync(path)) throw new CliError(`${name} not found at ${path}: ${INSTALL_HINT[name]}`);
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    throw new CliError('browser runs need playwright-core 1.64.1 (npm install playwright-core@1.64.1); --browser node needs nothing more');
  }
  const { chromium, firefox } = playwright;
  return name === 'chromium'
    ? chromium.launch({ executablePath: path, args: BROWSER_ARGS })
    : firefox.launch({ channel: 'moz-firefox', executablePath: path } as Parameters<typeof firefox.launch>[0]);
}

export async function runInBrowser(o: {
  browser: BrowserName;
  executable?: string;
  search: string;
  distDir?: string;
  onProgress?: (p: Progress) => void;
  timeoutMs?: number;
}): Promise<ResultDocument> {
  const server = await serveStatic({ dir: o.distDir ?? siteDir(), port: 0, host: '127.0.0.1' });
  const { port } = server.address() as AddressInfo;
  const browser = await launch(o.browser, o.executable);
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`http://127.0.0.1:${port}/?${o.search}&autorun=1`);
    const deadline = Date.now() + (o.timeoutMs ?? 60 * 60_000);
    for (;;) {
      const s = await page.evaluate(() => ({ status: window.aeadbench?.status, progress: window.aeadbench?.progress ?? null, error: window.aeadbench?.error ?? null }));
      if (s.progress) o.onProgress?.(s.progress);
      if (s.status === 'error') throw new CliError(s.error ?? `the page failed: ${pageErrors.join('; ')}`);
      if (s.status === 'done' || s.status === 'cancelled') break;
      if (Date.now() > deadline) throw new CliError('timed out waiting for the run to finish');
      await page.waitForTimeout(250);
    }
    return (await page.evaluate(() => window.aeadbench!.result)) as ResultDocument;
  } finally {
    await browser.close();
    server.close();
  }
}
