// Bring your own implementation: the contract, the gate's verdicts and messages, a run that
// times a module beside the built-ins while the modules that fail cost it nothing, and the
// crowd that never takes such a run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { customBackend } from '../implementations/contract.ts';
import { coresBackend as rustcryptoWasm } from '../implementations/cores.ts';
import { ContractError, defineImplementation } from '../implementations/custom.ts';
import { gateBackend } from '../implementations/gate.ts';
import { runBenchmark } from '../node.ts';
import type { RunOptions } from '../options.ts';
import { NothingPassedError } from '../run/gate.ts';
import { nodePlatform } from '../worker/platform-node.ts';
import { SubmitError, submitResult } from '../submit.ts';
import { reduceSubmission, RequestError } from '../../../collector/submission.ts';
import { submission } from '../../../collector/test/helpers.ts';

const modulePath = (name: string) => fileURLToPath(new URL(`./modules/${name}`, import.meta.url));
const load = async (name: string) => (await import(/* @vite-ignore */ new URL(`./modules/${name}`, import.meta.url).href)).default;
const reference = () => rustcryptoWasm('baseline', nodePlatform.loadCores, nodePlatform.loadBuildInfo);
const vectors = (algs: readonly string[]) => nodePlatform.loadVectors(algs as never);

describe('the contract', () => {
  const ok = { id: 'my-gcm', label: 'Mine', algorithms: ['aes-128-gcm'], encrypt: () => new Uint8Array(), decrypt: () => new Uint8Array() } as const;
  const refused = (o: object) => {
    try {
      defineImplementation(o as never);
    } catch (e) {
      expect(e).toBeInstanceOf(ContractError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it('takes a module that fulfils it, unchanged', () => {
    const m = { ...ok, algorithms: [...ok.algorithms] };
    expect(defineImplementation(m)).toBe(m);
  });

  it('names an unknown algorithm, a built-in id, a malformed id and a missing function', () => {
    expect(refused({ ...ok, algorithms: ['aes-128-gcm', 'rot13'] })).toMatch(/unknown algorithm 'rot13'/);
    expect(refused({ ...ok, id: 'webcrypto' })).toBe("id: 'webcrypto' is a built-in implementation; choose another id");
    expect(refused({ ...ok, id: 'My GCM' })).toMatch(/^id: 'My GCM' is not an id/);
    expect(refused({ ...ok, decrypt: undefined })).toBe("'my-gcm': decrypt must be a function; got undefined");
    expect(refused({ ...ok, algorithms: [] })).toMatch(/algorithms must be a non-empty array/);
  });
});

describe('the timing loops (loop.js)', () => {
  /** A module whose every call records which copy of loop.js called it, from its stack. */
  const tracing = (id: string) => {
    const callers: string[] = [];
    const impl = defineImplementation({
      id,
      label: id,
      algorithms: ['aes-128-gcm', 'chacha20-poly1305'],
      encrypt: (_a, _k, _n, _aad, pt) => {
        callers.push(/loop\.js\?loop=\d+/.exec(new Error().stack ?? '')?.[0] ?? 'no fresh loop');
        return new Uint8Array(pt.length + 16);
      },
      decrypt: (_a, _k, _n, _aad, sealed) => sealed.subarray(0, sealed.length - 16),
    });
    return { backend: customBackend(impl), callers };
  };
  const timedBy = async (t: ReturnType<typeof tracing>, algorithm: 'aes-128-gcm' | 'chacha20-poly1305', sizeBytes: number) => {
    const p = await t.backend.prepare({ algorithm, operation: 'encrypt', sizeBytes, aadBytes: 0 });
    t.callers.length = 0;
    await p.run(3);
    p.dispose();
    return [...new Set(t.callers)];
  };

  it('times each code path of each module through its own instance, and every size of one path through the same', async () => {
    const [a, b] = [tracing('module-a'), tracing('module-b')];
    const aGcm = await timedBy(a, 'aes-128-gcm', 64);
    expect(aGcm).toEqual([expect.stringMatching(/^loop\.js\?loop=\d+$/)]);
    expect(await timedBy(a, 'aes-128-gcm', 1024)).toEqual(aGcm);
    const aChaCha = await timedBy(a, 'chacha20-poly1305', 64);
    const bGcm = await timedBy(b, 'aes-128-gcm', 64);
    expect(new Set([...aGcm, ...aChaCha, ...bGcm]).size).toBe(3);
  });
});

describe('the gate', () => {
  it('passes a correct synchronous module and a correct asynchronous one', async () => {
    const ref = await reference();
    for (const name of ['good-gcm.mjs', 'async-gcm.mjs']) {
      const b = customBackend(await load(name));
      const rows = await gateBackend(b, ref, await vectors(b.algorithms));
      expect(rows.length).toBe(b.algorithms.length);
      for (const r of rows) {
        expect(r.errors).toEqual([]);
        expect(r.excluded).toBe(false);
        expect(r.vectorsPassed).toBeGreaterThan(0);
      }
    }
  });

  it('the one-shot built-ins — noble, libsodium.js, node:crypto — are modules of the same contract and pass the same gate', async () => {
    const { nobleModule, noble } = await import('../implementations/noble/backend.ts');
    const { libsodiumModule, libsodium } = await import('../implementations/libsodium/backend.ts');
    const { nodeCryptoModule, nodeCrypto } = await import('../implementations/node-crypto/backend.ts');
    const { defineBuiltIn } = await import('../implementations/custom.ts');
    const ref = await reference();
    for (const [m, backend] of [
      [nobleModule, noble()],
      [await libsodiumModule(), await libsodium()],
      [nodeCryptoModule(), nodeCrypto()],
    ] as const) {
      expect(defineBuiltIn(m)).toBe(m); // the contract's rules, its id a built-in's
      expect(backend.algorithms).toEqual(m.algorithms);
      const algs = m.algorithms;
      // Every check of the gate, over fewer lengths than a module of yours faces (time: the full set is its own test).
      const lengths = [...Array.from({ length: 80 }, (_, i) => i), 1000, 4096, 1 << 16];
      const rows = await gateBackend(backend, ref, await vectors(algs), { lengths });
      // One passing row per algorithm it declares (an empty answer would not pass), vectors among them.
      expect(rows.map((r) => [r.implementation, r.algorithm, r.errors, r.excluded])).toEqual(algs.map((a) => [m.id, a, [], false]));
      expect(rows.reduce((n, r) => n + r.vectorsPassed, 0)).toBeGreaterThan(0);
    }
    // A built-in's id is refused for a module of yours, and a module's id for a built-in.
    expect(() => defineImplementation({ ...nobleModule })).toThrow(/'noble' is a built-in implementation/);
    expect(() => defineBuiltIn({ ...nobleModule, id: 'my-noble' })).toThrow(/'my-noble' is not a built-in implementation/);
  });

  it('refuses a module wrong at one length, naming that length', async () => {
    const [row] = await gateBackend(customBackend(await load('wrong-at-1000.mjs')), await reference(), await vectors(['aes-128-gcm']));
    expect(row!.excluded).toBe(true);
    expect(row!.errors[0]).toBe('ciphertext differs from the reference at 1000 bytes (at byte 500)');
  });

  it('refuses a module that accepts forged tags, saying so', async () => {
    const [row] = await gateBackend(customBackend(await load('accepts-forged.mjs')), await reference(), await vectors(['aes-128-gcm']));
    expect(row!.excluded).toBe(true);
    expect(row!.errors[0]).toBe('accepted a forged tag at 0 bytes');
  });

  it('refuses a module that throws, with what it threw', async () => {
    const [row] = await gateBackend(customBackend(await load('throws.mjs')), await reference(), await vectors(['aes-128-gcm']));
    expect(row!.errors[0]).toBe('encrypt failed at 0 bytes: encrypt threw: boom');
  });

  it('refuses an answer of the wrong type or length, and a promise that never settles', async () => {
    const ref = await reference();
    const base = await load('good-gcm.mjs');
    const text = customBackend({ ...base, encrypt: () => 'ciphertext' });
    expect((await gateBackend(text, ref, [], { lengths: [0, 1] }))[0]!.errors[0]).toBe(
      'encrypt failed at 0 bytes: encrypt returned string, expected a Uint8Array or an ArrayBuffer',
    );
    const short = customBackend({ ...base, encrypt: (...a: Parameters<typeof base.encrypt>) => base.encrypt(...a).subarray(1) });
    expect((await gateBackend(short, ref, [], { lengths: [0, 1] }))[0]!.errors[0]).toBe(
      'encrypt failed at 0 bytes: encrypt returned 15 bytes for 0 bytes of plaintext, expected 16 (ciphertext ‖ 16-byte tag)',
    );
    const never = customBackend({ ...base, encrypt: () => new Promise(() => {}) }, { callTimeoutMs: 200 });
    expect((await gateBackend(never, ref, [], { lengths: [0] }))[0]!.errors[0]).toBe('encrypt failed at 0 bytes: encrypt did not answer within 0.2 s');
  });
});

describe('a run with modules of yours (Node)', () => {
  it('times a module that passed beside the built-ins, records its hash, and refuses the others with their own messages', { timeout: 120_000 }, async () => {
    const warnings: string[] = [];
    const doc = await runBenchmark({
      algorithms: ['aes-128-gcm'],
      sizes: [64, 1024],
      operations: ['encrypt'],
      rounds: 1,
      samplesPerRound: 3,
      maxReruns: 0,
      implementations: [
        'rustcrypto-wasm',
        'noble',
        modulePath('good-gcm.mjs'),
        modulePath('async-gcm.mjs'),
        modulePath('wrong-at-1000.mjs'),
        modulePath('builtin-id.mjs'),
        modulePath('missing.mjs'),
        modulePath('good-gcm-again.mjs'),
      ],
      onWarning: (w) => warnings.push(w),
    });
    expect(doc.status).toBe('complete');
    const by = (impl: string) => doc.cases.filter((c) => c.implementation === impl).map((c) => c.sizeBytes);
    // The built-ins' cases all completed, and so did the module that passed.
    expect(by('rustcrypto-wasm')).toEqual([64, 1024]);
    expect(by('noble')).toEqual([64, 1024]);
    expect(by('test-good-gcm')).toEqual([64, 1024]);
    // A module that answers with promises is timed too (the awaited loop).
    expect(by('test-async-gcm')).toEqual([64, 1024]);
    expect(doc.cases.find((c) => c.implementation === 'test-good-gcm')!.variant).toBe('custom');
    // The hash is that of the file that was loaded.
    const sha = createHash('sha256')
      .update(readFileSync(modulePath('good-gcm.mjs')))
      .digest('hex');
    expect(doc.modules![0]).toEqual({
      id: 'test-good-gcm',
      label: 'noble GCM through the contract',
      version: '1',
      algorithms: ['aes-128-gcm', 'aes-256-gcm'],
      sha256: sha,
      // The counting pass found no WebAssembly in it (noble is JavaScript).
      code: 'javascript',
    });
    expect(doc.modules!.map((m) => m.id)).toEqual(['test-good-gcm', 'test-async-gcm']);
    expect(doc.params.implementations).toEqual(['rustcrypto-wasm', 'noble', 'test-good-gcm', 'test-async-gcm']);
    // A second module under an id already taken is refused; the first keeps it, timed once.
    expect(warnings.some((w) => w.includes('good-gcm-again.mjs') && w.includes("a second module with id 'test-good-gcm'"))).toBe(true);
    // Each refused module, with its own message; none of them was timed.
    expect(by('test-wrong-at-1000')).toEqual([]);
    expect(warnings).toContain('test-wrong-at-1000 (custom) excluded for aes-128-gcm: ciphertext differs from the reference at 1000 bytes (at byte 500)');
    expect(warnings.some((w) => w.includes('builtin-id.mjs refused:') && w.endsWith("id: 'noble' is a built-in implementation; choose another id"))).toBe(true);
    expect(warnings.some((w) => w.includes('missing.mjs refused:') && /no such file|ENOENT/.test(w))).toBe(true);
  });

  it(
    'says which module of yours the gate is on: a gating phase that counts modules and names the file, then validation counting no cases',
    { timeout: 60_000 },
    async () => {
      const seen: { phase: string; done: number; total: number; current: string | null }[] = [];
      await besideOne(['good-gcm.mjs', 'wrong-at-1000.mjs'], {
        onProgress: ({ phase, done, total, current }) => seen.push({ phase, done, total, current }),
      });
      expect(seen.filter((p) => p.phase === 'gating')).toEqual([
        { phase: 'gating', done: 0, total: 2, current: null },
        { phase: 'gating', done: 0, total: 2, current: 'good-gcm.mjs' },
        { phase: 'gating', done: 1, total: 2, current: 'wrong-at-1000.mjs' },
      ]);
      // A pass says so as it begins (its worker and the module's thread start before any case ends).
      expect(seen.find((p) => p.phase === 'measuring')).toEqual({ phase: 'measuring', done: 0, total: 2, current: null });
      // Right after the gate, validation: it counts no cases (not the gate's modules).
      expect(seen[seen.map((p) => p.phase).lastIndexOf('gating') + 1]).toEqual({ phase: 'validating', done: 0, total: 0, current: null });
    },
  );

  /** A small run of RustCrypto beside one module of the test folder (or a few) alone: the document and the warnings. */
  async function besideOne(module: string | string[], o: Pick<RunOptions, 'gateTimeoutMs' | 'onProgress'> = {}) {
    const warnings: string[] = [];
    const doc = await runBenchmark({
      algorithms: ['aes-128-gcm'],
      sizes: [64],
      operations: ['encrypt'],
      rounds: 1,
      samplesPerRound: 3,
      maxReruns: 0,
      implementations: ['rustcrypto-wasm', ...[module].flat().map(modulePath)],
      ...o,
      onWarning: (w) => warnings.push(w),
    });
    return { doc, warnings };
  }

  it('stops a module that never returns at the gate, with its own message, while the built-ins complete', { timeout: 60_000 }, async () => {
    // On its own: its worker spins one of two cores until stopped, and a good module's gate
    // beside it could then outlast a short timeout too (5 s did, once, on a loaded host).
    const { doc, warnings } = await besideOne('hangs.mjs', { gateTimeoutMs: 3_000 });
    expect(doc.status).toBe('complete');
    expect(doc.cases.map((c) => `${c.implementation} ${c.sizeBytes}`)).toEqual(['rustcrypto-wasm 64']);
    expect(warnings).toContain(
      'test-hangs (custom) excluded for aes-128-gcm: did not finish the gate within 3 s (a call that never returns?); its worker was stopped',
    );
    expect(doc.validation.find((v) => v.implementation === 'test-hangs')!.excluded).toBe(true);
  });

  it(
    'excludes a module that ends its worker at the gate (process.exit), with the reason and at once, while the built-ins complete',
    { timeout: 60_000 },
    async () => {
      // exit-gcm.mjs ends every thread but the one EXIT_OUTSIDE names; no thread has id -1.
      process.env.EXIT_OUTSIDE = '-1';
      // Within this test's 60 s, so not by the gate's time limit (120 s): the exit is seen when it happens.
      try {
        const { doc, warnings } = await besideOne('exit-gcm.mjs');
        expect(doc.status).toBe('complete');
        expect(doc.cases.map((c) => c.implementation)).toEqual(['rustcrypto-wasm']);
        expect(warnings).toContain(
          'test-exit-gcm (custom) excluded for aes-128-gcm: the gate failed: the benchmark worker failed: its thread ended (exit code 3)',
        );
      } finally {
        delete process.env.EXIT_OUTSIDE;
      }
    },
  );

  it('runs modules alone when asked (modulesAlone): no default built-ins beside them, only those named', { timeout: 120_000 }, async () => {
    const base = {
      algorithms: ['aes-128-gcm'] as const,
      sizes: [64],
      operations: ['encrypt'] as const,
      rounds: 1,
      samplesPerRound: 3,
      maxReruns: 0,
      modulesAlone: true,
    };
    const alone = await runBenchmark({
      ...base,
      algorithms: [...base.algorithms],
      operations: [...base.operations],
      implementations: [modulePath('good-gcm.mjs')],
    });
    expect(alone.cases.map((c) => c.implementation)).toEqual(['test-good-gcm']);
    expect(alone.params.implementations).toEqual(['test-good-gcm']);
    const named = await runBenchmark({
      ...base,
      algorithms: [...base.algorithms],
      operations: [...base.operations],
      implementations: ['noble', modulePath('good-gcm.mjs')],
    });
    expect(named.cases.map((c) => c.implementation).sort()).toEqual(['noble', 'test-good-gcm']);
    // Modules that all fail the gate leave an alone run with nothing to time: it fails, naming each
    // failure (it used to complete with no case, which read like a run that went well).
    const nothing = runBenchmark({
      ...base,
      algorithms: [...base.algorithms],
      operations: [...base.operations],
      implementations: [modulePath('missing.mjs'), modulePath('wrong-at-1000.mjs')],
      sizes: [64, 1024],
    });
    await expect(nothing).rejects.toBeInstanceOf(NothingPassedError);
    await expect(nothing).rejects.toThrow(
      /^no implementation passed the gate:\n {2}- module .*missing\.mjs: .*\n {2}- test-wrong-at-1000 aes-128-gcm: ciphertext differs from the reference at 1000 bytes/,
    );
  });

  it('names an implementation that is neither built in nor a module', () => {
    expect(() => runBenchmark({ implementations: ['nope'] })).toThrow("implementations: 'nope' is neither a built-in implementation");
  });
});

describe('the example modules (examples/modules): libraries people ship', () => {
  const EXAMPLES = ['node-forge-gcm', 'sjcl-gcm', 'asmcrypto-gcm', 'stablelib-chacha20poly1305'];
  const example = (d: string) => fileURLToPath(new URL(`../../../examples/modules/${d}/index.mjs`, import.meta.url));

  it.each(EXAMPLES)('%s passes the gate for every algorithm it declares', { timeout: 120_000 }, async (d) => {
    const impl = defineImplementation((await import(/* @vite-ignore */ example(d))).default);
    const b = customBackend(impl);
    const rows = await gateBackend(b, await reference(), await vectors(b.algorithms));
    expect(rows.map((r) => [r.algorithm, r.errors])).toEqual(impl.algorithms.map((a) => [a, []]));
    expect(rows.every((r) => !r.excluded && r.vectorsPassed > 0)).toBe(true);
  });

  it('are timed through the package in Node, beside noble', { timeout: 180_000 }, async () => {
    const doc = await runBenchmark({
      algorithms: ['aes-128-gcm', 'chacha20-poly1305'],
      sizes: [64],
      operations: ['encrypt'],
      rounds: 1,
      samplesPerRound: 3,
      maxReruns: 0,
      implementations: ['noble', ...EXAMPLES.map(example)],
    });
    expect(doc.modules!.map((m) => m.id)).toEqual(EXAMPLES);
    for (const id of EXAMPLES)
      expect(
        doc.cases.filter((c) => c.implementation === id).map((c) => c.sizeBytes),
        id,
      ).toEqual([64]);
    expect(doc.validation.filter((v) => v.excluded)).toEqual([]);
  });
});

describe('the crowd never takes a run with modules of yours', () => {
  it('the collector refuses it with a message saying why, and the client does not send it', async () => {
    const body = submission();
    (body.result as Record<string, unknown>).modules = [{ id: 'my-gcm', label: 'Mine', algorithms: ['aes-128-gcm'], sha256: 'a'.repeat(64) }];
    try {
      reduceSubmission(body);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(RequestError);
      expect((e as RequestError).status).toBe(422);
      expect((e as Error).message).toMatch(/^result: a run with modules of your own \(my-gcm\) is not accepted by the crowd/);
    }
    let sent = false;
    const err = await submitResult('http://127.0.0.1:9/', body.result as never, {
      deviceClass: 'laptop',
      fetch: (async () => ((sent = true), new Response('{}'))) as never,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(SubmitError);
    expect(sent).toBe(false);
  });
});
