// A module of yours in a thread of its own (worker/apart.ts): its cases are prepared, settled
// and timed in a second worker, while the measuring worker keeps the cycles.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../worker/api.ts';
import { startApart } from '../worker/apart.ts';
import { threadFromPage } from '../worker/page-thread.ts';
import { serve } from '../worker/rpc.ts';
import type { Backend } from '../implementations/shared.ts';
import { nodePlatform } from '../worker/platform-node.ts';
import { presetParams } from '../params.ts';
import { caseKey } from '../schema.ts';
import type { PlannedCase, WorkerEvent } from '../worker/types.ts';

const MODULE = new URL('./modules/thread-gcm.mjs', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'apart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plan = (implementation: string, sizeBytes: number): PlannedCase => {
  const c = {
    implementation: implementation as never,
    variant: implementation === 'noble' ? 'js' : 'custom',
    algorithm: 'aes-128-gcm' as const,
    operation: 'encrypt' as const,
    sizeBytes,
    aadBytes: 0,
  };
  return { ...c, key: caseKey(c) };
};
const cases = [plan('noble', 64), plan('test-thread-gcm', 64), plan('noble', 1024), plan('test-thread-gcm', 1024)];

/** One measuring worker's pass over `cases` in this thread; the thread ids the module's cases were prepared in, and the events. */
async function pass(apart: boolean, platform = nodePlatform) {
  const log = join(dir, `${apart}-${Math.random().toString(36).slice(2)}.log`);
  process.env.THREAD_LOG = log;
  const events: WorkerEvent[] = [];
  const api = createApi(platform, (e) => events.push(e));
  const info = await api.init(
    { ...presetParams('quick'), algorithms: ['aes-128-gcm'], implementations: ['noble', 'test-thread-gcm'] as never, sizes: [64, 1024] },
    [MODULE],
  );
  expect(info.moduleErrors).toEqual([]);
  const measured = await api.measure(cases, { samples: 3, minSampleMs: 2, iterations: {}, apart, settling: cases.map((c) => c.key) });
  delete process.env.THREAD_LOG;
  const threads = readFileSync(log, 'utf8').trim().split('\n').map(Number);
  return { measured, threads, warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])) };
}

describe('a module of yours in a thread of its own', () => {
  it('prepares and times its cases in another thread, taking turns with the built-ins in every cycle; without it, in the measuring thread', async () => {
    const apart = await pass(true);
    expect(apart.warnings).toEqual([]);
    // Both of its cases were prepared, and never in the measuring thread.
    expect(apart.threads).toHaveLength(2);
    for (const t of apart.threads) expect(t).not.toBe(threadId);
    for (const m of apart.measured) {
      expect(m.samples, m.key).toHaveLength(3);
      for (const s of m.samples) expect(s, m.key).toBeGreaterThan(0);
    }
    // Its samples share their cycles with noble's of the same size: the turns are the measuring worker's.
    const byKey = new Map(apart.measured.map((m) => [m.key, m]));
    expect(byKey.get(cases[1]!.key)!.cycles).toEqual(byKey.get(cases[0]!.key)!.cycles);
    expect(byKey.get(cases[3]!.key)!.cycles).toEqual(byKey.get(cases[2]!.key)!.cycles);

    const together = await pass(false);
    expect(together.threads).toEqual([threadId, threadId]);
    // The thread's times come back as the measuring worker's own, per call and in ms: a slip of
    // unit or of batch would be off by a factor of 1000 or of the batch (tens to hundreds of
    // calls at these sizes). A busy host moves three samples by a factor of 3 or more (0.27 read
    // on a fresh clone at load 10), so the band is a decade each way, far inside either slip.
    const perCall = (r: typeof apart, k: string) => Math.min(...r.measured.find((m) => m.key === k)!.samples);
    for (const c of [cases[1]!, cases[3]!]) {
      const ratio = perCall(apart, c.key) / perCall(together, c.key);
      expect(ratio, c.key).toBeGreaterThan(0.1);
      expect(ratio, c.key).toBeLessThan(10);
    }
  });

  it('with modules apart, starts a thread for each module and each built-in whose calls are JavaScript’s: one condition for what is compared', async () => {
    let started = 0;
    const counting = { ...nodePlatform, startThread: () => (started++, nodePlatform.startThread!()) };
    const r = await pass(true, counting);
    expect(r.warnings).toEqual([]);
    // noble and the module, each in its own: the module's cases were prepared off the measuring thread.
    expect(started).toBe(2);
    for (const t of r.threads) expect(t).not.toBe(threadId);
    for (const m of r.measured) expect(m.samples).toHaveLength(3);
    // Without modules apart, none is started: the module, noble and the cores share the measuring thread.
    started = 0;
    await pass(false, counting);
    expect(started).toBe(0);
  });

  it('measures the module in the measuring thread and says why, where the platform cannot start a thread', async () => {
    const { startThread: _, ...platform } = nodePlatform;
    const r = await pass(true, platform);
    expect(r.threads).toEqual([threadId, threadId]);
    expect([...r.warnings].sort()).toEqual([
      'module test-thread-gcm measured in the measuring thread, beside the other cases: its own thread did not start (this platform cannot start a worker from a worker)',
      'noble measured in the measuring thread, beside the other cases: its own thread did not start (this platform cannot start a worker from a worker)',
    ]);
    for (const m of r.measured) expect(m.samples).toHaveLength(3);
  });

  it("loads no WebAssembly cores in a module's thread: it times that module and nothing else", async () => {
    const params = { ...presetParams('quick'), algorithms: ['aes-128-gcm'], implementations: ['test-thread-gcm'] as never, sizes: [64] };
    const bare = await createApi(nodePlatform, () => {}).init(params as never, [MODULE], { bare: true });
    const measuring = await createApi(nodePlatform, () => {}).init(params as never, [MODULE]);
    expect(bare.moduleErrors).toEqual([]);
    expect(bare.available.map((a) => a.implementation)).toEqual(['test-thread-gcm']);
    // The cores' build facts come with the cores: there in a measuring worker, absent in the bare thread.
    expect(Object.keys(measuring.buildInfo).length).toBeGreaterThan(0);
    expect(bare.buildInfo).toEqual({});
    // And a module's thread is started bare.
    const asked: unknown[][] = [];
    const recording = { init: (...args: unknown[]) => (asked.push(args), Promise.resolve({ moduleErrors: [] })) } as never;
    const local = { implementation: 'test-thread-gcm', variant: 'custom', algorithms: ['aes-128-gcm'] } as unknown as Backend;
    await startApart(recording, () => {}, params as never, local, MODULE);
    expect(asked).toEqual([[expect.objectContaining({ implementations: ['test-thread-gcm'] }), [MODULE], { bare: true }]]);
  });

  it('gives up on a thread that never answers, stops it and says how long it waited', async () => {
    let stopped = 0;
    const silent = { init: () => new Promise(() => {}) } as never;
    const local = { implementation: 'test-thread-gcm', variant: 'custom', algorithms: ['aes-128-gcm'] } as unknown as Backend;
    await expect(startApart(silent, () => void stopped++, presetParams('quick'), local, MODULE, 50)).rejects.toThrow(
      /^it did not load the module within 0\.05 s$/,
    );
    expect(stopped).toBe(1);
  });

  it('fails the pass with the reason, instead of waiting, when a module ends its thread', async () => {
    const module = new URL('./modules/exit-gcm.mjs', import.meta.url).href;
    process.env.EXIT_OUTSIDE = String(threadId);
    try {
      const api = createApi(nodePlatform, () => {});
      await api.init({ ...presetParams('quick'), algorithms: ['aes-128-gcm'], implementations: ['noble', 'test-exit-gcm'] as never, sizes: [64] }, [module]);
      const two = [plan('noble', 64), plan('test-exit-gcm', 64)];
      await expect(api.measure(two, { samples: 3, minSampleMs: 2, iterations: {}, apart: true })).rejects.toThrow(/its thread ended \(exit code 3\)/);
    } finally {
      delete process.env.EXIT_OUTSIDE;
    }
  });

  describe('in a browser, where the page starts the thread (page-thread.ts)', () => {
    /**
     * The measuring worker's scope, seen from a page that answers its 'thread' events with
     * `onThread`: here an API served over the port in this thread (a browser's page starts a
     * benchmark worker and hands it the port).
     */
    function pageOf(onThread: (id: number, port: MessagePort, tellWorker: (data: unknown) => void) => void) {
      const listeners: ((e: { data: unknown }) => void)[] = [];
      const events: WorkerEvent[] = [];
      const scope = {
        postMessage: ({ event }: { event: WorkerEvent }) => {
          events.push(event);
          if (event.type === 'thread') onThread(event.id, event.port, (data) => listeners.forEach((l) => l({ data })));
        },
        addEventListener: (_: 'message', l: (e: { data: unknown }) => void) => void listeners.push(l),
      };
      return { platform: { ...nodePlatform, startThread: () => threadFromPage(scope) }, events };
    }

    it('asks the page for a thread per module over a channel, measures through it, and asks the page to stop it after the pass', async () => {
      const prepared: string[] = [];
      const { platform, events } = pageOf((_, port) => {
        const api = createApi(nodePlatform, () => {});
        const prepareApart = api.prepareApart;
        serve({ ...api, prepareApart: (c: PlannedCase) => (prepared.push(c.key), prepareApart(c)) }, port as never);
        port.start();
      });
      const r = await pass(true, platform);
      expect(r.warnings).toEqual([]);
      // Every case was prepared by a thread the page started (the module's, and noble's beside it), none by the measuring worker.
      expect([...prepared].sort()).toEqual(cases.map((c) => c.key).sort());
      for (const m of r.measured) expect(m.samples, m.key).toHaveLength(3);
      const asked = events.flatMap((e) => (e.type === 'thread' ? [e.id] : []));
      expect(asked).toHaveLength(2);
      expect(events.filter((e) => e.type === 'thread-stop').sort()).toEqual(asked.map((id) => ({ type: 'thread-stop', id })));
    });

    it('measures the module in the measuring thread, and says why, when the thread the page started fails', async () => {
      const { platform } = pageOf((id, _, tellWorker) => tellWorker({ threadFailed: id, message: 'its script did not load' }));
      const r = await pass(true, platform);
      expect([...r.warnings].sort()).toEqual([
        'module test-thread-gcm measured in the measuring thread, beside the other cases: its own thread did not start (the benchmark worker failed: its script did not load)',
        'noble measured in the measuring thread, beside the other cases: its own thread did not start (the benchmark worker failed: its script did not load)',
      ]);
      expect(r.threads).toEqual([threadId, threadId]);
      for (const m of r.measured) expect(m.samples).toHaveLength(3);
    });
  });
});
