/**
 * Starts a throwaway PostgreSQL from Debian's package on a loopback port: initdb into a temp
 * directory, pg_ctl start, and stop + delete afterwards. As root the server runs as `postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawn.ts';

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => join(base, v, 'bin')).find((d) => existsSync(join(d, 'pg_ctl')));
  if (!dir) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: run scripts/setup --postgres (apt-get install postgresql)');
  return dir;
}

export interface TestPostgres {
  url: string;
  /** Stops the server as an operator's fast shutdown does (clients get 57P01), keeping its data. */
  halt(): void;
  /** Starts it again on the same port. */
  resume(): void;
  /** Stops it for good and deletes its data. */
  stop(): void;
  /**
   * CPU time (ms) the server's processes have used so far — the postmaster and every backend,
   * ended ones included (Linux counts a reaped child's time into its parent's `c` fields): the
   * database's share of what a request costs, which the client's own CPU does not show. In
   * clock ticks (10 ms), so read it over something that takes a while.
   */
  cpuMs(): number;
}

const TICK_MS = 10;

/** utime + stime + cutime + cstime of a process and its live children, in ms (Linux /proc). */
function treeCpuMs(root: number): number {
  const stat = (pid: number) => {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
      return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
    } catch {
      return null; // gone meanwhile
    }
  };
  let ticks = stat(root)?.ticks ?? 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s && s.ppid === root) ticks += s.ticks;
  }
  return ticks * TICK_MS;
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = pgBin();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'aeadbench-pg-'));
  const data = join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    execFileSync(root ? 'runuser' : full, root ? ['-u', 'postgres', '--', full, ...args] : args, { stdio: 'pipe' });
  };
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    cpuMs: () => treeCpuMs(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])),
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        /* already stopped (halted by a test) */
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
