// The WebAssembly of modules of yours, counted (worker/intercept.ts): every way a module can
// compile or instantiate WebAssembly goes through the counter while the counting pass runs,
// and nothing is changed once it is over or while the built-ins load.
import { afterEach, describe, expect, it } from 'vitest';
import { type Interception, interceptWebAssembly } from '../worker/intercept.ts';
import { nodePlatform } from '../worker/platform-node.ts';

/** (module (func (export "add1") (param i32) (result i32) local.get 0 i32.const 1 i32.add)): 3 operations a call. */
// prettier-ignore
const ADD1 = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x08, 0x01, 0x04, 0x61, 0x64, 0x64, 0x31, 0x00, 0x00, // export "add1" = function 0
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x41, 0x01, 0x6a, 0x0b, // local.get 0, i32.const 1, i32.add, end
]);
const PER_CALL = 3n;
type Add1 = { add1: (x: number) => number };

describe('intercepting WebAssembly for the counting pass', () => {
  let counting: Interception | null = null;
  const original = {
    ...Object.fromEntries(
      ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming', 'Module', 'Instance'].map((k) => [k, (WebAssembly as never)[k]]),
    ),
  };
  afterEach(() => {
    counting?.uninstall();
    counting = null;
  });
  const install = async () => (counting = interceptWebAssembly(await nodePlatform.loadCounter!()));
  const calls = (exports: WebAssembly.Exports, n: number) => {
    for (let i = 0; i < n; i++) expect((exports as Add1).add1(i)).toBe(i + 1);
  };

  it('counts an instance made by every door: instantiate (bytes and module), instantiateStreaming, compile, compileStreaming, new Module and new Instance', async () => {
    const response = () => new Response(ADD1, { headers: { 'content-type': 'application/wasm' } });
    // Node's fetch instantiates its HTTP parser (WebAssembly) on its first streamed response: before counting, here.
    await WebAssembly.compileStreaming(response());
    const c = await install();
    const made = [
      (await WebAssembly.instantiate(ADD1)).instance,
      await WebAssembly.instantiate(await WebAssembly.compile(ADD1)),
      (await WebAssembly.instantiateStreaming(response())).instance,
      await WebAssembly.instantiate(await WebAssembly.compileStreaming(response())),
      new WebAssembly.Instance(new WebAssembly.Module(ADD1)),
    ];
    expect(c.instances()).toBe(made.length);
    expect(c.total()).toBe(0n);
    made.forEach((m, i) => calls(m.exports, i + 1)); // 1 + 2 + 3 + 4 + 5 calls
    expect(c.total()).toBe(15n * PER_CALL);
    // Still a Module to `instanceof`, and the module's own exports are there beside the counter.
    expect(new WebAssembly.Module(ADD1)).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(new WebAssembly.Module(ADD1)).map((e) => e.name)).toContain('add1');
  });

  it('leaves what loads through bypass as it was, and puts WebAssembly back on uninstall', async () => {
    const c = await install();
    const built = await c.bypass(async () => (await WebAssembly.instantiate(ADD1)).instance);
    calls(built.exports, 4);
    expect([c.instances(), c.total()]).toEqual([0, 0n]);
    expect(WebAssembly.Module.exports(new (original.Module as unknown as typeof WebAssembly.Module)(ADD1)).length).toBe(1);
    c.uninstall();
    counting = null;
    for (const [k, v] of Object.entries(original)) expect((WebAssembly as never)[k], k).toBe(v);
    expect(WebAssembly.Module.exports(new WebAssembly.Module(ADD1)).length).toBe(1);
  });

  it('a module that is not WebAssembly is refused as the engine would refuse it (a rejected promise), and counting goes on', async () => {
    const c = await install();
    await expect(WebAssembly.instantiate(new Uint8Array([1, 2, 3]))).rejects.toThrow();
    expect(c.instances()).toBe(0);
    calls((await WebAssembly.instantiate(ADD1)).instance.exports, 2);
    expect([c.instances(), c.total()]).toEqual([1, 2n * PER_CALL]);
  });
});
