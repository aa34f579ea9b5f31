/**
 * A module's thread of its own in a browser (apart.ts), started by the page instead of by the
 * measuring worker. In Firefox a worker that constructs a worker can block in that constructor
 * for good: in about one run in ten on a loaded 2-core host, the fourth of four threads started
 * at once never returned from `new Worker`, and a blocked worker runs nothing, not even the
 * limit that was to stop it (bench.worker.ts). The page starts workers without that. So the
 * measuring worker opens a MessageChannel and sends one end to the page in a 'thread' event;
 * the page starts a benchmark worker and hands it that end (run/session.ts); the thread answers
 * calls over it as over its own port.
 * @module
 */
import { type WorkerHandle, eventMessage } from './rpc.ts';
import type { WorkerEvent } from './types.ts';

/** What the page sends a benchmark worker it starts as a module's thread: the end of the channel to answer on. */
export type ThreadPort = { threadPort: MessagePort };
/** What the page sends the measuring worker when a thread it started failed (did not load, threw): the thread's calls fail with it. */
export type ThreadFailed = { threadFailed: number; message: string };

type Scope = {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
};

let next = 1;
const failures = new Map<number, (message: string) => void>();
const listening = new WeakSet<Scope>();

/** In the measuring worker: a module's thread, started by the page, reached over a channel. */
export function threadFromPage(scope: Scope = self as unknown as Scope): WorkerHandle {
  if (!listening.has(scope)) {
    listening.add(scope);
    scope.addEventListener('message', (e) => {
      const d = e.data as Partial<ThreadFailed> | null;
      if (typeof d?.threadFailed === 'number') failures.get(d.threadFailed)?.(d.message ?? '');
    });
  }
  const id = next++;
  const { port1, port2 } = new MessageChannel();
  const onError: ((e: { message?: string }) => void)[] = [];
  // A failure told before anyone listens is kept for who listens later.
  let failed: string | null = null;
  failures.set(id, (message) => {
    failed = message;
    onError.forEach((l) => l({ message }));
  });
  const send = (event: WorkerEvent, transfer: Transferable[] = []) => scope.postMessage(eventMessage(event), transfer);
  send({ type: 'thread', id, port: port1 }, [port1]);
  port2.start();
  return {
    postMessage: (m) => port2.postMessage(m),
    addEventListener: ((type: 'message' | 'error', l: (e: { data?: unknown; message?: string }) => void) => {
      if (type === 'message') port2.addEventListener('message', l);
      else {
        onError.push(l);
        if (failed !== null) l({ message: failed });
      }
    }) as WorkerHandle['addEventListener'],
    terminate: () => {
      failures.delete(id);
      port2.close();
      send({ type: 'thread-stop', id });
    },
  };
}
