/**
 * What the end-to-end suites expect of a run, as plain functions both drivers share
 * (Playwright's specs and the WebKit suite over WebDriver): each returns what is wrong, in
 * words, so that `expect(…).toEqual([])` fails with the list.
 */
import { readFileSync } from 'node:fs';
import type { ResultDocument, Validation } from '../web/core/schema.ts';

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

/** The run of the newer AEADs both suites make: one size, every implementation that offers them. */
export const NEWER_AEADS_RUN =
  '/?preset=quick&sizes=1k&rounds=1&reruns=0&samples=5&algorithms=aegis-128l,aegis-256-tag256,aes-128-gcm-siv,aes-256-ocb3,xchacha20-poly1305&autorun=1';

/**
 * The newer AEADs in a browser: each validated in exactly the implementations that offer it —
 * libaegis (relaxed-SIMD build where the engine validates relaxed SIMD), libsodium.js for the
 * 256-bit-tag AEGIS and XChaCha, noble for GCM-SIV, no Web Crypto AES-OCB in any browser —
 * all passing every vector and agreeing, and every validated implementation × id timed.
 */
export function newerAeadProblems(validation: Validation[], doc: ResultDocument): string[] {
  const problems = validationProblems(validation).filter((p) => !p.includes('was not validated'));
  const who = (id: string) => [...new Set(validation.filter((v) => v.algorithm === id).map((v) => `${v.implementation}/${v.variant}`))].sort().join(' ');
  const libaegis = doc.environment.wasm.relaxedSimd ? 'libaegis-wasm/relaxed-simd' : 'libaegis-wasm/simd128';
  const expected: Record<string, string[]> = {
    'aegis-128l': [libaegis, 'rustcrypto-wasm/simd128'],
    'aegis-256-tag256': [libaegis, 'libsodium/wasm', 'rustcrypto-wasm/simd128'],
    'aes-128-gcm-siv': ['noble/js', 'rustcrypto-wasm/simd128'],
    'aes-256-ocb3': ['rustcrypto-wasm/simd128'],
    'xchacha20-poly1305': ['libsodium/wasm', 'noble/js', 'rustcrypto-wasm/simd128'],
  };
  for (const [id, impls] of Object.entries(expected))
    if (who(id) !== impls.join(' ')) problems.push(`${id}: validated by ${who(id) || 'nothing'}, expected ${impls.join(' ')}`);
  for (const v of validation) if (v.crossCheck === 'disagree') problems.push(`${v.implementation}/${v.variant}/${v.algorithm} disagrees`);
  const timed = new Set(doc.cases.map((c) => `${c.implementation}/${c.variant}/${c.algorithm}`));
  for (const v of validation)
    if (!timed.has(`${v.implementation}/${v.variant}/${v.algorithm}`))
      problems.push(`${v.implementation}/${v.variant}/${v.algorithm} was validated but not timed`);
  return problems;
}

/** axe-core's violations a visitor would suffer from: the serious and critical ones, in words. */
export function axeProblems(violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }[]): string[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/**
 * What the counting pass of a browser's run disagrees with Node on: each WASM case's operations
 * per message, counted again here in Node for the same cases. A count is exact, so any
 * difference between engines is a failure, named with both figures.
 */
export async function countProblems(doc: ResultDocument): Promise<string[]> {
  const { createApi } = await import('../web/core/worker/api.ts');
  const { nodePlatform } = await import('../web/core/worker/platform-node.ts');
  const { caseKey } = await import('../web/core/schema.ts');
  const wasm = doc.cases.filter((c) => c.implementation === 'rustcrypto-wasm' || c.implementation === 'libaegis-wasm');
  const problems = wasm.filter((c) => !c.ops).map((c) => `${caseKey(c)}: no count`);
  const api = createApi(nodePlatform, () => {});
  await api.init({ ...doc.params, wasm: 'both' }, [], { count: true });
  const node = await api.count(wasm.map((c) => ({ ...c, key: caseKey(c) })));
  for (const c of wasm) {
    const here = node[caseKey(c)];
    const n = here && 'perMessage' in here ? here.perMessage : undefined;
    if (c.ops && c.ops.perMessage !== n) problems.push(`${caseKey(c)}: ${c.ops.perMessage} operations per message in the browser, ${n ?? 'none'} in Node`);
  }
  if (wasm.length === 0) problems.push('no WASM case to count');
  return problems;
}

/**
 * A run that lasts minutes and shows its first rows within seconds, for tests that act while a
 * run goes on (cancel, keyboard): twenty full rounds of the quick preset, whose first group is
 * its 64-byte cases. The standard preset's first group (every algorithm at 64 B, encrypt and
 * decrypt) took 15-30 s to show anything.
 */
export const LONG_QUICK = 'preset=quick&rounds=20';
