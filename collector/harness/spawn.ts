/**
 * Real processes for the tests that attack or break them: collectors and the site's server
 * started as `npm start` and a deployment would start them, and an HTTP client that can speak
 * from any loopback address (127.x.y.z), so one test plays many sources. Traffic goes only to
 * loopback, bounded in count and time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { freePort } from '../../web/core/platform/net.ts';

export { freePort };

export interface Proc {
  proc: ChildProcess;
  url: string;
  port: number;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string | null>;
  /** Everything it wrote to stderr so far. */
  log(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `node --import tsx <script> …args` and waits until `readyPath` answers below 500 (any status with `anyStatus`). */
export async function startNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  o: { readyPath?: string; port?: number; expectExit?: boolean; anyStatus?: boolean; prefix?: string[] } = {},
): Promise<Proc> {
  const port = o.port ?? (await freePort());
  // `prefix` runs node under another command (e.g. unshare, to be PID 1 in a namespace).
  const argv = [process.execPath, '--import', 'tsx', script, '--port', String(port), ...args];
  const [command, ...rest] = [...(o.prefix ?? []), ...argv];
  const proc = spawn(command!, rest, {
    env: { ...process.env, COLLECTOR_RATE_PER_MINUTE: '1000000000', COLLECTOR_SOURCE_DAILY_CAP: '1000000000', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | string | null>((r) => proc.once('exit', (code, signal) => r(code ?? signal)));
  const url = `http://127.0.0.1:${port}`;
  const p: Proc = {
    proc,
    url,
    port,
    exited,
    log: () => stderr,
    kill: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
  if (o.expectExit) return p;
  let done = false;
  void exited.then(() => (done = true));
  for (let i = 0; i < 300 && !done; i++) {
    try {
      const r = await fetch(`${url}${o.readyPath ?? '/api/v1/health'}`);
      if (r.status < 500 || o.anyStatus) return p;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`${script} did not become ready on port ${port}: ${stderr.slice(-2000)}`);
}

export const startCollector = (env: Record<string, string>, o: { expectExit?: boolean; port?: number; anyStatus?: boolean; prefix?: string[] } = {}) =>
  startNode('collector/server.ts', [], env, o);

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request from a chosen loopback address, with a time limit; never throws on HTTP status. */
export function http(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; from?: string; timeoutMs?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers, localAddress: o.from, timeout: o.timeoutMs ?? 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out: ${o.method ?? 'GET'} ${url}`)));
    req.on('error', reject);
    req.end(o.body);
  });
}

/** POSTs a submission as JSON from `from`. */
export const postJson = (base: string, body: unknown, from?: string) =>
  http(`${base}/api/v1/results`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), from });

/** Milliseconds `/api/v1/health` takes to answer 200 (throws if it does not). */
export async function healthMs(base: string): Promise<number> {
  const t = performance.now();
  const r = await http(`${base}/api/v1/health`, { timeoutMs: 5000 });
  if (r.status !== 200) throw new Error(`health answered ${r.status}: ${r.body}`);
  return performance.now() - t;
}
