// Execution modes (execution.ts): detected by whether dependent steps run slower than
// independent ones, proven here in Node started with the V8 flags that turn WebAssembly or the
// optimiser off (browsers in e2e/execution.spec.ts).
import binaryen from 'binaryen';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { COMPILED_OVERLAP, PROBE_WASM, PROBE_WAT, type ProbeLoops, probeExecution, wasmLoops } from '../execution.ts';

const script = fileURLToPath(new URL('./execution-run.ts', import.meta.url));
/** The script in a fresh Node with `flags`: its one line of JSON. */
function inNode(flags: string[], ...args: string[]) {
  const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/**
 * Runs `body` with performance.now() on a clock that only loops made by its `loop(nsPerStep)`
 * advance (n steps cost n · nsPerStep): the probe then times the code's shape, never the host.
 */
function ownClock<T>(body: (loop: (nsPerStep: number) => ProbeLoops['ind']) => T): T {
  let now = 0;
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
  try {
    return body((nsPerStep) => (n, x) => ((now += (n * nsPerStep) / 1e6), x));
  } finally {
    clock.mockRestore();
  }
}

describe('the execution-mode probe', () => {
  it('ships the module its text describes, whose two loops compute what the JavaScript ones do', () => {
    const m = binaryen.parseText(PROBE_WAT);
    expect(m.validate()).toBeTruthy();
    expect([...m.emitBinary()]).toEqual(PROBE_WASM);
    const wasm = wasmLoops()!;
    let x = 7;
    for (let i = 0; i < 4 * 5; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    expect(wasm.dep(5, 7)).toBe(x);
    expect(wasm.ind(5, 7)).toBe(x ^ x ^ x ^ x);
  });

  it('calls a run without WebAssembly wasm-off', () => {
    const e = probeExecution(0.001, { wasm: null });
    expect(e).toMatchObject({ mode: 'wasm-off', wasm: 'off', wasmOverlap: null, wasmNsPerStep: null });
  });

  // The decisions below are made on a clock the loops advance themselves (ownClock), so they follow
  // the code's shape alone: with both cores busy, real loops of an interpreter's flat pair read
  // 2.3× in most of three probes, and compiled WebAssembly's pair 1.7×, and which reading wins is
  // then the host's, not this probe's logic. Real loops are measured in the tests after them.
  it(`reads loops whose chains do not overlap (under ${COMPILED_OVERLAP}×) as uncompiled: JavaScript no-js-optimizer, WebAssembly wasm-interpreted`, () => {
    ownClock((loop) => {
      const compiled: ProbeLoops = { dep: loop(1), ind: loop(0.3) }; // independent chains overlap 3.3×
      const interpreted: ProbeLoops = { dep: loop(20), ind: loop(20) }; // every step alike, twenty times slower
      const js = probeExecution(0.001, { js: interpreted, wasm: compiled });
      expect(js).toMatchObject({ mode: 'no-js-optimizer', wasm: 'compiled', jsOptimizer: false });
      expect(js.jsOverlap).toBeLessThan(COMPILED_OVERLAP);
      expect(probeExecution(0.001, { js: compiled, wasm: interpreted })).toMatchObject({ mode: 'wasm-interpreted', wasm: 'interpreted', jsOptimizer: true });
      expect(probeExecution(0.001, { js: compiled, wasm: compiled })).toMatchObject({ mode: 'standard', wasm: 'compiled', jsOptimizer: true });
    });
  });

  it('waits for an optimiser that compiles late (a helper thread on busy cores), and calls the code uncompiled only once its patience is spent', () => {
    ownClock((loop) => {
      const compiled: ProbeLoops = { dep: loop(1), ind: loop(0.3) };
      const interpreted: ProbeLoops = { dep: loop(20), ind: loop(20) };
      // Runs alike for its first 150 ms of use, then overlaps: optimised code that arrived late.
      // The 150 ms count from the loop's first call, not from its making.
      const late = (): ProbeLoops => {
        let start: number | undefined;
        const early = () => performance.now() - (start ??= performance.now()) < 150;
        return {
          dep: (n, x) => (early() ? interpreted.dep(n, x) : compiled.dep(n, x)),
          ind: (n, x) => (early() ? interpreted.ind(n, x) : compiled.ind(n, x)),
        };
      };
      const patient = probeExecution(0.001, { js: late(), wasm: late() });
      expect(patient, JSON.stringify(patient)).toMatchObject({ mode: 'standard', wasm: 'compiled', jsOptimizer: true });
      const hasty = probeExecution(0.001, { js: late(), wasm: compiled }, 0);
      expect(hasty.mode).toBe('no-js-optimizer');
    });
  });

  it('does not call JavaScript optimised for chains that overlap at an interpreter’s step (noise on a loaded host), 20 times compiled WebAssembly’s', () => {
    ownClock((loop) => {
      // The chains overlap as compiled code's do, but every step costs twenty of WebAssembly's.
      const e = probeExecution(0.001, { js: { dep: loop(20), ind: loop(6) }, wasm: { dep: loop(1), ind: loop(0.3) } }, 200);
      expect(e.jsOverlap, JSON.stringify(e)).toBeGreaterThan(COMPILED_OVERLAP);
      expect(e, JSON.stringify(e)).toMatchObject({ mode: 'no-js-optimizer', jsOptimizer: false });
    });
  });

  it('calls JavaScript optimised when its dependent step is as fast as compiled WebAssembly’s, even before its independent chains overlap', () => {
    ownClock((loop) => {
      // Optimised dependent chain, independent chains not (yet) optimised: they run alike, fast.
      const e = probeExecution(0.001, { js: { dep: loop(1), ind: loop(1) }, wasm: { dep: loop(1), ind: loop(0.3) } });
      expect(e, JSON.stringify(e)).toMatchObject({ mode: 'standard', jsOptimizer: true });
      expect(e.jsOverlap).toBeLessThan(COMPILED_OVERLAP);
    });
  });

  it('finds this Node standard, chains overlapping (3–4× on a quiet host, as a multiplier’s latency says); with --max-opt=0 JavaScript runs them alike', () => {
    const here = probeExecution(0.001);
    expect(here.mode, JSON.stringify(here)).toBe('standard');
    expect(here.wasmOverlap!).toBeGreaterThan(COMPILED_OVERLAP);
    const interp = inNode(['--max-opt=0'], 'probe');
    expect(interp.mode, JSON.stringify(interp)).toBe('no-js-optimizer');
    expect(interp.jsOverlap).toBeLessThan(1.5);
  });

  it('calls an interpreter an interpreter while two other processes take both cores in bursts (busy 3 ms, idle 1 ms)', () => {
    // Three windows of 4 ms read an interpreter's flat pair 1.8–3.6 in 0.5–2 % of tries under
    // such loads, and CI once called WebKit's WebAssembly interpreter compiled so (execution.ts WINDOWS).
    const burst = 'const s=new Int32Array(new SharedArrayBuffer(4));for(;;){const t=performance.now();while(performance.now()-t<3);Atomics.wait(s,0,0,1)}';
    const load = [0, 1].map(() => spawn(process.execPath, ['-e', burst], { stdio: 'ignore' }));
    try {
      const r: { tries: number[]; modes: string[] } = inNode(['--jitless'], 'tries', '15');
      const high = r.tries.filter((o) => o >= COMPILED_OVERLAP);
      expect(r.tries.length).toBeGreaterThan(100);
      // The decision is the behaviour: every try's mode. How many single windows read high is
      // the host's load (0 here quiet, a few on a fresh clone at load 10), printed, not bounded.
      console.log(`execution: ${high.length} of ${r.tries.length} tries read ${COMPILED_OVERLAP}× or more under the bursts`);
      expect(new Set(r.modes)).toEqual(new Set(['wasm-off']));
    } finally {
      for (const p of load) p.kill();
    }
  }, 120_000);
});

describe('a run in a restricted execution mode', () => {
  it('with WebAssembly off (--jitless) runs what needs none, names what was skipped and why, and says so first in the verdict', () => {
    const r = inNode(['--jitless']);
    expect(r.execution.mode).toBe('wasm-off');
    expect(r.cases).toContain('webcrypto');
    expect(r.cases).toContain('noble');
    expect(r.cases).not.toContain('rustcrypto-wasm');
    expect(r.skipped).toContainEqual({ what: 'rustcrypto-wasm', reason: expect.stringContaining('WebAssembly is off') });
    expect(r.warnings.join('\n')).toContain("kept out of the crowd's medians");
    expect(r.verdict).toMatch(/^Measured with WebAssembly off/);
  });

  it('without the optimising compiler (--max-opt=0) runs everything and says the JavaScript figures are not the device’s best', () => {
    const r = inNode(['--max-opt=0']);
    expect(r.execution.mode).toBe('no-js-optimizer');
    expect(r.cases).toContain('rustcrypto-wasm');
    expect(r.cases).toContain('noble');
    expect(r.verdict).toMatch(/^Measured without the optimising JavaScript compiler/);
  });
});
