/**
 * Serves the built site (dist/) with cross-origin isolation (COOP + COEP) and a CSP without
 * 'unsafe-eval'. Used by `npm start`, the CLI and the end-to-end tests.
 *   tsx server/serve.ts [--port 5173] [--host 127.0.0.1] [--dir dist]
 * @module
 */
import { createReadStream, existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { SERVER_OPTIONS, guardServer, stopOnSignals } from '../collector/http-guard.ts';
import { ISOLATION_HEADERS, contentSecurityPolicy } from './headers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticOptions {
  dir: string;
  /** Extra handler tried first (the embedded collector mounts /api here). */
  api?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  collectorOrigin?: string;
  /** Files served from memory at these paths (the CLI's bundled modules of yours, under /m/). */
  files?: ReadonlyMap<string, Uint8Array>;
}

export function staticHandler(o: StaticOptions) {
  const root = resolve(o.dir);
  let realRoot: string | undefined;
  const security = {
    ...ISOLATION_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(o.collectorOrigin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  const fail = (res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...security }).end(message);
  };
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    if (o.api && (await o.api(req, res))) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return fail(res, 405, `method ${req.method} not allowed`);
    }
    let url: URL;
    let relative: string;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
      relative = decodeURIComponent(url.pathname);
    } catch {
      return fail(res, 400, 'malformed URL');
    }
    if (relative.includes('\0')) return fail(res, 400, 'malformed URL');
    const inMemory = o.files?.get(url.pathname);
    if (inMemory) {
      res.writeHead(200, {
        'Content-Type': TYPES[extname(url.pathname)] ?? 'application/octet-stream',
        'Content-Length': String(inMemory.length),
        'Cache-Control': 'no-cache',
        ...security,
      });
      return void res.end(req.method === 'HEAD' ? undefined : inMemory);
    }
    let path = normalize(join(root, relative));
    // Inside the root means the root itself or below it: a bare prefix match would let
    // `/..%2fdist-private/x` reach a sibling directory whose name starts with the root's.
    const inside = (p: string, r: string) => p === r || p.startsWith(r + sep);
    if (!inside(path, root)) return fail(res, 403, 'forbidden');
    const found = await statOrNull(path);
    if (found?.isDirectory()) path = join(path, 'index.html');
    const file = found?.isDirectory() ? await statOrNull(path) : found;
    if (!file?.isFile()) return fail(res, 404, `not found: ${url.pathname}`);
    // A symlink inside the root may point anywhere: serve a file only where it really is under it.
    const real = await realpath(path).catch(() => null);
    if (real === null || !inside(real, (realRoot ??= await realpath(root)))) return fail(res, 404, `not found: ${url.pathname}`);
    const immutable = url.pathname.startsWith('/assets/');
    const stream = createReadStream(path);
    // A file that vanishes or cannot be read between stat and read ends this response only.
    stream.once('error', () => fail(res, 500, 'read error'));
    res.once('close', () => stream.destroy());
    stream.once('open', () => {
      res.writeHead(200, {
        'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
        'Content-Length': String(file.size),
        'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...security,
      });
      if (req.method === 'HEAD') return void (res.end(), stream.destroy());
      stream.pipe(res);
    });
  };
  // Nothing a request does may take the process (and the embedded collector) down.
  return (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    serve(req, res).catch((e: unknown) => {
      console.error('serve: request failed:', (e as Error)?.message ?? e);
      fail(res, 500, 'internal error');
    });
}

async function statOrNull(path: string) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

export function serveStatic(o: StaticOptions & { port: number; host: string; exempt?: (address: string) => boolean }): Promise<Server> {
  if (!existsSync(join(o.dir, 'index.html'))) throw new Error(`${o.dir}/index.html is missing: build the site first (npx vite build)`);
  const server = guardServer(createServer(SERVER_OPTIONS, staticHandler(o)), { exempt: o.exempt });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host, () => ok(server));
  });
}

/** The embedded collector under /api/ (same origin as the site): PGlite unless DATABASE_URL is set. */
export async function embeddedCollector(): Promise<{ api: NonNullable<StaticOptions['api']>; describe: string; close: () => Promise<void> }> {
  const { getRequestListener } = await import('@hono/node-server');
  const { configFromEnv } = await import('../collector/config.ts');
  const { openCollector } = await import('../collector/server.ts');
  const config = configFromEnv();
  const collector = await openCollector(config);
  const { sql, app } = collector;
  const listener = getRequestListener(app.fetch);
  return {
    api: async (req, res) => {
      if (!req.url?.startsWith('/api/')) return false;
      await listener(req, res);
      return true;
    },
    describe: sql.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)',
    close: () => collector.close(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1]! : fallback;
  };
  const port = Number(arg('port', process.env.PORT ?? '5173'));
  const host = arg('host', '127.0.0.1');
  let collector: Awaited<ReturnType<typeof embeddedCollector>> | null = null;
  let server: Server;
  try {
    collector = process.argv.includes('--no-collector') ? null : await embeddedCollector();
    // Behind a trusted proxy (the embedded collector's COLLECTOR_TRUSTED_PROXIES), the proxy's
    // connections are everyone's: not capped per address.
    const proxies = (await import('../collector/client.ts')).parseTrustedProxies(process.env.COLLECTOR_TRUSTED_PROXIES);
    const trusted = (await import('proxy-addr')).default.compile(proxies);
    server = await serveStatic({ dir: arg('dir', 'dist'), port, host, api: collector?.api, exempt: (address) => trusted(address, 0) });
  } catch (e) {
    // A second `npm start` on the same data, a port in use, a missing build: one clear line.
    console.error(`aeadbench: cannot start: ${(e as Error).message}`);
    await collector?.close().catch(() => {});
    process.exit(1);
  }
  const addr = server.address();
  console.log(
    `aeadbench at http://${host === '127.0.0.1' ? 'localhost' : host}:${typeof addr === 'object' && addr ? addr.port : port}/ (COOP+COEP, Ctrl-C to stop)`,
  );
  console.log(collector ? `collector at /api/v1 (${collector.describe})` : 'no collector (--no-collector): submission and the crowd view are hidden');
  stopOnSignals(async () => {
    server.close();
    await collector?.close();
  });
}
