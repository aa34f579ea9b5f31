// For plain-loop.test.ts: one thread of a set taking turns (PlainSpec.turns), with a module whose
// encrypt only makes its output; posts its figures and each case's timed windows on the shared
// epoch clock (`windows`: the last case's; `byCase`: every case's, in its order), and when each
// of its calls began (`calls`), on the same clock.
import { parentPort, workerData } from 'node:worker_threads';
import { plainLoop } from './plain-loop.mjs';

const calls = [];
const copy = { encrypt: (_a, _k, _n, _aad, pt) => (calls.push(performance.timeOrigin + performance.now()), new Uint8Array(pt.length + 16)) };
const byCase = [];
const figures = await plainLoop(
  workerData,
  async () => copy,
  async (w) => (byCase.push(w.map(([a, b]) => [performance.timeOrigin + a, performance.timeOrigin + b])), 0),
);
parentPort.postMessage({ figures, windows: byCase.at(-1) ?? [], byCase, calls });
