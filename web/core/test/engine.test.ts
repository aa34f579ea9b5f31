// The engine's worker logic in Node (no browser): every backend available here validated
// against the vectors and cross-checked, and the timing core on a fake clock.
import { describe, expect, it } from 'vitest';
import { noble } from '../implementations/noble/backend.ts';
import { coresBackend as rustcryptoWasm } from '../implementations/cores.ts';
import { libaegisWasm } from '../implementations/libaegis-wasm/backend.ts';
import { libsodium } from '../implementations/libsodium/backend.ts';
import { nodeCrypto } from '../implementations/node-crypto/backend.ts';
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { webcrypto } from '../implementations/webcrypto/backend.ts';
import type { Backend } from '../implementations/shared.ts';
import { calibrate, cycleOrder, measureCase, measureInterleaved, settleBatches, sharedBatches, timerResolutionMs } from '../worker/measure.ts';
import { twinKey } from '../worker/groups.ts';
import type { RunParams } from '../schema.ts';
import { settles } from '../tables/algorithms.ts';
import { pairedRatio } from '../stats.ts';
import { validateBackends } from '../implementations/validate.ts';
import { ALGORITHM_IDS } from '../tables/algorithms.ts';
import { loadCores, loadVectors } from './load-cores.ts';

/**
 * Node 20's crypto.subtle, with AES-OCB added (through node:crypto's OpenSSL) as the
 * modern-algorithms draft specifies it — 'raw-secret' keys, `tagLength` 128 — when `ocb`.
 */
function fakeSubtle(ocb: boolean): SubtleCrypto {
  const real = globalThis.crypto.subtle;
  const notSupported = () => Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError'));
  type Params = { name: string; iv: Uint8Array; additionalData: Uint8Array; tagLength: number };
  const isOcb = (a: unknown) => (a as { name?: string })?.name === 'AES-OCB';
  const cipher = (key: Uint8Array) => (key.length === 16 ? 'aes-128-ocb' : 'aes-256-ocb');
  return {
    importKey(format: string, key: Uint8Array, alg: unknown, extractable: boolean, usages: KeyUsage[]) {
      if (!isOcb(alg)) return real.importKey(format as 'raw', key as Uint8Array<ArrayBuffer>, alg as AlgorithmIdentifier, extractable, usages);
      if (!ocb) return notSupported();
      if (format !== 'raw-secret') return Promise.reject(new DOMException(`format ${format}`, 'NotSupportedError'));
      return Promise.resolve({ ocbKey: Uint8Array.from(key) } as unknown as CryptoKey);
    },
    encrypt(p: Params, key: CryptoKey, data: Uint8Array) {
      if (!isOcb(p)) return real.encrypt(p as AesGcmParams, key, data as Uint8Array<ArrayBuffer>);
      if (p.tagLength !== 128) return Promise.reject(new DOMException('tagLength', 'OperationError'));
      const k = (key as unknown as { ocbKey: Uint8Array }).ocbKey;
      const c = createCipheriv(cipher(k), k, p.iv, { authTagLength: 16 });
      c.setAAD(p.additionalData, { plaintextLength: data.length });
      return Promise.resolve(new Uint8Array(Buffer.concat([c.update(data), c.final(), c.getAuthTag()])).buffer);
    },
    decrypt(p: Params, key: CryptoKey, data: Uint8Array) {
      if (!isOcb(p)) return real.decrypt(p as AesGcmParams, key, data as Uint8Array<ArrayBuffer>);
      const k = (key as unknown as { ocbKey: Uint8Array }).ocbKey;
      try {
        const d = createDecipheriv(cipher(k), k, p.iv, { authTagLength: 16 });
        d.setAAD(p.additionalData, { plaintextLength: data.length - 16 });
        d.setAuthTag(data.subarray(data.length - 16));
        return Promise.resolve(new Uint8Array(Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()])).buffer);
      } catch {
        return Promise.reject(new DOMException('The operation failed', 'OperationError'));
      }
    },
    sign: real.sign.bind(real),
  } as unknown as SubtleCrypto;
}

describe('the Web Crypto case', () => {
  it("times crypto.subtle's own promise with the parameters a caller writes: one microtask turn a call, as a plain await loop", async () => {
    // A subtle whose answers are already settled: what is left to count is the harness's own turns.
    const seen: Record<string, unknown>[] = [];
    const buffer = new ArrayBuffer(80);
    const subtle = {
      importKey: () => Promise.resolve({} as CryptoKey),
      encrypt: (p: Record<string, unknown>) => (seen.push(p), Promise.resolve(buffer)),
      decrypt: () => Promise.resolve(new ArrayBuffer(3)),
    } as unknown as SubtleCrypto;
    const backend = await webcrypto('sequential', subtle);
    const prepared = await backend.prepare({ algorithm: 'aes-128-gcm', operation: 'encrypt', sizeBytes: 64, aadBytes: 0 });
    const turnsOf = async (loop: (n: number) => unknown) => {
      let turns = 0;
      let done = false;
      const tick = (): void => void (!done && (turns++, queueMicrotask(tick)));
      queueMicrotask(tick);
      await loop(100);
      done = true;
      return turns;
    };
    seen.length = 0;
    const engine = await turnsOf((n) => prepared.run(n));
    expect(seen).toHaveLength(100);
    expect(Object.keys(seen[0]!).sort()).toEqual(['iv', 'name']); // no empty AAD, GCM's default tag
    const plain = await turnsOf(async (n) => {
      for (let i = 0; i < n; i++) await subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, {} as CryptoKey, new Uint8Array(64));
    });
    // An async wrapper and a Uint8Array around each call took two turns a call: 201 for 100 calls, against 101.
    expect(engine).toBeLessThanOrEqual(plain + 2);
  });
});

describe('cross-validation in Node', () => {
  it('every implementation passes its vectors and all agree byte for byte', async () => {
    const backends: Backend[] = [
      await rustcryptoWasm('simd128', loadCores),
      await rustcryptoWasm('baseline', loadCores),
      await webcrypto('sequential'),
      noble(),
    ];
    const webAlgs = backends[2]!.algorithms;
    expect(webAlgs).toEqual(expect.arrayContaining(['aes-128-gcm', 'aes-256-gcm', 'aes-128-cbc-hmac-sha256', 'aes-256-cbc-hmac-sha256']));
    const results = await validateBackends(backends, ALGORITHM_IDS, loadVectors());
    const bad = results.filter((r) => r.excluded);
    expect(bad).toEqual([]);
    const gcm = results.filter((r) => r.algorithm === 'aes-128-gcm');
    expect(gcm.map((r) => r.implementation).sort()).toEqual(['noble', 'rustcrypto-wasm', 'rustcrypto-wasm', 'webcrypto']);
    const gcmVectors = loadVectors().filter((v) => v.algorithm === 'aes-128-gcm').length;
    expect(gcmVectors).toBeGreaterThan(50);
    for (const r of gcm) {
      expect(r.vectorsPassed).toBe(gcmVectors);
      expect(r.crossCheck).toBe('agree');
    }
    // Ascon exists only in the cores (two variants), which still cross-check each other.
    expect(results.filter((r) => r.algorithm === 'ascon-aead128').every((r) => r.crossCheck === 'agree')).toBe(true);
  });

  it('the newer AEADs: every implementation of an id passes its vectors and agrees byte for byte', async () => {
    const backends: Backend[] = [
      await rustcryptoWasm('simd128', loadCores),
      await rustcryptoWasm('baseline', loadCores),
      await libaegisWasm('simd128', loadCores),
      await libaegisWasm('relaxed-simd', loadCores),
      await libsodium(),
      noble(),
      nodeCrypto(),
    ];
    const ids = [
      'aegis-128l',
      'aegis-256',
      'aegis-128l-tag256',
      'aegis-256-tag256',
      'aes-128-gcm-siv',
      'aes-256-gcm-siv',
      'aes-128-ocb3',
      'aes-256-ocb3',
      'chacha20-poly1305',
      'xchacha20-poly1305',
    ] as const;
    const results = await validateBackends(backends, [...ids], loadVectors());
    expect(results.filter((r) => r.excluded)).toEqual([]);
    const who = (id: string) =>
      results
        .filter((r) => r.algorithm === id)
        .map((r) => `${r.implementation}/${r.variant}`)
        .sort();
    expect(who('aegis-128l')).toEqual(['libaegis-wasm/relaxed-simd', 'libaegis-wasm/simd128', 'rustcrypto-wasm/baseline', 'rustcrypto-wasm/simd128']);
    expect(who('aegis-256-tag256')).toEqual([
      'libaegis-wasm/relaxed-simd',
      'libaegis-wasm/simd128',
      'libsodium/wasm',
      'rustcrypto-wasm/baseline',
      'rustcrypto-wasm/simd128',
    ]);
    expect(who('aes-256-gcm-siv')).toEqual(['noble/js', 'rustcrypto-wasm/baseline', 'rustcrypto-wasm/simd128']);
    expect(who('aes-128-ocb3')).toEqual(['node-crypto/openssl', 'rustcrypto-wasm/baseline', 'rustcrypto-wasm/simd128']);
    expect(who('xchacha20-poly1305')).toEqual(['libsodium/wasm', 'noble/js', 'rustcrypto-wasm/baseline', 'rustcrypto-wasm/simd128']);
    for (const r of results) {
      // At least one valid and one invalid vector each (AES-256-OCB3 has only the RFC's iterated one).
      expect(r.vectorsPassed, `${r.implementation} ${r.algorithm}`).toBeGreaterThanOrEqual(2);
      expect(r.crossCheck, `${r.implementation} ${r.algorithm}`).toBe('agree');
    }
  });

  it("offers Web Crypto's AES-OCB only where the platform has it, with the draft's parameters", async () => {
    // A platform without AES-OCB (every browser today): the ids are not offered.
    const without = await webcrypto('sequential', fakeSubtle(false));
    expect(without.algorithms).not.toContain('aes-128-ocb3');
    // A platform with it (as Node ≥ 24.7): offered, and it passes RFC 7253's samples.
    const withOcb = await webcrypto('sequential', fakeSubtle(true));
    expect(withOcb.algorithms).toEqual(expect.arrayContaining(['aes-128-ocb3', 'aes-256-ocb3']));
    const results = await validateBackends([withOcb, await rustcryptoWasm('baseline', loadCores)], ['aes-128-ocb3'], loadVectors());
    expect(results.map((r) => [r.implementation, r.excluded, r.crossCheck])).toEqual([
      ['webcrypto', false, 'agree'],
      ['rustcrypto-wasm', false, 'agree'],
    ]);
  });

  it('excludes an implementation whose output differs from its peers', async () => {
    const good = noble();
    // A variant no table row lists, only so that its validation row can be found below.
    const broken: Backend = {
      ...good,
      variant: 'broken' as never,
      async encrypt(alg, key, nonce, aad, pt) {
        const out = await good.encrypt(alg, key, nonce, aad, pt);
        out[0]! ^= 1;
        return out;
      },
    };
    const results = await validateBackends([await rustcryptoWasm('baseline', loadCores), good, broken], ['chacha20-poly1305'], loadVectors());
    const row = results.find((r) => r.variant === 'broken')!;
    expect(row.excluded).toBe(true);
    expect(row.vectorsFailed).toBeGreaterThan(0);
    expect(results.find((r) => r.implementation === 'noble' && r.variant === 'js')!.excluded).toBe(false);
  });

  it('forged decryption is rejected on every iteration by every backend', async () => {
    for (const b of [await rustcryptoWasm('baseline', loadCores), await webcrypto('pipelined'), noble()]) {
      const p = await b.prepare({ algorithm: 'aes-128-gcm', operation: 'forged-decrypt', sizeBytes: 64, aadBytes: 0 });
      await p.run(20); // would throw if any forged open succeeded
      p.dispose();
    }
  });
});

describe('timing core', () => {
  /** A fake clock where each operation costs `cost` ms. */
  function fake(cost: number) {
    let t = 0;
    return {
      now: () => t,
      prepared: { run: (n: number) => void (t += n * cost), stateBytes: null, dispose() {} },
    };
  }

  it('calibrates a batch to the sample target', async () => {
    const f = fake(0.001); // 1 µs per op
    expect(await calibrate(f.prepared, 2, f.now)).toBe(2000);
  });

  it('is not fooled by one slow first call into one-call batches', async () => {
    // 1 µs per op, but the very first call takes 1 ms (a page fault on fresh buffers).
    let t = 0;
    let first = true;
    const prepared = { run: (n: number) => void ((t += n * 0.001 + (first ? 1 : 0)), (first = false)), stateBytes: null, dispose() {} };
    const n = await calibrate(prepared, 2, () => t);
    expect(Math.abs(n / 2000 - 1)).toBeLessThan(0.01); // 2 ms of 1 µs calls, not 1 call
  });

  it('sizes its batch by the fastest of three timings: a slow stretch over the batch that crossed the mark and its check does not shrink every sample', async () => {
    // 1 µs per call, but calls 500–1300 take 10 µs (the device busy for about 8 ms).
    let t = 0;
    let calls = 0;
    const prepared = {
      run: (n: number) => {
        for (let i = 0; i < n; i++, calls++) t += calls >= 500 && calls < 1300 ? 0.01 : 0.001;
      },
      stateBytes: null,
      dispose() {},
    };
    const n = await calibrate(prepared, 2, () => t);
    expect(Math.abs(n / 2000 - 1)).toBeLessThan(0.01); // 2 ms of 1 µs calls; one timing of the crossing batch gave 201
  });

  it('sizes a proposal that timed short of the target by its own time: code that tiered up after the mark samples for the target', async () => {
    // 2 µs a call, then 1.25 µs from the 1024th (the optimised tier). The batch that crosses the
    // mark (256 calls, timed three times: calls 255-1022) proposes 1001 calls; timed, they last
    // 1.25 ms of the 2 ms target.
    let t = 0;
    let calls = 0;
    const prepared = {
      run: (n: number) => {
        for (let i = 0; i < n; i++, calls++) t += calls < 1023 ? 0.002 : 0.00125;
      },
      stateBytes: null,
      dispose() {},
    };
    const n = await calibrate(prepared, 2, () => t);
    expect(Math.abs(n / 1600 - 1)).toBeLessThan(0.01); // 2 ms of 1.25 µs calls, not 1000 of them
  });

  it('a slow first call read on a coarse clock is no mark: the batch keeps doubling', async () => {
    // WebKitGTK's 20 µs clock; the first call compiles (0.78 ms), then 1 µs per call. Timed
    // again, one call reads 0 ms: sized on that, a batch was 2 million calls, 2 s per sample.
    let t = 0;
    let first = true;
    const prepared = { run: (n: number) => void ((t += n * 0.001 + (first ? 0.779 : 0)), (first = false)), stateBytes: null, dispose() {} };
    const n = await calibrate(prepared, 2, () => Math.floor(t / 0.02) * 0.02);
    expect(Math.abs(n / 2000 - 1)).toBeLessThan(0.05);
  });

  it('every sample lasts at least 100× the timer resolution', async () => {
    const f = fake(0.0001);
    const m = await measureCase(f.prepared, { samples: 5, minSampleMs: 0.1, timerResolutionMs: 0.02, now: f.now });
    expect(m.iterations * 0.0001).toBeGreaterThanOrEqual(2 - 1e-9); // 100 × 20 µs
    expect(m.samples).toHaveLength(5);
    for (const s of m.samples) expect(s).toBeCloseTo(100, 6); // 0.1 µs = 100 ns per op
  });

  it('discards samples taken while the page was hidden', async () => {
    const f = fake(0.001);
    let hiddenChecks = 0;
    const m = await measureCase(f.prepared, {
      samples: 3,
      minSampleMs: 1,
      timerResolutionMs: 0.005,
      now: f.now,
      wasHidden: () => hiddenChecks++ < 2,
    });
    expect(m.interruptions).toBe(2);
    expect(m.samples).toHaveLength(3);
  });

  it("samples compared cases interleaved in a balanced, changing order, and their paired ratio cancels the machine's swings", async () => {
    // One clock. Once sampling starts (the first yield), the machine's speed changes every
    // cycle of three samples: every case of a cycle sees the same speed.
    let t = 0;
    let sampling = false;
    let taken = 0;
    const order: string[] = [];
    const SPEED = [1, 1.9, 1.2, 2, 1.1];
    const mk = (name: string, cost: number) => ({
      run: (n: number) => {
        if (!sampling) return void (t += n * cost);
        t += n * cost * SPEED[Math.floor(taken / 3) % SPEED.length]!;
        taken++;
        order.push(name);
      },
      stateBytes: null,
      dispose() {},
    });
    const m = await measureInterleaved([mk('A', 0.003), mk('B', 0.002), mk('C', 0.001)], {
      samples: 6,
      minSampleMs: 1,
      timerResolutionMs: 0.005,
      now: () => t,
      firstCycle: 39,
      yieldNow: async () => void (sampling = true),
    });
    // Cycles 39–41 and 42–44 are two blocks: in each, every case runs once in every position.
    const cycles = [0, 1, 2, 3, 4, 5].map((i) => order.slice(3 * i, 3 * i + 3).join(''));
    for (const block of [cycles.slice(0, 3), cycles.slice(3, 6)]) {
      for (const c of block) expect([...c].sort().join('')).toBe('ABC');
      for (let pos = 0; pos < 3; pos++) expect(new Set(block.map((c) => c[pos])).size).toBe(3);
    }
    for (const x of m) expect(x.cycles).toEqual([39, 40, 41, 42, 43, 44]);
    // A's samples swing 2x with the machine; its ratio to B does not move.
    expect(Math.max(...m[0]!.samples) / Math.min(...m[0]!.samples)).toBeGreaterThan(1.5);
    expect(pairedRatio(m[0]!, m[1]!)!.ratio).toBeCloseTo(1.5, 6);
    expect(pairedRatio(m[0]!, m[2]!)!.ratio).toBeCloseTo(3, 6);
  });

  it('runs twins back to back in every cycle, each going first in turn, and the units in balanced orders', () => {
    // Eight cases of four units (an A/B's two sides of four algorithms), and a lone one.
    const unit = ['aes', 'aes', 'gcm256', 'gcm256', 'chacha', 'chacha', 'x', 'x', 'alone'];
    const first = new Map<number, number>();
    const position = new Map<string, number[]>();
    for (let cycle = 0; cycle < 10; cycle++) {
      const order = cycleOrder(unit.length, cycle, (i) => unit[i]!);
      expect([...order].sort()).toEqual(unit.map((_, i) => i));
      order.forEach((i, p) => position.set(unit[i]!, [...(position.get(unit[i]!) ?? []), p]));
      for (const u of new Set(unit)) {
        const at = order.flatMap((i, p) => (unit[i] === u ? [p] : []));
        // Side by side, whatever the cycle.
        expect(at[at.length - 1]! - at[0]!, `${u} in cycle ${cycle}: ${order}`).toBe(at.length - 1);
        if (at.length === 2) first.set(order[at[0]!]!, (first.get(order[at[0]!]!) ?? 0) + 1);
      }
    }
    // Each side of a pair goes first in half of the cycles.
    for (let i = 0; i < 8; i++) expect(first.get(i), `case ${i}`).toBe(5);
    // Over a block of five cycles (five units) each unit leads once.
    const leads = [0, 1, 2, 3, 4].map((c) => unit[cycleOrder(unit.length, c, (i) => unit[i]!)[0]!]);
    expect(new Set(leads).size).toBe(5);
    // Without units, the rotation of cases as before.
    expect(cycleOrder(3, 7)).toEqual(cycleOrder(3, 7, (i) => String(i)));
  });

  it("an async batch is timed from its first call to its last answer; what a case leaves for the next task runs in the untimed turn, not in the next case's sample", async () => {
    // Each batch of the async case leaves 0.5 ms of work (a collector's task) for the next task:
    // the next turn of the event loop if one comes first, else the next batch, whoever's it is.
    let t = 0;
    let owed = 0;
    const mk = (async: boolean) => ({
      run: (n: number) => {
        t += owed + n * 0.001;
        owed = async ? 0.5 : 0;
        return async ? Promise.resolve() : undefined;
      },
      stateBytes: null,
      dispose() {},
    });
    // The turn itself costs 0.2 ms (a message through a channel in WebKitGTK): the harness's, never a sample's.
    const yieldNow = async () => void ((t += 0.2 + owed), (owed = 0));
    const o = { samples: 6, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0, iterations: 2000 };
    const [asyncCase, syncCase] = await measureInterleaved([mk(true), mk(false)], { ...o, yieldNow });
    for (const s of syncCase!.samples) expect(s).toBeCloseTo(1000, 6); // 2 ms / 2000 calls
    // The async case's sample pays what its own untimed settling call left (SETTLE_CALLS), as each
    // call of a caller's loop pays what the call before it left; never what the sync case left.
    for (const s of asyncCase!.samples) expect(s).toBeCloseTo(1250, 6);
    // Without the turn, the leftovers land in whichever sample comes next: the order would move the figures.
    owed = 0;
    const [a2, s2] = await measureInterleaved([mk(true), mk(false)], o);
    expect(Math.max(...a2!.samples, ...s2!.samples)).toBeCloseTo(1250, 6);
  });

  it("an asynchronous case is sampled after one untimed call: the first call after the other cases' turn, which waits for the crypto thread to wake, is not timed", async () => {
    // Web Crypto's shape: 10 µs a call, but the first call after another case ran takes 0.5 ms more.
    let t = 0;
    let last = -1;
    const calls: string[] = [];
    const mk = (k: number, async: boolean) => ({
      run: (n: number) => {
        calls.push(`${k}:${n}`);
        t += (k !== last && async ? 0.5 : 0) + n * (async ? 0.01 : 0.001);
        last = k;
        return async ? Promise.resolve() : undefined;
      },
      stateBytes: null,
      dispose() {},
    });
    const o = { samples: 5, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0, iterations: 200 };
    const [asyncCase, syncCase] = await measureInterleaved([mk(0, true), mk(1, false)], o);
    for (const s of asyncCase!.samples) expect(s).toBeCloseTo(10_000, 6); // 2 ms / 200 calls, no wake-up in it
    for (const s of syncCase!.samples) expect(s).toBeCloseTo(1000, 6);
    // Each of the async case's samples came right after one call of it; the sync case never settles.
    const sampled = calls.slice(-15);
    expect(sampled.filter((c) => c === '0:1')).toHaveLength(5);
    expect(sampled.filter((c) => c === '1:1')).toHaveLength(0);
    sampled.forEach((c, j) => c === '0:200' && expect(sampled[j - 1]).toBe('0:1'));
  });

  it('a synchronous case that settles takes a turn of its own before each sample: its own batch, untimed and back to back with the sample, for SETTLE_MS; one that does not is timed right after the others', async () => {
    // A JavaScript case's shape in a run (Node, noble's AES-GCM at 1 KiB): after another case's
    // turn, its calls cost 1.5× for its first 4 ms of running, then 1 µs.
    let t = 0;
    let last = -1;
    let slowFor = 0;
    const log: string[] = [];
    const mk = (k: number) => ({
      run: (n: number) => {
        log.push(`${k}:${n}`);
        if (k !== last) slowFor = 4;
        last = k;
        for (let i = 0; i < n; i++) {
          const cost = slowFor > 0 ? 0.0015 : 0.001;
          t += cost;
          slowFor -= cost;
        }
      },
      stateBytes: null,
      dispose() {},
    });
    const yieldNow = async () => void log.push('yield');
    const o = { samples: 5, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0, iterations: 2000, yieldNow };
    const [settled, plain] = await measureInterleaved([mk(0), mk(1), mk(2)], { ...o, settleFor: (i) => i === 0 });
    for (const s of settled!.samples) expect(s).toBeCloseTo(1000, 6); // as its loop runs on
    // The switch's cost, timed (three cases: none follows itself from one cycle to the next).
    expect(plain!.samples.filter((s) => Math.abs(s - 1500) < 1e-6).length).toBeGreaterThanOrEqual(4);
    // Sampling: each of the settling case's samples is its 5th batch in a row (4 untimed, SETTLE_MS
    // of 2 ms batches), with no turn of the event loop among them; the other case's, its 1st.
    const sampling = log.slice(log.indexOf('yield'));
    const runs = sampling
      .join(' ')
      .split(' yield')
      .map((r) => r.trim())
      .filter(Boolean);
    expect(runs.filter((r) => r.startsWith('0:'))).toEqual(Array(5).fill('0:2000 0:2000 0:2000 0:2000 0:2000'));
    expect(runs.filter((r) => r.startsWith('1:'))).toEqual(Array(5).fill('1:2000'));
    // How many batches a turn holds, for the stop rule's costs: SETTLE_MS of them, at most four, at least one.
    expect([settleBatches(2), settleBatches(5), settleBatches(20), settleBatches(0.5)]).toEqual([4, 2, 1, 4]);
    // Which cases settle: every one whose calls are not WebAssembly's.
    expect([settles('noble'), settles('node-crypto'), settles('my-module' as never), settles('rustcrypto-wasm'), settles('libsodium')]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('code already warm in this worker is calibrated, or run once at its known batch size, and then sampled: no warm-up on top', async () => {
    let t = 0;
    const batches: number[] = [];
    const prepared = { run: (n: number) => void (batches.push(n), (t += n * 0.001)), stateBytes: null, dispose() {} };
    const o = { samples: 3, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0 };
    await measureCase(prepared, { ...o, iterations: 2000 });
    expect(batches).toEqual([2000, 2000, 2000, 2000]); // one untimed run (buffers touched), three samples
    batches.length = 0;
    t = 0;
    const m = await measureCase(prepared, o);
    // Calibration doubles up to a quarter of the 2 ms target, times that batch twice more,
    // checks its proposal once, then samples.
    expect(batches.slice(-3)).toEqual([m.iterations, m.iterations, m.iterations]);
    expect(batches.length - 3).toBeLessThanOrEqual(13);
    expect(t).toBeLessThan(12); // a full warm-up lasts at least 50 ms
  });

  it('twins (the same work per call) about as fast per call sample with one batch, the largest calibrated among them; twins 4× apart keep their own', async () => {
    // 1.0, 1.1 and 1.2 ms a call share the largest of their batches (the batch of 1 was a calibration
    // gone wrong at the same speed); 9 ms and 0.2 ms a call are more than 4× from them.
    expect(sharedBatches([3, 5, 1, 2, 40], [1, 1.1, 1.2, 9, 0.2], () => 'gcm/16k')).toEqual([5, 5, 5, 2, 40]);
    expect(sharedBatches([2, 4], [1, 1], (i) => ['gcm/64', 'chacha/64'][i]!)).toEqual([2, 4]);
    // Through measureInterleaved: the identical code calibrated apart (one case slow while it was
    // calibrated) samples with the same batch, and reports it as its iterations for later rounds.
    let t = 0;
    const batches: number[][] = [[], []];
    const mk = (k: number, slowFirst: number) => ({
      run: (n: number) => void (batches[k]!.push(n), (t += n * (slowFirst-- > 0 ? 0.004 : 0.001))),
      stateBytes: null,
      dispose() {},
    });
    const o = { samples: 3, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0 };
    const apart = await measureInterleaved([mk(0, 0), mk(1, 12)], o);
    expect(apart[0]!.iterations).toBeGreaterThan(apart[1]!.iterations);
    const [a, b] = await measureInterleaved([mk(0, 0), mk(1, 12)], { ...o, twinOf: () => 'gcm/16k' });
    expect(b!.iterations).toBe(a!.iterations);
    expect(batches[1]!.slice(-3)).toEqual([a!.iterations, a!.iterations, a!.iterations]);
  });

  it("twins are one code's cases of an algorithm (groups.ts twinKey): its builds, the A/A pair, an A/B's two sides; two libraries of one algorithm keep their own batches", () => {
    const c = (implementation: string, algorithm = 'aes-128-gcm') => ({ implementation, algorithm });
    const ab = { base: 'noble-base', head: 'noble-head', margin: 0.05 } as RunParams['ab'];
    // Another library of the algorithm, or another algorithm, is not a twin.
    expect(twinKey(c('sjcl-gcm'), undefined)).not.toBe(twinKey(c('asmcrypto-gcm'), undefined));
    expect(twinKey(c('noble'), undefined)).not.toBe(twinKey(c('noble', 'chacha20-poly1305'), undefined));
    // An A/B's base and head are one code under test, whatever their ids; a third module is not of them.
    expect(twinKey(c('noble-base'), ab)).toBe(twinKey(c('noble-head'), ab));
    expect(twinKey(c('noble-head'), ab)).not.toBe(twinKey(c('sjcl-gcm'), ab));
    expect(twinKey(c('noble-base'), undefined)).not.toBe(twinKey(c('noble-head'), undefined));
    // So in a group of SJCL, asmcrypto.js and an A/A pair of one build, all about as fast per call,
    // only the pair shares its larger batch; in an A/B the base and head share theirs.
    const group = [c('sjcl-gcm'), c('asmcrypto-gcm'), c('rustcrypto-wasm'), c('rustcrypto-wasm')];
    expect(sharedBatches([202, 70, 40, 60], [0.01, 0.03, 0.02, 0.02], (i) => twinKey(group[i]!, undefined))).toEqual([202, 70, 60, 60]);
    const sides = [c('noble-base'), c('noble-head'), c('sjcl-gcm')];
    expect(sharedBatches([30, 50, 202], [0.02, 0.02, 0.01], (i) => twinKey(sides[i]!, ab))).toEqual([50, 50, 202]);
  });

  it('twins whose timed batch read far apart once, as a batch a neighbour interrupted does, are timed again and still share', async () => {
    // The calls come in turns: a's warm-up, b's, then each timed once on its batch (turns 3 and 4),
    // then, if they read apart, each again. b runs 5× slower while it calibrates (a smaller batch)
    // and in its first timed batch (the interruption), at a's speed otherwise.
    let t = 0;
    let turn = 0;
    let last = -1;
    const batches: number[][] = [[], []];
    const mk = (k: number) => ({
      run: (n: number) => {
        if (k !== last) (turn++, (last = k));
        batches[k]!.push(n);
        t += n * (k === 1 && (turn === 2 || turn === 4) ? 0.005 : 0.001);
      },
      stateBytes: null,
      dispose() {},
    });
    const o = { samples: 3, minSampleMs: 2, timerResolutionMs: 0.005, now: () => t, warmupMinMs: 0, warmupMaxMs: 0, twinOf: () => 'gcm/16k' };
    const [a, b] = await measureInterleaved([mk(0), mk(1)], o);
    expect(turn).toBeGreaterThan(6); // timed again: turns 5 and 6, then the samples
    expect(b!.iterations).toBe(a!.iterations);
    expect(batches[1]!.slice(-3)).toEqual([a!.iterations, a!.iterations, a!.iterations]);
  });

  it('each case of a group as many samples as asked of it: one that has them leaves the cycles, the others pair on', async () => {
    let t = 0;
    const mk = (cost: number) => ({ run: (n: number) => void (t += n * cost), stateBytes: null, dispose() {} });
    const asked = [4, 10, 7];
    const m = await measureInterleaved([mk(0.003), mk(0.002), mk(0.001)], {
      samples: 4,
      samplesFor: (i) => asked[i],
      minSampleMs: 1,
      timerResolutionMs: 0.005,
      now: () => t,
      firstCycle: 100,
    });
    expect(m.map((x) => x.samples.length)).toEqual(asked);
    expect(m[1]!.cycles).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
    // The cases share the cycles they were both in, so their ratio is still paired.
    expect(m[2]!.cycles).toEqual(m[1]!.cycles.slice(0, 7));
    expect(pairedRatio(m[1]!, m[2]!)!.n).toBe(7);
  });

  it('in a later round, warm-up ends once the code runs as fast as it was seen warm, and a worker that stays slower warms up in full', async () => {
    // A fresh worker's code tiers up after 20 ms of work (3 µs → 1 µs per op), then jitters
    // ±5 % from batch to batch, so three batches within 3 % come only by chance.
    const tiered = (slowFor: number, warmCost: number) => {
      let t = 0;
      let k = 0;
      return {
        now: () => t,
        prepared: { run: (n: number) => void (t += n * (t < slowFor ? 0.003 : warmCost) * (k++ % 2 ? 1.05 : 0.95)), stateBytes: null, dispose() {} },
        spent: () => t,
      };
    };
    const o = { samples: 3, minSampleMs: 2, timerResolutionMs: 0.005, iterations: 2000, warmupMaxMs: 1000 };
    const known = tiered(20, 0.001);
    await measureCase(known.prepared, { ...o, now: known.now, warmNsPerOp: 1000 });
    const unknown = tiered(20, 0.001);
    await measureCase(unknown.prepared, { ...o, now: unknown.now });
    // Known: past the slow tier, the first batch near 1 µs ends it (about 25 ms with the samples).
    expect(known.spent()).toBeLessThan(40);
    expect(unknown.spent()).toBeGreaterThan(known.spent() * 5);
    // A worker whose code stays 30 % slower never reaches the earlier figure: the full rule decides, and its samples say 1.3 µs.
    const slower = tiered(20, 0.0013);
    const m = await measureCase(slower.prepared, { ...o, now: slower.now, warmNsPerOp: 1000 });
    expect(slower.spent()).toBeGreaterThan(900);
    for (const s of m.samples) expect(s).toBeGreaterThan(1200);
  });

  it('in a later round, a batch the code now finishes well short of the target grows to the target, and one that lasts it is kept', async () => {
    // The first round sized 3 calls of 4 ms for a 10 ms target; this worker runs them at 1.5 ms
    // (the first round's fresh browser was slower): 4.5 ms samples, unless the batch grows.
    const at = (msPerCall: number) => {
      let t = 0;
      return { now: () => t, prepared: { run: (n: number) => void (t += n * msPerCall), stateBytes: null, dispose() {} } };
    };
    const o = { samples: 3, minSampleMs: 10, timerResolutionMs: 0.005, iterations: 3, warmupMaxMs: 200 };
    const faster = at(1.5);
    const grown = await measureCase(faster.prepared, { ...o, now: faster.now, warmNsPerOp: 4e6 });
    expect(grown.iterations).toBe(7); // ceil(10 / 1.5)
    for (const s of grown.samples) expect(s).toBeCloseTo(1.5e6, 6);
    // Code already warm in this worker (warmupMaxMs 0): the one batch run before timing decides.
    const warm = at(1.5);
    expect((await measureCase(warm.prepared, { ...o, now: warm.now, warmupMaxMs: 0 })).iterations).toBe(7);
    // Within 0.8 of the target (8.4 ms) the earlier batch stays, so rounds keep their batch.
    const near = at(2.8);
    expect((await measureCase(near.prepared, { ...o, now: near.now, warmupMaxMs: 0 })).iterations).toBe(3);
    const slower = at(6);
    expect((await measureCase(slower.prepared, { ...o, now: slower.now })).iterations).toBe(3); // never shrunk
  });

  it('measures the timer resolution from a coarse clock', () => {
    let calls = 0;
    const coarse = () => Math.floor(calls++ / 10) * 0.1; // steps of 100 µs
    expect(timerResolutionMs(coarse)).toBeCloseTo(0.1, 9);
  });
});
