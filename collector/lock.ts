/**
 * One writer per PGlite directory. PGlite does not lock its files: two processes on one
 * directory each acknowledge writes, and after a restart one side's are gone. So the collector
 * takes an exclusive lock file beside the directory before opening it; a second process
 * refuses to start and names the holder.
 *
 * A lock names its holder by who it is, not only by its pid: the pid, the kernel's boot id and
 * the process's start time (field 22 of /proc/<pid>/stat). A pid alone lies twice: in a
 * container the collector is PID 1 after every restart, and PID 1 is always alive; and a pid is
 * reused. With the start time, a lock whose holder is not the same process any more (died,
 * rebooted, pid reused, our own earlier life as PID 1) is stale and taken over; where /proc is
 * missing (not Linux), the pid alone decides, as before.
 *
 * Taking over a stale lock is serialised by a second file created with O_EXCL, so two
 * processes that both found the same stale lock cannot both take it: the loser sees the
 * winner's fresh lock and refuses.
 *
 * Not a kernel lock: Node has no flock(2), and a helper process that held one would be one
 * more process to keep alive and to reap. The cost of judging by identity instead: two
 * containers that share the directory, the boot and the host name, each with its collector as
 * PID 1, would each take the other's lock for an earlier life of their own. Container runtimes
 * give every container its own host name by default; keep it so.
 * @module
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export class DirectoryLockedError extends Error {}

interface Holder {
  pid: number;
  host: string;
  /** /proc/sys/kernel/random/boot_id: a lock from before a reboot has no holder. */
  boot?: string;
  /** The holder's start time in clock ticks since boot: tells a reused pid from its first owner. */
  start?: string;
  since: string;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A process's start time since boot, or null where /proc cannot tell. */
export function startTimeOf(pid: number): string | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name (field 2) is in parentheses and may hold spaces: count from its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null; // field 22 overall
}

const bootId = () => readOrNull('/proc/sys/kernel/random/boot_id')?.trim();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names still runs. A lock from another host cannot be judged: it stands. */
export function holderAlive(holder: Partial<Holder>, me: Holder): boolean {
  if (typeof holder.pid !== 'number') return false;
  if (holder.host !== me.host) return true;
  if (holder.boot && me.boot && holder.boot !== me.boot) return false;
  if (holder.start && me.start) {
    // Our own pid: the lock is ours only if it names our start; otherwise it is an earlier life
    // of this pid (a container's PID 1 after a restart).
    if (holder.pid === me.pid) return holder.start === me.start;
    return pidAlive(holder.pid) && startTimeOf(holder.pid) === holder.start;
  }
  return pidAlive(holder.pid);
}

function parse(text: string | null): Partial<Holder> {
  try {
    return text === null ? {} : (JSON.parse(text) as Partial<Holder>);
  } catch {
    return {}; // half-written or garbage: no holder
  }
}

function writeNew(path: string, content: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
}

/** A takeover in progress older than this was abandoned by a process that died mid-way. */
const TAKEOVER_STALE_MS = 10_000;

/** Takes the lock for `dir`; returns its release. Throws DirectoryLockedError naming the holder. */
export function lockDirectory(dir: string): () => void {
  const file = `${resolve(dir)}.lock`;
  const me: Holder = { pid: process.pid, host: hostname(), boot: bootId(), start: startTimeOf(process.pid) ?? undefined, since: new Date().toISOString() };
  const mine = JSON.stringify(me);
  const held = () => {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      if (readOrNull(file) === mine) rmSync(file, { force: true });
    };
    process.on('exit', release);
    return release;
  };
  const refuse = (holder: Partial<Holder>) =>
    new DirectoryLockedError(
      `PGlite directory ${resolve(dir)} is in use by process ${holder.pid} on ${holder.host} since ${holder.since} (lock ${file}). ` +
        'One collector process per PGlite directory; to run several, use PostgreSQL (DATABASE_URL).',
    );

  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      writeNew(file, mine);
      return held();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const text = readOrNull(file);
    if (text === null) continue; // released meanwhile: try to create it again
    const holder = parse(text);
    if (holderAlive(holder, me)) throw refuse(holder);
    // Stale: take it over, one process at a time.
    const takeover = `${file}.takeover`;
    try {
      writeNew(takeover, mine);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) rmSync(takeover, { force: true });
      } catch {
        /* gone meanwhile */
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // another process is taking over: look again shortly
      continue;
    }
    try {
      // Still the lock we judged stale? Then replace it in one step; if not, someone took it.
      if (readOrNull(file) === text) {
        const fresh = `${file}.${process.pid}.tmp`;
        rmSync(fresh, { force: true });
        writeNew(fresh, mine);
        renameSync(fresh, file);
        return held();
      }
    } finally {
      rmSync(takeover, { force: true });
    }
  }
  throw new DirectoryLockedError(`could not take the lock ${file}: another process keeps taking it`);
}
