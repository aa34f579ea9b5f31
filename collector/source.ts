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
import { linkSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SourceKeys {
  /** The keyed hash of `network` under today's key (base64url, 22 characters: 128 bits). */
  hash(network: string): string;
  /** Today's UTC date, as the key that hashes are valid for. */
  day(): string;
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

export function createSourceKeys(o: { keyDir?: string; now?: () => number } = {}): SourceKeys {
  const dir = o.keyDir ?? defaultKeyDir();
  const now = o.now ?? Date.now;
  let current: { day: string; key: Buffer } | null = null;
  const dayOf = () => new Date(now()).toISOString().slice(0, 10);

  const keyFor = (day: string): Buffer => {
    if (current?.day === day) return current.key;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${day}.key`);
    // The first process of the day makes the key: written whole to a private name, then linked
    // into place, which fails if another process linked its key first (then that one is read).
    const mine = join(dir, `.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    writeFileSync(mine, randomBytes(32), { mode: 0o600 });
    try {
      linkSync(mine, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      rmSync(mine, { force: true });
    }
    const key = readFileSync(file);
    if (key.length !== 32) throw new Error(`source key ${file} is ${key.length} bytes, expected 32: remove it and restart`);
    // Destroy every other day's key: from now on its hashes lead nowhere.
    for (const f of readdirSync(dir)) if (f.endsWith('.key') && f !== `${day}.key`) rmSync(join(dir, f), { force: true });
    current = { day, key };
    return key;
  };

  return {
    day: dayOf,
    hash: (network) => createHmac('sha256', keyFor(dayOf())).update(network).digest().subarray(0, 16).toString('base64url'),
  };
}
