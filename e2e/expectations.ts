/**
 * What the end-to-end suites expect of a run, as plain functions both drivers share
 * (Playwright's specs and the WebKit suite over WebDriver): each returns what is wrong, in
 * words, so that `expect(…).toEqual([])` fails with the list.
 */
import type { Validation } from '../web/core/schema.ts';

/**
 * Every implementation passed its Wycheproof vectors in the browser (more than 50 each; the
 * AES-256 CBC+HMAC id has no standard vectors), none was excluded, and WASM and Web Crypto
 * AES-GCM agreed byte for byte.
 */
export function validationProblems(validation: Validation[]): string[] {
  const problems: string[] = [];
  for (const v of validation) {
    const id = `${v.implementation}/${v.variant}/${v.algorithm}`;
    if (v.excluded) problems.push(`${id} was excluded: ${v.errors[0] ?? ''}`);
    if (v.vectorsFailed !== 0) problems.push(`${id}: ${v.vectorsFailed} vectors failed`);
    if (v.algorithm !== 'aes-256-cbc-hmac-sha256' && !(v.vectorsPassed > 50)) problems.push(`${id}: only ${v.vectorsPassed} vectors passed`);
  }
  for (const alg of ['aes-128-gcm', 'aes-256-gcm'] as const) {
    const rows = validation.filter((v) => v.algorithm === alg);
    for (const impl of ['rustcrypto-wasm', 'webcrypto']) if (!rows.some((r) => r.implementation === impl)) problems.push(`${alg}: ${impl} was not validated`);
    for (const r of rows) if (r.crossCheck !== 'agree') problems.push(`${alg}: ${r.implementation}/${r.variant} cross-check ${r.crossCheck}`);
  }
  return problems;
}
