/**
 * Serves the built site (dist/) with cross-origin isolation (COOP + COEP) and a CSP without
 * 'unsafe-eval'. Used by `npm start`, the CLI and the end-to-end tests.
 *   tsx scripts/serve.ts [--port 5173] [--host 127.0.0.1] [--dir dist]
 * @module
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
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
}

export function staticHandler(o: StaticOptions) {
  const root = resolve(o.dir);
  const security = {
    ...ISOLATION_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(o.collectorOrigin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (o.api && (await o.api(req, res))) return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(root)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain', ...security }).end(`not found: ${url.pathname}`);
      return;
    }
    const immutable = url.pathname.startsWith('/assets/');
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...security,
    });
    createReadStream(path).pipe(res);
  };
}

export function serveStatic(o: StaticOptions & { port: number; host: string }): Promise<Server> {
  if (!existsSync(join(o.dir, 'index.html'))) throw new Error(`${o.dir}/index.html is missing: build the site first (npx vite build)`);
  const server = createServer(staticHandler(o));
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host, () => ok(server));
  });
}

/** The embedded collector under /api/ (same origin as the site): PGlite unless DATABASE_URL is set. */
export async function embeddedCollector(): Promise<{ api: NonNullable<StaticOptions['api']>; describe: string; close: () => Promise<void> }> {
  const { getRequestListener } = await import('@hono/node-server');
  const { configFromEnv, openCollector } = await import('../collector/server.ts');
  const config = configFromEnv();
  const { sql, app } = await openCollector(config);
  const listener = getRequestListener(app.fetch);
  return {
    api: async (req, res) => {
      if (!req.url?.startsWith('/api/')) return false;
      await listener(req, res);
      return true;
    },
    describe: sql.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)',
    close: () => sql.close(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1]! : fallback;
  };
  const port = Number(arg('port', process.env.PORT ?? '5173'));
  const host = arg('host', '127.0.0.1');
  const collector = process.argv.includes('--no-collector') ? null : await embeddedCollector();
  const server = await serveStatic({ dir: arg('dir', 'dist'), port, host, api: collector?.api });
  const addr = server.address();
  console.log(`aeadbench at http://${host === '127.0.0.1' ? 'localhost' : host}:${typeof addr === 'object' && addr ? addr.port : port}/ (COOP+COEP, Ctrl-C to stop)`);
  console.log(collector ? `collector at /api/v1 (${collector.describe})` : 'no collector (--no-collector): submission and the crowd view are hidden');
  const stop = async () => {
    server.close();
    await collector?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
