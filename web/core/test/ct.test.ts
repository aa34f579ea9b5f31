// Constant time, checked (ct.ts; the trace: wasm/counter/src/ct.rs): planted leaks built to
// WebAssembly are flagged by site and kind, code without one reads one trace for every secret,
// a trace that follows state is called unsteady, and every case of the RustCrypto cores is
// checked in both builds (Twofish's key-dependent S-boxes are a leak, and are found).
import binaryen from 'binaryen';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as counter from '../counter/counter.js';
import { checkClasses, checkCoresCase, ctGlobals, ctSentence, ctSites, offeredBy } from '../ct.ts';
import { ALGORITHMS } from '../tables/algorithms.ts';
import { nodePlatform } from '../worker/platform-node.ts';

counter.initSync({ module: readFileSync(new URL('../counter/counter_bg.wasm', import.meta.url)) });

const PLANTED = `(module
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (func $branch_on_key (export "branch_on_key") (param $key i32) (result i32)
    (if (result i32) (i32.and (local.get $key) (i32.const 1)) (then (i32.const 7)) (else (i32.const 9))))
  (func $masked (export "masked") (param $key i32) (result i32)
    (i32.sub (i32.const 9) (i32.shl (i32.and (local.get $key) (i32.const 1)) (i32.const 1))))
  (func $sbox (export "sbox") (param $key i32) (result i32)
    (i32.load8_u offset=256 (i32.and (local.get $key) (i32.const 255))))
  (func $counts_calls (export "counts_calls") (param $key i32) (result i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (result i32) (i32.and (global.get $calls) (i32.const 2)) (then (i32.const 1)) (else (i32.const 2)))))`;

function planted() {
  const m = binaryen.parseText(PLANTED);
  binaryen.setDebugInfo(true); // the name section: sites are named by function
  const bytes = counter.traceConstantTime(m.emitBinary());
  const module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  const exports = new WebAssembly.Instance(module).exports as Record<string, unknown>;
  const fn = (name: string) => exports[name] as (k: number) => number;
  return { g: ctGlobals(exports), sites: ctSites(module), fn };
}

describe('the constant-time check', () => {
  it('flags a branch on a key bit at its if, and a table lookup at its load, naming the function', () => {
    const { g, sites, fn } = planted();
    const branch = checkClasses(
      g,
      sites,
      [2, 3, 4, 5].map((k) => () => void fn('branch_on_key')(k)),
    );
    expect(branch).toMatchObject({ answer: 'secret-dependent', classes: 4, site: { function: 'branch_on_key', kind: 'if' } });
    const sbox = checkClasses(
      g,
      sites,
      [3, 200].map((k) => () => void fn('sbox')(k)),
    );
    expect(sbox).toMatchObject({ answer: 'secret-dependent', site: { function: 'sbox', kind: 'load address' } });
    expect(ctSentence(sbox)).toMatch(/^secret-dependent: a load address in sbox at \+0x[0-9a-f]+ depended on the secret/);
  });

  it('reads one trace for every secret where no secret decides a branch or an address', () => {
    const { g, sites, fn } = planted();
    const a = checkClasses(
      g,
      sites,
      [2, 3, 0x7fffffff, -1].map((k) => () => void fn('masked')(k)),
    );
    expect(a).toEqual({ answer: 'constant-time', classes: 4, events: 0 });
    // The same index from two keys is one address: nothing secret to see.
    // Its one load is traced, alike in both: a trace that saw nothing would prove nothing.
    expect(
      checkClasses(
        g,
        sites,
        [3, 256 + 3].map((k) => () => void fn('sbox')(k)),
      ),
    ).toEqual({ answer: 'constant-time', classes: 2, events: 1 });
  });

  it('calls a trace that follows state unsteady, never a leak', () => {
    const { g, sites, fn } = planted();
    expect(
      checkClasses(
        g,
        sites,
        [1, 1].map((k) => () => void fn('counts_calls')(k)),
      ).answer,
    ).toBe('unsteady');
    expect(() => checkClasses(g, sites, [() => {}])).toThrow('at least two secret classes, not 1');
  });

  it('checks every algorithm of the RustCrypto cores in both builds: Twofish’s S-box loads leak, every other encrypt, decrypt and forged-tag decrypt is constant-time', async () => {
    const answers: string[] = [];
    for (const variant of ['simd128', 'baseline'] as const) {
      const cores = await nodePlatform.loadTracedCores!(variant);
      const offered = ALGORITHMS.filter((a) => offeredBy(cores).includes(a.id));
      expect(offered.length).toBeGreaterThan(10);
      for (const a of offered)
        for (const sizeBytes of [64, 1024]) {
          const r = checkCoresCase(cores, { algorithm: a.id, keyBytes: a.keyBytes, nonceBytes: a.nonceBytes, tagBytes: a.tagBytes, sizeBytes, aadBytes: 16 });
          for (const [op, x] of Object.entries(r)) {
            if (x.answer === 'secret-dependent') answers.push(`${variant} ${a.id} ${op}: ${x.site.kind}`);
            else if (x.answer !== 'constant-time') answers.push(`${variant} ${a.id} ${op}: ${x.answer}`);
            else expect(x.events, `${a.id} ${op}`).toBeGreaterThan(100);
          }
        }
    }
    // Twofish (the aes-candidates study's GCM over RustCrypto's twofish crate) looks its S-boxes up by key-dependent index.
    expect([...new Set(answers)].sort()).toEqual(
      ['baseline', 'simd128'].flatMap((v) => [`${v} twofish-128-gcm decrypt: load address`, `${v} twofish-128-gcm encrypt: load address`]).sort(),
    );
  }, 120_000);
});
