/**
 * What a visitor can do on the site, each written once against the driver port (driver/port.ts)
 * and run by both drivers: Playwright's specs in Chromium and Firefox (behaviours.spec.ts) and
 * the WebKit suite over WebDriver (webkit/webkit.test.ts). Assertions take the runner's own
 * `expect` (Playwright's or vitest's), through the few matchers both share.
 * @module
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateResult } from '../web/core/schema.ts';
import { QUICK_ALGORITHM_IDS, implementationsOffering } from '../web/core/tables/algorithms.ts';
import { pairedRatio } from '../web/core/stats.ts';
import { type Driver, finished, showAllRows, textMatching, until } from './driver/port.ts';
import { LONG_QUICK, NEWER_AEADS_RUN, axeProblems, countProblems, newerAeadProblems, validationProblems } from './expectations.ts';

interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatch(expected: RegExp | string): void;
  toContain(expected: unknown): void;
  toBeGreaterThan(n: number): void;
  toBeGreaterThanOrEqual(n: number): void;
  toBeLessThan(n: number): void;
  toBeLessThanOrEqual(n: number): void;
  toHaveLength(n: number): void;
  toBeNull(): void;
  toBeUndefined(): void;
}
/** The matchers Playwright's `expect` and vitest's share, for values already in hand. */
export type Expect = (actual: unknown, message?: string) => Matchers;

export interface Behaviour {
  name: string;
  /** The longest it may take on a busy two-core host (each runner applies it). */
  timeoutMs: number;
  /** What the driver must offer beyond the port's required methods; a runner without it skips, saying why. */
  needs?: 'colorScheme';
  /** Engines whose runner skips it, each with why (a check that reads no engine's own behaviour runs in fewer of them). */
  skipIn?: Partial<Record<'chromium' | 'firefox' | 'webkit', string>>;
  run(d: Driver, expect: Expect): Promise<void>;
}

/** A small quick run: enough cases to prove every path, short enough for CI. */
export const SMALL_RUN = '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&autorun=1';
/** The default algorithms and implementations at one size: every variant a default run reports must be one the collector accepts. */
export const RUN_1K = '/?preset=quick&sizes=1k&rounds=1&reruns=0&autorun=1';

/** The engine each driver's browser runs, as results name it. */
const ENGINE_OF = { chromium: 'Blink', firefox: 'Gecko', webkit: 'WebKit' } as const;
const rows = (testId: string) => `[data-testid="${testId}"] tbody tr`;
/** An element's top edge in the page. */
const top = (d: Driver, testId: string) => d.script<number>(`return document.querySelector('[data-testid="${testId}"]').getBoundingClientRect().top;`);

/** Every view of the site, with what "ready" means on each: the accessibility and phone behaviours walk this list. */
export const VIEWS: [name: string, path: string, ready: (d: Driver) => Promise<unknown>][] = [
  ['run form', '/', (d) => d.visible('start')],
  [
    'results of a run',
    '/?preset=quick&sizes=64,16k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1',
    async (d) => {
      await finished(d);
      await d.visible('results-table');
      // Open every disclosure (data tables, memory and code, validation): they are part of the view.
      await d.clickAll('details > summary:first-of-type');
    },
  ],
  ['studies', '/#/scenarios', (d) => d.visible('scenario-list')],
  ['a study with tables', '/#/scenario/aead-vs-etm', (d) => d.visible('citation')],
  ['a study with its demo', '/#/scenario/lightweight-iot', (d) => d.visible('citation')],
  ['crowd', '/#/crowd', (d) => d.visible('nav-crowd')],
  ['compare', '/#/compare', (d) => d.visible('compare-file-a')],
];

export const BEHAVIOURS: Behaviour[] = [
  {
    name: 'a quick run completes, its result validates against the schema, and every implementation passes its Wycheproof vectors with WASM and Web Crypto AES-GCM agreeing byte for byte',
    timeoutMs: 180_000,
    async run(d, expect) {
      await d.open(SMALL_RUN);
      const state = await finished(d);
      expect(state.error).toBeNull();
      expect(state.status).toBe('done');
      const checked = validateResult(state.result);
      expect(checked.ok ? [] : checked.issues).toEqual([]);
      const doc = state.result!;
      expect(doc.schema).toBe('aeadbench/result@2');
      expect(doc.environment.crossOriginIsolated).toBe(true);
      expect(doc.environment.timerResolutionMs).toBeLessThanOrEqual(0.025); // 5 µs Chromium, 20 µs Firefox and WebKit
      expect(doc.environment.engine?.name).toBe(ENGINE_OF[d.engine]);
      if (d.engine === 'webkit') expect(doc.environment.browser.name).toBe('WebKitGTK'); // not "Safari 60.5"
      // Every built-in a browser runs that offers one of the quick preset's algorithms (their folders' meta.ts).
      expect(new Set(doc.cases.map((c) => c.implementation))).toEqual(new Set(implementationsOffering(QUICK_ALGORITHM_IDS, 'browser')));
      // A browser as shipped runs WebAssembly and its optimising JIT: the standard execution mode.
      expect(doc.environment.execution?.mode, JSON.stringify(doc.environment.execution)).toBe('standard');
      // Exact counts: every WASM case counted, and every count the same as Node's for the same case.
      expect(await countProblems(doc)).toEqual([]);
      await d.visible('results-table'); // the results view loads on demand
      expect(await d.attribute('execution', 'data-mode')).toBe('standard');
      // Who wins at each size, at a glance, with the same figures as a table: one entry per size run.
      await d.visible('winners');
      expect(await d.script<number>(`return document.querySelectorAll('[data-testid="winners-table"] tbody tr').length;`)).toBe(2);
      // The table shows the counts beside the times: a figure for WASM cases, JS for JavaScript and Web Crypto.
      const cells = await d.script<string[]>(`return [...document.querySelectorAll('[data-testid="ops"]')].map((td) => td.textContent.trim());`);
      expect(cells.some((t) => /^\d+\.\d{1,2}$/.test(t))).toBe(true);
      expect(cells.some((t) => t === 'JS')).toBe(true);
      for (const c of doc.cases) {
        expect(c.samples.length).toBeGreaterThanOrEqual(5);
        // result@2: every flag with its reasons, none without a flag.
        expect(c.unstable).toBe((c.unstableReasons ?? []).length > 0);
        // Compared cases were sampled interleaved: every sample has its cycle.
        expect(c.cycles).toHaveLength(c.samples.length);
      }
      // Cases of one size and operation share their cycles, so their paired ratio exists.
      const [a, b] = doc.cases.filter((c) => c.sizeBytes === 64 && c.operation === 'encrypt');
      expect(pairedRatio(a!, b!)?.n).toBeGreaterThanOrEqual(5);
      // The interference monitor's record, and the sentence it gives.
      expect(doc.interference!.probeMs.length).toBeGreaterThan(0);
      expect(doc.interference!.cycles).toHaveLength(doc.interference!.probeMs.length);
      expect(await d.text('interference')).toContain('of its best speed');
      // A short page: the fastest rows first, every case one click away.
      expect(await d.count(rows('results-table'))).toBe(Math.min(30, doc.cases.length));
      await showAllRows(d);
      expect(await d.count(rows('results-table'))).toBe(doc.cases.length);
      // The verdict comes first, in plain words, from the same document.
      expect(await d.text('verdict')).toMatch(/(Fastest|Tie) for small messages/);
      expect(await d.text('verdict')).toContain('Web Crypto');
      expect(await top(d, 'verdict')).toBeLessThan(await top(d, 'results-table'));
      // Memory and code per algorithm of the run, the code measured at build time.
      await d.clickAll('[data-testid="footprint"] > summary');
      expect(await d.count(rows('footprint'))).toBe(new Set(doc.cases.map((c) => c.algorithm)).size);
      expect(await d.text('footprint')).toContain('KiB');
      // Validation, in the real browser.
      expect(validationProblems(state.validation)).toEqual([]);
      // Web Crypto's ChaCha20-Poly1305 exists in Chromium only.
      expect(state.validation.some((v) => v.algorithm === 'chacha20-poly1305' && v.implementation === 'webcrypto')).toBe(d.engine === 'chromium');
      await d.clickAll('[data-testid="validation"] > summary');
      expect(await d.text('validation')).toContain('passed their Wycheproof vectors');
    },
  },
  {
    name: 'the newer AEADs validate in every implementation that offers them, and are timed',
    timeoutMs: 180_000,
    async run(d, expect) {
      await d.open(NEWER_AEADS_RUN);
      const state = await finished(d);
      expect(state.status).toBe('done');
      expect(newerAeadProblems(state.validation, state.result!)).toEqual([]);
    },
  },
  {
    name: 'cancel stops the run and keeps what finished',
    timeoutMs: 120_000,
    async run(d, expect) {
      await d.open(`/?${LONG_QUICK}&autorun=1`);
      await until('three cases done', async () => ((await d.state())?.progress?.done ?? 0) >= 3, 90_000);
      // Live results: finished cases are in the table and the charts while the run goes on.
      await d.visible('live', 15_000);
      expect(await d.count(rows('results-table'))).toBeGreaterThanOrEqual(1);
      expect(await d.count('[data-testid="results"] svg')).toBeGreaterThan(0);
      expect(await d.count('[data-testid="export-json"]')).toBe(0); // nothing to export until it ends
      expect((await d.state())?.status).toBe('running');
      await d.click('cancel');
      const state = await finished(d, 15_000);
      expect(state.status).toBe('cancelled');
      expect(state.result?.status).toBe('cancelled');
      await d.visible('cancelled');
      expect(await d.count('[data-testid="progress"]')).toBe(0);
      // The form is usable again.
      expect(await d.enabled('start')).toBe(true);
    },
  },
  {
    name: 'a bad URL parameter shows an error naming it',
    timeoutMs: 30_000,
    async run(d, expect) {
      await d.open('/?sizes=64,abc&autorun=1');
      expect(await textMatching(d, 'param-error', 'Invalid')).toContain("Invalid sizes param: '64,abc'");
      const state = await d.state();
      expect(state?.status).toBe('error');
      expect(state?.result).toBeNull();
    },
  },
  {
    name: 'run → review the exact payload → submit → its permalink, the crowd per device class and per engine, and compare',
    timeoutMs: 240_000,
    async run(d, expect) {
      await d.open(RUN_1K);
      const state = await finished(d);
      expect(state.status).toBe('done');
      await d.visible('submit-panel');
      // The collector refuses an environment that does not hang together: this Linux desktop is no phone.
      await d.click('class-phone');
      await d.click('send');
      expect(await textMatching(d, 'send-error', 'phone')).toContain('a phone does not run Linux');
      await d.click('class-desktop');
      await d.click('review');
      await d.visible('payload');
      const payload = JSON.parse(await d.textContent('payload'));
      expect(payload.deviceClass).toBe('desktop');
      expect(payload.deviceModel).toBeUndefined(); // not ticked, not sent
      expect(payload.result.runId).toBe(state.result!.runId);
      expect(payload.result.environment.userAgent).toBe('');
      // The major version only; MiniBrowser's user agent names none, and none is sent.
      expect(payload.result.environment.browser.version).toMatch(/^\d*$/);
      expect(payload.result.environment.engine.name).toBe(ENGINE_OF[d.engine]);
      expect(payload.result.cases).toHaveLength(state.result!.cases.length);
      await d.click('send');
      await d.visible('sent');
      const link = (await d.attribute('permalink-link', 'href'))!;
      expect(link).toContain(`#/result/${state.result!.runId}`);
      const exported = JSON.stringify((await d.state())!.result);

      // The crowd: a desktop row, then per engine this browser's engine.
      await d.click('nav-crowd');
      await d.visible('crowd-table');
      // One voice is below the floor of evidence: the desktop row counts it and draws nothing.
      expect(await textMatching(d, 'crowd-table', 'desktop')).toMatch(/desktop\s*1\s*too few results yet/);
      // Its standing is a request of its own, answered after the table: wait for its words.
      expect(await textMatching(d, 'you-vs-crowd', 'Too few results')).toContain('Too few results from desktops yet (1)');
      expect(await d.count('[data-testid="crowd"] svg rect')).toBe(0);
      await d.select('[data-testid="crowd"] select[aria-label="Group by"]', 'engine');
      await textMatching(d, 'crowd-table', ENGINE_OF[d.engine]);
      await d.select('[data-testid="crowd"] select[aria-label="Group by"]', 'deviceClass');
      // A case nobody has measured shows the empty state.
      await d.select('[data-testid="crowd"] select[aria-label="Payload size"]', String(64 * 1024 * 1024));
      await d.visible('crowd-empty');

      // The next run of the same cases is placed among desktops right under its verdict.
      await d.open(RUN_1K);
      await finished(d);
      // Two runs of one network on one day are one voice, below the floor: no standing, no strip.
      expect(await textMatching(d, 'standing', 'Among desktops')).toMatch(/too few desktop results yet \(1; a standing needs 10 networks on 2 days\)/);
      expect(await d.count('[data-testid="standing"] svg circle')).toBe(0);

      // Compare: the exported document against itself, through the file inputs.
      const file = join(mkdtempSync(join(tmpdir(), 'aeadbench-e2e-compare-')), 'a.json');
      writeFileSync(file, exported);
      await d.open('/#/compare');
      await d.visible('compare-file-a');
      await d.setFile('compare-file-a', file);
      await d.setFile('compare-file-b', file);
      expect(await textMatching(d, 'compare-summary', 'cases compared')).toContain(`${JSON.parse(exported).cases.length} cases compared`);

      // Its permalink opens it read-only, in a page that shares nothing with this one.
      await d.openAfresh(link);
      expect(await textMatching(d, 'permalink-note', 'received on')).toContain('desktop result received on');
      // Its footer states what was kept: the WASM builds its cases ran on, and no run time (it was not kept).
      const footer = await d.text('environment');
      expect(footer).toContain(`${state.result!.cases.length} cases (run time not kept)`);
      expect(/in 0\.0 s|simd128 no/.test(footer)).toBe(false);
      const builds = [...new Set(state.result!.cases.filter((c) => c.implementation === 'rustcrypto-wasm').map((c) => c.variant))];
      if (builds.length) expect(footer).toContain(`WASM build ${builds.join(', ')}`);
      await d.visible('results-table');
      await showAllRows(d);
      expect(await d.count(rows('results-table'))).toBe(state.result!.cases.length);
      expect(await d.text('verdict')).toMatch(/(Fastest|Tie) for/);
      // The headline leads it: one sentence of choices, no ratio or interval in it.
      const lead = await d.text('headline');
      expect(lead).toContain('Fastest on this device:');
      expect(/×|\[|ahead of/.test(lead)).toBe(false);
      expect(await d.count('[data-testid="submit-panel"]')).toBe(0); // read-only: nothing to send
      await d.openAfresh(link.replace(/#\/result\/.*/, '#/result/not-a-uuid'));
      expect(await textMatching(d, 'permalink-error', 'not-a-uuid')).toContain("'not-a-uuid' is not a result id");
    },
  },
  {
    name: 'the lightweight-iot study seals the unlock token and rejects a one-bit change',
    timeoutMs: 60_000,
    async run(d, expect) {
      await d.open('/#/scenario/lightweight-iot');
      await d.visible('unlock-run');
      await d.click('unlock-run');
      expect(await textMatching(d, 'unlock-opened', 'UNLOCK')).toMatch(/^UNLOCK:BIKE-0042:\d+$/);
      expect(await d.text('unlock-tampered')).toBe('rejected: authentication failed');
    },
  },
  {
    name: 'at a phone width the results render without horizontal scrolling',
    timeoutMs: 120_000,
    async run(d, expect) {
      await d.resize(390, 844);
      await d.open('/?preset=quick&sizes=1k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&autorun=1');
      expect((await finished(d)).status).toBe('done');
      await d.visible('results');
      expect(await d.count('[data-testid="results"] svg')).toBeGreaterThan(0);
      const { overflow, width } = await d.script<{ overflow: number; width: number }>(
        'return { overflow: document.documentElement.scrollWidth - window.innerWidth, width: window.innerWidth };',
      );
      // MiniBrowser's window cannot be narrower than its toolbar (447 px): a large phone's width.
      expect(width).toBeLessThanOrEqual(460);
      expect(overflow).toBeLessThanOrEqual(1);
    },
  },
  ...(['light', 'dark'] as const).flatMap((scheme) =>
    VIEWS.map(([view, path, ready]): Behaviour => ({
      name: `axe: no serious or critical violation on ${view} (${scheme})`,
      timeoutMs: 180_000,
      needs: scheme === 'dark' ? 'colorScheme' : undefined,
      // axe reads the markup and the computed colours, which the same CSS gives alike in every
      // engine: Chromium checks both schemes, WebKit the light one (it cannot emulate the dark).
      // In Firefox the fourteen scans were 3.7 of npm test's worker-minutes on a 2.5 GHz host.
      skipIn: { firefox: 'axe is run in Chromium (both schemes) and WebKit (light): it reads markup and computed colours, alike in every engine' },
      async run(d, expect) {
        await d.colorScheme?.(scheme);
        await d.open(path);
        await ready(d);
        expect(axeProblems(await d.axe())).toEqual([]);
      },
    })),
  ),
];
