/** The benchmark worker in Node: a worker thread speaking the same RPC as the browser's. */
import { parentPort } from 'node:worker_threads';
import { nodePlatform } from './platform-node.ts';
import { createApi } from './api.ts';
import { serve } from './rpc.ts';

if (!parentPort) throw new Error('node.worker must run in a worker thread');
const port = parentPort;
const endpoint = {
  postMessage: (m: unknown) => port.postMessage(m),
  addEventListener: (_: 'message', l: (e: { data: unknown }) => void) => port.on('message', (data) => l({ data })),
};
let emit: (e: unknown) => void = () => {};
const api = createApi(nodePlatform, (e) => emit(e));
emit = serve(api, endpoint);
