/**
 * The plain loop of `npm run bench:modules` in a browser worker, written apart from the engine
 * (no backend, no sampler, no statistics module): a module of yours imported by its URL, or
 * noble called as the built-in backend calls it, and its encrypt called in batches of eight
 * for `ms` at a time, as a developer times code by hand. The Node twin is
 * scripts/plain-loop.worker.mjs; each case runs alone, one after the other.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';

export interface PlainSpec {
  /** `module`: a module's URL on this site, or 'noble'; `name` keys its figures. */
  subjects: { name: string; module: string; algorithm: string }[];
  sizes: number[];
  /** One stretch of calls, ms; a third of one warms the case up first. */
  ms: number;
  /** Stretches per case: the median one is its figure. */
  reps: number;
}

type Encrypt = (key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, pt: Uint8Array) => Uint8Array;

const fill = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (Math.imul(i & 0xff, 31) + seed) & 0xff);
const keyBytes = (algorithm: string) => (algorithm === 'aes-128-gcm' ? 16 : 32);

async function encryptOf({ module, algorithm }: PlainSpec['subjects'][number]): Promise<Encrypt> {
  if (module === 'noble') {
    const f = algorithm === 'chacha20-poly1305' ? chacha20poly1305 : gcm;
    return (key, nonce, aad, pt) => f(key, nonce, aad).encrypt(pt);
  }
  const impl = (await import(/* @vite-ignore */ module)).default;
  const state = impl.prepare ? await impl.prepare(algorithm, fill(keyBytes(algorithm), 1)) : undefined;
  return (key, nonce, aad, pt) => impl.encrypt(algorithm, key, nonce, aad, pt, state);
}

let sink = 0;
/** Calls `call` for at least `forMs`, eight at a time: [calls, ms]. */
function loop(call: () => Uint8Array, forMs: number): [number, number] {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < forMs) {
    for (let i = 0; i < 8; i++) sink ^= call()[0]!;
    n += 8;
    t = performance.now();
  }
  return [n, t - t0];
}

async function plain(spec: PlainSpec): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of spec.subjects) {
    const encrypt = await encryptOf(s);
    for (const size of spec.sizes) {
      const [key, nonce, aad, pt] = [fill(keyBytes(s.algorithm), 1), fill(12, 2), new Uint8Array(0), fill(size, 4)];
      const call = () => encrypt(key, nonce, aad, pt);
      loop(call, spec.ms / 3);
      const rates: number[] = [];
      for (let r = 0; r < spec.reps; r++) {
        const [n, t] = loop(call, spec.ms);
        rates.push((n * size) / (t / 1000));
      }
      rates.sort((a, b) => a - b);
      out[`${s.name}|${s.algorithm}|${size}`] = rates[rates.length >> 1]!;
    }
  }
  return out;
}

self.onmessage = async (e: MessageEvent<PlainSpec>) => {
  try {
    self.postMessage({ bytesPerSecond: await plain(e.data), sink });
  } catch (err) {
    self.postMessage({ error: (err as Error).message });
  }
};
