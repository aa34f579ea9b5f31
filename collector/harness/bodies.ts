/**
 * Requests as the collector's tests and benchmarks make them, without a test runner: an app
 * with no server whose client address comes from a header, valid bodies, and a post.
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSourceKeys } from '../source.ts';
import { createApp, type CollectorOptions } from '../app.ts';
import type { Sql } from '../db.ts';
import { sampleResult } from './sample-result.ts';

/**
 * The app without a server. The client's address comes from the test header `x-test-client`
 * (app.request() has no socket); `post` sends a fresh address unless told, so each post is its
 * own source unless a test says otherwise.
 */
export function appFor(sql: Sql, o: CollectorOptions = {}) {
  return createApp(sql, {
    submissionsPerMinute: 100_000,
    sourceDailyCap: 100_000,
    clientAddress: (c) => c.req.header('x-test-client') ?? 'test-client',
    exportMinAgeMs: 0, // a test reads its own rows at once; export-dump's own test checks the age
    sources: createSourceKeys({ keyDir: TEST_KEY_DIR }),
    ...o,
  });
}

const TEST_KEY_DIR = mkdtempSync(join(tmpdir(), 'aeadbench-keys-'));

/** A random address in 10.0.0.0/8 (never contacted: only hashed), so each call is another network. */
export const randomAddress = () => `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`;

/** A valid submission body: a fresh run id, the user-agent emptied as the site sends it. */
export function submission(o: { deviceClass?: string; nsPerOp?: number; sizeBytes?: number; mutate?: (doc: ReturnType<typeof sampleResult>) => void } = {}) {
  const doc = sampleResult();
  doc.runId = crypto.randomUUID();
  doc.environment.userAgent = '';
  const c = doc.cases[0]!;
  // A phone or tablet runs a phone's OS (the collector checks that the environment hangs together).
  if (o.deviceClass === 'phone' || o.deviceClass === 'tablet') doc.environment.os = { name: 'Android', version: '15' };
  if (o.sizeBytes !== undefined) {
    c.sizeBytes = o.sizeBytes;
    doc.params.sizes = [o.sizeBytes];
  }
  if (o.nsPerOp !== undefined) c.samples = [o.nsPerOp, o.nsPerOp * 1.001, o.nsPerOp * 0.999];
  o.mutate?.(doc);
  return { result: doc, deviceClass: o.deviceClass ?? 'laptop' };
}

export function post(app: ReturnType<typeof appFor>, body: unknown, headers: Record<string, string> = {}) {
  return app.request('/api/v1/results', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-test-client': randomAddress(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
