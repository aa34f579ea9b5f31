import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { type TurnOrder, batchOf, plainLoop, turnOrder, workerSpecs } from './plain-loop.mjs';

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

  it('takes turns as a run does (turnOrder): size by size, every round each case of that size once, in a new order', () => {
    const subjects = ['a', 'b', 'c'].map((name) => ({ name, module: 'copy.mjs', algorithm: 'aes-128-gcm' }));
    const { order, groupEnds } = turnOrder(subjects, [64, 1024], 20);
    expect(groupEnds).toEqual([60, 120]);
    expect(order).toHaveLength(120);
    for (let r = 0; r < 40; r++) {
      const size = r < 20 ? 64 : 1024;
      expect([...order.slice(3 * r, 3 * r + 3)].sort(), `round ${r}`).toEqual(['a', 'b', 'c'].map((n) => `${n}|aes-128-gcm|${size}`));
    }
    // Shuffled: 40 rounds of 3 cases in one fixed order would be 1 chance in 6^39.
    expect(
      new Set(
        Array.from({ length: 40 }, (_, r) =>
          order
            .slice(3 * r, 3 * r + 3)
            .map((k) => k[0])
            .join(''),
        ),
      ).size,
    ).toBeGreaterThan(1);
  });

  it("a size's turns end once they have had their time: a case far slower than its batch does not hold the loop for every round, and the next size still takes its turns", async () => {
    const slow = {
      ...copy,
      encrypt: (...a: Parameters<typeof copy.encrypt>) => {
        // Every call at 1 KiB lasts 4 ms, four times the batch asked for.
        if (a[4].length === 1024) for (const t = performance.now(); performance.now() - t < 4;);
        return copy.encrypt(...a);
      },
    };
    const subjects = [{ name: 'copy', module: 'copy.mjs', algorithm: 'aes-128-gcm' }];
    const seen: [number, number][][] = [];
    // 40 turns a case; the 1 KiB case's would take 160 ms, its size's budget is 40 ms.
    const figures = await plainLoop(
      { subjects, sizes: [1024, 64], ms: 40, reps: 1, interleaveMs: 1 },
      async () => slow,
      async (w) => (seen.push(w), 0),
    );
    const [kib, small] = seen;
    // At most about ten 4 ms calls fit its 40 ms (a busy host fits fewer, never more), where uncut it would take all 40 turns.
    expect(kib!.length).toBeGreaterThanOrEqual(1);
    expect(kib!.length).toBeLessThan(20);
    expect(small!.length).toBeGreaterThanOrEqual(1);
    // The 1 KiB turns all ran before the 64 B ones.
    expect(Math.max(...kib!.map(([, b]) => b))).toBeLessThanOrEqual(Math.min(...small!.map(([a]) => a)));
    expect(figures.bytesPerSecond['copy|aes-128-gcm|1024']).toBeGreaterThan(0);
  });

  /** The workers of `specs` (turns.test-worker.mjs: the copy module), and every timed window of every case, in the order they ran. */
  async function runTurns(specs: ReturnType<typeof workerSpecs>) {
    const out = await Promise.all(
      specs.map(
        (workerData) =>
          new Promise<{ figures: { bytesPerSecond: Record<string, number> }; byCase: [number, number][][]; calls: number[] }>((resolve, reject) => {
            const w = new Worker(new URL('./turns.test-worker.mjs', import.meta.url), {
              workerData: { ...workerData, subjects: workerData.subjects.map((x) => ({ ...x, module: 'copy.mjs' })) },
            });
            w.once('message', (m) => (resolve(m), void w.terminate()));
            w.once('error', reject);
          }),
      ),
    );
    // A worker's cases, as plain-loop.mjs makes them: each subject at each size.
    const windows = out.flatMap((o, i) => {
      const keys = specs[i]!.subjects.flatMap((s) => specs[i]!.sizes.map((size) => `${s.name}|${s.algorithm}|${size}`));
      return o.byCase.flatMap((w, k) => w.map(([a, b]) => ({ key: keys[k]!, a, b })));
    });
    windows.sort((x, y) => x.a - y.a);
    return { out, windows };
  }

  /** That the windows ran one at a time, and in each size a prefix of that size's turns (the rest cut when the size's time was up). */
  function expectTheRunsTurns(windows: { key: string; a: number; b: number }[], { order, groupEnds }: TurnOrder) {
    windows.forEach((w, i) => {
      if (i > 0) expect(w.a, `turn ${i} starts after the one before it ends`).toBeGreaterThanOrEqual(windows[i - 1]!.b);
    });
    let at = 0;
    groupEnds.forEach((end, g) => {
      const turns = order.slice(g ? groupEnds[g - 1] : 0, end);
      const size = turns[0]!.split('|')[2];
      const ran = windows.slice(at).findIndex((w) => w.key.split('|')[2] !== size);
      const mine = windows.slice(at, ran < 0 ? undefined : at + ran).map((w) => w.key);
      expect(mine.length, `size ${size}`).toBeGreaterThanOrEqual(new Set(turns).size);
      expect(mine, `size ${size}: the turns as ordered`).toEqual(turns.slice(0, mine.length));
      at += mine.length;
    });
    expect(at).toBe(windows.length);
  }

  it("in the engine's threads (workerSpecs with apart 'module'), a worker per module: noble's subjects share one, and the workers take the run's turns one case at a time, in the shared order", async () => {
    const subjects = [
      { name: 'noble', module: 'noble', algorithm: 'aes-128-gcm' },
      { name: 'a', module: 'a.mjs', algorithm: 'aes-128-gcm' },
      { name: 'noble', module: 'noble', algorithm: 'chacha20-poly1305' },
      { name: 'b', module: 'b.mjs', algorithm: 'aes-128-gcm' },
    ];
    // 40 turns a case, 160 ms a size: a busy host cuts a size's turns short (a prefix is checked), never its first round.
    const specs = workerSpecs({ subjects, sizes: [64, 1024], ms: 40, reps: 1, interleaveMs: 1 }, 'module');
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
    // One counter and one order for all three, every subject's cases in it; a worker per subject with apart true, one worker without it.
    expect(new Set(specs.map((s) => s.turns!.sab)).size).toBe(1);
    expect(new Set(specs.map((s) => s.turns!.order)).size).toBe(1);
    expect(specs[0]!.turns!.order).toHaveLength(2 * 4 * 40);
    expect(workerSpecs({ subjects, sizes: [64], ms: 12, reps: 1, interleaveMs: 1 }, true)).toHaveLength(4);
    expect(workerSpecs({ subjects, sizes: [64], ms: 12, reps: 1, interleaveMs: 1 }, false)).toHaveLength(1);
    const { out, windows } = await runTurns(specs);
    expect(Object.keys(out[0]!.figures.bytesPerSecond).sort()).toEqual([
      'noble|aes-128-gcm|1024',
      'noble|aes-128-gcm|64',
      'noble|chacha20-poly1305|1024',
      'noble|chacha20-poly1305|64',
    ]);
    for (const f of out) for (const [k, v] of Object.entries(f.figures.bytesPerSecond)) expect(v, k).toBeGreaterThan(0);
    expectTheRunsTurns(windows, specs[0]!.turns!);
    expect(new Int32Array(specs[0]!.turns!.sab)[0]).toBe(specs[0]!.turns!.order.length);
  });

  it('with each case in a thread of its own (workerSpecs with apart), the threads take the turns as ordered, one at a time', async () => {
    const subjects = ['a', 'b'].map((name) => ({ name, module: 'copy.mjs', algorithm: 'aes-128-gcm' }));
    const specs = workerSpecs({ subjects, sizes: [64], ms: 40, reps: 1, interleaveMs: 1 }, true);
    expect(specs.map((s) => s.subjects.map((x) => x.name))).toEqual([['a'], ['b']]);
    const { out, windows } = await runTurns(specs);
    expect(Object.keys(out[0]!.figures.bytesPerSecond)).toEqual(['a|aes-128-gcm|64']);
    expect(Object.keys(out[1]!.figures.bytesPerSecond)).toEqual(['b|aes-128-gcm|64']);
    expectTheRunsTurns(windows, specs[0]!.turns!);
  });

  it('warms the threads up one after another, in their order, before any takes a turn; a batch is sized by the fastest of the timings batchOf is given', async () => {
    // A timing slowed by something else reads slow, never fast: the fastest sizes the batch.
    expect(
      batchOf(
        [
          [13, 2],
          [100, 2],
          [98, 2],
        ],
        2,
      ),
    ).toBe(100);
    expect(batchOf([[1, 5]], 2)).toBe(1);
    const subjects = ['a', 'b', 'c'].map((name) => ({ name, module: 'copy.mjs', algorithm: 'aes-128-gcm' }));
    const specs = workerSpecs({ subjects, sizes: [64], ms: 150, reps: 1, interleaveMs: 1 }, true);
    const { out, windows } = await runTurns(specs);
    const firstTurn = Math.min(...windows.map((w) => w.a));
    // Each thread's calls before the first turn: its warm-up and its batch's timings.
    const warm = out.map((o) => o.calls.filter((t) => t < firstTurn));
    warm.forEach((calls, i) => {
      expect(calls.length, `thread ${i} warmed up before the first turn`).toBeGreaterThan(0);
      if (i > 0) expect(calls[0], `thread ${i} warms up after thread ${i - 1} has`).toBeGreaterThanOrEqual(warm[i - 1]!.at(-1)!);
    });
    expectTheRunsTurns(windows, specs[0]!.turns!);
  });
});
