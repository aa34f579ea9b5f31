/**
 * A tiny typed RPC over postMessage. The client's type comes from the worker's API object
 * itself (`typeof api`), so the two sides cannot drift; events flow back through `onEvent`.
 * Cancelling means terminating the worker: the only way to stop synchronous WASM.
 * @module
 */

type AnyFn = (...args: never[]) => unknown;
export type Api = Record<string, AnyFn>;
type Call = { id: number; method: string; args: unknown[] };
type Reply = { id: number; result?: unknown; error?: { message: string; kind?: string } } | { event: unknown };

export interface Endpoint {
  /** `transfer`: what moves with the message (a MessagePort: worker/page-thread.ts); Node's threads take none. */
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
}

/** A worker seen from its owner: it can also fail (a module that does not load, a crash). */
export interface WorkerEndpoint extends Endpoint {
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
  addEventListener(type: 'error', listener: (e: { message?: string }) => void): void;
}

/** A worker the client starts and stops: the endpoint, and a way to end it. */
export interface WorkerHandle extends WorkerEndpoint {
  terminate(): void;
}

/** How an event travels from a worker to its client (serve's `emit`; page-thread.ts's requests to the page). */
export const eventMessage = (event: unknown): Reply => ({ event });

/** Worker side: answers calls on `api`; `emit` sends an event to the client. */
export function serve(api: Api, endpoint: Endpoint): (event: unknown) => void {
  const emit = (event: unknown) => endpoint.postMessage(eventMessage(event));
  endpoint.addEventListener('message', async (e) => {
    const { id, method, args } = e.data as Call;
    if (typeof id !== 'number') return; // not a call (e.g. a control message handled elsewhere)
    try {
      const fn = api[method] as (...a: unknown[]) => unknown;
      if (!fn) throw new Error(`unknown worker method '${method}'`);
      endpoint.postMessage({ id, result: await fn(...args) });
    } catch (err) {
      const e2 = err as Error & { kind?: string };
      endpoint.postMessage({ id, error: { message: e2?.message ?? String(err), kind: e2?.kind } });
    }
  });
  return emit;
}

export type Remote<A extends Api> = {
  [K in keyof A]: (...args: Parameters<A[K]>) => Promise<Awaited<ReturnType<A[K]>>>;
};

/** Client side: a proxy whose methods post calls and resolve with the replies. */
export function connect<A extends Api>(endpoint: Endpoint | WorkerEndpoint, onEvent: (event: unknown) => void = () => {}): Remote<A> {
  let next = 1;
  let failure: Error | null = null;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  // A worker that fails rejects every call in flight and every later one, instead of hanging.
  (endpoint as WorkerEndpoint).addEventListener('error', (e) => {
    failure = new Error(`the benchmark worker failed: ${e?.message || 'it could not be loaded'}`);
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  });
  endpoint.addEventListener('message', (e) => {
    const reply = e.data as Reply;
    if ('event' in reply) return onEvent(reply.event);
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.error) p.reject(Object.assign(new Error(reply.error.message), { kind: reply.error.kind }));
    else p.resolve(reply.result);
  });
  return new Proxy({} as Remote<A>, {
    get:
      (_, method: string) =>
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          if (failure) return reject(failure);
          const id = next++;
          pending.set(id, { resolve, reject });
          endpoint.postMessage({ id, method, args });
        }),
  });
}

/** What `deadline` resolves with when the call did not answer in time. */
export const LATE = Symbol('late');

/**
 * A call to a worker, awaited at most `ms`: its answer, or LATE after `onLate` ran (stop the
 * worker there: synchronous code cannot be interrupted otherwise). A rejection passes through.
 */
export function deadline<T>(p: Promise<T>, ms: number, onLate: () => void = () => {}): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => (onLate(), resolve(LATE)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
