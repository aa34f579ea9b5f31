/**
 * The collector's settings, read from its environment once at start: the store, who may call
 * it, its budgets. The server, the operator's commands and the site's embedded collector share it.
 * @module
 */
import { parseTrustedProxies } from './client.ts';

/** A new export at most this often while a process stores rows (COLLECTOR_EXPORT_MIN_AGE_S overrides it). */
export const EXPORT_MIN_AGE_MS = 5 * 60_000;

export interface CollectorConfig {
  databaseUrl?: string;
  dataDir?: string;
  /** Create a missing PGlite directory (only the default one, unless COLLECTOR_DATA_CREATE=1). */
  createDataDir: boolean;
  corsOrigins: string[];
  submissionsPerMinute: number;
  trustedProxies: string[];
  sourceDailyCap: number;
  keyDir?: string;
  exportMinAgeMs: number;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const n = Number(raw ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`Invalid ${name}: '${raw}' (expected a positive number)`);
  return n;
}

function nonNegativeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const n = Number(raw ?? fallback);
  if (!Number.isFinite(n) || n < 0) throw new Error(`Invalid ${name}: '${raw}' (expected a number of seconds, 0 or more)`);
  return n;
}

export function configFromEnv(env = process.env): CollectorConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.COLLECTOR_DATA ?? '.data/collector',
    createDataDir: env.COLLECTOR_DATA === undefined || env.COLLECTOR_DATA_CREATE === '1',
    corsOrigins: (env.COLLECTOR_CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    submissionsPerMinute: positiveNumber(env, 'COLLECTOR_RATE_PER_MINUTE', 30),
    trustedProxies: parseTrustedProxies(env.COLLECTOR_TRUSTED_PROXIES),
    sourceDailyCap: positiveNumber(env, 'COLLECTOR_SOURCE_DAILY_CAP', 100),
    keyDir: env.COLLECTOR_KEY_DIR || undefined,
    exportMinAgeMs: 1000 * nonNegativeNumber(env, 'COLLECTOR_EXPORT_MIN_AGE_S', EXPORT_MIN_AGE_MS / 1000),
  };
}
