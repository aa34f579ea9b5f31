// A module of yours on the site: the page gates it in a worker, times it beside the built-ins and
// shows its label and hash; a link can name only a module on the site's own origin.
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { bundleModule } from '../cli/modules.ts';
import { serveStatic } from '../server/serve.ts';
import { expect, finished, test } from './fixtures.ts';

test('a module served beside the site is gated, timed in a worker of its own through its own copy of the timing loops, and shown with its label and hash', async ({
  page,
  browserName,
}) => {
  test.skip(browserName === 'webkit', 'WebKit runs modules through the CLI in its own suite');
  const bundle = await bundleModule('examples/modules/stablelib-chacha20poly1305/index.mjs', 'browser');
  const server = await serveStatic({ dir: 'dist', port: 0, host: '127.0.0.1', files: new Map([[bundle.urlPath, bundle.bytes]]) });
  const asked: string[] = [];
  server.on('request', (req: { url?: string }) => asked.push(req.url ?? ''));
  try {
    const { port } = server.address() as AddressInfo;
    await page.goto(
      `http://127.0.0.1:${port}/?preset=quick&algorithms=chacha20-poly1305&implementations=rustcrypto-wasm&sizes=64&operations=encrypt&rounds=1&reruns=0&module=${bundle.urlPath}&apart=1&autorun=1`,
    );
    const a = await finished(page);
    expect(a.status, a.error ?? '').toBe('done');
    const sha = createHash('sha256').update(bundle.bytes).digest('hex');
    expect(a.result!.modules).toEqual([expect.objectContaining({ id: 'stablelib-chacha20poly1305', sha256: sha })]);
    expect(a.result!.cases.filter((c) => c.implementation === 'stablelib-chacha20poly1305').length).toBe(1);
    // apart=1: the measuring worker started the module's own (worker/apart.ts); one that cannot says so here.
    expect(a.result!.warnings.filter((w) => /own thread did not start/.test(w))).toEqual([]);
    await expect(page.getByTestId('modules')).toContainText('@stablelib/chacha20poly1305 2.0.1');
    await expect(page.getByTestId('modules')).toContainText(sha.slice(0, 12));
    // contract.ts loads loop.js afresh for the module's code path: an asset of its own under the
    // site's CSP (never a data: URL it refuses), fetched with the query that makes it a new instance.
    expect(asked.filter((u) => /^\/assets\/loop-[\w-]+\.js\?loop=\d+$/.test(u))).not.toEqual([]);
  } finally {
    server.close();
  }
});

test('a link cannot make the site load a module from another origin', async ({ page, browserName }) => {
  test.skip(browserName !== 'chromium', 'a parameter check, once');
  await page.goto('/?module=https://example.com/evil.mjs&autorun=1');
  await page.waitForFunction(() => window.aeadbench?.status === 'error');
  expect(await page.evaluate(() => window.aeadbench!.error)).toContain("Invalid module param: 'https://example.com/evil.mjs' (expected a path on this site");
});

test("no chunk of the site imports a worker's own script: WebKit evaluates it a second time, a second RPC server without the run's backends", ({
  browserName,
}) => {
  test.skip(browserName !== 'chromium', 'a check of the built files, once');
  const files = readdirSync('dist/assets').filter((f) => f.endsWith('.js'));
  const workers = files.filter((f) => /\.worker-[\w-]+\.js$/.test(f));
  expect(workers.length).toBeGreaterThan(0);
  const importers = files.flatMap((f) => {
    const text = readFileSync(`dist/assets/${f}`, 'utf8');
    return workers
      .filter((w) => w !== f && new RegExp(`(?:from|import)\\s*\\(?\\s*["'\`]\\./${w.replace(/[.-]/g, '\\$&')}["'\`]`).test(text))
      .map((w) => `${f} imports ${w}`);
  });
  expect(importers).toEqual([]);
});
