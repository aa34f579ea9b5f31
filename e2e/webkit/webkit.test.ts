// End to end in WebKit — the engine of every iPhone and iPad — through WebKitGTK's MiniBrowser
// and WebKitWebDriver (cli/webkit.ts): Playwright cannot drive WebKitGTK. The site's behaviours
// are the list Playwright runs in Chromium and Firefox (e2e/behaviours.ts), here through the
// WebDriver side of the driver port, against the built site with its embedded collector; then
// what only WebKit has (the CLI's WebKit path, JIT-less modes). Runs after `vite build`
// (scripts/test), counted in the closing summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInBrowser } from '../../cli/browser-run.ts';
import { type WebKitSession, startWebKit } from '../../cli/webkit.ts';
import { type Proc, startNode } from '../../collector/harness/spawn.ts';
import { validateResult } from '../../web/core/schema.ts';
import { implementationsOffering } from '../../web/core/tables/algorithms.ts';
import { BEHAVIOURS, type Expect } from '../behaviours.ts';
import { finished, textMatching } from '../driver/port.ts';
import { webdriverDriver } from '../driver/webdriver.ts';

const WINDOW = { width: 1280, height: 900 };
let site: Proc;
let webkit: WebKitSession;

beforeAll(async () => {
  site = await startNode(
    'server/serve.ts',
    // npm test serves a copy (AEADBENCH_SITE_DIR): the benchmarks' smoke runs beside this suite build dist/ again.
    ['--dir', process.env.AEADBENCH_SITE_DIR ?? 'dist'],
    { COLLECTOR_DATA: mkdtempSync(join(tmpdir(), 'aeadbench-webkit-collector-')), COLLECTOR_EXPORT_MIN_AGE_S: '0' },
    { readyPath: '/' },
  );
  webkit = await startWebKit({ windowSize: WINDOW });
}, 90_000);
afterAll(async () => {
  await webkit?.close();
  await site?.kill();
});

describe('in WebKit', () => {
  // One MiniBrowser window for every behaviour: each starts from the window's usual size.
  afterEach(
    async () =>
      void (await webkit.driver
        .manage()
        .window()
        .setRect({ ...WINDOW, x: 0, y: 0 })),
  );
  for (const b of BEHAVIOURS) {
    if (b.needs === 'colorScheme') it.skip(`${b.name} — WebDriver cannot emulate a colour scheme`, () => {});
    else if (b.skipIn?.webkit) it.skip(`${b.name} — ${b.skipIn.webkit}`, () => {});
    else it(b.name, () => b.run(webdriverDriver(webkit.driver, site.url), expect as unknown as Expect), b.timeoutMs);
  }
});

/** WebKitGTK processes still alive (zombies aside) that the shared session did not start: a run or a failed start must leave none. */
const running = () =>
  spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter(
      (m): m is RegExpExecArray =>
        !!m && !m[2]!.startsWith('Z') && /WebKitWebDriver|MiniBrowser|WebKitWebProcess|WebKitNetworkProcess|Xvfb -displayfd/.test(m[3]!),
    )
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
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/main.ts',
        'run',
        '--browser',
        'webkit',
        '--preset',
        'quick',
        '--sizes',
        '64',
        '--rounds',
        '1',
        '--json',
        out,
        '--submit',
        site.url,
        '--device-class',
        'desktop',
      ],
      { encoding: 'utf8', timeout: 150_000 },
    );
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
    // Bounded by this test's own timeout: a step that hung would fail it, not be waited for.
    await expect(startWebKit({ display: ':97' })).rejects.toThrow('opening display :97: no X server there');
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

  it('aeadbench run --browser webkit --implementation: the example modules pass the gate and are timed in WebKitGTK, each in a worker of its own', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'aeadbench-cli-webkit-')), 'out.json');
    const examples = ['node-forge-gcm', 'sjcl-gcm', 'asmcrypto-gcm', 'stablelib-chacha20poly1305'];
    const modules = examples.flatMap((d) => ['--implementation', `examples/modules/${d}/index.mjs`]);
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/main.ts',
        'run',
        '--browser',
        'webkit',
        '--algorithms',
        'aes-128-gcm,chacha20-poly1305',
        '--implementations',
        'webcrypto',
        '--sizes',
        '64',
        '--operations',
        'encrypt',
        '--rounds',
        '1',
        ...modules,
        '--json',
        out,
      ],
      { encoding: 'utf8', timeout: 240_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const checked = validateResult(doc);
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    expect(doc.modules.map((m: { id: string }) => m.id)).toEqual(examples);
    for (const id of examples) expect(doc.cases.filter((c: { implementation: string }) => c.implementation === id).length, id).toBe(1);
    expect(doc.validation.filter((v: { excluded: boolean }) => v.excluded)).toEqual([]);
    // Each module's worker started from the measuring one (worker/apart.ts); one that cannot says so in the warnings.
    expect(doc.warnings.filter((w: string) => /own thread did not start/.test(w))).toEqual([]);
  }, 250_000);

  it('a MiniBrowser that is not there names the path tried', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'webkit', '--executable', '/nonexistent/MiniBrowser'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('MiniBrowser not found; tried /nonexistent/MiniBrowser');
    expect(r.stderr).toContain('apt-get install webkit2gtk-driver xvfb');
  }, 60_000);

  it('a page that never becomes ready is an error within its time limit, and the browser is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-not-a-site-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>not aeadbench</title><p>nothing here');
    // The error names its limit; this test's own timeout bounds how long it may take.
    await expect(runInBrowser({ browser: 'webkit', search: 'preset=quick', distDir: dir, readyTimeoutMs: 3000 })).rejects.toThrow(
      'the page never became ready (window.aeadbench did not appear within 3 s)',
    );
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
    it(`${Object.entries(m.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}: the run completes, records ${m.mode}, and says so first`, async () => {
      const wk = await startWebKit({ env: m.env });
      try {
        const d = webdriverDriver(wk.driver, site.url);
        await d.open('/?preset=quick&algorithms=aes-128-gcm&sizes=1k&rounds=1&reruns=0&autorun=1');
        const s = await finished(d, 120_000);
        expect(s.error).toBeNull();
        // On failure, the probe's overlaps and steps say why (CI once read this interpreter compiled).
        expect(s.result!.environment.execution?.mode, JSON.stringify(s.result!.environment.execution)).toBe(m.mode);
        expect(new Set(s.result!.cases.map((c) => c.implementation))).toEqual(new Set(implementationsOffering(['aes-128-gcm'], 'browser')));
        // The page renders the verdict after the run's last state: without a JIT that can come
        // a moment after the status reads done (CI once found no verdict element yet).
        expect(await textMatching(d, 'verdict', m.says, 30_000)).toContain(m.says);
      } finally {
        await wk.close();
      }
    }, 180_000);
  }
});
