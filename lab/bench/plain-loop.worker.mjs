// bench:modules' plain loop in a Node worker thread (lab/harness/plain-loop.mjs); workerData
// is its PlainSpec, each module a file path. The collector's pauses come from perf_hooks' gc
// entries, which Node delivers per thread, on this worker's clock.
import { parentPort, workerData } from 'node:worker_threads';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { plainLoop } from '../../lab/harness/plain-loop.mjs';

const pauses = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.startTime + e.duration]);
});
observer.observe({ entryTypes: ['gc'] });
/** ms of the collector's pauses inside the timed windows; the entries arrive a turn later. */
async function pausedWithin(windows) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  let ms = 0;
  for (const [a, b] of windows) for (const [s, e] of pauses) ms += Math.max(0, Math.min(b, e) - Math.max(a, s));
  return ms;
}

const figures = await plainLoop(workerData, async (path) => (await import(pathToFileURL(path).href)).default, pausedWithin);
observer.disconnect();
parentPort.postMessage(figures);
