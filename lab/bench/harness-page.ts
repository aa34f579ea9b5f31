/**
 * The lab's harness page (lab/harness) in a browser, for the benchmarks that hold the engine
 * against loops written apart from it (bench:harness, bench:modules, bench:verdict): its build
 * (target/lab-site/, lab/vite.config.ts) served with COOP/COEP on a free loopback port, the page
 * open and `window.harness` ready.
 */
import type { AddressInfo } from 'node:net';
import { type BrowserName, type BrowserPage, openBrowser } from '../../cli/browser-run.ts';
import { serveStatic } from '../../server/serve.ts';
import type { BareSpec } from '../../lab/harness/bare.worker.ts';

/** Where `vite build --config lab/vite.config.ts` writes the harness page. */
export const LAB_SITE = 'target/lab-site';

export async function openHarness(name: BrowserName, files?: ReadonlyMap<string, Uint8Array>): Promise<BrowserPage> {
  const server = await serveStatic({ dir: LAB_SITE, port: 0, host: '127.0.0.1', files });
  let page: BrowserPage;
  try {
    page = await openBrowser(name);
  } catch (e) {
    server.close();
    throw e;
  }
  const close = page.close.bind(page);
  const opened: BrowserPage = {
    ...page,
    close: async () => {
      await close().catch(() => {});
      server.close();
    },
  };
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  for (let i = 0; i < 100 && !(await page.evaluate(`document.body.dataset.ready === 'true'`)); i++) await new Promise((r) => setTimeout(r, 100));
  return opened;
}

/** The bare loop's own batches (bareLoop without a `shape`): 30 of ≥ 20 ms of work each. */
export function bareBatches(kind: BareSpec['kind'], algorithm: string, sizeBytes: number): { iterations: number; samples: number } {
  const atOneMiB = kind === 'wasm' ? (algorithm === 'aes-128-gcm' ? 3 : 10) : 12;
  return { iterations: Math.max(1, Math.round((atOneMiB * (1 << 20)) / sizeBytes)), samples: 30 };
}

/**
 * A bare loop of one case in a fresh worker of the page (bare.worker.ts): ns per operation of
 * each of 30 batches after 300 ms of warm-up, a batch being the engine's sample shape (≥ 20 ms
 * of work: 3 MiB of WASM AES-GCM, 10 of ChaCha20-Poly1305, 12 of Web Crypto). `shape` times it
 * in other batches instead, `samples` of `iterations` calls, each after `gapMs` of other work
 * (and `settle` untimed calls; `profile` answers each call's place's mean instead).
 */
export function bareLoop(
  page: BrowserPage,
  kind: BareSpec['kind'],
  algorithm: string,
  sizeBytes: number,
  shape?: Pick<BareSpec, 'iterations' | 'samples' | 'gapMs' | 'gapWork' | 'settle' | 'turn' | 'profile'>,
): Promise<number[]> {
  const spec: BareSpec = { kind, algorithm, sizeBytes, ...bareBatches(kind, algorithm, sizeBytes), warmupMs: 300, ...shape };
  return settled(page, `window.harness.bare(${JSON.stringify(spec)})`) as Promise<number[]>;
}

/**
 * Loops measured one after the other, each round `k` starting one further along their order
 * (k = 0: as given), so that none always runs on the warmer or the quieter side: their results,
 * in the order given.
 */
export async function inRotation<T>(k: number, steps: readonly (() => Promise<T>)[]): Promise<T[]> {
  const got: T[] = [];
  for (let j = 0; j < steps.length; j++) {
    const at = (j + k) % steps.length;
    got[at] = await steps[at]!();
  }
  return got;
}

/**
 * The engine's figure between two of a plain loop's (plain, engine, plain): the two plain figures
 * bracket the engine's in time, so a machine that speeds up or slows down steadily over the three
 * moves their mean as it moves the engine, and the second over the first says how far the plain
 * loop moves from itself in the same minute (an A/A check of the reference).
 */
export async function sandwiched<E, P>(engine: () => Promise<E>, plain: () => Promise<P>): Promise<[E, P, P]> {
  const before = await plain();
  const e = await engine();
  return [e, before, await plain()];
}

/**
 * A promise of the page, awaited by polling: an engine run of every module takes longer than
 * WebDriver's 30 s script timeout (WebKitGTK), so the page keeps the outcome and is asked for it.
 */
export async function settled(page: BrowserPage, expression: string): Promise<unknown> {
  await page.evaluate(
    `(window.__bench = { done: false }, (${expression}).then((value) => Object.assign(window.__bench, { done: true, value }), (e) => Object.assign(window.__bench, { done: true, error: String(e) })), true)`,
  );
  for (;;) {
    const r = (await page.evaluate('window.__bench.done ? window.__bench : null')) as { value?: unknown; error?: string } | null;
    if (r) {
      if (r.error) throw new Error(r.error);
      return r.value;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
