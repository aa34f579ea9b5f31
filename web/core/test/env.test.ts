// Browser, OS and engine from real user-agent strings: the engine is what compiles the WASM and
// runs Web Crypto, so it must be right even where the browser's name says otherwise.
import { describe, expect, it } from 'vitest';
import { BROWSER_NAMES, ENGINE_NAMES, engineFromUserAgent, parseUserAgent } from '../platform/env.ts';

const UAS = {
  minibrowser: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/60.5 Safari/605.1.15',
  epiphany: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 Epiphany/605.1.15',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIpad: 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/132.0 Mobile/15E148 Safari/605.1.15',
  headlessChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0',
};

describe('parseUserAgent and engineFromUserAgent', () => {
  it.each([
    ['minibrowser', 'WebKitGTK', '', 'Linux', 'WebKit'],
    ['epiphany', 'Epiphany', '605.1.15', 'Linux', 'WebKit'],
    ['safariMac', 'Safari', '18.1', 'macOS', 'WebKit'],
    ['safariIphone', 'Safari', '18.1', 'iOS', 'WebKit'],
    ['chromeIphone', 'Chrome', '131.0.6778.73', 'iOS', 'WebKit'],
    ['firefoxIpad', 'Firefox', '132.0', 'iOS', 'WebKit'],
    ['headlessChrome', 'Chrome', '156.0.0.0', 'Linux', 'Blink'],
    ['chromeAndroid', 'Chrome', '156.0.0.0', 'Android', 'Blink'],
    ['samsung', 'Samsung Internet', '26.0', 'Android', 'Blink'],
    ['firefoxLinux', 'Firefox', '153.0', 'Linux', 'Gecko'],
    ['edge', 'Edge', '156.0.0.0', 'Windows', 'Blink'],
  ] as const)('%s is %s %s on %s, engine %s', (key, browser, version, os, engine) => {
    const ua = UAS[key];
    const parsed = parseUserAgent(ua);
    expect(parsed.browser).toEqual({ name: browser, version });
    expect(parsed.os.name).toBe(os);
    expect(engineFromUserAgent(ua).name).toBe(engine);
    expect(BROWSER_NAMES).toContain(browser);
  });

  it('never calls WebKitGTK "Safari", and gives each engine its own version', () => {
    expect(parseUserAgent(UAS.minibrowser).browser.name).not.toBe('Safari');
    expect(engineFromUserAgent(UAS.firefoxLinux)).toEqual({ name: 'Gecko', version: '153.0' });
    expect(engineFromUserAgent(UAS.headlessChrome)).toEqual({ name: 'Blink', version: '156.0.0.0' });
    expect(engineFromUserAgent(UAS.safariMac)).toEqual({ name: 'WebKit', version: '605.1.15' });
    expect(ENGINE_NAMES).toEqual(['Blink', 'Gecko', 'WebKit', 'V8', 'unknown']);
  });
});

describe('the engine version', () => {
  it("that every result records is package.json's, so a release cannot ship two", async () => {
    const { ENGINE_VERSION } = await import('../version.ts');
    const { readFileSync } = await import('node:fs');
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(ENGINE_VERSION).toBe(pkg.version);
  });
});
