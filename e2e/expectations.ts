/**
 * What the end-to-end suites expect of a run, as plain functions both drivers share
 * (Playwright's specs and the WebKit suite over WebDriver): each returns what is wrong, in
 * words, so that `expect(…).toEqual([])` fails with the list.
 */
import { readFileSync } from 'node:fs';
import type { Validation } from '../web/core/schema.ts';

/** How many vectors the build exported per algorithm (web/core/vectors/wycheproof.json). */
export function exportedVectorCounts(): Record<string, number> {
  const { vectors } = JSON.parse(readFileSync(new URL('../web/core/vectors/wycheproof.json', import.meta.url), 'utf8')) as { vectors: { algorithm: string }[] };
  const counts: Record<string, number> = {};
  for (const v of vectors) counts[v.algorithm] = (counts[v.algorithm] ?? 0) + 1;
  return counts;
}

/**
 * Every implementation passed every vector exported for its algorithm in the browser (the
 * AES-256 CBC+HMAC id has none), none was excluded, and WASM and Web Crypto AES-GCM agreed
 * byte for byte.
 */
export function validationProblems(validation: Validation[], vectorCounts: Record<string, number> = exportedVectorCounts()): string[] {
  const problems: string[] = [];
  for (const v of validation) {
    const id = `${v.implementation}/${v.variant}/${v.algorithm}`;
    if (v.excluded) problems.push(`${id} was excluded: ${v.errors[0] ?? ''}`);
    if (v.vectorsFailed !== 0) problems.push(`${id}: ${v.vectorsFailed} vectors failed`);
    const expected = vectorCounts[v.algorithm] ?? 0;
    if (v.vectorsPassed !== expected) problems.push(`${id}: ${v.vectorsPassed} of ${expected} vectors passed`);
  }
  for (const alg of ['aes-128-gcm', 'aes-256-gcm'] as const) {
    const rows = validation.filter((v) => v.algorithm === alg);
    for (const impl of ['rustcrypto-wasm', 'webcrypto']) if (!rows.some((r) => r.implementation === impl)) problems.push(`${alg}: ${impl} was not validated`);
    for (const r of rows) if (r.crossCheck !== 'agree') problems.push(`${alg}: ${r.implementation}/${r.variant} cross-check ${r.crossCheck}`);
  }
  return problems;
}
