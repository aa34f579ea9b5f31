// bench:modules' third reference for noble: noble's own benchmark harness (@paulmillr/jsbt, the
// one noble's benchmarks use: an untimed warm-up of a quarter of the run, then every call timed
// with process.hrtime), over the same calls the engine makes of noble (web/core/implementations/
// noble/backend.ts: a cipher per message, with the case's AAD) on the same bytes (shared.ts
// pattern). In a fresh worker thread, as the engine's are. workerData: { algorithm, sizes, seconds };
// answers bytes per second by size, every call's bytes over their time (jsbt's perSecondNumber).
import { parentPort, workerData } from 'node:worker_threads';
import { benchmarkRun, perSecondNumber } from '@paulmillr/jsbt/benchmark.js';
import { gcm } from '@noble/ciphers/aes.js';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { fill as pattern } from '../../lab/harness/plain-loop.mjs';

const CIPHERS = {
  'aes-128-gcm': { factory: gcm, keyBytes: 16, nonceBytes: 12 },
  'chacha20-poly1305': { factory: chacha20poly1305, keyBytes: 32, nonceBytes: 12 },
};

const { algorithm, sizes, seconds } = workerData;
const c = CIPHERS[algorithm];
if (!c) throw new Error(`no noble cipher for ${algorithm} here`);
const [key, nonce, aad] = [pattern(c.keyBytes, 1), pattern(c.nonceBytes, 2), pattern(0, 3)];
const out = {};
let sink = 0;
for (const size of sizes) {
  const pt = pattern(size, 4);
  const r = await benchmarkRun(() => (sink ^= c.factory(key, nonce, aad).encrypt(pt)[0]), BigInt(Math.round(seconds * 1e9)));
  out[size] = perSecondNumber(r, size);
}
parentPort.postMessage({ bytesPerSecond: out, sink });
