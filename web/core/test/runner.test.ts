// The planner (pure) and the scheduler (startRun) against a fake worker that speaks the real
// RPC over a MessageChannel: rounds in fresh workers, rotation, interleaved groups with unique
// cycles, re-runs of unstable cases only, cancel keeping what finished, and the ETA.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { Environment, ResultDocument, RunParams, Validation } from '../schema.ts';
import { RunSession } from '../run/session.ts';
import { presetParams } from '../params.ts';
import { type Available, type WorkerHandle, aaTwin, planCases, roundOrder, startRun, toCaseResult } from '../run/runner.ts';
import type { PlannedCase } from '../worker/api.ts';
import { serve } from '../worker/rpc.ts';
import { sampleDocument } from './fixtures.ts';

const AVAILABLE: Available[] = [
  { implementation: 'rustcrypto-wasm', variant: 'simd128', algorithms: ['aes-128-gcm', 'chacha20-poly1305'] },
  { implementation: 'webcrypto', variant: 'sequential', algorithms: ['aes-128-gcm'] },
];
const params = (o: Partial<ReturnType<typeof presetParams>> = {}) => ({
  ...presetParams('quick'),
  algorithms: ['aes-128-gcm', 'chacha20-poly1305'] as ReturnType<typeof presetParams>['algorithms'],
  implementations: ['rustcrypto-wasm', 'webcrypto'] as ReturnType<typeof presetParams>['implementations'],
  webcrypto: ['sequential'] as ReturnType<typeof presetParams>['webcrypto'],
  operations: ['encrypt'] as ReturnType<typeof presetParams>['operations'],
  sizes: [64, 1024],
  aadBytes: [0],
  rounds: 2,
  samplesPerRound: 5,
  maxReruns: 2,
  ...o,
});

describe('toCaseResult', () => {
  it('reports what a caller gets beside the median: total bytes over total time, slow batches included', () => {
    const c = {
      key: 'k',
      implementation: 'webcrypto' as const,
      variant: 'sequential',
      algorithm: 'aes-128-gcm' as const,
      operation: 'encrypt' as const,
      sizeBytes: 16384,
      aadBytes: 0,
    };
    // Nine batches at 10 µs per call and one at 40 µs (a GC pause): the median ignores it, a caller does not.
    const samples = [...Array(9).fill(10_000), 40_000];
    const r = toCaseResult(c, { key: 'k', samples, iterations: 10, interruptions: 0, stateBytes: null, reruns: 0 }, { cvThreshold: 0.035 });
    expect(r.bytesPerSecond).toBeCloseTo(16384 / 10e-6, 0);
    expect(r.totalBytesPerSecond!).toBeCloseTo((16384 * 10) / (9 * 10e-6 + 40e-6), 0);
  });
});

describe('planCases', () => {
  it('plans every offered implementation × algorithm × size, and says what it skips and why', () => {
    const { plan, skipped } = planCases(
      params({ sizes: [64, 1024, 1 << 26], implementations: ['rustcrypto-wasm', 'webcrypto', 'noble'] }),
      AVAILABLE,
      [],
      1 << 20,
    );
    expect(plan.map((c) => c.key)).toEqual([
      'rustcrypto-wasm/simd128/aes-128-gcm/encrypt/64/0',
      'rustcrypto-wasm/simd128/aes-128-gcm/encrypt/1024/0',
      'rustcrypto-wasm/simd128/chacha20-poly1305/encrypt/64/0',
      'rustcrypto-wasm/simd128/chacha20-poly1305/encrypt/1024/0',
      'webcrypto/sequential/aes-128-gcm/encrypt/64/0',
      'webcrypto/sequential/aes-128-gcm/encrypt/1024/0',
    ]);
    expect(skipped).toEqual([
      { what: 'payload 64 MiB', reason: "payload of 67108864 bytes exceeds this device's limit of 1048576 bytes" },
      { what: 'webcrypto chacha20-poly1305', reason: 'webcrypto does not offer chacha20-poly1305 here' },
      { what: 'noble', reason: 'noble is not available in this environment' },
    ]);
  });

  it('reports no skip for an implementation that has nothing to do in the chosen algorithms', () => {
    // libaegis offers only AEGIS ids; a run without them (the quick preset) loads nothing of it.
    const { skipped } = planCases(params({ implementations: ['rustcrypto-wasm', 'libaegis-wasm'] }), AVAILABLE, [], 1 << 20);
    expect(skipped).toEqual([]);
    const { skipped: asked } = planCases(params({ algorithms: ['aegis-128l'], implementations: ['libaegis-wasm'] }), AVAILABLE, [], 1 << 20);
    expect(asked).toEqual([{ what: 'libaegis-wasm', reason: 'libaegis-wasm is not available in this environment' }]);
  });

  it('leaves out an implementation that failed validation for that algorithm only', () => {
    const failed: Validation = {
      implementation: 'webcrypto',
      variant: 'sequential',
      algorithm: 'aes-128-gcm',
      vectorsPassed: 0,
      vectorsFailed: 3,
      crossCheck: 'disagree',
      excluded: true,
      errors: ['x'],
    };
    const { plan } = planCases(params(), AVAILABLE, [failed], 1 << 20);
    expect(plan.some((c) => c.implementation === 'webcrypto')).toBe(false);
    expect(plan).toHaveLength(4);
  });
});

/**
 * A case's synthetic time: contenders 20 % or more apart, so the verdict's claims are decided
 * on one worker's samples (a tie would need several workers to agree: verdict.ts VERDICT_MARGIN).
 */
const baseNs = (c: PlannedCase, webcrypto = 2.5) =>
  1000 * ({ webcrypto, noble: 6 }[c.implementation as string] ?? 1) * (c.algorithm === 'chacha20-poly1305' ? 3 : 1);

/** A worker that answers the real RPC with synthetic samples: `spread(key)` sets each case's noise. */
function fakeWorkers(o: { spread?: (key: string) => number; measureDelayMs?: number; onMeasure?: (n: number) => void; webcrypto?: number } = {}) {
  const calls: {
    worker: number;
    method: string;
    keys?: string[];
    firstCycle?: number;
    warmOnce?: boolean;
    estimateClock?: boolean;
    settling?: readonly string[];
  }[] = [];
  let made = 0;
  const createWorker = (): WorkerHandle => {
    const worker = ++made;
    const { port1, port2 } = new MessageChannel();
    // The noise is a fixed sequence drawn in the order cases are measured: the overtime tests
    // below need their 40 %-noise claims left undecided by these draws (another multiplier, or
    // another round order, can decide them by chance).
    let seed = worker * 17;
    let emit: (event: unknown) => void = () => {};
    const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2;
    emit = serve(
      {
        init: async (p: { estimateClock?: boolean }) => (
          calls.push({ worker, method: 'init', estimateClock: p.estimateClock }),
          { timerResolutionMs: 0.005, clock: null, wasm: { simd128: true, relaxedSimd: false, threads: true }, buildInfo: {}, available: AVAILABLE }
        ),
        execution: async () => ({ mode: 'standard', wasm: 'compiled', jsOptimizer: true, jsOverlap: 3.8, wasmOverlap: 3.8, jsNsPerStep: 1, wasmNsPerStep: 1 }),
        validate: async () => [],
        measure: async (cases: PlannedCase[], m: { samples: number; firstCycle?: number; warmOnce?: boolean; settling?: readonly string[] }) => {
          calls.push({ worker, method: 'measure', keys: cases.map((c) => c.key), firstCycle: m.firstCycle, warmOnce: m.warmOnce, settling: m.settling });
          o.onMeasure?.(calls.filter((c) => c.method === 'measure').length);
          if (o.measureDelayMs) await new Promise((r) => setTimeout(r, o.measureDelayMs));
          const out = cases.map((c) => ({
            key: c.key,
            samples: Array.from({ length: m.samples }, () => baseNs(c, o.webcrypto) * (1 + (o.spread?.(c.key) ?? 0.001) * noise())),
            cycles: Array.from({ length: m.samples }, (_, i) => (m.firstCycle ?? 0) + i),
            iterations: 10_000, // 10 ms samples: far above the timer
            interruptions: 0,
            stateBytes: null,
          }));
          // As the real worker does: a case-done event per case, with what was measured of it,
          // which drives progress, the ETA and live results.
          for (const c of out) {
            emit({ type: 'case-done', key: c.key, measured: c });
            await new Promise((r) => setTimeout(r, 1));
          }
          return out;
        },
        interference: async () => ({ opsPerProbe: 1000, cycles: [], probeMs: [] }),
        count: async (cases: PlannedCase[]) => (
          calls.push({ worker, method: 'count', keys: cases.map((c) => c.key) }),
          Object.fromEntries(cases.map((c) => [c.key, { perMessage: 1000 + c.sizeBytes * 60, perCall: 200 }]))
        ),
      } as never,
      port1 as never,
    );
    port1.start();
    port2.start();
    return Object.assign(port2 as unknown as WorkerHandle, { terminate: () => (port1.close(), port2.close()) });
  };
  return { createWorker, calls, made: () => made };
}

const environment = async () => sampleDocument().environment as unknown as Environment;

describe('startRun (the scheduler) with a fake worker', () => {
  it('every run warms each code path once per worker, dense (thousands of lengths) or not: warm-ups were most of a round', async () => {
    const dense = fakeWorkers();
    const denseParams = { ...params(), sizes: Array.from({ length: 100 }, (_, i) => i + 1), rounds: 1 };
    const doc = await startRun(denseParams, { createWorker: dense.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    expect(doc.cases.length).toBeGreaterThanOrEqual(100);
    expect(dense.calls.filter((c) => c.method === 'measure').every((c) => c.warmOnce === true)).toBe(true);
    const normal = fakeWorkers();
    await startRun(params(), { createWorker: normal.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    expect(normal.calls.filter((c) => c.method === 'measure').every((c) => c.warmOnce === true)).toBe(true);
  });

  it('live results: cases appear as they finish, each with the samples measured so far', async () => {
    const f = fakeWorkers();
    const partials: { status: string; cases: number; samples: number[]; awaiting: number[] }[] = [];
    const doc = await startRun(params(), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      liveEveryMs: 0,
      hooks: {
        onPartial: (d) => partials.push({ status: d.status, cases: d.cases.length, samples: d.cases.map((c) => c.samples.length), awaiting: d.awaiting }),
      },
    }).done;
    const n = doc.cases.length;
    expect(partials.every((p) => p.status === 'running')).toBe(true);
    // The first round adds one case at a time; the second adds samples to every case.
    expect(partials.slice(0, n).map((p) => p.cases)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const samplesPerRound = params().samplesPerRound;
    expect(partials[n - 1]!.samples.every((k) => k === samplesPerRound)).toBe(true);
    expect(partials.at(-1)!.samples.every((k) => k === 2 * samplesPerRound)).toBe(true);
    // The sizes with a case not measured yet (the live verdict waits for them): smallest first, each until its last case is in.
    const at64 = doc.cases.filter((c) => c.sizeBytes === 64).length;
    expect(partials[0]!.awaiting).toEqual([64, 1024]);
    expect(partials[at64 - 2]!.awaiting).toEqual([64, 1024]);
    expect(partials[at64 - 1]!.awaiting).toEqual([1024]);
    expect(partials[n - 2]!.awaiting).toEqual([1024]);
    expect(partials.slice(n - 1).every((p) => p.awaiting.length === 0)).toBe(true);
    // And the finished document holds the same samples as the last live view.
    expect(doc.cases.map((c) => c.samples.length)).toEqual(partials.at(-1)!.samples);
  });

  it('names to each measuring worker the cases that take a turn of their own: those whose calls are not WebAssembly, none in an A/B', async () => {
    const f = fakeWorkers();
    await startRun(params({ rounds: 1, maxReruns: 0 }), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    const pass = f.calls.find((c) => c.method === 'measure')!;
    expect(pass.settling!.length).toBeGreaterThan(0);
    expect(pass.settling).toEqual(pass.keys!.filter((k) => k.includes('webcrypto')));
    const ab = new RunSession({ ...params(), ab: { base: 'a', head: 'b', margin: 0.05 } } as RunParams, {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
    });
    expect(ab.settles({ key: 'k', implementation: 'noble', variant: 'js', algorithm: 'aes-128-gcm', operation: 'encrypt', sizeBytes: 64, aadBytes: 0 })).toBe(
      false,
    );
  });

  it('live results: a payload size shows the moment its last case is in, however long the throttle (the live verdict waits for whole sizes)', async () => {
    const f = fakeWorkers();
    const awaiting: number[][] = [];
    const doc = await startRun(params({ rounds: 1, maxReruns: 0 }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      liveEveryMs: 3_600_000,
      hooks: { onPartial: (d) => awaiting.push(d.awaiting) },
    }).done;
    expect(doc.cases.length).toBeGreaterThan(2);
    // The first case (the throttle's first), then 64 B complete, then 1 KiB, then the pass's end: nothing between.
    expect(awaiting).toEqual([[64, 1024], [1024], [], []]);
  });

  it('live results of a dense run stay throttled: its thousands of sizes do not each draw the table at once', async () => {
    const f = fakeWorkers();
    let partials = 0;
    const sizes = Array.from({ length: 80 }, (_, i) => i + 1);
    const doc = await startRun(params({ rounds: 1, maxReruns: 0, sizes }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      liveEveryMs: 3_600_000,
      hooks: { onPartial: () => partials++ },
    }).done;
    expect(doc.cases.length).toBeGreaterThan(80);
    // The first case and the pass's end: none for any of the 80 sizes.
    expect(partials).toBe(2);
  });

  it('the counting pass comes after every timed sample, in a worker of its own, and leaves the times as they were (counting on and off: the same samples)', async () => {
    const on = fakeWorkers();
    const counted = await startRun(params(), { createWorker: on.createWorker, environment, payloadLimitBytes: 1 << 20, counts: true }).done;
    const off = fakeWorkers();
    const plain = await startRun(params(), { createWorker: off.createWorker, environment, payloadLimitBytes: 1 << 20, counts: false }).done;
    const counting = on.calls.filter((c) => c.method === 'count');
    expect(counting).toHaveLength(1);
    // After the last measure, in a worker that measured nothing.
    const lastMeasure = on.calls.map((c) => c.method).lastIndexOf('measure');
    expect(lastMeasure).toBeLessThan(on.calls.indexOf(counting[0]!));
    expect(on.calls.some((c) => c.method === 'measure' && c.worker === counting[0]!.worker)).toBe(false);
    expect(off.calls.some((c) => c.method === 'count')).toBe(false);
    // The A/A: the same samples with counting on and off; only the counts differ.
    expect(counted.cases.map((c) => c.samples)).toEqual(plain.cases.map((c) => c.samples));
    expect(counted.cases.filter((c) => c.implementation === 'rustcrypto-wasm').every((c) => c.ops?.perMessage)).toBe(true);
    expect(plain.cases.every((c) => c.ops === undefined)).toBe(true);
  });

  it('estimates the clock once, in the first worker, however many workers follow', async () => {
    const f = fakeWorkers();
    await startRun({ ...params(), estimateClock: true, rounds: 3 }, { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    const inits = f.calls.filter((c) => c.method === 'init');
    expect(inits.length).toBeGreaterThanOrEqual(4); // availability, the first worker, two more rounds
    expect(inits.filter((c) => c.estimateClock).length).toBe(1);
  });

  it('runs each round in a fresh worker, shuffles the order, and keeps cycle ids unique across rounds', async () => {
    const f = fakeWorkers();
    const doc = await startRun(params(), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    expect(doc.status).toBe('complete');
    const rounds = f.calls.filter((c) => c.method === 'measure');
    expect(rounds).toHaveLength(2);
    expect(new Set(rounds.map((r) => r.worker)).size).toBe(2); // one worker per round
    expect(f.made()).toBe(3); // and one for validation
    expect(rounds[0]!.keys).not.toEqual(rounds[1]!.keys); // shuffled anew
    expect([...rounds[0]!.keys!].sort()).toEqual([...rounds[1]!.keys!].sort());
    for (const c of doc.cases) {
      expect(c.samples).toHaveLength(10);
      expect(new Set(c.cycles).size).toBe(10);
    }
  });

  it('in an A/B, the other side runs beside the A/A twin with a twin of its own, so each side runs twice at that size; outside one, an undecided A/A pair is its original and its twin', async () => {
    const { balanceTwin } = await import('../run/plan.ts');
    const { aaPending } = await import('../run/stop-rule.ts');
    const side = (implementation: string, sizeBytes: number) =>
      ({
        key: `${implementation}/custom/aes-128-gcm/encrypt/${sizeBytes}/0`,
        implementation,
        variant: 'custom',
        algorithm: 'aes-128-gcm',
        operation: 'encrypt',
        sizeBytes,
        aadBytes: 0,
      }) as PlannedCase;
    const plan = [side('base', 64), side('head', 64), side('base', 1024), side('head', 1024)];
    const ab = { base: 'base', head: 'head', margin: 0.05 } as NonNullable<ResultDocument['params']['ab']>;
    const twin = aaTwin(plan)!;
    expect(twin.key).toBe('base/custom/aes-128-gcm/encrypt/64/0#aa');
    expect(balanceTwin(plan, twin, ab)?.key).toBe('head/custom/aes-128-gcm/encrypt/64/0#aa');
    expect(balanceTwin(plan, twin, undefined)).toBeNull();
    // The A/A undecided: its original and twin (an A/B measures neither again: the next test but one).
    const cases = plan.map((c) => ({ ...c, summary: { n: 10 } })) as unknown as ResultDocument['cases'];
    const aaCheck = {
      implementation: 'base',
      variant: 'custom',
      algorithm: 'aes-128-gcm',
      operation: 'encrypt',
      sizeBytes: 64,
      ratio: 1,
      low: 0.9,
      high: 1.1,
      decision: 'unknown',
    } as NonNullable<ResultDocument['aaCheck']>;
    expect(aaPending({ cases, aaCheck })).toEqual([plan[0]!.key, `${plan[0]!.key}#aa`]);
  });

  it('an A/B run measures both twins beside their originals in every round', async () => {
    const f = fakeWorkers();
    // The runner reads only the two sides' ids: two built-ins stand in for modules of yours.
    const ab = { base: 'rustcrypto-wasm', head: 'webcrypto', margin: 0.05 } as unknown as NonNullable<ResultDocument['params']['ab']>;
    await startRun({ ...params({ maxReruns: 0 }), ab }, { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    const rounds = f.calls.filter((c) => c.method === 'measure').map((c) => c.keys!);
    expect(rounds).toHaveLength(2);
    for (const keys of rounds)
      expect(keys.filter((k) => k.endsWith('#aa')).sort()).toEqual([
        'rustcrypto-wasm/simd128/aes-128-gcm/encrypt/1024/0#aa',
        'webcrypto/sequential/aes-128-gcm/encrypt/1024/0#aa',
      ]);
  });

  it("an A/B takes every round's groups smallest payload first, and its extra rounds only its undecided pairs, without the A/A twins", async () => {
    // Both sides 30 % noisy at every size: no pair is decided in the first round.
    const f = fakeWorkers({ spread: () => 0.3 });
    const ab = { base: 'rustcrypto-wasm', head: 'webcrypto', margin: 0.05 } as unknown as NonNullable<ResultDocument['params']['ab']>;
    const p = { ...params({ sizes: [1 << 20, 64, 16384, 1024], rounds: 1, maxReruns: 6, algorithms: ['aes-128-gcm'] }), ab };
    const doc = await startRun(p, { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    // The A/A check stayed undecided, so outside an A/B its pair would have been measured again.
    expect(doc.aaCheck?.decision).toBe('unknown');
    const rounds = f.calls.filter((c) => c.method === 'measure').map((r) => r.keys!);
    expect(rounds.length).toBeGreaterThan(2);
    const sizeOf = (k: string) => Number(k.split('/')[4]);
    // Extra rounds of several sizes, whose order a shuffle would have moved.
    expect(rounds.slice(1).some((keys) => new Set(keys.map(sizeOf)).size > 2)).toBe(true);
    for (const keys of rounds) expect(keys.map(sizeOf)).toEqual(keys.map(sizeOf).sort((a, b) => a - b));
    expect(rounds[0]!.filter((k) => k.endsWith('#aa'))).toHaveLength(2);
    for (const keys of rounds.slice(1)) expect(keys.filter((k) => k.endsWith('#aa'))).toEqual([]);
  });

  it('within a group of compared cases, each member comes first in one round of every block of as many rounds as the group has members, and the groups still move', () => {
    const { plan } = planCases(params({ sizes: [64, 1024] }), AVAILABLE, [], 1 << 20);
    const groups = new Map<number, string[]>();
    for (const c of plan) groups.set(c.sizeBytes, [...(groups.get(c.sizeBytes) ?? []), c.key]);
    for (const members of groups.values()) {
      const n = members.length;
      expect(n).toBeGreaterThan(1);
      for (let block = 0; block < 4; block++) {
        // Each member at each place within its group exactly once over the block's n rounds.
        const orders = Array.from({ length: n }, (_, j) =>
          roundOrder(plan, block * n + j)
            .filter((c) => members.includes(c.key))
            .map((c) => c.key),
        );
        for (let place = 0; place < n; place++) expect(new Set(orders.map((o) => o[place]))).toEqual(new Set(members));
      }
    }
    // Where a group's places fall still changes from round to round.
    const firstOf64 = (r: number) => roundOrder(plan, r).findIndex((c) => c.sizeBytes === 64);
    expect(new Set(Array.from({ length: 8 }, (_, r) => firstOf64(r))).size).toBeGreaterThan(1);
  });

  it('the first round takes its groups smallest payload first, so the first figures come in seconds; each group stays shuffled, and later rounds shuffle the groups too', async () => {
    const f = fakeWorkers();
    const p = params({ sizes: [1 << 20, 64, 16384, 1024], rounds: 3 });
    await startRun(p, { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    const rounds = f.calls.filter((c) => c.method === 'measure').map((r) => r.keys!);
    const sizeOf = (k: string) => Number(k.split('/')[4]);
    const sizes = rounds.map((keys) => keys.map(sizeOf));
    expect(sizes[0]).toEqual([...sizes[0]!].sort((a, b) => a - b));
    // Within the first round's 64 B group, the members keep round 0's shuffled order, which is not the plan's.
    const { plan } = planCases(p, AVAILABLE, [], 1 << 20);
    const measured = [...plan, aaTwin(plan)!];
    const at64 = (keys: string[]) => keys.filter((k) => sizeOf(k) === 64);
    expect(at64(rounds[0]!)).toEqual(at64(roundOrder(measured, 0).map((c) => c.key)));
    expect(at64(rounds[0]!)).not.toEqual(at64(measured.map((c) => c.key)));
    // Later rounds: payload sizes in another order than ascending.
    expect(sizes.slice(1).some((s) => s.join() !== [...s].sort((a, b) => a - b).join())).toBe(true);
  });

  it('re-runs only what is unresolved — the noisy case and the other side of the claim it leaves undecided — at most maxReruns times, and flags what stays so', async () => {
    const noisy = 'webcrypto/sequential/aes-128-gcm/encrypt/64/0';
    // Web Crypto 15 % slower than WASM: with 40 % noise, the crossover's claim at 64 B is undecided.
    const f = fakeWorkers({ spread: (k) => (k === noisy ? 0.4 : 0.001), webcrypto: 1.15 });
    const doc = await startRun(params({ overtimeMs: 0 }), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    const reruns = f.calls.filter((c) => c.method === 'measure').slice(2);
    // Web Crypto against WASM at 64 B is the crossover's evidence: both sides, together, so they pair.
    const other = 'rustcrypto-wasm/simd128/aes-128-gcm/encrypt/64/0';
    expect(reruns.map((r) => [...r.keys!].sort())).toEqual([
      [other, noisy],
      [other, noisy],
    ]);
    const c = doc.cases.find((x) => `${x.implementation}/${x.variant}/${x.algorithm}/${x.operation}/${x.sizeBytes}/${x.aadBytes}` === noisy)!;
    expect(c.reruns).toBe(2);
    expect(c.unstable).toBe(true);
    expect(c.unstableReasons).toEqual(expect.arrayContaining(['unresolved', 'spread']));
    expect(doc.cases.filter((x) => x.unstable)).toHaveLength(1);
  });

  it('stops re-measuring when the budget is spent, and flags what is left unresolved', async () => {
    const noisy = 'webcrypto/sequential/aes-128-gcm/encrypt/64/0';
    let t = 0;
    const f = fakeWorkers({ spread: (k) => (k === noisy ? 0.4 : 0.001), onMeasure: () => void (t += 4000), webcrypto: 1.15 });
    // Each round costs 4 s on this clock; the budget ends the run after its two rounds.
    const doc = await startRun(params({ budgetMs: 9000, overtimeMs: 0, maxReruns: 5 }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      now: () => t,
    }).done;
    expect(f.calls.filter((c) => c.method === 'measure')).toHaveLength(2);
    expect(doc.cases.find((x) => x.unstable)?.unstableReasons).toContain('unresolved');
  });

  describe('overtime: past the budget only while more than a tenth of the cases, or a claim, is unresolved', () => {
    // Twelve cases (three implementation × algorithm pairs, four sizes): one unresolved is 8 %, two are 17 %.
    // Each measure costs 4 s on this clock: the two rounds spend the budget, the overtime fits three more.
    const twelve = { sizes: [64, 1024, 16384, 65536], budgetMs: 8000, overtimeMs: 12_000, maxReruns: 8 };
    // Cases no claim hangs on: ChaCha20-Poly1305 is three times AES-GCM's time, a difference 40 % noise leaves decided.
    const noisyA = 'rustcrypto-wasm/simd128/chacha20-poly1305/encrypt/64/0';
    const noisyB = 'rustcrypto-wasm/simd128/chacha20-poly1305/encrypt/16384/0';
    const run = async (spread: (key: string, measures: number) => number, o: Partial<ReturnType<typeof params>> = {}) => {
      let t = 0;
      let measures = 0;
      const startedAt: number[] = [];
      const f = fakeWorkers({ spread: (k) => spread(k, measures), onMeasure: (n) => ((measures = n), startedAt.push(t), (t += 4000)), webcrypto: 1.15 });
      const doc = await startRun(params({ ...twelve, ...o }), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20, now: () => t }).done;
      return { doc, startedAt, measured: f.calls.filter((c) => c.method === 'measure').map((c) => c.keys!) };
    };

    it('a run with two of twelve unresolved at its budget goes on, and no round starts past the overtime', async () => {
      const { doc, startedAt } = await run((k) => (k === noisyA || k === noisyB ? 0.4 : 0.001));
      expect(doc.cases).toHaveLength(12);
      expect(startedAt.length).toBeGreaterThan(2);
      expect(startedAt.slice(2).every((ms) => ms >= 8000 && ms < 8000 + 12_000)).toBe(true);
      expect(doc.cases.filter((c) => c.unstable)).toHaveLength(2);
      expect(doc.cases.filter((c) => c.unstable).every((c) => c.reruns >= 1)).toBe(true);
    });

    it('the same run without overtime ends at its budget', async () => {
      const { startedAt } = await run((k) => (k === noisyA || k === noisyB ? 0.4 : 0.001), { overtimeMs: 0 });
      expect(startedAt).toHaveLength(2);
    });

    it('one of twelve unresolved (a tenth or less) ends the run at its budget', async () => {
      const { doc, startedAt } = await run((k) => (k === noisyA ? 0.4 : 0.001));
      expect(startedAt).toHaveLength(2);
      expect(doc.cases.filter((c) => c.unstable)).toHaveLength(1);
    });

    it('overtime ends as soon as no more than a tenth is unresolved', async () => {
      // B is noisy in the two rounds only; its first extra round resolves it, A stays unresolved.
      const { doc, startedAt, measured } = await run((k, measures) => (k === noisyA || (k === noisyB && measures <= 2) ? 0.4 : 0.001));
      // The overtime has room for three extra rounds; the run ends after the one that resolved B.
      const lastWithB = measured.map((keys) => keys.includes(noisyB)).lastIndexOf(true);
      expect(lastWithB).toBeGreaterThanOrEqual(2);
      expect(startedAt).toHaveLength(lastWithB + 1);
      expect(startedAt.length).toBeLessThan(5);
      expect(
        doc.cases.filter((c) => c.unstable).map((c) => `${c.implementation}/${c.variant}/${c.algorithm}/${c.operation}/${c.sizeBytes}/${c.aadBytes}`),
      ).toEqual([noisyA]);
    });

    it('an undecided claim takes a quarter of the overtime, with as many extra rounds again as the run had', async () => {
      // Web Crypto 15 % slower than WASM with 40 % noise at 64 B: the crossover's claim stays undecided.
      const crossover = 'webcrypto/sequential/aes-128-gcm/encrypt/64/0';
      const capped = await run((k) => (k === crossover ? 0.4 : 0.001), { budgetMs: 16_000, maxReruns: 1 });
      expect(capped.doc.cases.filter((c) => c.unstable)).toHaveLength(1);
      // Two rounds and the one extra round the cap allows, in the budget; one more in the overtime.
      expect(capped.startedAt).toEqual([0, 4000, 8000, 12_000]);
      expect(capped.measured.slice(2).every((keys) => keys.includes(crossover))).toBe(true);
      // Without the cap the time ends it: a quarter of 40 s past the 16 s budget.
      const timed = await run((k) => (k === crossover ? 0.3 : 0.001), { budgetMs: 16_000, overtimeMs: 40_000, maxReruns: 20 });
      expect(timed.startedAt.some((ms) => ms >= 16_000)).toBe(true);
      expect(Math.max(...timed.startedAt)).toBeLessThan(16_000 + 10_000);
    });

    it('an overtime begun for the cases ends at its quarter once only a claim is left undecided', async () => {
      const crossover = 'webcrypto/sequential/aes-128-gcm/encrypt/64/0';
      // Two of twelve unresolved at the budget (8 s): the whole overtime (12 s), room for three
      // rounds. Once B resolves, the crossover's claim is left, worth a quarter (3 s), spent.
      const { doc, startedAt, measured } = await run((k, measures) => (k === crossover || (k === noisyB && measures <= 2) ? 0.4 : 0.001));
      const lastWithB = measured.map((keys) => keys.includes(noisyB)).lastIndexOf(true);
      expect(lastWithB).toBeGreaterThanOrEqual(2);
      expect(startedAt).toHaveLength(lastWithB + 1);
      expect(startedAt.length).toBeLessThan(5);
      expect(doc.cases.filter((c) => c.unstable).map((c) => c.implementation)).toEqual(['webcrypto']);
    });

    it('a run that asked for no extra rounds takes no overtime either: the collector counts on it', async () => {
      const { doc, startedAt } = await run((k) => (k === noisyA || k === noisyB ? 0.4 : 0.001), { maxReruns: 0 });
      expect(startedAt).toHaveLength(2);
      const { mostSamples } = await import('../run/stop-rule.ts');
      expect(Math.max(...doc.cases.map((c) => c.samples.length))).toBeLessThanOrEqual(mostSamples(doc.params));
    });

    it('an A/B run never goes past the budget its CI job set', async () => {
      const { wantsOvertime } = await import('../run/stop-rule.ts');
      const doc = sampleDocument() as unknown as ResultDocument;
      const unresolved = doc.cases.map((c) => ({ ...c, summary: { ...c.summary, ciLow: c.summary.median * 0.5, ciHigh: c.summary.median * 1.5 } }));
      expect(wantsOvertime({ ...doc, cases: unresolved })).toBe(1);
      expect(
        wantsOvertime({ ...doc, cases: unresolved, params: { ...doc.params, ab: { base: 'a', head: 'b', margin: 0.05 } } as ResultDocument['params'] }),
      ).toBe(0);
    });
  });

  it('measures an A/A twin beside its original, reports it SAME, and keeps it out of the cases and the progress count', async () => {
    const f = fakeWorkers();
    const progress: { done: number; total: number }[] = [];
    const doc = await startRun(params(), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      hooks: { onProgress: (p) => progress.push(p) },
    }).done;
    const first = f.calls.find((c) => c.method === 'measure')!;
    expect(first.keys).toContain('rustcrypto-wasm/simd128/aes-128-gcm/encrypt/1024/0#aa');
    expect(doc.aaCheck).toMatchObject({ implementation: 'rustcrypto-wasm', algorithm: 'aes-128-gcm', sizeBytes: 1024, decision: 'same' });
    const keys = doc.cases.map((c) => `${c.implementation}/${c.variant}/${c.algorithm}/${c.operation}/${c.sizeBytes}/${c.aadBytes}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.some((k) => k.includes('#'))).toBe(false);
    const last = progress.at(-1)!;
    expect(last.done).toBe(last.total);
  });

  it('an undecided A/A pair is measured again first, both together, when the budget fits little else', async () => {
    const original = 'rustcrypto-wasm/simd128/aes-128-gcm/encrypt/1024/0';
    const twin = `${original}#aa`;
    // The A/A pair noisy (undecided), and a claim undecided too (Web Crypto 15 % slower, 40 % noise at 64 B).
    const noisy = new Map([
      [original, 0.3],
      [twin, 0.3],
      ['webcrypto/sequential/aes-128-gcm/encrypt/64/0', 0.4],
      ['rustcrypto-wasm/simd128/chacha20-poly1305/encrypt/1024/0', 0.4],
    ]);
    let t = 0;
    const f = fakeWorkers({ spread: (k) => noisy.get(k) ?? 0.001, onMeasure: () => void (t += 4000), webcrypto: 1.15 });
    // Two rounds cost 8 s on this clock; what is left of 9.9 s fits two cases of an extra round.
    const doc = await startRun(params({ budgetMs: 9_900, maxReruns: 3 }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      now: () => t,
    }).done;
    const reruns = f.calls.filter((c) => c.method === 'measure').slice(2);
    expect(reruns.length).toBeGreaterThan(0);
    expect([...reruns[0]!.keys!].sort()).toEqual([original, twin]);
    expect(doc.aaCheck).toBeDefined();
  });

  it('an A/A check that is not SAME is said in the verdict, in words: the device was too busy for differences under its spread', async () => {
    const { verdict } = await import('../report/verdict.ts');
    const doc = {
      ...(sampleDocument() as unknown as ResultDocument),
      aaCheck: {
        implementation: 'rustcrypto-wasm',
        variant: 'simd128',
        algorithm: 'aes-128-gcm',
        operation: 'encrypt',
        sizeBytes: 1024,
        ratio: 1.08,
        low: 1.05,
        high: 1.11,
        decision: 'different',
      },
    } satisfies ResultDocument;
    expect(verdict(doc).sentences.at(-1)).toMatch(/^This device was too busy during the run to separate differences smaller than ±12 %: /);
    expect(verdict(doc).sentences.at(-1)).toContain('read 1.080× [1.050–1.110] against itself');
    // An undecided A/A says it as well: UNKNOWN is not silence.
    expect(verdict({ ...doc, aaCheck: { ...doc.aaCheck, ratio: 1.01, low: 0.9, high: 1.14, decision: 'unknown' } }).sentences.at(-1)).toContain(
      'smaller than ±14 %',
    );
  });

  it('spends nothing more once everything is resolved', async () => {
    const f = fakeWorkers();
    await startRun(params({ maxReruns: 5 }), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 }).done;
    expect(f.calls.filter((c) => c.method === 'measure')).toHaveLength(2);
  });

  it('cancel in the first round keeps every case that had finished, as they were on screen', async () => {
    let handle!: ReturnType<typeof startRun>;
    const seen: string[] = [];
    const f = fakeWorkers();
    handle = startRun(params({ rounds: 1 }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      // Cancelled after the third case of the first round finished.
      hooks: { onCase: (c) => (seen.push(`${c.algorithm}/${c.sizeBytes}`), seen.length === 3 && handle.cancel()) },
    });
    const doc = await handle.done;
    expect(doc.status).toBe('cancelled');
    expect(doc.cases.length).toBeGreaterThanOrEqual(3);
    expect(doc.cases.map((c) => `${c.algorithm}/${c.sizeBytes}`)).toEqual(expect.arrayContaining(seen.slice(0, 3)));
  });

  it('onCase fires as each case finishes, while the run goes on', async () => {
    const f = fakeWorkers();
    let doneAt = -1;
    const calls: number[] = [];
    const handle = startRun(params({ rounds: 2 }), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      hooks: { onCase: () => calls.push(doneAt) },
    });
    await handle.done.then(() => (doneAt = 1));
    // Every call came before the run was done, and each case reported once per round.
    expect(calls.every((x) => x === -1)).toBe(true);
    expect(calls.length).toBe(6 * 2);
  });

  it('cancel stops the run and keeps the rounds that finished', async () => {
    let cancel = () => {};
    // Cancelled while round 2 is being measured (the worker is terminated mid-call).
    const f = fakeWorkers({ measureDelayMs: 50, onMeasure: (n) => n === 2 && setTimeout(() => cancel(), 10) });
    const handle = startRun(params({ rounds: 5 }), { createWorker: f.createWorker, environment, payloadLimitBytes: 1 << 20 });
    cancel = handle.cancel;
    const doc = await handle.done;
    expect(doc.status).toBe('cancelled');
    expect(doc.cases.length).toBe(6);
    for (const c of doc.cases) expect(c.samples).toHaveLength(5);
    expect(f.calls.filter((c) => c.method === 'measure')).toHaveLength(2);
  });

  it('reports progress case by case, with an ETA that shrinks to zero', async () => {
    const f = fakeWorkers();
    const seen: { done: number; total: number; eta: number | null }[] = [];
    await startRun(params(), {
      createWorker: f.createWorker,
      environment,
      payloadLimitBytes: 1 << 20,
      hooks: { onProgress: (p) => seen.push({ done: p.done, total: p.total, eta: p.etaMs }) },
    }).done;
    const measuring = seen.filter((p) => p.done > 0 && p.done < p.total);
    expect(measuring.length).toBeGreaterThan(5);
    expect(measuring.every((p) => p.eta !== null && p.eta >= 0)).toBe(true);
    expect(Math.max(...seen.map((p) => p.done))).toBe(12); // 6 cases × 2 rounds
    expect(seen.at(-1)!.eta).toBe(0);
  });
});
