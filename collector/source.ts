/**
 * A submission's source, so that one network gets one voice in the crowd, without keeping
 * anything that leads back to an address.
 *
 * source = HMAC-SHA-256(day key, network prefix), where the day key is 32 random bytes that
 * exist for one UTC day only. Every collector process on the host reads the same key from
 * `keyDir`, a memory-backed directory (/dev/shm by default) that is never beside the data, and
 * deletes keys of other days as soon as it sees a new day: once a day's key is gone, its
 * hashes cannot be recomputed from any address, so a stored source links that day's
 * submissions from one network to each other and to nothing else.
 * @module
 */
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SourceKeys {
  /** The keyed hash of `network` under today's key (base64url, 22 characters: 128 bits). */
  hash(network: string): string;
  /** Today's UTC date, as the key that hashes are valid for. */
  day(): string;
  /** Destroys every key but today's. */
  rotate?(): void;
}

export function defaultKeyDir(): string {
  let shm = false;
  try {
    readdirSync('/dev/shm');
    shm = true;
  } catch {
    /* no /dev/shm on this OS */
  }
  return join(shm ? '/dev/shm' : tmpdir(), 'aeadbench-source-keys');
}

/**
 * The key directory must be ours before a key is read from it or written to it: whoever could
 * plant a key could reverse the day's hashes, and a symlinked directory would have us delete
 * files elsewhere. So: a real directory (not a symlink), owned by this user, closed to everyone
 * else (0700). A directory that is not is refused, naming what is wrong; it is never repaired.
 */
export function checkKeyDir(dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    mkdirSync(dir, { mode: 0o700 });
    st = lstatSync(dir);
  }
  const refuse = (why: string) => new Error(`source key directory ${dir} ${why}: remove it (or set COLLECTOR_KEY_DIR) and start again`);
  if (st.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!st.isDirectory()) throw refuse('is not a directory');
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw refuse(`belongs to uid ${st.uid}, not to this process (uid ${process.getuid()})`);
  if ((st.mode & 0o077) !== 0) throw refuse(`is open to others (mode ${(st.mode & 0o777).toString(8)}, expected 700)`);
}

/** Reads a key file, refusing a symlink (O_NOFOLLOW) and anything but 32 bytes. */
function readKey(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new Error(`source key ${file} is a symbolic link: remove it and restart`);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== 32) throw new Error(`source key ${file} is not a 32-byte file: remove it and restart`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function createSourceKeys(o: { keyDir?: string; now?: () => number } = {}): SourceKeys & { close(): void } {
  const dir = o.keyDir ?? defaultKeyDir();
  const now = o.now ?? Date.now;
  let current: { day: string; key: Buffer } | null = null;
  const dayOf = () => new Date(now()).toISOString().slice(0, 10);
  checkKeyDir(dir);

  /** Destroys every key but `keep`'s: from then on their hashes lead nowhere. */
  const destroyOthers = (keep: string | null) => {
    checkKeyDir(dir);
    for (const f of readdirSync(dir)) if (f.endsWith('.key') && f !== `${keep}.key`) rmSync(join(dir, f), { force: true });
  };

  const keyFor = (day: string): Buffer => {
    if (current?.day === day) return current.key;
    checkKeyDir(dir);
    const file = join(dir, `${day}.key`);
    // The first process of the day makes the key: written whole to a private name, then linked
    // into place, which fails if another process linked its key first (then that one is read).
    const mine = join(dir, `.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(mine, randomBytes(32), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(mine, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      rmSync(mine, { force: true });
    }
    const key = readKey(file);
    destroyOthers(day);
    current = { day, key };
    return key;
  };

  // At UTC midnight the day's key goes, whether or not a submission arrives to notice the new
  // day: a quiet night must not keep yesterday's key alive until morning.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const armMidnight = () => {
    const t = now();
    const next = Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), new Date(t).getUTCDate() + 1);
    timer = setTimeout(
      () => {
        try {
          current = null;
          destroyOthers(dayOf());
        } catch (e) {
          console.error(`collector: could not destroy yesterday's source key: ${(e as Error).message}`);
        }
        armMidnight();
      },
      Math.max(1000, next - t + 1000),
    );
    timer.unref?.();
  };
  if (!o.now) armMidnight();

  return {
    day: dayOf,
    hash: (network) => createHmac('sha256', keyFor(dayOf())).update(network).digest().subarray(0, 16).toString('base64url'),
    /** Destroys keys of days other than today's now (what the midnight timer does). */
    rotate: () => ((current = null), destroyOthers(dayOf())),
    close: () => void (timer && clearTimeout(timer)),
  };
}
