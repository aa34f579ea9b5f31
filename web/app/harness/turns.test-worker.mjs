// For plain-loop.test.ts: one thread of a set taking turns (PlainSpec.turns), with a module whose
// encrypt only makes its output; posts its figures and its timed windows on the shared epoch clock.
import { parentPort, workerData } from 'node:worker_threads';
import { plainLoop } from './plain-loop.mjs';

const copy = { encrypt: (_a, _k, _n, _aad, pt) => new Uint8Array(pt.length + 16) };
let windows = [];
const figures = await plainLoop(
  workerData,
  async () => copy,
  async (w) => ((windows = w), 0),
);
parentPort.postMessage({ figures, windows: windows.map(([a, b]) => [performance.timeOrigin + a, performance.timeOrigin + b]) });
