/**
 * Runs deploy/nginx.conf.template on loopback: a throwaway PostgreSQL, N collector processes
 * and nginx in front, rendered with envsubst exactly as the template's header says. Used by
 * the deployment test and `npm run bench:collector`; everything it starts, it stops.
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestPostgres, startPostgres } from '../collector/harness/postgres.ts';
import { type Proc, freePort, http, startCollector } from '../collector/harness/spawn.ts';

const TEMPLATE = new URL('./nginx.conf.template', import.meta.url);
const VARS = ['LISTEN', 'SITE_ROOT', 'NGINX_RUNTIME', 'COLLECTOR_A', 'COLLECTOR_B', 'COLLECTOR_C'] as const;

export interface Stack {
  /** The balancer's base URL. */
  url: string;
  pg: TestPostgres;
  collectors: Proc[];
  /** Restarts collector `i` on its port with other settings (the balancer keeps pointing at it). */
  replaceCollector(i: number, env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function nginxBinary(): string {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  throw new Error('nginx not found: run scripts/setup --postgres (apt-get install nginx-light)');
}

/**
 * `collectors` processes (1–3) behind nginx. With fewer than three, the template's other
 * upstream lines point at the same processes, so the configuration under test is the file.
 */
export async function startStack(o: { collectors?: number; env?: Record<string, string>; pg?: TestPostgres } = {}): Promise<Stack> {
  const n = o.collectors ?? 3;
  const pg = o.pg ?? (await startPostgres());
  const runtime = mkdtempSync(join(tmpdir(), 'aeadbench-nginx-'));
  const site = join(runtime, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>aeadbench</title>');
  // nginx's workers run as nobody when the master is root: they must reach the site and temp dirs.
  chmodSync(runtime, 0o755);
  const collectorEnv = (extra: Record<string, string> = {}) => ({ DATABASE_URL: pg.url, COLLECTOR_TRUSTED_PROXIES: '127.0.0.1', ...o.env, ...extra });
  const collectors: Proc[] = [];
  for (let i = 0; i < n; i++) collectors.push(await startCollector(collectorEnv()));
  const port = await freePort();
  const values: Record<(typeof VARS)[number], string> = {
    LISTEN: `127.0.0.1:${port}`,
    SITE_ROOT: site,
    NGINX_RUNTIME: runtime,
    COLLECTOR_A: `127.0.0.1:${collectors[0]!.port}`,
    COLLECTOR_B: `127.0.0.1:${collectors[1 % n]!.port}`,
    COLLECTOR_C: `127.0.0.1:${collectors[2 % n]!.port}`,
  };
  const conf = join(runtime, 'nginx.conf');
  writeFileSync(conf, execFileSync('envsubst', [VARS.map((v) => `$${v}`).join(' ')], { input: readFileSync(TEMPLATE), env: { ...process.env, ...values } }));
  const nginx = spawn(nginxBinary(), ['-p', runtime, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let nginxLog = '';
  nginx.stderr.on('data', (d) => (nginxLog += d));
  const nginxExited = new Promise((r) => nginx.once('exit', r));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await http(`${url}/api/v1/health`, { timeoutMs: 2000 })).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (i > 100 || nginx.exitCode !== null) {
      nginx.kill('SIGKILL');
      throw new Error(`nginx did not start: ${nginxLog}${existsSync(join(runtime, 'error.log')) ? readFileSync(join(runtime, 'error.log'), 'utf8') : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pg,
    collectors,
    async replaceCollector(i, env = {}) {
      const old = collectors[i]!;
      await old.kill();
      collectors[i] = await startCollector(collectorEnv(env), { port: old.port });
    },
    async stop() {
      nginx.kill('SIGQUIT');
      await Promise.race([nginxExited, new Promise((r) => setTimeout(r, 3000))]);
      if (nginx.exitCode === null) nginx.kill('SIGKILL');
      for (const c of collectors) await c.kill().catch(() => {});
      if (!o.pg) pg.stop();
      rmSync(runtime, { recursive: true, force: true });
    },
  };
}
