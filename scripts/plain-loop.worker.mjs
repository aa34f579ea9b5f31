// bench:modules' plain loop in a Node worker thread (web/app/harness/plain-loop.mjs); workerData
// is its PlainSpec, each module a file path.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { plainLoop } from '../web/app/harness/plain-loop.mjs';

parentPort.postMessage(await plainLoop(workerData, async (path) => (await import(pathToFileURL(path).href)).default));
