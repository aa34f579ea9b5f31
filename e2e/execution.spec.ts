import { chromium, firefox, type Browser } from 'playwright-core';
import { validateResult } from '../web/core/schema.ts';
import { BROWSER_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from '../cli/browsers.ts';
import { expect, finished, test } from './fixtures.ts';

// Execution modes (web/core/execution.ts) in real browsers started the way a security setting
// leaves them: WebAssembly off (Chromium's --jitless, Firefox's javascript.options.wasm) and
// JavaScript without its optimising compiler (V8's --max-opt=0, Firefox without Ion and Baseline).
const TINY = '/?preset=quick&algorithms=aes-128-gcm&sizes=1k&rounds=1&reruns=0&autorun=1';

const MODES = {
  chromium: {
    'wasm-off': () => chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, '--js-flags=--jitless'] }),
    'no-js-optimizer': () => chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BROWSER_ARGS, '--js-flags=--max-opt=0'] }),
  },
  firefox: {
    'wasm-off': () => firefox.launch({ channel: 'moz-firefox', executablePath: FIREFOX_PATH, firefoxUserPrefs: { 'javascript.options.wasm': false } }),
    'no-js-optimizer': () =>
      firefox.launch({
        channel: 'moz-firefox',
        executablePath: FIREFOX_PATH,
        firefoxUserPrefs: { 'javascript.options.ion': false, 'javascript.options.baselinejit': false },
      }),
  },
} as const;

for (const mode of ['wasm-off', 'no-js-optimizer'] as const) {
  test(`a browser in the ${mode} mode runs what it can, records the mode, and says so first`, async ({ browserName, baseURL }) => {
    test.skip(browserName === 'webkit', 'WebKit runs in its own WebDriver suite');
    let browser: Browser | null = null;
    try {
      browser = await MODES[browserName as 'chromium' | 'firefox'][mode]();
      const page = await browser.newPage();
      await page.goto(new URL(TINY, baseURL).href);
      const state = await finished(page);
      expect(state.error).toBeNull();
      const doc = state.result!;
      const checked = validateResult(doc);
      expect(checked.ok ? [] : checked.issues).toEqual([]);
      expect(doc.environment.execution?.mode, JSON.stringify(doc.environment.execution)).toBe(mode);
      const impls = new Set(doc.cases.map((c) => c.implementation));
      expect(impls.has('webcrypto')).toBe(true);
      expect(impls.has('noble')).toBe(true);
      expect(impls.has('rustcrypto-wasm')).toBe(mode !== 'wasm-off');
      if (mode === 'wasm-off') expect(doc.skipped).toContainEqual({ what: 'rustcrypto-wasm', reason: expect.stringContaining('WebAssembly is off') });
      await expect(page.getByTestId('execution')).toHaveAttribute('data-mode', mode);
      await expect(page.getByTestId('execution')).toContainText('kept out of the crowd');
      await expect(page.getByTestId('verdict')).toContainText(
        mode === 'wasm-off' ? 'Measured with WebAssembly off' : 'Measured without the optimising JavaScript compiler',
      );
    } finally {
      await browser?.close();
    }
  });
}
