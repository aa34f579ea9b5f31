/**
 * Cross-validate, then time: every implementation runs the exported Wycheproof vectors of each
 * algorithm it offers, and all implementations of an algorithm must produce identical
 * ciphertext on the same random inputs. One that fails is reported and excluded, never timed.
 * @module
 */
import { type AlgorithmId, algorithm } from '../tables/algorithms.ts';
import type { Backend } from './shared.ts';
import type { Validation } from '../schema.ts';

export interface WycheproofVector {
  file: string;
  tcId: number;
  algorithm: string;
  key: string;
  nonce: string;
  aad: string;
  msg: string;
  ct: string;
  tag: string;
  result: 'valid' | 'invalid';
}

export const fromHex = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
};
const HEX = Array.from({ length: 256 }, (_, x) => x.toString(16).padStart(2, '0'));
/** Lowercase hex of the bytes, two digits each. */
export const toHex = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i++) s += HEX[b[i]!];
  return s;
};

/**
 * Whether two byte strings are equal: the gate compares megabytes of them, which as hex took
 * about 70 % of its time for noble's GCM (a byte loop takes a nanosecond a byte).
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export async function runVectors(backend: Backend, alg: AlgorithmId, vectors: readonly WycheproofVector[]) {
  let passed = 0;
  const errors: string[] = [];
  for (const v of vectors) {
    const key = fromHex(v.key);
    const nonce = fromHex(v.nonce);
    const aad = fromHex(v.aad);
    let ok: boolean;
    let why = '';
    if (v.result === 'invalid') {
      ok = await backend.decrypt(alg, key, nonce, aad, fromHex(v.ct + v.tag)).then(
        () => false,
        () => true,
      );
      why = `invalid vector accepted (${v.key.length / 2}-byte key, ${v.nonce.length / 2}-byte nonce, ${v.tag.length / 2}-byte tag, ${v.msg.length / 2}-byte message)`;
    } else {
      try {
        const pt = toHex(await backend.decrypt(alg, key, nonce, aad, fromHex(v.ct + v.tag)));
        const ct = toHex(await backend.encrypt(alg, key, nonce, aad, fromHex(v.msg)));
        ok = pt === v.msg && ct === v.ct + v.tag;
        why = pt !== v.msg ? 'decrypt mismatch' : 'encrypt mismatch';
      } catch (e) {
        ok = false;
        why = `threw ${(e as Error).message}`;
      }
    }
    if (ok) passed++;
    else if (errors.length < 5) errors.push(`${v.file} #${v.tcId}: ${why}`);
  }
  return { passed, failed: vectors.length - passed, errors };
}

/** Random inputs at the sizes where implementations tend to differ: empty, around blocks. */
const CROSS_SIZES = [0, 1, 15, 16, 17, 63, 64, 65, 1000, 4096];

export async function validateBackends(
  backends: readonly Backend[],
  algorithms: readonly AlgorithmId[],
  vectors: readonly WycheproofVector[],
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): Promise<Validation[]> {
  const out: Validation[] = [];
  for (const alg of algorithms) {
    const a = algorithm(alg);
    const mine = backends.filter((b) => b.algorithms.includes(alg));
    const vs = vectors.filter((v) => v.algorithm === alg);
    const rows = new Map<Backend, Validation>();
    for (const b of mine) {
      const r = await runVectors(b, alg, vs);
      rows.set(b, {
        implementation: b.implementation,
        variant: b.variant,
        algorithm: alg,
        vectorsPassed: r.passed,
        vectorsFailed: r.failed,
        crossCheck: 'alone',
        excluded: r.failed > 0,
        errors: r.errors,
      });
    }
    // Cross-check: the reference output comes from the implementations that passed every
    // vector; any implementation whose output differs from it disagrees and is excluded.
    if (mine.length > 1) {
      const disagree = new Set<Backend>();
      for (const size of CROSS_SIZES) {
        const key = random(a.keyBytes);
        const nonce = random(a.nonceBytes);
        const aad = random(size % 33);
        const pt = random(size);
        const outputs = await Promise.all(mine.map((b) => b.encrypt(alg, key, nonce, aad, pt).then(toHex, (e: Error) => `error: ${e.message}`)));
        const trusted = mine.map((b, i) => (rows.get(b)!.vectorsFailed === 0 ? outputs[i] : undefined)).filter((x) => x !== undefined);
        const counts = new Map<string, number>();
        for (const o of trusted.length ? trusted : outputs) counts.set(o!, (counts.get(o!) ?? 0) + 1);
        const reference = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]![0];
        mine.forEach((b, i) => {
          if (outputs[i] !== reference) {
            disagree.add(b);
            const row = rows.get(b)!;
            if (row.errors.length < 5) row.errors.push(`cross-check at ${size} B: output differs from the other implementations`);
          }
        });
      }
      for (const b of mine) {
        const row = rows.get(b)!;
        row.crossCheck = disagree.has(b) ? 'disagree' : 'agree';
        row.excluded = row.vectorsFailed > 0 || disagree.has(b);
      }
    }
    out.push(...rows.values());
  }
  return out;
}
