/**
 * Runs the built site in a headless system browser and returns the result document: serve
 * dist/ with COOP/COEP on a free loopback port, open the page with the run's parameters and
 * autorun, follow the automation hook (`window.aeadbench`), read the result.
 *
 * Chromium, Chrome, Edge and Firefox go through Playwright; WebKit through WebKitGTK's
 * WebDriver (cli/webkit.ts), or Playwright's own WebKit where that is installed. Both sit
 * behind one small interface: open a URL, evaluate an expression, close.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { BROWSER_ARGS, type BrowserName, BrowserNotFoundError, findBrowser } from './browsers.ts';
import { serveStatic } from '../server/serve.ts';
import type { Progress } from '../web/core/run/runner.ts';
import type { ResultDocument } from '../web/core/schema.ts';
import type { ShownClaim } from '../web/core/report/verdict.ts';
import type {} from '../web/core/automation.ts';
import { WebKitError, startWebKit } from './webkit.ts';

export type { BrowserName };

export class CliError extends Error {}

/** The built site: `site/` beside the installed package, else the repository's `dist/`. */
export function siteDir(): string {
  const packaged = fileURLToPath(new URL('../../site', import.meta.url));
  return existsSync(join(packaged, 'index.html')) ? packaged : 'dist';
}

/** One page in one browser, whatever drives it. */
export interface BrowserPage {
  goto(url: string): Promise<void>;
  /** Evaluates a JavaScript expression in the page and returns its (JSON-serialisable) value. */
  evaluate<T>(expression: string): Promise<T>;
  /** What the driver knows that the page does not: WebKitGTK's version. */
  driverBrowserVersion?: string;
  close(): Promise<void>;
}

async function loadPlaywright(): Promise<typeof import('playwright-core')> {
  try {
    return await import('playwright-core');
  } catch {
    throw new CliError('browser runs need playwright-core 1.64.1 (npm install playwright-core@1.64.1); --browser node needs nothing more');
  }
}

async function viaPlaywright(launch: () => Promise<import('playwright-core').Browser>): Promise<BrowserPage> {
  const browser = await launch();
  const page = await browser.newPage();
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: (expression) => page.evaluate(expression),
    close: () => browser.close(),
  };
}

/**
 * A device without AES instructions, played by a browser of this one: the environment that keeps
 * the browser's cryptography library off the x86 AES and carry-less multiply instructions.
 * Chromium's BoringSSL reads OPENSSL_ia32cap (bits cleared: AES-NI 57, PCLMULQDQ 33, and SSSE3 41
 * and AVX 60, without which its constant-time vector AES and GHASH would still be fast);
 * Firefox's NSS reads NSS_DISABLE_HW_AES and NSS_DISABLE_PCLMUL. WebKitGTK's libraries have no
 * such switch here, and Node's OpenSSL reads it only when the process starts.
 */
export const EMULATIONS = {
  'no-aes': {
    chromium: { OPENSSL_ia32cap: '~0x1200020200000000' },
    firefox: { NSS_DISABLE_HW_AES: '1', NSS_DISABLE_PCLMUL: '1' },
  },
} as const;
export type Emulation = keyof typeof EMULATIONS;

/** The environment a browser is started with to play `emulate` (EMULATIONS); refuses an engine that cannot. */
export function emulationEnv(name: BrowserName | 'node', emulate: Emulation | undefined): Record<string, string> {
  if (!emulate) return {};
  const family = name === 'firefox' ? 'firefox' : name === 'webkit' || name === 'node' ? null : 'chromium';
  if (!family)
    throw new CliError(
      `--emulate ${emulate} runs in Chromium-family browsers and Firefox, not in ${name} (its cryptography library has no switch for it here)`,
    );
  return { ...(process.env as Record<string, string>), ...EMULATIONS[emulate][family] };
}

/** `extraArgs`: more command-line flags for Chromium (benchmarks pass V8's tier flags); `emulate`: a device to play (EMULATIONS). */
export async function openBrowser(name: BrowserName, executable?: string, extraArgs: string[] = [], emulate?: Emulation): Promise<BrowserPage> {
  const env = emulate ? { env: emulationEnv(name, emulate) } : {};
  if (name === 'webkit') {
    if (emulate) emulationEnv(name, emulate); // refuses, naming why
    let webdriverError: Error;
    try {
      const s = await startWebKit({ executable });
      return {
        goto: (url) => s.driver.get(url),
        evaluate: (expression) => s.driver.executeScript(`return (${expression});`),
        driverBrowserVersion: s.browserVersion,
        close: () => s.close(),
      };
    } catch (e) {
      if (!(e instanceof WebKitError) || executable) throw new CliError((e as Error).message);
      webdriverError = e;
    }
    // No WebKitGTK here: Playwright's own WebKit, where `npx playwright install webkit` ran.
    let pw: Candidate;
    try {
      pw = findBrowser('webkit');
    } catch (e) {
      throw new CliError(`WebKit not found. ${webdriverError.message}; ${(e as Error).message}`);
    }
    const { webkit } = await loadPlaywright();
    return viaPlaywright(() => webkit.launch({ executablePath: pw.path }));
  }
  let found;
  try {
    found = findBrowser(name, executable);
  } catch (e) {
    throw new CliError((e as BrowserNotFoundError).message);
  }
  const { chromium, firefox } = await loadPlaywright();
  if (name === 'firefox') {
    // A distribution's Firefox speaks WebDriver BiDi (channel moz-firefox); Playwright's own build its own protocol.
    return viaPlaywright(() =>
      firefox.launch({ executablePath: found.path, ...env, ...(found.source === 'playwright' ? {} : { channel: 'moz-firefox' }) } as Parameters<
        typeof firefox.launch
      >[0]),
    );
  }
  return viaPlaywright(() => chromium.launch({ executablePath: found.path, args: [...BROWSER_ARGS, ...extraArgs], ...env }));
}

type Candidate = ReturnType<typeof findBrowser>;

export async function runInBrowser(o: {
  browser: BrowserName;
  executable?: string;
  search: string;
  distDir?: string;
  onProgress?: (p: Progress) => void;
  timeoutMs?: number;
  /** How long the page may take to expose `window.aeadbench` (default 60 s). */
  readyTimeoutMs?: number;
  browserArgs?: string[];
  /** A device the browser plays (EMULATIONS): its environment at start. */
  emulate?: Emulation;
  /** Files the page may fetch beside the site (modules of yours, bundled, under /m/). */
  files?: ReadonlyMap<string, Uint8Array>;
  /** The verdict's claims as the page showed them during the run (automation.ts claimsShown). */
  onClaimsShown?: (shown: ShownClaim[]) => void;
}): Promise<ResultDocument> {
  let page: BrowserPage | undefined;
  try {
    page = await openBrowser(o.browser, o.executable, o.browserArgs, o.emulate);
    return await runOnPage(page, o);
  } finally {
    await page?.close().catch(() => {});
  }
}

/**
 * The run on a page that is already open (ours, or a Playwright page of yours): serve the site
 * with COOP/COEP on a free loopback port, navigate the page there with the run's parameters and
 * autorun, follow `window.aeadbench` until the run ends, return its document.
 */
export async function runOnPage(
  page: Pick<BrowserPage, 'goto' | 'evaluate' | 'driverBrowserVersion'>,
  o: {
    search: string;
    distDir?: string;
    onProgress?: (p: Progress) => void;
    timeoutMs?: number;
    readyTimeoutMs?: number;
    files?: ReadonlyMap<string, Uint8Array>;
    onClaimsShown?: (shown: ShownClaim[]) => void;
  },
): Promise<ResultDocument> {
  const server = await serveStatic({ dir: o.distDir ?? siteDir(), port: 0, host: '127.0.0.1', files: o.files });
  const { port } = server.address() as AddressInfo;
  try {
    await page.goto(`http://127.0.0.1:${port}/?${o.search}&autorun=1`);
    const deadline = Date.now() + (o.timeoutMs ?? 60 * 60_000);
    // The page must answer the automation hook soon; a page that never gets ready is an error, not a hang.
    const readyMs = o.readyTimeoutMs ?? 60_000;
    const readyBy = Date.now() + readyMs;
    for (;;) {
      const s = await page.evaluate<{ status?: string; progress: Progress | null; error: string | null }>(
        '({ status: window.aeadbench && window.aeadbench.status, progress: (window.aeadbench && window.aeadbench.progress) || null, error: (window.aeadbench && window.aeadbench.error) || null })',
      );
      if (s.progress) o.onProgress?.(s.progress);
      if (s.status === 'error') throw new CliError(s.error ?? 'the page failed');
      if (s.status === 'done' || s.status === 'cancelled') break;
      if (s.status == null && Date.now() > readyBy)
        throw new CliError(`the page never became ready (window.aeadbench did not appear within ${readyMs / 1000} s)`);
      if (Date.now() > deadline) throw new CliError('timed out waiting for the run to finish');
      await new Promise((r) => setTimeout(r, 250));
    }
    const doc = await page.evaluate<ResultDocument>('window.aeadbench.result');
    if (o.onClaimsShown) o.onClaimsShown(await page.evaluate<ShownClaim[]>('window.aeadbench.claimsShown || []'));
    // WebKitGTK's page cannot know its own version (its user agent says Version/60.5); the driver does.
    if (page.driverBrowserVersion && doc.environment.browser.name === 'WebKitGTK') {
      doc.environment.browser.version = page.driverBrowserVersion;
      doc.environment.engine = { name: 'WebKit', version: page.driverBrowserVersion };
    }
    return doc;
  } finally {
    server.close();
  }
}
