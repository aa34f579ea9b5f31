import { describe, expect, it } from 'vitest';
import { ParamError, parseParams, parseSize, presetParams, toSearch } from '../params.ts';

describe('URL parameters', () => {
  it("refuses an unknown preset from the package's options with a message naming it", async () => {
    const { resolveParams } = await import('../options.ts');
    expect(() => resolveParams({ preset: 'nope' as 'quick' })).toThrow("Invalid preset: 'nope' is not one of quick");
  });

  it("refuses a misspelt option of the package's, naming the nearest known one, before anything runs", async () => {
    const { resolveParams, OPTION_NAMES } = await import('../options.ts');
    const { runBenchmark } = await import('../node.ts');
    expect(() => resolveParams({ algorithm: ['aes-128-gcm'], sizes: [64] } as never)).toThrow(
      "Invalid options: unknown option 'algorithm' (did you mean 'algorithms'?)",
    );
    expect(() => resolveParams({ size: [64] } as never)).toThrow("unknown option 'size' (did you mean 'sizes'?)");
    expect(() => resolveParams({ colour: 'blue' } as never)).toThrow(/unknown option 'colour'; the options are /);
    expect(() => runBenchmark({ algorithm: ['aes-128-gcm'], size: [64] } as never)).toThrow("unknown option 'algorithm' (did you mean 'algorithms'?)");
    // Every option the types name is known, and the hooks too.
    for (const name of ['algorithms', 'sizes', 'rounds', 'implementations', 'modulesAlone', 'onProgress', 'signal', 'preset', 'budgetMs', 'ab'])
      expect(OPTION_NAMES).toContain(name);
    expect(() => resolveParams({ algorithms: ['aes-128-gcm'], sizes: [64], onProgress: () => {} })).not.toThrow();
  });

  it('defaults to the quick preset', () => {
    const { params, autorun } = parseParams('');
    expect(params.preset).toBe('quick');
    expect(params.sizes).toEqual([64, 1024, 16384, 1048576]);
    expect(autorun).toBe(false);
    expect(Object.isFrozen(params)).toBe(true);
  });

  it('parses lists, sizes with units, and numbers', () => {
    const { params, autorun } = parseParams('preset=standard&algorithms=aes-128-gcm,ascon-aead128&sizes=1k,64,2MiB&rounds=2&autorun=1&wasm=both');
    expect(params.algorithms).toEqual(['aes-128-gcm', 'ascon-aead128']);
    expect(params.sizes).toEqual([64, 1024, 2 * 1024 * 1024]);
    expect(params.rounds).toBe(2);
    expect(params.wasm).toBe('both');
    expect(autorun).toBe(true);
  });

  it.each([
    ['sizes=64,abc', "Invalid sizes param: '64,abc'"],
    ['sizes=128M', "Invalid sizes param: '128M'"],
    ['algorithms=aes-512-gcm', "'aes-512-gcm' is not one of"],
    ['preset=slow', "Invalid preset param: 'slow'"],
    ['rounds=0', "Invalid rounds param: '0'"],
    ['rounds=2.5', "Invalid rounds param: '2.5'"],
    ['implementations=openssl', "'openssl' is not one of"],
    ['colour=blue', "Invalid colour param: 'blue' (unknown parameter"],
    ['overtime=soon', "Invalid overtime param: 'soon'"],
    ['overtime=-5s', "Invalid overtime param: '-5s' (expected seconds from 0 to 3600"],
    ['budget=0.5s', "Invalid budget param: '0.5s' (expected seconds from 1 to 3600"],
    // A newcomer's spellings, refused with the one that works (each started a full run before).
    ['budget=5', "Invalid budget param: '5' (a duration needs its unit: write 5s for 5 seconds)"],
    ['sizes=1kb', "Invalid sizes param: '1kb' ('kb' may mean 1000 or 1024: write 1KiB (or 1k))"],
    ['sizes=64,2MB', "Invalid sizes param: '64,2MB' ('MB' may mean 1000 or 1024: write 2MiB (or 2m))"],
  ])('rejects %s naming the value', (query, message) => {
    expect(() => parseParams(query)).toThrow(ParamError);
    expect(() => parseParams(query)).toThrow(message);
  });

  it('parseSize understands units', () => {
    expect(parseSize('16KiB')).toBe(16384);
    expect(parseSize('1M')).toBe(1 << 20);
    expect(parseSize('8')).toBe(8);
  });

  it("alone=1 runs the modules of a link without the preset's built-ins: only those implementations= names, and only with module=", () => {
    expect(parseParams('module=/m/my-gcm.mjs').builtIns).toBeUndefined();
    expect(parseParams('module=/m/my-gcm.mjs&alone=1').builtIns).toEqual([]);
    expect(parseParams('module=/m/my-gcm.mjs&alone=1&implementations=webcrypto,noble').builtIns).toEqual(['webcrypto', 'noble']);
    expect(parseParams('module=/m/my-gcm.mjs&alone=0').builtIns).toBeUndefined();
    expect(() => parseParams('alone=1')).toThrow(ParamError);
    expect(() => parseParams('alone=1')).toThrow(/alone.*'1'.*module=/);
  });

  it('toSearch round-trips: the shared URL reproduces the parameters', () => {
    const { params } = parseParams('preset=standard&algorithms=chacha20-poly1305&sizes=64,4096&operations=decrypt&aad=16');
    const again = parseParams(toSearch(params)).params;
    expect(again).toEqual(params);
    expect(toSearch(presetParams('quick'))).toBe('preset=quick');
  });

  it("the quick preset's overtime (20 s past its 20 s budget while more than a tenth is unresolved) can be set or turned off by a link, and round-trips", () => {
    expect(presetParams('quick')).toMatchObject({ budgetMs: 20_000, overtimeMs: 20_000 });
    expect(presetParams('standard').overtimeMs).toBeUndefined();
    const none = parseParams('overtime=0').params;
    expect(none.overtimeMs).toBe(0);
    expect(toSearch(none)).toBe('preset=quick&overtime=0s');
    expect(parseParams('budget=30s&overtime=45s').params).toMatchObject({ budgetMs: 30_000, overtimeMs: 45_000 });
    expect(parseParams('overtime=%2030s%20').params.overtimeMs).toBe(30_000);
    expect(parseParams(toSearch(none)).params).toEqual(none);
  });

  it('the dense preset measures every length from 1 to 2,048 bytes, once, without re-runs; no run asks for more sizes', async () => {
    const p = presetParams('dense');
    expect(p.sizes).toHaveLength(2048);
    expect(p.sizes[0]).toBe(1);
    expect(p.sizes.at(-1)).toBe(2048);
    expect([p.rounds, p.maxReruns, p.samplesPerRound]).toEqual([1, 0, 5]);
    expect(parseParams('preset=dense').params.sizes).toHaveLength(2048);
    const v = await import('valibot');
    const { RunParamsSchema } = await import('../schema.ts');
    expect(v.safeParse(RunParamsSchema, p).success).toBe(true);
    expect(v.safeParse(RunParamsSchema, { ...p, sizes: [...p.sizes, 2049] }).success).toBe(false);
  });
});
