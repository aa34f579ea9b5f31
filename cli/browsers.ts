/**
 * Where browsers are, on this machine and on the machines of the CLI's users, and how to start
 * them quietly without network. Each browser has an ordered list of candidates — an
 * environment override, the distribution's paths, browsers installed by `npx playwright
 * install`, the Chrome and Edge channels — and a missing browser names every one it tried.
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';

export type BrowserName = 'chromium' | 'chrome' | 'edge' | 'firefox' | 'webkit';
export const BROWSER_NAMES: readonly BrowserName[] = ['chromium', 'chrome', 'edge', 'firefox', 'webkit'];

export interface Candidate {
  path: string;
  /** Where the candidate comes from: it decides how Playwright launches it. */
  source: 'env' | 'system' | 'playwright' | 'channel';
}

/** Without these, Chromium keeps trying to reach Google's services and is refused. */
export const BROWSER_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const INSTALL_HINT: Record<BrowserName, string> = {
  chromium: 'install it with: sudo apt-get install chromium (or npx playwright install chromium, or pass --executable PATH)',
  chrome: 'install Google Chrome, or pass --executable PATH',
  edge: 'install Microsoft Edge, or pass --executable PATH',
  firefox: 'install it with: sudo apt-get install firefox-esr (or npx playwright install firefox, or pass --executable PATH)',
  webkit: 'install it with: sudo apt-get install webkit2gtk-driver xvfb (or npx playwright install webkit, or pass --executable PATH to MiniBrowser)',
};

/** Browsers `npx playwright install` put in its cache (PLAYWRIGHT_BROWSERS_PATH or the OS default). */
function playwrightInstalled(prefix: string, inner: string[]): string[] {
  const root =
    process.env.PLAYWRIGHT_BROWSERS_PATH ||
    (platform() === 'darwin'
      ? join(homedir(), 'Library', 'Caches', 'ms-playwright')
      : platform() === 'win32'
        ? join(process.env.LOCALAPPDATA ?? homedir(), 'ms-playwright')
        : join(homedir(), '.cache', 'ms-playwright'));
  let dirs: string[] = [];
  try {
    dirs = readdirSync(root)
      .filter((d) => d.startsWith(`${prefix}-`))
      .sort()
      .reverse();
  } catch {
    return [join(root, `${prefix}-*`, ...inner)]; // named in the "tried" list all the same
  }
  return dirs.map((d) => join(root, d, ...inner));
}

const PROGRAM_FILES = [process.env['PROGRAMFILES'], process.env['PROGRAMFILES(X86)']].filter((p): p is string => !!p);

/** Every place `name` may be, in the order tried. */
export function browserCandidates(name: BrowserName): Candidate[] {
  const env = (v: string | undefined): Candidate[] => (v ? [{ path: v, source: 'env' }] : []);
  const system = (...paths: string[]): Candidate[] => paths.map((path) => ({ path, source: 'system' }));
  const channel = (...paths: string[]): Candidate[] => paths.map((path) => ({ path, source: 'channel' }));
  const pw = (...paths: string[]): Candidate[] => paths.map((path) => ({ path, source: 'playwright' }));
  switch (name) {
    case 'chromium':
      return [
        ...env(process.env.CHROMIUM_PATH),
        // Debian's binary itself: /usr/bin/chromium is a wrapper that prints a harmless warning.
        ...system('/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'),
        ...pw(
          ...playwrightInstalled('chromium', ['chrome-linux', 'chrome']),
          ...playwrightInstalled('chromium', ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium']),
          ...playwrightInstalled('chromium', ['chrome-win', 'chrome.exe']),
        ),
      ];
    case 'chrome':
      return [
        ...env(process.env.CHROME_PATH),
        ...channel(
          '/opt/google/chrome/chrome',
          '/usr/bin/google-chrome-stable',
          '/usr/bin/google-chrome',
          '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
          ...PROGRAM_FILES.map((p) => join(p, 'Google', 'Chrome', 'Application', 'chrome.exe')),
        ),
      ];
    case 'edge':
      return [
        ...env(process.env.EDGE_PATH),
        ...channel(
          '/opt/microsoft/msedge/msedge',
          '/usr/bin/microsoft-edge-stable',
          '/usr/bin/microsoft-edge',
          '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
          ...PROGRAM_FILES.map((p) => join(p, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
        ),
      ];
    case 'firefox':
      return [
        ...env(process.env.FIREFOX_PATH),
        ...system('/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox'),
        ...pw(...playwrightInstalled('firefox', ['firefox', 'firefox'])),
      ];
    case 'webkit':
      return [...env(process.env.WEBKIT_MINIBROWSER), ...pw(...playwrightInstalled('webkit', ['pw_run.sh']))];
  }
}

export class BrowserNotFoundError extends Error {}

/** The first candidate that exists, or an error naming every path tried and how to install one. */
export function findBrowser(name: BrowserName, executable?: string): Candidate {
  const list = executable ? [{ path: executable, source: 'env' as const }] : browserCandidates(name);
  const found = list.find((c) => existsSync(c.path));
  if (found) return found;
  throw new BrowserNotFoundError(`${name} not found; tried ${list.map((c) => c.path).join(', ')}: ${INSTALL_HINT[name]}`);
}

/** What the e2e tests launch (Debian's browsers on this project's machines). */
export const CHROMIUM_PATH = (() => {
  try {
    return findBrowser('chromium').path;
  } catch {
    return '/usr/bin/chromium';
  }
})();
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
