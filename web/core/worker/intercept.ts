/**
 * Counting the WebAssembly of modules of yours: while installed, every module compiled through
 * `WebAssembly.compile`, `compileStreaming`, `instantiate`, `instantiateStreaming` or
 * `new WebAssembly.Module` is compiled from a copy the counter rewrote (wasm/counter), and every
 * instance made of one (`instantiate`, `new WebAssembly.Instance`) adds its counter to the total.
 * Only the counting pass's worker installs it, before it imports the modules (one may
 * instantiate at import), and the built-in backends load past it (`bypass`); timed workers never
 * see it. A case's count is the total's change while it runs, so it holds however a module
 * spreads its work across instances.
 * @module
 */

/** The counter's JavaScript surface (wasm/counter built with wasm-bindgen). */
export interface Counter {
  instrument(wasm: Uint8Array): Uint8Array;
  /** The name of the exported i64 global that the rewritten module counts into. */
  exportName: string;
  /** The constant-time trace's copy of a module (ct.ts), where the platform offers it. */
  trace?(wasm: Uint8Array): Uint8Array;
}

export interface Interception {
  /** Executed operations, summed over every counted instance made so far. */
  total(): bigint;
  /** How many counted instances were made (a module may make none, or the platform one of its own: Node's fetch does). */
  instances(): number;
  /** Runs `load` with WebAssembly as it was (the built-in backends: the cores are counted their own way). */
  bypass<T>(load: () => Promise<T>): Promise<T>;
  /** Puts WebAssembly back as it was. */
  uninstall(): void;
}

type Bytes = ArrayBuffer | ArrayBufferView;

const isModule = (x: unknown): x is WebAssembly.Module => x instanceof WebAssembly.Module;
const asBytes = (b: Bytes) => (b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength).slice());

export function interceptWebAssembly(counter: Counter): Interception {
  const W = WebAssembly;
  const original = {
    compile: W.compile,
    compileStreaming: W.compileStreaming,
    instantiate: W.instantiate,
    instantiateStreaming: W.instantiateStreaming,
    Module: W.Module,
    Instance: W.Instance,
  };
  // A set: an engine's own instantiate may come back through the Instance constructor (Node's did).
  const globals = new Set<WebAssembly.Global>();
  let bypassed = 0;
  const counting = () => bypassed === 0;
  const rewrite = (b: Bytes) => (counting() ? counter.instrument(asBytes(b)) : b);
  const keep = (instance: WebAssembly.Instance) => {
    const g = instance.exports[counter.exportName];
    if (counting() && g instanceof W.Global) globals.add(g);
    return instance;
  };
  const bytesOf = async (source: Response | PromiseLike<Response>) => {
    const res = await source;
    if (!res.ok) throw new TypeError(`WebAssembly: HTTP ${res.status} for ${res.url}`);
    return new Uint8Array(await res.arrayBuffer());
  };

  W.compile = (b: Bytes) => original.compile(rewrite(b) as BufferSource);
  W.compileStreaming = async (source) => original.compile(rewrite(await bytesOf(source)) as BufferSource);
  W.instantiate = (async (source: Bytes | WebAssembly.Module, imports?: WebAssembly.Imports) => {
    if (isModule(source)) return keep(await original.instantiate(source, imports));
    const made = await original.instantiate(rewrite(source) as BufferSource, imports);
    keep(made.instance);
    return made;
  }) as typeof W.instantiate;
  W.instantiateStreaming = async (source, imports) => {
    const made = await original.instantiate(rewrite(await bytesOf(source)) as BufferSource, imports);
    keep(made.instance);
    return made;
  };
  // Constructors stay themselves to `instanceof` and to their prototypes: a proxy rewrites the bytes.
  W.Module = new Proxy(original.Module, { construct: (target, [b, ...rest]) => Reflect.construct(target, [rewrite(b), ...rest]) });
  W.Instance = new Proxy(original.Instance, { construct: (target, args) => keep(Reflect.construct(target, args)) });

  return {
    total: () => [...globals].reduce((sum, g) => sum + (g.value as bigint), 0n),
    instances: () => globals.size,
    async bypass(load) {
      bypassed++;
      try {
        return await load();
      } finally {
        bypassed--;
      }
    },
    uninstall: () => void Object.assign(W, original),
  };
}
