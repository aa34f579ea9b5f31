/**
 * `aeadbench/playwright`: the benchmark inside your own Playwright tests. Give it a `Page` from
 * your Playwright (any version that has `page.goto` and `page.evaluate`; Chromium and Firefox,
 * and WebKit where your Playwright has one) and options; it serves the benchmark's site with
 * COOP/COEP on a loopback port, runs it in that page, and resolves with the typed result
 * document. For A/B, `compareInPage` times two modules of yours in that one page and
 * `assertNoRegression` fails a test on SLOWER by the same rule the CLI exits 1 on.
 *
 * @example
 * import { test } from '@playwright/test';
 * import { assertNoRegression, compareInPage, runBenchmarkInPage } from 'aeadbench/playwright';
 *
 * test('our AEAD is no slower than on main', async ({ page }) => {
 *   const r = await compareInPage(page, { base: 'baseline/my-aead.mjs', head: 'src/my-aead.mjs', margin: 0.05 });
 *   assertNoRegression(r);
 * });
 * @module
 */
import { type Comparison, compareExitCode, compareInRun, compareTable } from '../web/core/report/compare.ts';
import { DEFAULT_MARGIN } from '../web/core/decision.ts';
import { type RunOptions, resolveParams } from '../web/core/options.ts';
import { toSearch } from '../web/core/params.ts';
import type { ResultDocument } from '../web/core/schema.ts';
import { AB_IDS, bundleAs, refusedIn } from './ab.ts';
import { runOnPage } from './browser-run.ts';
import { bundleModule } from './modules.ts';

/** What this entry needs of a Playwright `Page` (so it works with the Playwright you have). */
export interface PageLike {
  goto(url: string): Promise<unknown>;
  evaluate<T>(expression: string): Promise<T>;
}

export interface PageRunOptions extends Omit<
  RunOptions,
  'implementations' | 'signal' | 'onValidation' | 'onCase' | 'onPartial' | 'onWarning' | 'gateTimeoutMs'
> {
  /** Built-in ids (default: the preset's). */
  implementations?: RunOptions['implementations'];
  /** Files of modules of yours (paths), bundled and timed beside the built-ins. */
  modules?: readonly string[];
  /** How long the whole run may take (default one hour). */
  timeoutMs?: number;
}

/** Thrown when the page cannot give trustworthy timings, saying why. */
export class PageError extends Error {}

async function run(
  page: PageLike,
  search: string,
  files: ReadonlyMap<string, Uint8Array>,
  o: Pick<PageRunOptions, 'onProgress' | 'timeoutMs'>,
): Promise<ResultDocument> {
  const doc = await runOnPage(
    { goto: async (url) => void (await page.goto(url)), evaluate: (e) => page.evaluate(e) },
    { search, files, onProgress: o.onProgress, timeoutMs: o.timeoutMs },
  );
  // The site is served with COOP/COEP; a page that is still not isolated has coarse timers.
  if (!doc.environment.crossOriginIsolated) {
    throw new PageError(
      `the page is not cross-origin isolated (timer ${(doc.environment.timerResolutionMs * 1000).toFixed(0)} µs): its browser ignored the COOP/COEP headers the site was served with, so its figures would be coarse`,
    );
  }
  return doc;
}

/** Runs the benchmark in your page and resolves with the result document (validated by the page's own engine). */
export async function runBenchmarkInPage(page: PageLike, options: PageRunOptions = {}): Promise<ResultDocument> {
  const { modules = [], timeoutMs, onProgress, ...rest } = options;
  const params = resolveParams(rest as RunOptions);
  const bundles = await Promise.all(modules.map((p) => bundleModule(p, 'browser')));
  const search = toSearch(params) + (bundles.length ? `&module=${bundles.map((b) => b.urlPath).join(',')}` : '');
  return run(page, search, new Map(bundles.map((b) => [b.urlPath, b.bytes])), { onProgress, timeoutMs });
}

export interface PageCompareOptions extends Pick<PageRunOptions, 'algorithms' | 'sizes' | 'operations' | 'onProgress' | 'timeoutMs'> {
  /** The module file measured as the base (A). */
  base: string;
  /** The module file measured as the head (B). */
  head: string;
  /** Equivalence margin as a fraction (default 0.03). */
  margin?: number;
  /** How long the stop rule may keep measuring undecided comparisons, in seconds (default 60). */
  budgetSeconds?: number;
}

/** A/B in your page: both modules gated, then interleaved until each comparison is decided or the budget is spent. */
export async function compareInPage(page: PageLike, o: PageCompareOptions): Promise<Comparison & { document: ResultDocument }> {
  const margin = o.margin ?? DEFAULT_MARGIN;
  // The same re-export the CLI makes: each module under the run's id, whatever id it declares.
  const [base, head] = await Promise.all([bundleAs(o.base, AB_IDS.base, 'browser'), bundleAs(o.head, AB_IDS.head, 'browser')]);
  const params = resolveParams({
    preset: 'quick',
    ...(o.algorithms ? { algorithms: o.algorithms } : {}),
    ...(o.sizes ? { sizes: o.sizes } : {}),
    ...(o.operations ? { operations: o.operations } : {}),
    ab: { base: AB_IDS.base, head: AB_IDS.head, margin },
    budgetMs: Math.round((o.budgetSeconds ?? 60) * 1000),
    maxReruns: 50,
  } as RunOptions);
  const search = `${toSearch(params)}&module=${base.urlPath},${head.urlPath}`;
  const document = await run(page, search, new Map([base, head].map((b) => [b.urlPath, b.bytes])), o);
  const refused = refusedIn(document);
  if (refused.length) throw new PageError(`a module failed the gate, nothing was compared: ${refused.join('; ')}`);
  return { ...compareInRun(document, { margin }), document };
}

/**
 * Fails (throws, with the table) when any case is SLOWER beyond the margin: the rule
 * `aeadbench compare` exits 1 on. With `strict`, an UNKNOWN fails too (the CLI's exit 2).
 */
export function assertNoRegression(r: Comparison, o: { strict?: boolean } = {}): void {
  const code = compareExitCode(r);
  if (code === 3) throw new Error('nothing was compared: no case of the head has a base case beside it');
  if (code === 1 || (o.strict && code === 2)) throw new Error(`${code === 1 ? 'a regression' : 'an undecided comparison'}:\n${compareTable(r)}`);
}
