/**
 * Constant time, checked: TIMECOP's question asked of WebAssembly. A copy of a module traced by
 * the counter (wasm/counter/src/ct.rs) folds every branch condition, indirect-call index and
 * memory address it executes into a hash. One operation is run for several secret classes
 * (different keys and plaintexts of the same public lengths; for decryption, forged tags that
 * differ at different bytes); equal hashes mean no secret decided a branch or an address on the
 * inputs tried. Where two classes differ, the first differing event is found by its number and
 * named by its site (function, code offset, kind).
 *
 * Its scope, said wherever the answer is shown: it checks the WebAssembly, as TIMECOP checks
 * the binary; an engine may compile constant-time WebAssembly into machine code whose time
 * depends on a value, and a trace covers only the inputs tried.
 * @module
 */

/** Where a traced event happened: the function (its name, else `func[index]`), the offset in the code section, what was traced. */
export interface CtSite {
  function: string;
  offset: number;
  kind: string;
}

/** A check's answer for one operation. */
export type CtAnswer =
  | { answer: 'constant-time'; classes: number; events: number }
  | { answer: 'secret-dependent'; classes: number; events: number; event: number; site: CtSite }
  /** The same secret traced twice read differently: the trace depends on state the run leaves behind, and says nothing. */
  | { answer: 'unsteady'; classes: number; events: number };

/** The export names and custom section the traced copy carries (ct.rs). */
export const CT = {
  hash: '__aeadbench_ct_hash',
  events: '__aeadbench_ct_events',
  watch: '__aeadbench_ct_watch',
  watchHash: '__aeadbench_ct_watch_hash',
  watchSite: '__aeadbench_ct_watch_site',
  sites: 'aeadbench.ct.sites',
} as const;

/** The traced copy's globals, from its instance's exports. */
export interface CtGlobals {
  hash: WebAssembly.Global;
  events: WebAssembly.Global;
  watch: WebAssembly.Global;
  watchHash: WebAssembly.Global;
  watchSite: WebAssembly.Global;
}

export function ctGlobals(exports: Record<string, unknown>): CtGlobals {
  const g = (name: string) => {
    const x = exports[name];
    if (!(x instanceof WebAssembly.Global)) throw new Error(`not a traced copy: it exports no global '${name}'`);
    return x;
  };
  return { hash: g(CT.hash), events: g(CT.events), watch: g(CT.watch), watchHash: g(CT.watchHash), watchSite: g(CT.watchSite) };
}

/** The sites of a traced module, by number (its custom section). */
export function ctSites(module: WebAssembly.Module): CtSite[] {
  const [section] = WebAssembly.Module.customSections(module, CT.sites);
  if (!section) throw new Error(`not a traced copy: no '${CT.sites}' section`);
  return (JSON.parse(new TextDecoder().decode(section)) as [string, number, string][]).map(([f, offset, kind]) => ({ function: f, offset, kind }));
}

interface Trace {
  hash: bigint;
  events: bigint;
}

/** Runs `run` from a cleared trace, watching event `watch` (0: none). */
function traced(g: CtGlobals, run: () => void, watch = 0n): Trace & { watchHash: bigint; watchSite: number } {
  g.hash.value = 0n;
  g.events.value = 0n;
  g.watch.value = watch;
  g.watchHash.value = 0n;
  run();
  return { hash: g.hash.value as bigint, events: g.events.value as bigint, watchHash: g.watchHash.value as bigint, watchSite: g.watchSite.value as number };
}

/**
 * Runs one operation for each secret class (`runs`, at least two, all of the same public
 * lengths) and compares their traces. The first class runs again at the end: if it reads
 * otherwise, the trace depends on state (an allocator's, a cache's) and the answer is
 * 'unsteady', never a leak. A run may throw (a forged tag is refused): the trace up to the throw counts.
 */
export function checkClasses(g: CtGlobals, sites: readonly CtSite[], runs: readonly (() => void)[]): CtAnswer {
  if (runs.length < 2) throw new Error(`a constant-time check needs at least two secret classes, not ${runs.length}`);
  const quiet = (run: () => void) => () => {
    try {
      run();
    } catch (e) {
      // A refused forgery: its trace up to the refusal is what is compared. wasm-bindgen's error
      // object holds memory of the module until it is freed: freed now, not when the collector
      // finalizes it, or the allocator's state (and so the trace) would follow the collector.
      (e as { free?: () => void } | null)?.free?.();
    }
  };
  const classes = runs.map(quiet);
  // Once untraced-for, so that what a first call sets up (tables, the allocator's first block) is behind every class alike.
  traced(g, classes[0]!);
  const traces = classes.map((r) => traced(g, r));
  const again = traced(g, classes[0]!);
  const events = Number(traces.reduce((m, t) => (t.events > m ? t.events : m), 0n));
  if (again.hash !== traces[0]!.hash || again.events !== traces[0]!.events) return { answer: 'unsteady', classes: runs.length, events };
  const other = traces.findIndex((t) => t.hash !== traces[0]!.hash || t.events !== traces[0]!.events);
  if (other < 0) return { answer: 'constant-time', classes: runs.length, events };
  // The first event whose running hash differs between class 0 and `other`: in [lo, hi].
  const [a, b] = [classes[0]!, classes[other]!];
  const shorter = traces[0]!.events < traces[other]!.events ? traces[0]!.events : traces[other]!.events;
  let [lo, hi] = [1n, shorter + 1n];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (traced(g, a, mid).watchHash === traced(g, b, mid).watchHash) lo = mid + 1n;
    else hi = mid;
  }
  // Past the shorter trace, the longer one's next event is where they part.
  const longer = traces[0]!.events >= traces[other]!.events ? a : b;
  const at = traced(g, longer, lo);
  const site = sites[at.watchSite];
  if (!site) throw new Error(`event ${lo} has no site (${at.watchSite})`);
  return { answer: 'secret-dependent', classes: runs.length, events, event: Number(lo), site };
}

/** One sentence a visitor understands, with the check's scope. */
export function ctSentence(a: CtAnswer): string {
  switch (a.answer) {
    case 'constant-time':
      return `constant-time: no branch or memory address depended on the key or the message, over ${a.classes} secret classes (${a.events} traced events each); this checks the WebAssembly, not the machine code an engine makes of it`;
    case 'secret-dependent':
      return `secret-dependent: a ${a.site.kind} in ${a.site.function} at +0x${a.site.offset.toString(16)} depended on the secret (event ${a.event} of ${a.events})`;
    case 'unsteady':
      return 'not checked: the same secret traced twice read differently (the trace depends on state the run leaves behind)';
  }
}

/** The glue of a traced copy of the WASM cores: one-shot encrypt and decrypt (wasm-bindgen's surface). */
export interface TracedCores {
  /** The algorithms the build offers, as JSON (`[{ id, … }]`: the cores' own table). */
  algorithms(): string;
  encrypt(algorithm: string, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array;
  decrypt(algorithm: string, key: Uint8Array, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array;
  globals: CtGlobals;
  sites: CtSite[];
}

/** The ids the traced build offers (the cores' own table). */
export const offeredBy = (cores: Pick<TracedCores, 'algorithms'>): string[] => (JSON.parse(cores.algorithms()) as { id: string }[]).map((a) => a.id);

/** Secret bytes of class `k`: random, the same for every run of the class. */
const secret = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/**
 * One case of the cores checked: encrypt over `classes` keys and plaintexts of its lengths (the
 * nonce and the AAD are public: one of each); decrypt over as many valid messages, each under
 * its own key; and decrypt of forged tags, one wrong in its first byte and one in its last,
 * which a comparison that stops at the first difference tells apart.
 */
export function checkCoresCase(
  cores: TracedCores,
  c: { algorithm: string; keyBytes: number; nonceBytes: number; tagBytes: number; sizeBytes: number; aadBytes: number },
  classes = 4,
): { encrypt: CtAnswer; decrypt: CtAnswer; forged: CtAnswer } {
  const nonce = secret(c.nonceBytes);
  const aad = secret(c.aadBytes);
  const inputs = Array.from({ length: classes }, () => ({ key: secret(c.keyBytes), pt: secret(c.sizeBytes) }));
  const sealed = inputs.map((x) => cores.encrypt(c.algorithm, x.key, nonce, aad, x.pt));
  const { key } = inputs[0]!;
  const forge = (at: number) => {
    const f = sealed[0]!.slice();
    f[at] = f[at]! ^ 1;
    return f;
  };
  // The tag closes the sealed message: its first byte, and its last.
  const forgeries = [forge(sealed[0]!.length - c.tagBytes), forge(sealed[0]!.length - 1)];
  return {
    encrypt: checkClasses(
      cores.globals,
      cores.sites,
      inputs.map((x) => () => void cores.encrypt(c.algorithm, x.key, nonce, aad, x.pt)),
    ),
    decrypt: checkClasses(
      cores.globals,
      cores.sites,
      inputs.map((x, i) => () => void cores.decrypt(c.algorithm, x.key, nonce, aad, sealed[i]!)),
    ),
    forged: checkClasses(
      cores.globals,
      cores.sites,
      forgeries.map((f) => () => void cores.decrypt(c.algorithm, key, nonce, aad, f)),
    ),
  };
}
