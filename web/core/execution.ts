/**
 * The execution mode a run ran in. A browser can run with WebAssembly off (Safari's Lockdown
 * Mode, Chromium's `--jitless`, a policy), interpreted (WebKit without its JIT), or with
 * JavaScript but not its optimising compiler (Chrome's and Edge's per-site "JavaScript
 * optimizer" switch, Edge's enhanced security, Firefox without Ion): every figure is then a
 * different population, up to fifty times slower, and must neither be read as the device's nor
 * mixed into the crowd's medians.
 *
 * Detected, not guessed from names, by a property of compiled code that no host's clock or load
 * changes: a CPU overlaps independent work. One loop runs four steps of a linear congruential
 * generator (`x = x·a + c`, 32-bit) as one dependent chain, its twin the same operations as four
 * independent chains. Compiled (even by a baseline WebAssembly compiler), the chain is 3–4×
 * slower than the four, as the multiplier's latency says it must be; an interpreter pays per
 * operation and runs both alike (1.0×), a JavaScript baseline compiler about 1.1–1.3×. Measured
 * on this project's machine in Chromium, Firefox, WebKitGTK and Node, each in every mode it
 * can be started in (docs/methodology.md, "Execution modes"). The pair runs in JavaScript and in a 226-byte
 * WebAssembly module.
 * @module
 */

/** `standard`: WebAssembly compiled and JavaScript optimised; anything else is a population of its own. */
export const EXECUTION_MODES = ['standard', 'no-js-optimizer', 'wasm-interpreted', 'wasm-off'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export interface Execution {
  mode: ExecutionMode;
  /** WebAssembly compiled, interpreted, or off (absent, or refused by a policy). */
  wasm: 'compiled' | 'interpreted' | 'off';
  /** JavaScript ran optimised (its chains overlapped). */
  jsOptimizer: boolean;
  /** The dependent chain's time over the independent chains' in JavaScript: about 1 interpreted, 3–4 compiled. */
  jsOverlap: number;
  /** The same in WebAssembly, or null when it is off. */
  wasmOverlap: number | null;
  /** ns per dependent step in JavaScript, warm (the fastest of three windows). */
  jsNsPerStep: number;
  /** The same in WebAssembly, or null when it is off. */
  wasmNsPerStep: number | null;
}

/** A dependent chain at least this much slower than independent ones: the code was compiled and optimised. */
export const COMPILED_OVERLAP = 1.8;

export const EXECUTION_LABELS: Readonly<Record<ExecutionMode, string>> = Object.freeze({
  standard: 'standard (WebAssembly compiled, JavaScript optimised)',
  'no-js-optimizer':
    'JavaScript without its optimising compiler (a security setting or flag): pure-JavaScript figures are several times slower than this device can do',
  'wasm-interpreted':
    'WebAssembly interpreted, no JIT (a security setting or flag): WebAssembly and JavaScript figures are many times slower than this device can do',
  'wasm-off': 'WebAssembly is off (Lockdown Mode, --jitless or a policy): only implementations without it ran (Web Crypto, pure JavaScript)',
});

/** The probe module's source; `PROBE_WASM` is its binary (a test compiles this text and compares). */
export const PROBE_WAT = `(module
 (func (export "dep") (param $n i32) (param $x i32) (result i32)
  (loop $l
   (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
   (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
  (local.get $x))
 (func (export "ind") (param $n i32) (param $x i32) (result i32) (local $y i32) (local $z i32) (local $w i32)
  (local.set $y (local.get $x)) (local.set $z (local.get $x)) (local.set $w (local.get $x))
  (loop $l
   (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $y (i32.add (i32.mul (local.get $y) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $z (i32.add (i32.mul (local.get $z) (i32.const 1103515245)) (i32.const 12345)))
   (local.set $w (i32.add (i32.mul (local.get $w) (i32.const 1103515245)) (i32.const 12345)))
   (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
  (i32.xor (i32.xor (local.get $x) (local.get $y)) (i32.xor (local.get $z) (local.get $w)))))`;

// prettier-ignore
export const PROBE_WASM = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x03, 0x03, 0x02, 0x00, 0x00,
  0x07, 0x0d, 0x02, 0x03, 0x64, 0x65, 0x70, 0x00, 0x00, 0x03, 0x69, 0x6e, 0x64, 0x00, 0x01, 0x0a, 0xba, 0x01, 0x02, 0x50, 0x00, 0x03,
  0x40, 0x20, 0x01, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x01, 0x41, 0xed, 0x9c,
  0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x01, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9,
  0xe0, 0x00, 0x6a, 0x21, 0x01, 0x20, 0x01, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x01, 0x20,
  0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x01, 0x0b, 0x67, 0x01, 0x03, 0x7f, 0x20, 0x01, 0x21, 0x02, 0x20, 0x01,
  0x21, 0x03, 0x20, 0x01, 0x21, 0x04, 0x03, 0x40, 0x20, 0x01, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a,
  0x21, 0x01, 0x20, 0x02, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x02, 0x20, 0x03, 0x41, 0xed,
  0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41, 0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x03, 0x20, 0x04, 0x41, 0xed, 0x9c, 0x99, 0x8e, 0x04, 0x6c, 0x41,
  0xb9, 0xe0, 0x00, 0x6a, 0x21, 0x04, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x01, 0x20, 0x02, 0x73, 0x20,
  0x03, 0x20, 0x04, 0x73, 0x73, 0x0b,
];

/** `n` iterations (n ≥ 1) of four LCG steps from `x`. */
type Loop = (n: number, x: number) => number;
export interface ProbeLoops {
  dep: Loop;
  ind: Loop;
}

const A = 1103515245;
const C = 12345;
/** The pair in JavaScript: only ever called from here, so their call sites stay monomorphic. */
const JS_LOOPS: ProbeLoops = {
  dep(n, x) {
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, A) + C) | 0;
      x = (Math.imul(x, A) + C) | 0;
      x = (Math.imul(x, A) + C) | 0;
      x = (Math.imul(x, A) + C) | 0;
    }
    return x;
  },
  ind(n, x) {
    let y = x;
    let z = x;
    let w = x;
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, A) + C) | 0;
      y = (Math.imul(y, A) + C) | 0;
      z = (Math.imul(z, A) + C) | 0;
      w = (Math.imul(w, A) + C) | 0;
    }
    return x ^ y ^ z ^ w;
  },
};

/** The pair in WebAssembly, or null when WebAssembly is absent or refused (a CSP without wasm-unsafe-eval). */
export function wasmLoops(): ProbeLoops | null {
  try {
    const W = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
    if (typeof W !== 'object' || W === null) return null;
    const { exports } = new W.Instance(new W.Module(new Uint8Array(PROBE_WASM)));
    const loops = { dep: exports.dep as Loop, ind: exports.ind as Loop };
    return loops.dep(3, 1) === JS_LOOPS.dep(3, 1) && loops.ind(3, 1) === JS_LOOPS.ind(3, 1) ? loops : null;
  } catch {
    return null;
  }
}

const CHUNK = 1024;

/**
 * How many windows each loop is timed in; the fastest counts. Many short windows, not a few long
 * ones: where other processes take the cores in bursts, three windows of 4 ms let every window of
 * the dependent chain fall in a slow stretch while one of the independent chains' fell in a fast
 * one, and an interpreter's flat pair read 1.8–3.6. Node `--jitless` beside two processes busy
 * 2–8 ms and idle 1–8 ms on two cores: 20 of 905 tries in one hour, 6 of 1262 in the next; CI
 * once called WebKit without its JIT "no-js-optimizer" so, its WebAssembly interpreter read
 * compiled twice in a row. Twelve windows of 1 ms, the same time in all, read none of 2053 tries
 * that high (at most 1.58), beside them under the same loads.
 */
const WINDOWS = 12;

/** A window lasts this many timer steps (quantisation 2 %), and at least WINDOW_MIN_MS. */
const WINDOW_STEPS = 50;
const WINDOW_MIN_MS = 1;

/** Runs each of `loops` for `warmMs`, so that the windows after time warm code. */
function warm(loops: readonly Loop[], warmMs: number): void {
  let x = 1;
  for (const loop of loops) {
    const t0 = performance.now();
    while (performance.now() - t0 < warmMs) x = loop(CHUNK, x);
  }
  if (x === 0.5) throw new Error('unreachable');
}

/**
 * ns per iteration of each of `loops`: timed in WINDOWS windows of `windowMs` taken in turn
 * (one of each, then again), every window's and the fastest of each. In turn, so that
 * a busy host's share of the core falls on every loop alike: timed one after the other, the
 * dependent chain once drew a third of the core and the independent one all of it, and an
 * interpreter's flat pair read 2.0× overlapping twice in a row (four busy loops on two cores).
 */
function nsPerIteration(loops: readonly Loop[], windowMs: number): { best: number[]; windows: number[][] } {
  let x = 1;
  const best = loops.map(() => Infinity);
  const windows: number[][] = loops.map(() => []);
  for (let w = 0; w < WINDOWS; w++) {
    // Forward, then backward (ABBA): a host that hands out its core in slices as long as a window
    // would otherwise favour the loop that always comes first.
    const order = loops.map((_, i) => (w % 2 === 0 ? i : loops.length - 1 - i));
    order.forEach((i) => {
      const loop = loops[i]!;
      let calls = 0;
      const s = performance.now();
      let e = s;
      do {
        x = loop(CHUNK, x);
        calls++;
        e = performance.now();
      } while (e - s < windowMs);
      const ns = ((e - s) * 1e6) / (calls * CHUNK);
      windows[i]!.push(ns);
      best[i] = Math.min(best[i]!, ns);
    });
  }
  // The loop's result decides nothing, but an engine may not drop what it returns.
  if (x === 0.5) throw new Error('unreachable');
  return { best, windows };
}

/**
 * How long the probe keeps trying before it calls code uncompiled. Optimising compilers work on
 * a helper thread (SpiderMonkey's Ion, V8's TurboFan): on a machine whose cores are all busy,
 * the optimised code may arrive hundreds of milliseconds late, and a probe that judged after its
 * first warm-up called a standard Firefox "no-js-optimizer" while a test suite loaded both cores.
 * Compiled code shows up as soon as it is there, so a standard engine pays two tries (about
 * 0.1 s each); only a setting that really lacks the compiler pays the whole patience.
 */
export const PROBE_PATIENCE_MS = 1000;

/** How many times compiled WebAssembly's time per dependent step JavaScript's may take and still count as optimised. */
export const JS_AS_FAST = 2;

/**
 * How many times compiled WebAssembly's time per dependent step JavaScript's may take at most and
 * still be called optimised for its overlap. Interpreters and baseline tiers take 10–50×; on a
 * loaded host a baseline tier's chains once read 1.92× overlapping at 18× WebAssembly's step
 * (the dependent chain's windows preempted), and noise of that kind does not make them faster.
 */
export const JS_AT_MOST = 5;

/**
 * The dependent chain's time over the independent chains', window by window (each pair taken
 * back to back), the median of those ratios: a ratio of each loop's fastest window let one
 * lucky window of the independent chains, against twelve preempted ones of the dependent
 * chain, read an interpreter's flat pair 1.8-1.95 in about 1 of 150 tries beside two bursty
 * processes (execution.test.ts, AMD EPYC), and 24 windows did not stop it.
 */
function pairedOverlap(dep: readonly number[], ind: readonly number[]): number {
  const r = dep.map((d, w) => d / ind[w]!).sort((a, b) => a - b);
  const m = r.length >> 1;
  return r.length % 2 ? r[m]! : Math.sqrt(r[m - 1]! * r[m]!);
}

/**
 * The overlap of a pair of loops, tried until two tries in a row read compiled, one reads fast
 * enough, or the patience is spent. `reference` (the WebAssembly pair, when JavaScript is
 * probed) is timed in the same windows, in turn, and what the judges compare with is its fastest
 * step so far: measured once before, it could have drawn a third of the core where JavaScript
 * then drew all of it, and an interpreter's 5× WebAssembly's step read 1.7× (fast enough).
 */
function overlapOf(
  loops: ProbeLoops,
  warmMs: number,
  windowMs: number,
  patienceMs: number,
  judges: {
    reference?: Loop;
    fastEnough?: (nsPerStep: number, referenceNs: number) => boolean;
    plausible?: (nsPerStep: number, referenceNs: number) => boolean;
  } = {},
  onTry?: (overlap: number) => void,
): { overlap: number; nsPerStep: number; referenceNs: number } {
  const t0 = performance.now();
  const tries: { overlap: number; nsPerStep: number }[] = [];
  let referenceNs = Infinity;
  const fastEnough = (ns: number) => judges.fastEnough?.(ns, referenceNs) ?? false;
  const plausible = (ns: number) => judges.plausible?.(ns, referenceNs) ?? true;
  for (;;) {
    warm([loops.dep, loops.ind], warmMs);
    const timed = nsPerIteration(judges.reference ? [loops.dep, loops.ind, judges.reference] : [loops.dep, loops.ind], windowMs);
    const [dep, , ref] = timed.best as [number, number, number?];
    if (ref !== undefined) referenceNs = Math.min(referenceNs, ref / 4);
    const overlap = pairedOverlap(timed.windows[0]!, timed.windows[1]!);
    tries.push({ overlap, nsPerStep: dep / 4 });
    onTry?.(overlap);
    // Compiled once two tries in a row overlap: one try alone can, by noise, where nothing is
    // compiled (an interpreter's 1.0–1.3 read 1.9 once in fifteen tries under load).
    const [prev, last] = tries.slice(-2);
    const compiled = (t: { overlap: number; nsPerStep: number }) => t.overlap >= COMPILED_OVERLAP && plausible(t.nsPerStep);
    if (prev && last && compiled(prev) && compiled(last)) return { ...(prev.overlap < last.overlap ? prev : last), referenceNs };
    if (last && fastEnough(last.nsPerStep)) return { ...last, referenceNs };
    // Out of patience: the typical try, not the luckiest.
    if (performance.now() - t0 >= patienceMs) return { ...[...tries].sort((a, b) => a.overlap - b.overlap)[(tries.length - 1) >> 1]!, referenceNs };
  }
}

/**
 * Probes the execution mode: about a quarter of a second, once per run. `timerResolutionMs` sets how long a
 * window lasts (WINDOW_STEPS timer steps, at least WINDOW_MIN_MS). `loops` replaces the probe's loops,
 * and `loops.onTry` hears every try's overlap (tests).
 */
export function probeExecution(
  timerResolutionMs: number,
  loops: { js?: ProbeLoops; wasm?: ProbeLoops | null; onTry?: (loops: 'js' | 'wasm', overlap: number) => void } = {},
  patienceMs = PROBE_PATIENCE_MS,
): Execution {
  const windowMs = Math.max(WINDOW_MIN_MS, WINDOW_STEPS * timerResolutionMs);
  const wasmPair = loops.wasm === undefined ? wasmLoops() : loops.wasm;
  const wasm = wasmPair ? overlapOf(wasmPair, 10, windowMs, patienceMs, {}, (o) => loops.onTry?.('wasm', o)) : null;
  const wasmState = !wasm ? 'off' : wasm.overlap >= COMPILED_OVERLAP ? 'compiled' : 'interpreted';
  // A dependent JavaScript step as fast as compiled WebAssembly's (within JS_AS_FAST) is
  // optimised code whatever its overlap: under a loaded CI, Firefox ran the dependent chain at
  // WebAssembly's 1.5 ns per step while its independent chains had not caught up (overlap 1.2).
  // Baseline compilers and interpreters take 10–50× as long per step.
  // Against compiled WebAssembly's dependent step, timed beside JavaScript's (overlapOf), the
  // fastest of it and of the WebAssembly probe's own.
  const compiledWasm = wasmState === 'compiled';
  const refNs = (timedBeside: number) => Math.min(wasm!.nsPerStep, timedBeside);
  const fastEnough = (ns: number, beside: number) => compiledWasm && ns <= JS_AS_FAST * refNs(beside);
  // Overlapping chains count as optimised only at a step no slower than optimised code takes.
  const plausible = (ns: number, beside: number) => !compiledWasm || ns <= JS_AT_MOST * refNs(beside);
  const js = overlapOf(loops.js ?? JS_LOOPS, 20, windowMs, patienceMs, compiledWasm ? { reference: wasmPair!.dep, fastEnough, plausible } : {}, (o) =>
    loops.onTry?.('js', o),
  );
  const jsOptimizer = (js.overlap >= COMPILED_OVERLAP && plausible(js.nsPerStep, js.referenceNs)) || fastEnough(js.nsPerStep, js.referenceNs);
  const mode: ExecutionMode =
    wasmState === 'off' ? 'wasm-off' : wasmState === 'interpreted' ? 'wasm-interpreted' : jsOptimizer ? 'standard' : 'no-js-optimizer';
  return {
    mode,
    wasm: wasmState,
    jsOptimizer,
    jsOverlap: js.overlap,
    wasmOverlap: wasm?.overlap ?? null,
    jsNsPerStep: js.nsPerStep,
    wasmNsPerStep: wasm ? refNs(js.referenceNs) : null,
  };
}
