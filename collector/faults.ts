/**
 * What a failed database call means for the client. A fault degrades the one request: the
 * database away (restart, failover, not yet up) is 503 with Retry-After, storage full is 507,
 * a value a column refuses is 422; the process stays up and recovers when the fault ends.
 * Error texts name what the client can act on, never a database type or message.
 * @module
 */

export type Fault = { status: 503 | 507 | 422; message: string; retryAfterS?: number } | null;

const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Raised by the collector itself when it refuses a write before storage would fail. */
export class StorageFullError extends Error {
  readonly code = 'ENOSPC';
}

export function classifyFault(err: unknown): Fault {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  // SQLSTATE 53100 disk_full; ENOSPC from the file system (PGlite's files, or our guard).
  if (code === '53100' || code === 'ENOSPC' || /No space left on device/i.test(message)) {
    return { status: 507, message: "the collector's storage is full; nothing was stored, try again later", retryAfterS: 300 };
  }
  // Class 08 connection exception, 57P01-03 admin/crash shutdown or cannot connect now, 53300
  // too many connections, 40001/40P01 serialization failure/deadlock (safe to retry), and the
  // pg driver's own words for a connection that went away.
  if (
    /^08/.test(code) ||
    /^57P0[1-3]$/.test(code) ||
    code === '53300' ||
    code === '40001' ||
    code === '40P01' ||
    NET_CODES.has(code) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|database unavailable/i.test(
      message,
    )
  ) {
    return { status: 503, message: 'the database is unavailable; nothing was stored, try again shortly', retryAfterS: 5 };
  }
  // Class 22 data exception, 23 integrity constraint: the client's value, which validation
  // should have refused first.
  if (/^2[23]/.test(code)) return { status: 422, message: 'a value is outside the range the collector stores' };
  return null;
}

export class DatabaseUnavailableError extends Error {
  constructor(message = 'database unavailable') {
    super(message);
  }
}
