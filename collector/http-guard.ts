/**
 * Limits every HTTP server of ours applies, the site's and the collector's alike: a client
 * that sends its headers or its body slowly is cut off, and one address cannot hold more than
 * a few dozen connections. Without these, 200 slow uploads held 320 MB for five minutes and
 * 21,000 slow-header connections locked real visitors out for a minute.
 * @module
 */
import type { Server } from 'node:http';

/** Milliseconds from the environment (an operator's, or a test's that cannot wait 30 s), else the default. */
function msFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 100) throw new Error(`${name}='${text}': expected whole milliseconds, at least 100`);
  return ms;
}

/** Options for http.createServer (or @hono/node-server's serverOptions): the timeouts. */
export const SERVER_OPTIONS = {
  /** Time for a client to send its request headers (SERVER_HEADERS_TIMEOUT_MS). */
  headersTimeout: msFromEnv('SERVER_HEADERS_TIMEOUT_MS', 10_000),
  /** Time for a client to send its whole request, body included (SERVER_REQUEST_TIMEOUT_MS). */
  requestTimeout: msFromEnv('SERVER_REQUEST_TIMEOUT_MS', 30_000),
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeout: 5_000,
  // Node checks both timeouts on this interval; its default (30 s) would let a slow client
  // overstay the headers timeout fourfold.
  connectionsCheckingInterval: 1_000,
} as const;

/** Open connections one address (IPv6: one /64) may hold at once; more are closed as they arrive. */
export const CONNECTIONS_PER_ADDRESS = 32;

/**
 * What the connection cap counts under: an IPv4 address as it is, an IPv6 address by its /64
 * (a household or a rented server holds a whole /64, so counting single IPv6 addresses would
 * bound nothing). IPv4-mapped IPv6 (::ffff:a.b.c.d) is IPv4. Written out by hand: this module
 * takes no dependencies.
 */
export function connectionKeyOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('%')[0]!.split('::');
  const groups = (x: string) => (x === '' ? [] : x.split(':'));
  const h = groups(head);
  const t = address.includes('::') ? groups(tail) : [];
  const all = address.includes('::') ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Caps connections per address on a server made with SERVER_OPTIONS. `exempt` names addresses
 * that carry everyone's connections (a trusted balancer in front of several collectors).
 * No dependencies: the package's CLI serves the site through this too.
 */
export function guardServer<S extends Server>(server: S, o: { most?: number; exempt?: (address: string) => boolean } = {}): S {
  const most = o.most ?? CONNECTIONS_PER_ADDRESS;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const remote = socket.remoteAddress ?? 'unknown';
    if (o.exempt?.(remote)) return;
    const address = connectionKeyOf(remote);
    const n = (open.get(address) ?? 0) + 1;
    if (n > most) return void socket.destroy();
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return server;
}

/** How long a stopping process waits for its store to close before it exits anyway. */
export const STOP_GRACE_MS = 3000;

/**
 * Stops the process on SIGTERM or SIGINT: the server stops taking connections and the store
 * closes, and the process exits when that is done or STOP_GRACE_MS later, whichever comes
 * first (a second signal exits at once). Closing waits for the store's query in hand, and a
 * collector in the middle of a long refresh did not stop on SIGTERM at all; nothing
 * acknowledged waits on that query (an acknowledged submission is stored before its answer,
 * and survives even SIGKILL: collector/test/durability.test.ts).
 */
export function stopOnSignals(stop: () => Promise<unknown>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(0);
    stopping = true;
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
