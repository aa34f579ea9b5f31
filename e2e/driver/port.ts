/**
 * The small driver port every end-to-end behaviour is written against (e2e/behaviours.ts), so
 * that each behaviour is written once and run by both drivers: Playwright in Chromium and
 * Firefox (playwright.ts), WebDriver in WebKitGTK (webdriver.ts). Elements are named by their
 * `data-testid`, or by a CSS selector where a method says so.
 * @module
 */
import type { Automation } from '../../web/core/automation.ts';

export type Engine = 'chromium' | 'firefox' | 'webkit';

export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

export interface Driver {
  readonly engine: Engine;
  /** Opens a path of the site (`/?preset=quick…`). */
  open(path: string): Promise<void>;
  /** Opens a full URL in a page that shares no state with the one before. */
  openAfresh(url: string): Promise<void>;
  /** The page's automation hook (web/core/automation.ts), or null before the page set it. */
  state(): Promise<Automation | null>;
  /** Runs a function body (`return …`) in the page and gives its JSON result. */
  script<T>(body: string): Promise<T>;
  /** Resolves once the element shows; rejects naming it after `timeoutMs`. */
  visible(testId: string, timeoutMs?: number): Promise<void>;
  /** The element's rendered text, trimmed. */
  text(testId: string): Promise<string>;
  /** The element's text content, as in the DOM (a `<pre>`'s JSON). */
  textContent(testId: string): Promise<string>;
  attribute(testId: string, name: string): Promise<string | null>;
  enabled(testId: string): Promise<boolean>;
  /** How many elements match a CSS selector. */
  count(css: string): Promise<number>;
  click(testId: string): Promise<void>;
  /** Clicks every element that matches a CSS selector, in document order. */
  clickAll(css: string): Promise<void>;
  /** Picks the option of value `value` in the `<select>` a CSS selector names. */
  select(css: string, value: string): Promise<void>;
  /** Gives a file input a file from disk. */
  setFile(testId: string, path: string): Promise<void>;
  /** The viewport's size, as far as the browser allows it (MiniBrowser: not under 447 px wide). */
  resize(width: number, height: number): Promise<void>;
  /** axe-core's violations on the page as it is now. */
  axe(): Promise<AxeViolation[]>;
  /** Emulates a colour scheme; absent where the driver cannot (WebDriver). */
  colorScheme?(scheme: 'light' | 'dark'): Promise<void>;
  /** Closes what the driver opened beside the page it was given. */
  dispose(): Promise<void>;
}

/** Polls `fn` every 200 ms until it gives something truthy; rejects naming `what` after `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 150_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits for the page's automation hook to report a finished run (Speedometer style). */
export function finished(d: Driver, timeoutMs = 150_000): Promise<Automation> {
  return until(
    'the run to finish',
    async () => {
      const s = await d.state();
      return s && ['done', 'error', 'cancelled'].includes(s.status) ? s : null;
    },
    timeoutMs,
  );
}

/** Waits until the element's text matches `pattern`, and gives it. */
export async function textMatching(d: Driver, testId: string, pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
  await d.visible(testId, timeoutMs);
  return until(
    `[data-testid=${testId}] to read ${pattern}`,
    async () => {
      const t = await d.text(testId);
      return (typeof pattern === 'string' ? t.includes(pattern) : pattern.test(t)) && t;
    },
    timeoutMs,
  );
}

/** The results table shows its first rows (fastest first) and the rest on request: this asks for every row. */
export const showAllRows = (d: Driver) => d.clickAll('[data-testid="show-all"]');
