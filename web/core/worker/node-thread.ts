/**
 * A benchmark worker thread in Node, from the sources (tsx) or from the package: what the run
 * starts for each pass (node.ts), and what a measuring worker starts as a module's thread of its
 * own (platform-node.ts startThread, apart.ts).
 * @module
 */
import { Worker } from 'node:worker_threads';
import type { WorkerHandle } from './rpc.ts';

/** From the sources (tsx, the repository's CLI): register tsx's loader in the thread first. */
function sourceWorker(): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./node.worker.ts', import.meta.url).href;
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
}

/**
 * From the package: the .js worker, started without the caller's Node options (`execArgv: []`;
 * V8's flags are the process's and stay). A worker inherits them otherwise, and with them the
 * module hooks of a loader the caller's script was started with: under tsx, loading SJCL,
 * node-forge or asmcrypto.js through its hooks detached a buffer in the measuring thread, and
 * V8 then checks every typed-array access of that thread (wasm/heap/src/lib.rs), so a module
 * of yours ran slower than in your own code. Modules of yours are imported as JavaScript.
 */
function packageWorker(): Worker {
  return new Worker(new URL('./node.worker.js', import.meta.url), { execArgv: [] });
}

export function nodeWorker(): WorkerHandle {
  // From the sources (tsx, tests) the worker is the .ts file; from the package, the .js one.
  const w = import.meta.url.endsWith('.ts') ? sourceWorker() : packageWorker();
  let stopped = false;
  return {
    postMessage: (m) => w.postMessage(m),
    addEventListener: ((type: 'message' | 'error', l: (e: { data?: unknown; message?: string }) => void) => {
      if (type === 'message') w.on('message', (data) => l({ data }));
      else {
        w.on('error', (e) => l({ message: e.message }));
        // A thread that ends without throwing (process.exit in a module, an out-of-memory stop) is a
        // failure too: without it the calls in flight would wait for an answer that never comes.
        w.on('exit', (code) => void (stopped || l({ message: `its thread ended (exit code ${code})` })));
      }
    }) as WorkerHandle['addEventListener'],
    terminate: () => {
      stopped = true;
      void w.terminate();
    },
  };
}
