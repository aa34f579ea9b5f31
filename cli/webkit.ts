/**
 * WebKit — the engine of every browser on an iPhone or iPad — as far as Linux has it:
 * WebKitGTK's MiniBrowser, driven over W3C WebDriver by WebKitGTK's own WebKitWebDriver
 * (Playwright cannot drive WebKitGTK, and its own WebKit is a download). MiniBrowser needs a
 * display, so a private Xvfb is started first. Each step has a time limit and a name: a step
 * that fails says which it was, and everything started is stopped, in every case.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { WebDriver } from 'selenium-webdriver';
import { freePort } from '../web/core/platform/net.ts';

export class WebKitError extends Error {}

/** Where Debian and Ubuntu put MiniBrowser (libwebkit2gtk-4.1-0, -4.0-37, libwebkitgtk-6.0-4). */
const MINIBROWSER_PATHS = [
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.0/MiniBrowser',
  '/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.0/MiniBrowser',
];
const DRIVER_PATHS = ['/usr/bin/WebKitWebDriver', '/usr/local/bin/WebKitWebDriver'];
export const WEBKIT_INSTALL_HINT = 'install it with: sudo apt-get install webkit2gtk-driver xvfb (or pass --executable PATH to MiniBrowser)';

function firstExisting(kind: string, candidates: (string | undefined)[], hint: string): string {
  const tried = candidates.filter((c): c is string => !!c);
  const found = tried.find((p) => existsSync(p));
  if (!found) throw new WebKitError(`${kind} not found; tried ${tried.join(', ')}: ${hint}`);
  return found;
}

/** MiniBrowser: --executable, then WEBKIT_MINIBROWSER, then the packages' own file lists, then the usual paths. */
export function findMiniBrowser(executable?: string): string {
  if (executable) return firstExisting('MiniBrowser', [executable], WEBKIT_INSTALL_HINT);
  const fromDpkg = ['libwebkit2gtk-4.1-0', 'libwebkit2gtk-4.0-37', 'libwebkitgtk-6.0-4'].flatMap((pkg) => {
    const r = spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8' });
    return r.status === 0 ? r.stdout.split('\n').filter((l) => l.endsWith('/MiniBrowser')) : [];
  });
  return firstExisting('MiniBrowser', [process.env.WEBKIT_MINIBROWSER, ...fromDpkg, ...MINIBROWSER_PATHS], WEBKIT_INSTALL_HINT);
}

export function findDriver(): string {
  return firstExisting('WebKitWebDriver', [process.env.WEBKIT_WEBDRIVER, ...DRIVER_PATHS], WEBKIT_INSTALL_HINT);
}

/** Resolves with `p`'s value, or rejects naming `step` after `ms`. */
export function within<T>(step: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new WebKitError(`${step}: no answer within ${ms / 1000} s`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** Kills a detached child and everything it started (its process group), and waits until it is gone (at most 5 s). */
async function killGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
  await within('stopping a WebKit helper process', 5_000, gone).catch(() => {});
}

/** A private X display: `Xvfb -displayfd` picks a free number and writes it to us. */
async function startXvfb(): Promise<{ display: string; proc: ChildProcess }> {
  const xvfb = firstExisting('Xvfb', [process.env.XVFB_PATH, '/usr/bin/Xvfb'], 'install it with: sudo apt-get install xvfb');
  const proc = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  try {
    const display = await within(
      'starting Xvfb (the display MiniBrowser needs)',
      10_000,
      new Promise<string>((resolve, reject) => {
        let out = '';
        (proc.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(`:${out.trim()}`);
        });
        proc.once('exit', (code) => reject(new WebKitError(`starting Xvfb: it exited with ${code}: ${stderr.trim().slice(-300)}`)));
        proc.once('error', (e) => reject(new WebKitError(`starting Xvfb: ${e.message}`)));
      }),
    );
    return { display, proc };
  } catch (e) {
    await killGroup(proc);
    throw e;
  }
}

export interface WebKitSession {
  driver: WebDriver;
  /** WebKitGTK's version, from the session's capabilities (the page cannot know it). */
  browserVersion: string;
  close(): Promise<void>;
}

/**
 * Starts Xvfb (unless `display` is given), WebKitWebDriver on a free loopback port, and a
 * MiniBrowser session with `--automation`. Every failure names its step; nothing is left running.
 * `env` reaches the browser's processes (JavaScriptCore reads `JSC_*` options from it).
 */
/** selenium-webdriver, an optional peer of the package: named with its install line when it is missing, before anything starts. */
async function loadSelenium(): Promise<typeof import('selenium-webdriver')> {
  try {
    return await import('selenium-webdriver');
  } catch {
    throw new WebKitError(
      "WebKit runs drive WebKitGTK's MiniBrowser over WebDriver and need selenium-webdriver (npm install selenium-webdriver@4); Chromium, Firefox and Node runs need nothing more",
    );
  }
}

export async function startWebKit(
  o: { executable?: string; display?: string; windowSize?: { width: number; height: number }; env?: Record<string, string> } = {},
): Promise<WebKitSession> {
  const { Builder } = await loadSelenium();
  const miniBrowser = findMiniBrowser(o.executable);
  const driverPath = findDriver();
  let xvfb: ChildProcess | undefined;
  let driverProc: ChildProcess | undefined;
  let driver: WebDriver | undefined;
  const stopAll = async () => {
    if (driver) await within('closing the WebKit session', 10_000, driver.quit()).catch(() => {});
    await killGroup(driverProc);
    await killGroup(xvfb);
  };
  try {
    let display = o.display ?? process.env.AEADBENCH_DISPLAY;
    // A local display without its X server's socket cannot be opened: say so now, not after
    // the driver has waited for a browser window that never comes.
    const local = display && /^:(\d+)(\.\d+)?$/.exec(display);
    if (local && !existsSync(`/tmp/.X11-unix/X${local[1]}`))
      throw new WebKitError(
        `opening display ${display}: no X server there (no /tmp/.X11-unix/X${local[1]}); leave AEADBENCH_DISPLAY unset to get a private Xvfb`,
      );
    if (!display) {
      const x = await startXvfb();
      xvfb = x.proc;
      display = x.display;
    }
    const port = await freePort();
    driverProc = spawn(driverPath, [`--port=${port}`, '--host=127.0.0.1'], {
      env: { ...process.env, ...o.env, DISPLAY: display },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let driverLog = '';
    driverProc.stderr!.on('data', (d) => (driverLog += d));
    const url = `http://127.0.0.1:${port}`;
    await within(
      'starting WebKitWebDriver',
      15_000,
      (async () => {
        for (;;) {
          if (driverProc!.exitCode !== null)
            throw new WebKitError(`starting WebKitWebDriver: it exited with ${driverProc!.exitCode}: ${driverLog.trim().slice(-300)}`);
          try {
            const r = await fetch(`${url}/status`, { signal: AbortSignal.timeout(1000) });
            if (r.ok) return;
          } catch {
            /* not listening yet */
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })(),
    );
    driver = await within(
      `opening MiniBrowser (${miniBrowser}) on display ${display}`,
      30_000,
      new Builder()
        .usingServer(url)
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] } })
        .build(),
    ).catch((e: Error) => {
      throw new WebKitError(
        `opening MiniBrowser (${miniBrowser}) on display ${display}: ${e.message}${driverLog ? ` (driver: ${driverLog.trim().slice(-300)})` : ''}`,
      );
    });
    if (o.windowSize)
      await driver
        .manage()
        .window()
        .setRect({ ...o.windowSize, x: 0, y: 0 });
    const caps = await driver.getCapabilities();
    return { driver, browserVersion: String(caps.get('browserVersion') ?? ''), close: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
