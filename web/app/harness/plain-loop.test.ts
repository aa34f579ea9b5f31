import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { plainLoop, workerSpecs } from './plain-loop.mjs';

/** A module whose encrypt only makes its output: the loop's shape, not a cipher, is under test. */
const copy = {
  id: 'copy',
  label: 'copy',
  algorithms: ['aes-128-gcm'] as const,
  decrypt: (_a: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, sealed: Uint8Array) => sealed.subarray(0, sealed.length - 16),
  encrypt: (_a: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, pt: Uint8Array) => new Uint8Array(pt.length + 16),
};

describe("bench:modules' plain loop taking turns (plain-loop.mjs)", () => {
  it('runs each case through its own instance of plain-batch.mjs, and no two cases through the same', async () => {
    /** Per case (algorithm and size), the instances of plain-batch.mjs its calls came through, from the stack. */
    const callers = new Map<string, Set<string>>();
    const impl = {
      id: 'traced',
      label: 'traced',
      algorithms: ['aes-128-gcm', 'chacha20-poly1305'] as const,
      decrypt: (_a: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, sealed: Uint8Array) => sealed.subarray(0, sealed.length - 16),
      encrypt: (alg: string, _k: Uint8Array, _n: Uint8Array, _aad: Uint8Array, pt: Uint8Array) => {
        const via = /plain-batch\.mjs\?case=\d+/.exec(new Error().stack ?? '')?.[0] ?? 'no batch loop of its own';
        const key = `${alg}|${pt.length}`;
        callers.set(key, (callers.get(key) ?? new Set()).add(via));
        return new Uint8Array(pt.length + 16);
      },
    };
    const subjects = ['aes-128-gcm', 'chacha20-poly1305'].map((algorithm) => ({ name: 'traced', module: 'traced.mjs', algorithm }));
    const figures = await plainLoop({ subjects, sizes: [64, 1024], ms: 6, reps: 1, interleaveMs: 1 }, async () => impl);
    expect(Object.keys(figures.bytesPerSecond)).toHaveLength(4);
    expect([...callers.keys()].sort()).toEqual(['aes-128-gcm|1024', 'aes-128-gcm|64', 'chacha20-poly1305|1024', 'chacha20-poly1305|64']);
    const instances = [...callers.values()].map((s) => [...s]);
    for (const via of instances) expect(via).toEqual([expect.stringMatching(/^plain-batch\.mjs\?case=\d+$/)]);
    expect(new Set(instances.map((v) => v[0])).size).toBe(4);
  });

  it('holds the live objects asked for beside the loop (liveMB), and times the loop all the same', async () => {
    const impl = copy;
    const spec = { subjects: [{ name: 'copy', module: 'copy.mjs', algorithm: 'aes-128-gcm' }], sizes: [64], ms: 5, reps: 1 };
    // A collector to call: V8 exposes gc() in contexts made after the flag is set.
    (await import('node:v8')).setFlagsFromString('--expose-gc');
    const gc = (await import('node:vm')).runInNewContext('gc') as () => void;
    const used = () => (gc(), process.memoryUsage().heapUsed);
    /** MiB live while the loop runs (read at its first call) over before it, and the loop's figure. */
    const liveDuring = async (liveMB?: number) => {
      const before = used();
      let during = 0;
      const probe = { ...impl, encrypt: (...a: Parameters<typeof impl.encrypt>) => ((during ||= used()), impl.encrypt(...a)) };
      const figures = await plainLoop({ ...spec, liveMB }, async () => probe);
      return { mb: (during - before) / 2 ** 20, rate: figures.bytesPerSecond['copy|aes-128-gcm|64']! };
    };
    const without = await liveDuring();
    const held = await liveDuring(4);
    expect(without.mb).toBeLessThan(1);
    // The 4 MiB asked for, give or take.
    expect(held.mb).toBeGreaterThan(3.2);
    expect(held.mb).toBeLessThan(6);
    expect(held.rate).toBeGreaterThan(0);
  });

  it("hands the collector's probe each case's timed windows, and gives the share of their time it reports", async () => {
    /** When each call of each size began: the windows must hold exactly the calls the figure counts. */
    const calls = new Map<number, number[]>();
    const impl = {
      ...copy,
      encrypt: (...a: Parameters<typeof copy.encrypt>) => (
        calls.get(a[4].length)?.push(performance.now()) ?? calls.set(a[4].length, [performance.now()]),
        copy.encrypt(...a)
      ),
    };
    const subjects = [{ name: 'copy', module: 'copy.mjs', algorithm: 'aes-128-gcm' }];
    for (const shape of [{ reps: 3 }, { reps: 1, interleaveMs: 1 }, { reps: 2, pauseMs: 1 }]) {
      calls.clear();
      const seen: [number, number][][] = [];
      const started = performance.now();
      const figures = await plainLoop(
        { subjects, sizes: [64, 1024], ms: 6, ...shape },
        async () => impl,
        async (w) => {
          seen.push(w);
          return w.reduce((t, [a, b]) => t + b - a, 0) / 4;
        },
      );
      const ended = performance.now();
      expect(seen, JSON.stringify(shape)).toHaveLength(2);
      expect(figures.collectorShare, JSON.stringify(shape)).toEqual({ 'copy|aes-128-gcm|64': 0.25, 'copy|aes-128-gcm|1024': 0.25 });
      // Every window is a span of the loop, and no two overlap, within a case or across cases.
      const all = seen.flat().sort((x, y) => x[0] - y[0]);
      for (const [a, b] of all) expect(a >= started && b <= ended && b > a).toBe(true);
      for (let i = 1; i < all.length; i++) expect(all[i]![0]).toBeGreaterThanOrEqual(all[i - 1]![1]);
      // The figure is the calls inside the windows over their time: none timed outside them, none left out.
      for (const [i, size] of [64, 1024].entries()) {
        const w = seen[i]!;
        const timed = calls.get(size)!.filter((t) => w.some(([a, b]) => t >= a && t <= b)).length;
        const span = w.reduce((t, [a, b]) => t + b - a, 0);
        expect(figures.bytesPerSecond[`copy|aes-128-gcm|${size}`], JSON.stringify(shape)).toBeCloseTo((timed * size) / (span / 1000), 6);
      }
      // Alone, each of a case's stretches is a window of at least `ms`.
      if (!('interleaveMs' in shape) && !('pauseMs' in shape)) for (const w of seen) expect(w.map(([a, b]) => b - a >= 6)).toEqual([true, true, true]);
    }
    // Without a probe there is no share: a browser's worker cannot tell.
    const none = await plainLoop({ subjects, sizes: [64], ms: 3, reps: 1 }, async () => impl);
    expect(none.collectorShare).toBeUndefined();
  });

  it("in the engine's threads (workerSpecs with apart 'module'), a worker per module: noble's subjects share one, taking turns with the others, each case timed in each of its worker's turns", async () => {
    const subjects = [
      { name: 'noble', module: 'noble', algorithm: 'aes-128-gcm' },
      { name: 'a', module: 'a.mjs', algorithm: 'aes-128-gcm' },
      { name: 'noble', module: 'noble', algorithm: 'chacha20-poly1305' },
      { name: 'b', module: 'b.mjs', algorithm: 'aes-128-gcm' },
    ];
    const specs = workerSpecs({ subjects, sizes: [64, 1024], ms: 12, reps: 1, interleaveMs: 1 }, 'module');
    expect(specs.map((s) => s.subjects.map((x) => `${x.name} ${x.algorithm}`))).toEqual([
      ['noble aes-128-gcm', 'noble chacha20-poly1305'],
      ['a aes-128-gcm'],
      ['b aes-128-gcm'],
    ]);
    expect(specs.map((s) => [s.turns!.me, s.turns!.of])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    // One counter for all three; and a worker per subject with apart true, one worker without it.
    expect(new Set(specs.map((s) => s.turns!.sab)).size).toBe(1);
    expect(workerSpecs({ subjects, sizes: [64], ms: 12, reps: 1, interleaveMs: 1 }, true)).toHaveLength(4);
    expect(workerSpecs({ subjects, sizes: [64], ms: 12, reps: 1, interleaveMs: 1 }, false)).toHaveLength(1);
    // Run: the shared worker's turns time every one of its cases, and the counter counts each worker's turns.
    const copies = specs.map((s) => ({ ...s, subjects: s.subjects.map((x) => ({ ...x, module: 'copy.mjs' })) }));
    const out = await Promise.all(
      copies.map(
        (workerData) =>
          new Promise<{ figures: { bytesPerSecond: Record<string, number> }; byCase: [number, number][][] }>((resolve, reject) => {
            const w = new Worker(new URL('./turns.test-worker.mjs', import.meta.url), { workerData });
            w.once('message', (m) => (resolve(m), void w.terminate()));
            w.once('error', reject);
          }),
      ),
    );
    expect(Object.keys(out[0]!.figures.bytesPerSecond).sort()).toEqual([
      'noble|aes-128-gcm|1024',
      'noble|aes-128-gcm|64',
      'noble|chacha20-poly1305|1024',
      'noble|chacha20-poly1305|64',
    ]);
    for (const f of out) for (const [k, v] of Object.entries(f.figures.bytesPerSecond)) expect(v, k).toBeGreaterThan(0);
    const count = specs[0]!.turns!.count;
    expect(new Int32Array(specs[0]!.turns!.sab)[0]).toBe(3 * count);
    // Every case of every worker timed once in each of its worker's turns.
    expect(out.map((o) => o.byCase.map((w) => w.length))).toEqual([
      [count, count, count, count],
      [count, count],
      [count, count],
    ]);
    // And the workers' turns never overlap: one worker's windows all fall between another's turns.
    const turns = out.flatMap((o, worker) =>
      Array.from({ length: count }, (_, t) => ({ worker, a: Math.min(...o.byCase.map((w) => w[t]![0])), b: Math.max(...o.byCase.map((w) => w[t]![1])) })),
    );
    turns.sort((x, y) => x.a - y.a);
    turns.forEach((t, i) => {
      if (i > 0) expect(t.a, `turn ${i} starts after the one before it ends`).toBeGreaterThanOrEqual(turns[i - 1]!.b);
    });
  });

  it('with each case in a thread of its own (workerSpecs with apart), the threads take turns: their timed windows alternate and never overlap, each thread its count of turns', async () => {
    const subjects = ['a', 'b'].map((name) => ({ name, module: 'copy.mjs', algorithm: 'aes-128-gcm' }));
    const specs = workerSpecs({ subjects, sizes: [64], ms: 12, reps: 1, interleaveMs: 1 }, true);
    expect(specs.map((s) => s.subjects.map((x) => x.name))).toEqual([['a'], ['b']]);
    const count = specs[0]!.turns!.count;
    const out = await Promise.all(
      specs.map(
        (workerData) =>
          new Promise<{ figures: { bytesPerSecond: Record<string, number> }; windows: [number, number][] }>((resolve, reject) => {
            const w = new Worker(new URL('./turns.test-worker.mjs', import.meta.url), { workerData });
            w.once('message', (m) => (resolve(m), void w.terminate()));
            w.once('error', reject);
          }),
      ),
    );
    expect(Object.keys(out[0]!.figures.bytesPerSecond)).toEqual(['a|aes-128-gcm|64']);
    expect(Object.keys(out[1]!.figures.bytesPerSecond)).toEqual(['b|aes-128-gcm|64']);
    expect(out.map((o) => o.windows.length)).toEqual([count, count]);
    expect(new Int32Array(specs[0]!.turns!.sab)[0]).toBe(2 * count);
    const all = out.flatMap((o, thread) => o.windows.map(([a, b]) => ({ a, b, thread }))).sort((x, y) => x.a - y.a);
    all.forEach((w, i) => {
      expect(w.thread, `window ${i}`).toBe(i % 2);
      if (i > 0) expect(w.a, `window ${i} starts after the one before it ends`).toBeGreaterThanOrEqual(all[i - 1]!.b);
    });
  });
});
