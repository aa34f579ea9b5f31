// End to end in WebKit — the engine of every iPhone and iPad — through WebKitGTK's MiniBrowser
// and WebKitWebDriver (cli/webkit.ts): Playwright cannot drive WebKitGTK. The same behaviours
// the Playwright specs prove in Chromium and Firefox, against the built site with its
// embedded collector. Runs after `vite build` (scripts/test), counted in the closing summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { By, type WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInBrowser } from '../../cli/browser-run.ts';
import { type WebKitSession, startWebKit } from '../../cli/webkit.ts';
import { type Proc, startNode } from '../../collector/harness/spawn.ts';
import type { Automation } from '../../web/core/automation.ts';
import { validateResult } from '../../web/core/schema.ts';
import { NEWER_AEADS_RUN, axeProblems, newerAeadProblems, validationProblems } from '../expectations.ts';
import { createRequire } from 'node:module';

const SMALL_RUN = '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&autorun=1';
const RUN_1K = '/?preset=quick&sizes=1k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1';

let site: Proc;
let webkit: WebKitSession;
let driver: WebDriver;

const until = async <T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 150_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
const state = () => driver.executeScript<Automation | null>('return window.aeadbench || null;');
const finished = (timeoutMs?: number) => until('the run to finish', async () => {
  const s = await state();
  return s && ['done', 'error', 'cancelled'].includes(s.status) ? s : null;
}, timeoutMs);
const testId = (id: string) => driver.findElement(By.css(`[data-testid="${id}"]`));
const visible = (id: string) => until(`[data-testid=${id}] to show`, async () => (await driver.findElements(By.css(`[data-testid="${id}"]`))).length > 0 && (await testId(id).isDisplayed()), 30_000);
const open = (path: string) => driver.get(`${site.url}${path}`);
/** The results table shows its first rows and the rest on request: ask for every row. */
const showAllRows = async () => {
  for (const b of await driver.findElements(By.css('[data-testid="show-all"]'))) await b.click();
};

beforeAll(async () => {
  site = await startNode('server/serve.ts', ['--dir', 'dist'], { COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-webkit-collector-')) }, { readyPath: '/' });
  webkit = await startWebKit({ windowSize: { width: 1280, height: 900 } });
  driver = webkit.driver;
}, 90_000);
afterAll(async () => {
  await webkit?.close();
  await site?.kill();
});

describe('in WebKit', () => {
  let doc: Automation['result'];
  let validation: Automation['validation'];

  it('a quick run completes and its result validates against the schema', async () => {
    await open(SMALL_RUN);
    const s = await finished();
    expect(s.error).toBeNull();
    expect(s.status).toBe('done');
    const checked = validateResult(s.result);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    doc = s.result!;
    validation = s.validation;
    expect(doc.environment.crossOriginIsolated).toBe(true);
    expect(doc.environment.timerResolutionMs).toBeLessThanOrEqual(0.025); // 20 µs, as Firefox
    expect(doc.environment.browser.name).toBe('WebKitGTK'); // not "Safari 60.5"
    expect(doc.environment.engine?.name).toBe('WebKit');
    expect(doc.environment.execution?.mode).toBe('standard'); // WebAssembly and the optimising JIT both run
    expect(new Set(doc.cases.map((c) => c.implementation))).toEqual(new Set(['rustcrypto-wasm', 'webcrypto', 'noble', 'libsodium']));
    for (const c of doc.cases) expect(c.samples.length).toBeGreaterThanOrEqual(5);
    for (const c of doc.cases) expect(c.cycles).toHaveLength(c.samples.length);
    expect(doc.interference!.probeMs.length).toBeGreaterThan(0);
    await visible('results-table'); // the results view loads on demand
    await showAllRows();
    expect(await driver.findElements(By.css('[data-testid="results-table"] tbody tr'))).toHaveLength(doc.cases.length);
    // The verdict comes first, from the same document.
    expect(await testId('verdict').getText()).toMatch(/(Fastest|Tie) for small messages/);
  }, 180_000);

  it('every implementation passes its Wycheproof vectors, and WASM and Web Crypto AES-GCM agree byte for byte', () => {
    expect(validationProblems(validation)).toEqual([]);
    // WebKit's Web Crypto has no ChaCha20-Poly1305 (Chromium's has).
    expect(validation.some((v) => v.algorithm === 'chacha20-poly1305' && v.implementation === 'webcrypto')).toBe(false);
  });

  it('the newer AEADs validate in every implementation that offers them, and are timed', async () => {
    await open(NEWER_AEADS_RUN);
    const s = await finished();
    expect(s.status).toBe('done');
    expect(newerAeadProblems(s.validation, s.result!)).toEqual([]);
  }, 180_000);

  it('axe finds no serious or critical violation on any view', async () => {
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const views: [string, () => Promise<unknown>][] = [
      ['/', () => visible('start')],
      ['/?preset=quick&sizes=64&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1', async () => (await finished(), visible('results-table'))],
      ['/#/scenarios', () => visible('scenario-list')],
      ['/#/scenario/key-length', () => visible('citation')],
      ['/#/crowd', () => visible('nav-crowd')],
    ];
    const found: string[] = [];
    for (const [path, ready] of views) {
      await open(path);
      await ready();
      await driver.executeScript(axeSource);
      const r = await driver.executeAsyncScript<{ violations: Parameters<typeof axeProblems>[0] }>('const done = arguments[arguments.length - 1]; axe.run().then((r) => done({ violations: r.violations }), (e) => done({ violations: [{ id: "axe-error", impact: "critical", help: String(e), nodes: [] }] }));');
      found.push(...axeProblems(r.violations).map((p) => `${path}: ${p}`));
    }
    expect(found).toEqual([]);
  }, 180_000);

  it('cancel stops the run and keeps what finished', async () => {
    await open('/?preset=standard&autorun=1');
    await until('three cases done', async () => ((await state())?.progress?.done ?? 0) >= 3, 90_000);
    await visible('live'); // live results while it runs
    expect((await driver.findElements(By.css('[data-testid="results-table"] tbody tr'))).length).toBeGreaterThanOrEqual(1);
    await testId('cancel').click();
    const s = await finished(15_000);
    expect(s.status).toBe('cancelled');
    expect(s.result?.status).toBe('cancelled');
    await visible('cancelled');
    expect(await driver.findElements(By.css('[data-testid="progress"]'))).toHaveLength(0);
    expect(await testId('start').isEnabled()).toBe(true);
  }, 120_000);

  it('a bad URL parameter shows an error naming it', async () => {
    await open('/?sizes=64,abc&autorun=1');
    await visible('param-error');
    expect(await testId('param-error').getText()).toContain("Invalid sizes param: '64,abc'");
    const s = await state();
    expect(s?.status).toBe('error');
    expect(s?.result).toBeNull();
  });

  it('run → review the exact payload → submit → the crowd shows it, per device class and per engine', async () => {
    await open(RUN_1K);
    expect((await finished()).status).toBe('done');
    await visible('submit-panel');
    await testId('class-desktop').click();
    await testId('review').click();
    await visible('payload');
    const payload = JSON.parse((await testId('payload').getAttribute('textContent'))!);
    expect(payload.deviceClass).toBe('desktop');
    expect(payload.result.environment.userAgent).toBe('');
    expect(payload.result.environment.engine.name).toBe('WebKit');
    await testId('send').click();
    await visible('sent');
    const link = (await testId('permalink-link').getAttribute('href'))!;
    const exported = JSON.stringify((await state())!.result);
    await testId('nav-crowd').click();
    await visible('crowd-table');
    await until('a desktop row', async () => (await testId('crowd-table').getText()).includes('desktop'), 15_000);
    await driver.findElement(By.css('[data-testid="crowd"] select[aria-label="Group by"] option[value="engine"]')).click();
    await until('a WebKit row', async () => (await testId('crowd-table').getText()).includes('WebKit'), 15_000);

    // The permalink opens it read-only in a page loaded afresh.
    await driver.get(link);
    await driver.navigate().refresh();
    await visible('permalink-note');
    expect(await testId('permalink-note').getText()).toContain('desktop result received on');
    await visible('results-table');
    await showAllRows();
    expect(await driver.findElements(By.css('[data-testid="results-table"] tbody tr'))).toHaveLength(JSON.parse(exported).cases.length);

    // Compare: the exported document against itself, through the file inputs.
    const file = join(mkdtempSync(join(tmpdir(), 'aeadbench-webkit-compare-')), 'a.json');
    writeFileSync(file, exported);
    await open('/#/compare');
    await visible('compare-file-a');
    await testId('compare-file-a').sendKeys(file);
    await testId('compare-file-b').sendKeys(file);
    await visible('compare-summary');
    expect(await testId('compare-summary').getText()).toContain(`${JSON.parse(exported).cases.length} cases compared`);
  }, 180_000);

  it('the lightweight-iot study seals the unlock token and rejects a one-bit change', async () => {
    await open('/#/scenario/lightweight-iot');
    await visible('unlock-run');
    await testId('unlock-run').click();
    await visible('unlock-opened');
    expect(await testId('unlock-opened').getText()).toMatch(/^UNLOCK:BIKE-0042:\d+$/);
    expect(await testId('unlock-tampered').getText()).toBe('rejected: authentication failed');
  }, 60_000);

  it('at a phone width the results need no horizontal scrolling', async () => {
    await driver.manage().window().setRect({ width: 390, height: 844, x: 0, y: 0 });
    try {
      await open(RUN_1K);
      expect((await finished()).status).toBe('done');
      await visible('results');
      const { overflow, width } = await driver.executeScript<{ overflow: number; width: number }>('return { overflow: document.documentElement.scrollWidth - window.innerWidth, width: window.innerWidth };');
      // MiniBrowser's window cannot be narrower than its toolbar (447 px here): a large phone's width.
      expect(width).toBeLessThanOrEqual(460);
      expect(overflow).toBeLessThanOrEqual(1);
    } finally {
      await driver.manage().window().setRect({ width: 1280, height: 900, x: 0, y: 0 });
    }
  }, 120_000);
});

/** WebKitGTK processes still alive (zombies aside) that the shared session did not start: a run or a failed start must leave none. */
const running = () =>
  spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m && !m[2]!.startsWith('Z') && /WebKitWebDriver|MiniBrowser|WebKitWebProcess|WebKitNetworkProcess|Xvfb -displayfd/.test(m[3]!))
    .map((m) => Number(m[1]));
const leftovers = async () => {
  for (let i = 0; i < 30; i++) {
    const extra = running().filter((pid) => !webkitPids.has(pid));
    if (extra.length === 0 || i === 29) return extra;
    await new Promise((r) => setTimeout(r, 100));
  }
  return [];
};
const webkitPids = new Set<number>();

describe('the CLI in WebKit', () => {
  beforeAll(() => {
    // The shared session's own processes are not leftovers.
    for (const pid of running()) webkitPids.add(pid);
  });

  it("aeadbench run --browser webkit writes a valid result with the driver's WebKitGTK version, and --submit stores it", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'aeadbench-cli-webkit-')), 'out.json');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'webkit', '--preset', 'quick', '--sizes', '64', '--rounds', '1', '--json', out, '--submit', site.url, '--device-class', 'desktop'], { encoding: 'utf8', timeout: 150_000 });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const checked = validateResult(doc);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    expect(doc.environment.browser).toEqual({ name: 'WebKitGTK', version: webkit.browserVersion });
    expect(doc.environment.engine).toEqual({ name: 'WebKit', version: webkit.browserVersion });
    expect(webkit.browserVersion).toMatch(/^\d+\.\d+/);
    expect(r.stderr).toMatch(/submitted run [0-9a-f-]{36} .* as desktop/);
    expect(r.stderr).toContain(`on WebKitGTK ${webkit.browserVersion}`);
    expect(await leftovers()).toEqual([]);
  }, 180_000);

  it('a display that cannot be opened is a clear error naming the step, within bounded time, leaving nothing running', async () => {
    const t = Date.now();
    await expect(startWebKit({ display: ':97' })).rejects.toThrow('opening display :97: no X server there');
    expect(Date.now() - t).toBeLessThan(45_000);
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('a driver that fails to start is a clear error naming that step, leaving nothing running', async () => {
    const before = process.env.WEBKIT_WEBDRIVER;
    process.env.WEBKIT_WEBDRIVER = '/bin/false';
    try {
      await expect(startWebKit()).rejects.toThrow('starting WebKitWebDriver: it exited with 1');
    } finally {
      if (before === undefined) delete process.env.WEBKIT_WEBDRIVER;
      else process.env.WEBKIT_WEBDRIVER = before;
    }
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('aeadbench run --browser webkit --implementation: the example modules pass the gate and are timed in WebKitGTK', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'aeadbench-cli-webkit-')), 'out.json');
    const examples = ['node-forge-gcm', 'sjcl-gcm', 'asmcrypto-gcm', 'stablelib-chacha20poly1305'];
    const modules = examples.flatMap((d) => ['--implementation', `examples/modules/${d}/index.mjs`]);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'webkit', '--algorithms', 'aes-128-gcm,chacha20-poly1305', '--implementations', 'webcrypto', '--sizes', '64', '--operations', 'encrypt', '--rounds', '1', ...modules, '--json', out], { encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const checked = validateResult(doc);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    expect(doc.modules.map((m: { id: string }) => m.id)).toEqual(examples);
    for (const id of examples) expect(doc.cases.filter((c: { implementation: string }) => c.implementation === id).length, id).toBe(1);
    expect(doc.validation.filter((v: { excluded: boolean }) => v.excluded)).toEqual([]);
  }, 250_000);

  it('a MiniBrowser that is not there names the path tried', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'webkit', '--executable', '/nonexistent/MiniBrowser'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('MiniBrowser not found; tried /nonexistent/MiniBrowser');
    expect(r.stderr).toContain('apt-get install webkit2gtk-driver xvfb');
  }, 60_000);

  it('a page that never becomes ready is an error within its time limit, and the browser is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-not-a-site-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>not aeadbench</title><p>nothing here');
    const t = Date.now();
    await expect(runInBrowser({ browser: 'webkit', search: 'preset=quick', distDir: dir, readyTimeoutMs: 3000 })).rejects.toThrow('the page never became ready (window.aeadbench did not appear within 3 s)');
    expect(Date.now() - t).toBeLessThan(45_000);
    expect(await leftovers()).toEqual([]);
  }, 60_000);
});

describe('WebKit started without its JIT, or without its optimising tiers', () => {
  // JavaScriptCore's own switches, read from the environment of the browser's processes.
  const MODES = [
    { env: { JSC_useJIT: 'false' }, mode: 'wasm-interpreted', says: 'Measured without a JIT' },
    { env: { JSC_useDFGJIT: 'false', JSC_useFTLJIT: 'false' }, mode: 'no-js-optimizer', says: 'Measured without the optimising JavaScript compiler' },
  ] as const;
  for (const m of MODES) {
    it(`${Object.entries(m.env).map(([k, v]) => `${k}=${v}`).join(' ')}: the run completes, records ${m.mode}, and says so first`, async () => {
      const wk = await startWebKit({ env: m.env });
      try {
        await wk.driver.get(`${site.url}/?preset=quick&algorithms=aes-128-gcm&sizes=1k&rounds=1&reruns=0&autorun=1`);
        const s = await until(
          'the run to finish',
          async () => {
            const st = await wk.driver.executeScript<Automation | null>('return window.aeadbench || null;');
            return st && ['done', 'error', 'cancelled'].includes(st.status) ? st : null;
          },
          120_000,
        );
        expect(s.error).toBeNull();
        expect(s.result!.environment.execution?.mode).toBe(m.mode);
        expect(new Set(s.result!.cases.map((c) => c.implementation))).toEqual(new Set(['rustcrypto-wasm', 'webcrypto', 'noble']));
        // The page renders the verdict after the run's last state: without a JIT that can come
        // a moment after the status reads done (CI once found no verdict element yet).
        const verdict = await until(
          'the verdict to show',
          async () => {
            const [el] = await wk.driver.findElements(By.css('[data-testid="verdict"]'));
            const text = el ? await el.getText() : '';
            return text.includes(m.says) ? text : null;
          },
          30_000,
        );
        expect(verdict).toContain(m.says);
      } finally {
        await wk.close();
      }
    }, 180_000);
  }
});
