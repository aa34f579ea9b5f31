// The site on a plain static host: no COOP/COEP headers, no collector, and here service workers
// blocked too (as a browser policy or an extension can block them). It must load without an
// uncaught error, say it is not isolated, and say the crowd is unavailable instead of showing
// another page.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { expect, test } from './fixtures.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};
let server: Server;
let url = '';

test.beforeAll(async () => {
  // dist/ as a static host serves it: files only, no headers of ours, 404 for /api.
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join('dist', path.endsWith('/') ? `${path}index.html` : path));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('with service workers blocked and no collector, the page loads without an uncaught error and says the crowd is unavailable', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/`);
  await expect(page.getByTestId('start')).toBeEnabled();
  // The registration settles after load: give it the time a visitor would.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  expect(errors).toEqual([]);
  expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(false);
  await expect(page.getByTestId('nav-crowd')).toHaveCount(0);
  await page.goto(`${url}/#/crowd`);
  await expect(page.getByTestId('crowd-unavailable')).toContainText('No collector answers on this host');
  await expect(page.getByTestId('settings')).toHaveCount(0); // not the Run page in its place
  expect(errors).toEqual([]);
  await context.close();
});
