/**
 * One writer per PGlite directory. PGlite does not lock its files: two processes on one
 * directory each acknowledge writes, and after a restart one side's are gone. So the collector
 * takes an exclusive lock file beside the directory before opening it; a second process
 * refuses to start and names the holder. A lock left by a process that died (kill -9) is taken
 * over, since its holder no longer runs.
 * @module
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export class DirectoryLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for `dir`; returns its release. Throws DirectoryLockedError naming the holder. */
export function lockDirectory(dir: string): () => void {
  const file = `${resolve(dir)}.lock`;
  const me = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          const holder = JSON.parse(readFileSync(file, 'utf8')) as typeof me;
          if (holder.pid === me.pid && holder.host === me.host) rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder: Partial<typeof me> = {};
    try {
      holder = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      /* half-written or unreadable: judged by age below */
    }
    const sameHost = holder.host === me.host;
    if (typeof holder.pid === 'number' && (!sameHost || alive(holder.pid))) {
      throw new DirectoryLockedError(
        `PGlite directory ${resolve(dir)} is in use by process ${holder.pid} on ${holder.host} since ${holder.since} (lock ${file}). ` +
          'One collector process per PGlite directory; to run several, use PostgreSQL (DATABASE_URL).',
      );
    }
    // The holder is gone (or the file is garbage): take the lock over.
    rmSync(file, { force: true });
  }
  throw new DirectoryLockedError(`could not take the lock ${file}: another process keeps taking it`);
}
