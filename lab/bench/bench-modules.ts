/**
 * `npm run bench:modules`: is the engine fair to JavaScript? Each example module (and the
 * built-in noble) timed by the engine (gate, then the stop rule's sampling, in its worker
 * thread) and by a plain loop written apart from it (lab/harness/plain-loop.mjs: the same
 * calls, by hand, in lab/bench/plain-loop.worker.mjs), alternately, in Node. Prints engine / plain
 * loop per size: every call's bytes over their time on both sides ("all calls": what a caller
 * gets), and the engine's median sample over the plain loop's median stretch ("median"). Until
 * 2026-11-26 "all calls" was held against the median stretch, which leaves out the slow stretches
 * a busy machine gives the plain loop too, and so read the engine low.
 *
 * The plain loop runs twice: each case alone (what a developer times by hand; in PLAIN_WORKERS
 * fresh workers, averaged, as the engine's run spans several, see acrossWorkers; once before and
 * once after the engine's run of that module alone, see sandwiched), and every case
 * taking turns in batches as long as the engine's samples ("interleaved"), which is how the
 * engine samples (size by size, one case a turn: turnOrder), in the run's threads (each module in a worker of its own, noble's cases in one,
 * as the engine's run holds them; runThreads). Engine / interleaved isolates the engine's own
 * loop; interleaved / alone is what taking turns does to a module's figure: what its neighbours leave it (the
 * neighbours' table, pair by pair, see withNeighbours; in Node also the collector's pauses in
 * the loop's timed time, which explain little of it). The engine timed is
 * the compiled one the package ships (built into target/bench-engine/ first, a few seconds).
 * Then the same in each of BROWSERS (default chromium; 'none' skips): the engine's run in the
 * harness page against a plain loop in a browser worker (lab/harness/plain.worker.ts).
 *   RUNS=3 SIZES=64,1k,1M BROWSERS=chromium,firefox,webkit npm run bench:modules
 *   node --single-threaded-gc --import tsx lab/bench/bench-modules.ts   (no GC helper threads)
 * For noble, in Node, also against noble's own benchmark harness (@paulmillr/jsbt, HARNESS_S
 * seconds a size, lab/bench/jsbt.worker.mjs): the engine's figure over the harness's, in the run
 * and alone. And once, in Node and in each browser, each case taking turns with one neighbour
 * at a time (NEIGHBOUR_SIZES, see withNeighbours), and in Node the plain loop alone with a
 * caller's heap beside it (LIVE_MB of small live objects, see withLiveHeap): what a module's
 * garbage costs outside an empty worker; and in Node each case taking turns against itself in
 * one worker (IDLE_SIZES, see withIdleTurns): what the turns cost with no other isolate as the
 * reference; and one thread timed after pauses of its own, natively and in Node (PAUSES, see
 * withPauses): whether that cost is V8's or the host's. RUNS=0 measures only these.
 */
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatSize, parseSize } from '../../web/core/params.ts';
import { mean, median } from '../../web/core/stats.ts';
import type { ResultDocument } from '../../web/core/schema.ts';
import type { BrowserName } from '../../cli/browser-run.ts';
import { bundleModule } from '../../cli/modules.ts';
import { openHarness, sandwiched, settled } from './harness-page.ts';
import { type Apart, type PlainFigures, type PlainSpec, mergedFigures, workerSpecs } from '../../lab/harness/plain-loop.mjs';
// @ts-expect-error a plain .mjs script, without types
import { buildEngine } from '../../scripts/build-engine.mjs';
import { evidence, listEnv, recordPage } from './measured.ts';
import { buildPauseProbe } from './native.ts';
import { againstRepeatability, describe, type JudgedCell, tallyCells } from './repeatability.ts';
import { SETTLE_MAX_BATCHES, SETTLE_MS } from '../../web/core/worker/measure.ts';

recordPage('modules', {
  title: 'Is the engine fair to JavaScript?',
  about: 'Each example module and noble timed by the engine and by a plain loop written apart from it: engine / plain loop per size.',
});

// The engine as it ships (the package's compiled JavaScript), not its sources through tsx's
// loader, which no user runs: tsx detaches an ArrayBuffer in the thread it starts in (`node
// --trace-protector-invalidation` shows it), and V8 then checks every typed-array access of that
// isolate (docs/implementations.md).
const ENGINE = fileURLToPath(new URL('../../target/bench-engine', import.meta.url));
buildEngine(ENGINE, { declaration: false });
const { runBenchmark } = (await import(pathToFileURL(`${ENGINE}/web/core/node.js`).href)) as typeof import('../../web/core/node.ts');

const RUNS = Number(process.env.RUNS ?? 3);
/**
 * MODULES_APART=1: the engine measures each module, and noble, in a thread of its own
 * (RunOptions.modulesApart: true); by default, as the engine does, every case in its measuring
 * thread (docs/decisions/002-one-condition.md).
 */
const MODULES_APART = process.env.MODULES_APART === '1';
const SIZES = (process.env.SIZES ?? '64,1k,1M').split(',').map((s) => parseSize(s));
const LOOP_MS = Number(process.env.LOOP_MS ?? 300);
const example = (d: string) => fileURLToPath(new URL(`../../examples/modules/${d}/index.mjs`, import.meta.url));
const SUBJECTS = [
  { name: 'noble', module: 'noble', implementation: 'noble', algorithm: 'aes-128-gcm' },
  { name: 'noble', module: 'noble', implementation: 'noble', algorithm: 'chacha20-poly1305' },
  ...(['node-forge-gcm', 'sjcl-gcm', 'asmcrypto-gcm'] as const).map((d) => ({ name: d, module: example(d), implementation: d, algorithm: 'aes-128-gcm' })),
  {
    name: 'stablelib-chacha20poly1305',
    module: example('stablelib-chacha20poly1305'),
    implementation: 'stablelib-chacha20poly1305',
    algorithm: 'chacha20-poly1305',
  },
].filter((s) => !process.env.ONLY || process.env.ONLY.split(',').includes(s.name));

type Subject = (typeof SUBJECTS)[number];
/** A plain loop's shape beyond alone or taking turns (plain-loop.mjs): settled turns, or pauses alone. */
type Shape = Partial<Pick<PlainSpec, 'settleMs' | 'settleMaxBatches' | 'pauseMs' | 'reps' | 'liveMB' | 'sizes'>> & {
  /** With `interleaveMs`: the subjects in fresh workers of their own, the workers taking turns (PlainSpec.turns; workerSpecs). */
  apart?: Apart;
};
/**
 * The loop taking turns as the engine's run does: each module in a worker of its own and noble's
 * two subjects together (what the engine's measuring thread holds), or, with MODULES_APART=0,
 * every case in one worker.
 */
const runThreads: Apart = MODULES_APART ? 'module' : false;
/** Each case alone, pausing after every 2 ms batch as long as the run's samples last (two stretches a case). */
const pausedShape = (doc: ResultDocument): Shape => ({ pauseMs: doc.params.minSampleMs, reps: 2 });
/** The engine's turn of its own, in the plain loop's turns (measure.ts). */
const settledShape: Shape = { settleMs: SETTLE_MS, settleMaxBatches: SETTLE_MAX_BATCHES };
/** The plain loop's figures (bytes/s) by `name|algorithm|size`: alone, or interleaved with batches of `interleaveMs`; `shape` settles its turns or pauses it alone. */
const plainLoop = async (subjects: Subject[], interleaveMs?: number, { apart, ...shape }: Shape = {}) =>
  mergedFigures(
    await Promise.all(
      workerSpecs(
        {
          subjects: subjects.map((s) => ({ name: s.name, module: s.module, algorithm: s.algorithm })),
          sizes: SIZES,
          ms: LOOP_MS,
          interleaveMs,
          ...shape,
          reps: shape.reps ?? 5,
        },
        apart,
      ).map(
        (workerData) =>
          new Promise<PlainFigures>((resolve, reject) => {
            // As the engine's workers start (web/core/worker/node-thread.ts packageWorker): without this script's tsx hooks.
            const w = new Worker(new URL('./plain-loop.worker.mjs', import.meta.url), { workerData, execArgv: [] });
            w.once('message', (m: PlainFigures) => (resolve(m), void w.terminate()));
            w.once('error', reject);
          }),
      ),
    ),
  );
/**
 * Idle turns (Node; IDLE_SIZES, default 64,1k; 'none' skips): each case in one worker against
 * itself (lab/bench/idle-turns.worker.mjs): IDLE_TURNS batches of about 2 ms taking round-robin
 * turns with IDLE_OTHERS threads that sleep, stream through 8 MiB, or call the other subjects'
 * cases of its size (each in a thread of its own, as the engine holds modules), for 2 ms a turn,
 * without and with the engine's turn of its own before each (SETTLE_MS), over the same worker's
 * batches back to back before and after. No other isolate is the reference, so what it reads is
 * the turns' cost to that code in that heap. Beside the callers, IDLE_LONG_MS of its own calls
 * before each timed batch and, apart, after it: if the wait cost only the calls just after it,
 * calls after the batch would buy nothing. And the callers again with turns as long as a run's
 * settling cases take (IDLE_RUN_TURN_MS): the wait between a run's samples of a case is five
 * times longer than with 2 ms turns; and runs whose turns of their own last half and twice
 * SETTLE_MS, every turn with them. IDLE_ROTATIONS rotations of the shapes' order.
 */
const IDLE_SIZES = listEnv('IDLE_SIZES', '64,1k').map((x) => parseSize(x));
const IDLE_ROTATIONS = Number(process.env.IDLE_ROTATIONS ?? 3);
const IDLE_TURNS = Number(process.env.IDLE_TURNS ?? 100);
const IDLE_OTHERS = Number(process.env.IDLE_OTHERS ?? 5);
const IDLE_LONG_MS = 30;
/** The timed batch, and each other thread's turn unless a shape says otherwise (ms): a quick run's sample. */
const IDLE_BATCH_MS = 2;
/**
 * The others' turns as a run's settling cases take them: each its turn of its own and a sample,
 * so a case waits five of them, about 50 ms, between its samples (10 ms with 2 ms turns).
 */
const IDLE_RUN_TURN_MS = SETTLE_MS + IDLE_BATCH_MS;
type IdleShape = {
  label: string;
  kind: 'sleep' | 'stream' | 'modules';
  settleMs: number;
  /** At most this many batches of its own (SETTLE_MAX_BATCHES unless given; Infinity: its time alone bounds it). */
  maxBatches?: number;
  ownAfter?: boolean;
  /** How long each of the others' turns lasts (ms; IDLE_BATCH_MS unless given). */
  othersMs?: number;
};
const IDLE_SHAPES: readonly IdleShape[] = [
  { label: 'others sleep', kind: 'sleep', settleMs: 0 },
  { label: 'sleep, settled', kind: 'sleep', settleMs: SETTLE_MS },
  { label: 'others stream', kind: 'stream', settleMs: 0 },
  { label: 'stream, settled', kind: 'stream', settleMs: SETTLE_MS },
  { label: 'others call', kind: 'modules', settleMs: 0 },
  { label: 'call, settled', kind: 'modules', settleMs: SETTLE_MS },
  // A longer turn of its own, before the timed batch and after it: the time since the wait, or the thread's share of the time?
  { label: `call, ${IDLE_LONG_MS} ms before`, kind: 'modules', settleMs: IDLE_LONG_MS, maxBatches: Infinity },
  { label: `call, ${IDLE_LONG_MS} ms after`, kind: 'modules', settleMs: IDLE_LONG_MS, maxBatches: Infinity, ownAfter: true },
  // The wait a run's case meets: does a longer one cost more, and does the turn of its own take it back?
  { label: `others call ${IDLE_RUN_TURN_MS} ms`, kind: 'modules', settleMs: 0, othersMs: IDLE_RUN_TURN_MS },
  { label: `${IDLE_RUN_TURN_MS} ms, settled`, kind: 'modules', settleMs: SETTLE_MS, othersMs: IDLE_RUN_TURN_MS },
  { label: `${IDLE_RUN_TURN_MS} ms, ${IDLE_LONG_MS} ms before`, kind: 'modules', settleMs: IDLE_LONG_MS, maxBatches: Infinity, othersMs: IDLE_RUN_TURN_MS },
  // A run whose turn of its own lasts half and twice as long, and whose other cases' turns do too: what another SETTLE_MS would read.
  ...[SETTLE_MS / 2, SETTLE_MS * 2].map((ms): IdleShape => ({
    label: `${ms + IDLE_BATCH_MS} ms, ${ms} ms before`,
    kind: 'modules',
    settleMs: ms,
    maxBatches: Infinity,
    othersMs: ms + IDLE_BATCH_MS,
  })),
];
/** What worker 0 answers: the ratio, and what its turns held (the wait before each timed batch, its own batches before and after it, per turn). */
type IdleAnswer = { ratio: number; waitMs: number; ownBefore: number; ownAfter: number };
async function idleTurns(subject: Subject, size: number, shape: IdleShape): Promise<IdleAnswer> {
  const sab = new SharedArrayBuffer(8);
  const of = IDLE_OTHERS + 1;
  const neighbours = SUBJECTS.filter((s) => s !== subject);
  const workers = Array.from(
    { length: of },
    (_, me) =>
      new Worker(new URL('./idle-turns.worker.mjs', import.meta.url), {
        workerData: {
          sab,
          me,
          of,
          kind: shape.kind,
          subject,
          // The others' cases in turn: with IDLE_OTHERS 5 and all six subjects, each other case once.
          neighbour: neighbours.length ? neighbours[(me - 1) % neighbours.length] : subject,
          size,
          turns: IDLE_TURNS,
          settleMs: shape.settleMs,
          settleMaxBatches: shape.maxBatches ?? SETTLE_MAX_BATCHES,
          ownAfter: shape.ownAfter ?? false,
          batchMs: IDLE_BATCH_MS,
          othersMs: shape.othersMs ?? IDLE_BATCH_MS,
        },
        execArgv: [],
      }),
  );
  try {
    const answers = await Promise.all(workers.map((w) => new Promise<IdleAnswer>((resolve, reject) => (w.once('message', resolve), w.once('error', reject)))));
    return answers[0]!;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
async function withIdleTurns(): Promise<Map<string, IdleAnswer[][]>> {
  const out = new Map<string, IdleAnswer[][]>();
  for (let r = 0; r < IDLE_ROTATIONS; r++)
    for (const size of IDLE_SIZES)
      for (const s of SUBJECTS) {
        const row = out.get(loopKey(s, size)) ?? IDLE_SHAPES.map((): IdleAnswer[] => []);
        for (let j = 0; j < IDLE_SHAPES.length; j++) {
          const i = (j + r) % IDLE_SHAPES.length;
          row[i]!.push(await idleTurns(s, size, IDLE_SHAPES[i]!));
        }
        out.set(loopKey(s, size), row);
      }
  return out;
}

/**
 * Pauses of its own (PAUSES, default sleep2,sleep10,sleep50,spin10,sleep50+8; 'none' skips): one
 * thread and nothing else of ours working, timing batches of about IDLE_BATCH_MS back to back and
 * each after its thread sleeps or spins on the clock that many ms (and with +MS, then runs its
 * own batches untimed that long, as the engine's turn of its own), PAUSE_TURNS a stretch, held
 * against the stretches back to back on either side (lab/bench/pause.worker.mjs), PAUSE_ROTATIONS
 * rotated orders. What it times: dependent reads at random over a working set of PAUSE_KIB KiB,
 * in native code (lab/native/src/bin/pause_native.rs: no V8 at all) and the same walk in JavaScript;
 * then the cases at PAUSE_SIZES, and the engine's WebAssembly core for their algorithms. Whether
 * what the idle turns cost is the engine's, V8's or the host's: a working set a thread leaves
 * alone while others run may be gone from the caches when it returns.
 */
/** A pause of PAUSES: how the thread stops and for how long, then how long its own batches run untimed (ms), as spelled (`sleep50+8`) and as printed. */
type Pause = { spelled: string; how: 'sleep' | 'spin'; ms: number; ownMs: number; label: string };
const parsePause = (spelled: string): Pause => {
  const m = /^(sleep|spin)(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(spelled);
  if (!m) throw new Error(`PAUSES: '${spelled}' is not sleepMS or spinMS, with +MS of its own after it or not (e.g. sleep10, spin10, sleep50+8)`);
  const [, how, ms, own] = m as unknown as [string, 'sleep' | 'spin', string, string | undefined];
  return { spelled, how, ms: Number(ms), ownMs: Number(own ?? 0), label: `${how} ${ms} ms${own ? ` + ${own} own` : ''}` };
};
const PAUSES = listEnv('PAUSES', 'sleep2,sleep10,sleep50,spin10,sleep50+8').map(parsePause);
const PAUSE_KIB = listEnv('PAUSE_KIB', '32,256,1024,8192').map((k) => {
  if (!/^[1-9]\d*$/.test(k)) throw new Error(`PAUSE_KIB: '${k}' is not a working set in KiB (a whole number, e.g. 32,1024)`);
  return Number(k);
});
const PAUSE_SIZES = listEnv('PAUSE_SIZES', '64,1k').map((x) => parseSize(x));
const PAUSE_ROTATIONS = Number(process.env.PAUSE_ROTATIONS ?? 3);
const PAUSE_TURNS = Number(process.env.PAUSE_TURNS ?? 100);
/** One row of the pauses' table, and what its thread answered, in the pauses' order: each pause's ratios (one a rotation), and per turn how long its pauses lasted (ms) and its own batches after them. */
type PauseAnswer = { ratios: number[][]; pausedMs: number[]; ownBatches: number[] };
type PauseRow = PauseAnswer & { kind: 'walk' | 'case' | 'wasm'; label: string };
async function pausedWorker(what: { kib: number } | { subject: Subject; size: number } | { wasm: string; size: number }): Promise<PauseAnswer> {
  const worker = new Worker(new URL('./pause.worker.mjs', import.meta.url), {
    workerData: { ...what, turns: PAUSE_TURNS, rotations: PAUSE_ROTATIONS, batchMs: IDLE_BATCH_MS, pauses: PAUSES },
    execArgv: [],
  });
  try {
    return await new Promise<PauseAnswer>((resolve, reject) => (worker.once('message', resolve), worker.once('error', reject)));
  } finally {
    await worker.terminate();
  }
}
async function withPauses(): Promise<PauseRow[]> {
  const rows: PauseRow[] = [];
  const native = PAUSE_KIB.length ? buildPauseProbe() : '';
  for (const kib of PAUSE_KIB) {
    const out = execFileSync(native, [`${kib}`, `${PAUSE_TURNS}`, `${PAUSE_ROTATIONS}`, `${IDLE_BATCH_MS}`, ...PAUSES.map((p) => p.spelled)], {
      encoding: 'utf8',
    });
    rows.push({ kind: 'walk', label: `native: a walk over ${kib} KiB`, ...(JSON.parse(out) as PauseAnswer) });
    rows.push({ kind: 'walk', label: `JavaScript: a walk over ${kib} KiB`, ...(await pausedWorker({ kib })) });
  }
  for (const size of PAUSE_SIZES) {
    for (const s of SUBJECTS) rows.push({ kind: 'case', label: `${s.name} ${s.algorithm} ${formatSize(size)}`, ...(await pausedWorker({ subject: s, size })) });
    // The engine's own WebAssembly, for the algorithms the modules implement: whether its figures pay the pause too.
    for (const wasm of new Set(SUBJECTS.map((s) => s.algorithm)))
      rows.push({ kind: 'wasm', label: `rustcrypto-wasm (simd128) ${wasm} ${formatSize(size)}`, ...(await pausedWorker({ wasm, size })) });
  }
  return rows;
}

/**
 * A caller's heap beside the loop (LIVE_MB, MiB, default 8,32; 'none' skips): each subject
 * alone, in a fresh worker holding that much of small live objects, over the same loop holding
 * none, in LIVE_ROTATIONS rotations of that order. Every full collection marks what is live, so
 * a module that makes garbage fast (asmcrypto.js: a 64 KiB heap and a new asm.js instance per
 * call) costs more in an application's heap than in the empty worker the plain loop runs in.
 */
const LIVE_MB = listEnv('LIVE_MB', '8,32').map(Number);
const LIVE_ROTATIONS = Number(process.env.LIVE_ROTATIONS ?? 2);
async function withLiveHeap(): Promise<Map<string, Map<number, number[]>>> {
  const out = new Map<string, Map<number, number[]>>();
  const heaps = [0, ...LIVE_MB];
  for (let r = 0; r < LIVE_ROTATIONS; r++)
    for (const s of SUBJECTS) {
      const figures = new Map<number, PlainFigures>();
      for (let j = 0; j < heaps.length; j++) {
        const mb = heaps[(j + r) % heaps.length]!;
        figures.set(mb, await plainLoop([s], undefined, { liveMB: mb, reps: 3 }));
      }
      for (const size of SIZES) {
        const k = loopKey(s, size);
        const row = out.get(k) ?? new Map<number, number[]>();
        for (const mb of LIVE_MB) row.set(mb, [...(row.get(mb) ?? []), figures.get(mb)!.bytesPerSecond[k]! / figures.get(0)!.bytesPerSecond[k]!]);
        out.set(k, row);
      }
    }
  return out;
}
/**
 * The neighbours (NEIGHBOUR_SIZES, default 64,1k; 'none' skips): each subject's case taking
 * turns with one other subject's case of the same size, two cases in a fresh worker, in batches
 * as long as the engine's samples, over the case alone in a fresh worker; and taking turns with
 * no neighbour (its batches back to back), which is what the turns cost by themselves.
 * NEIGHBOUR_ROTATIONS rotations, each in a rotated order. By `loopKey`, per neighbour's label
 * ('' for none): [the ratio, the same with the collector's pauses left out of both sides, empty
 * where the home cannot see them].
 */
const NEIGHBOUR_SIZES = listEnv('NEIGHBOUR_SIZES', '64,1k').map((x) => parseSize(x));
const NEIGHBOUR_ROTATIONS = Number(process.env.NEIGHBOUR_ROTATIONS ?? 3);
const subjectLabel = (s: Subject) => (s.name === 'noble' ? `noble ${s.algorithm.split('-')[0]}` : s.name.split('-')[0]!);
/** A case's bytes over the time the collector's pauses left its loop; undefined where the home cannot tell (a browser). */
const beyondPauses = (f: PlainFigures, k: string) => (f.collectorShare ? f.bytesPerSecond[k]! / (1 - f.collectorShare[k]!) : undefined);
/** Runs the plain loop of `subjects` in a fresh worker of one home (Node's worker thread, a browser's worker). */
type PlainIn = (subjects: Subject[], interleaveMs?: number, shape?: Shape) => Promise<PlainFigures>;
type Neighbours = Map<string, Map<string, [number[], number[]]>>;
async function withNeighbours(sampleMs: number, plain: PlainIn, apart = false): Promise<Neighbours> {
  const out: Neighbours = new Map();
  for (let r = 0; r < NEIGHBOUR_ROTATIONS; r++)
    for (const size of NEIGHBOUR_SIZES)
      for (const s of SUBJECTS) {
        const k = loopKey(s, size);
        const others = [undefined, ...SUBJECTS.filter((o) => o !== s)];
        const order = [...others.slice(r % others.length), ...others.slice(0, r % others.length)];
        const alone = await plain([s], undefined, { sizes: [size], reps: 3 });
        const row = out.get(k) ?? new Map<string, [number[], number[]]>();
        for (const o of order) {
          const turns = await plain(o ? [s, o] : [s], sampleMs, { sizes: [size], apart });
          const label = o ? subjectLabel(o) : '';
          const [ratios, without] = row.get(label) ?? [[], []];
          ratios.push(turns.bytesPerSecond[k]! / alone.bytesPerSecond[k]!);
          const [t, a] = [beyondPauses(turns, k), beyondPauses(alone, k)];
          if (t !== undefined && a !== undefined) without.push(t / a);
          row.set(label, [ratios, without]);
        }
        out.set(k, row);
      }
  return out;
}
/** The neighbours' table, with the collector's pauses left out in brackets where the home measured them (Node). */
function printNeighbours(table: Neighbours, sampleMs: number, where: string, apart = false) {
  const labels = SUBJECTS.map(subjectLabel);
  const pauses = [...table.values()].some((row) => [...row.values()].some(([, without]) => without.length));
  console.log(
    `\nthe neighbours (${where}): the plain loop of each case taking turns in ${sampleMs} ms batches with one other case of its size (columns), ${apart ? 'each case in a fresh worker of its own, the two workers taking turns (as the engine measures modules of yours)' : 'two cases in a fresh worker'}, / the case alone in a fresh worker; "none": its batches back to back with no neighbour. Median of ${NEIGHBOUR_ROTATIONS} rotations${pauses ? ", and in brackets the same with the collector's pauses (perf_hooks gc entries) left out of both" : ''}:`,
  );
  console.log(`${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}${['none', ...labels].map((l) => l.padStart(16)).join('')}`);
  for (const [k, row] of table) {
    const [name, alg, size] = k.split('|');
    const cell = (label: string) => {
      const got = row.get(label);
      return got ? `${median(got[0]).toFixed(2)}${pauses ? ` (${median(got[1]).toFixed(2)})` : ''}` : '–';
    };
    console.log(`${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}${['', ...labels].map((l) => cell(l).padStart(16)).join('')}`);
  }
  const pairs = [...table.values()].flatMap((row) => [...row].filter(([l]) => l).map(([, [r]]) => median(r)));
  const alone = [...table.values()].map((row) => median(row.get('')![0]));
  console.log(
    `  with no neighbour ${Math.min(...alone).toFixed(2)}–${Math.max(...alone).toFixed(2)}; with one, ${pairs.filter((x) => x < 0.9).length} of ${pairs.length} pairs below 0.90 and ${pairs.filter((x) => x > 1.1).length} above 1.10 (${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)})`,
  );
}
/**
 * The plain loop alone in PLAIN_WORKERS fresh workers (default 2, before the engine's run and
 * again after it, so four in all), its figures averaged (each
 * worker times the same stretches, so the mean of their rates is every call's bytes over their
 * time). The engine's run spans a fresh worker per round and extra round, and each worker draws
 * its own compile of the module: node-forge at 64 B in Node read 0.81–1.12 of one plain worker
 * from one engine worker to the next, and the engine's run 0.91–1.08 of it over four runs, but
 * 0.97–1.01 of three plain workers averaged. One plain worker held one draw against an average.
 */
const PLAIN_WORKERS = Number(process.env.PLAIN_WORKERS ?? 2);
async function acrossWorkers(one: () => Promise<PlainFigures>): Promise<PlainFigures> {
  const runs: PlainFigures[] = [];
  for (let i = 0; i < PLAIN_WORKERS; i++) runs.push(await one());
  return averaged(runs);
}
function averaged(runs: PlainFigures[]): PlainFigures {
  const avg = (pick: (r: PlainFigures) => Record<string, number>) =>
    Object.fromEntries(Object.keys(pick(runs[0]!)).map((k) => [k, mean(runs.map((r) => pick(r)[k]!))]));
  const collectorShare = runs.every((r) => r.collectorShare) ? avg((r) => r.collectorShare!) : undefined;
  return { bytesPerSecond: avg((r) => r.bytesPerSecond), medianStretch: avg((r) => r.medianStretch), ...(collectorShare && { collectorShare }) };
}
/** A reference and its own A/A: the same loop timed twice in a row. */
const twice = async (one: () => Promise<PlainFigures>): Promise<[PlainFigures, PlainFigures]> => [await one(), await one()];
const loopKey = (s: Pick<Subject, 'name' | 'algorithm'>, size: number) => `${s.name}|${s.algorithm}|${size}`;

/**
 * One run's ratios of a subject at a size: the engine's case against the plain loop alone —
 * every call against every call (its total bytes over its total time), median against median
 * stretch — and against the plain loop interleaved, every call against every call. The plain
 * loop alone is the mean of its figures before and after the engine's run of the subject alone;
 * after over before is the reference's own A/A.
 */
function addRatios(
  rows: Ratios,
  doc: ResultDocument,
  s: Subject,
  size: number,
  [before, after]: [PlainFigures, PlainFigures],
  [plainInterleaved, interleavedAgain]: [PlainFigures, PlainFigures],
  engineAlone: ResultDocument,
  settledTurns: PlainFigures,
  paused: PlainFigures,
) {
  const k = loopKey(s, size);
  const plainAlone = averaged([before, after]);
  const alone = plainAlone.bytesPerSecond[k]!;
  const interleaved = plainInterleaved.bytesPerSecond[k]!;
  const c = doc.cases.find((x) => x.implementation === s.implementation && x.algorithm === s.algorithm && x.sizeBytes === size);
  if (!c) throw new Error(`the engine measured no ${s.name} ${s.algorithm} ${size}: ${doc.warnings.join('; ')}`);
  const solo = engineAlone.cases.find((x) => x.implementation === s.implementation && x.algorithm === s.algorithm && x.sizeBytes === size);
  if (!solo) throw new Error(`the engine measured no ${s.name} ${s.algorithm} ${size} alone: ${engineAlone.warnings.join('; ')}`);
  const r = rows.get(k) ?? {
    median: [],
    all: [],
    engine: [],
    loop: [],
    interleaved: [],
    vsInterleaved: [],
    interleavedAA: [],
    sideBySide: [],
    plainAA: [],
    allVsBefore: [],
    aloneVsBefore: [],
    settled: [],
    paused: [],
    collectorAlone: [],
    collectorTurns: [],
    turnsWithoutCollector: [],
  };
  r.median.push(c.bytesPerSecond / plainAlone.medianStretch[k]!);
  r.all.push(c.totalBytesPerSecond! / alone);
  r.engine.push(c.totalBytesPerSecond!);
  r.loop.push(alone);
  r.interleaved.push(interleaved / alone);
  r.vsInterleaved.push(c.totalBytesPerSecond! / interleaved);
  r.interleavedAA.push(interleavedAgain.bytesPerSecond[k]! / interleaved);
  r.sideBySide.push(solo.totalBytesPerSecond! / alone);
  r.plainAA.push(after.bytesPerSecond[k]! / before.bytesPerSecond[k]!);
  // For the repeatability standard: ours over the same reference the A/A divides by (the plain loop before).
  r.allVsBefore.push(c.totalBytesPerSecond! / before.bytesPerSecond[k]!);
  r.aloneVsBefore.push(solo.totalBytesPerSecond! / before.bytesPerSecond[k]!);
  r.settled.push(settledTurns.bytesPerSecond[k]! / alone);
  r.paused.push(paused.bytesPerSecond[k]! / alone);
  const [beyondAlone, beyondTurns] = [beyondPauses(plainAlone, k), beyondPauses(plainInterleaved, k)];
  if (beyondAlone !== undefined && beyondTurns !== undefined) {
    r.collectorAlone.push(plainAlone.collectorShare![k]!);
    r.collectorTurns.push(plainInterleaved.collectorShare![k]!);
    // What the turns cost besides the collector's pauses.
    r.turnsWithoutCollector.push(beyondTurns / beyondAlone);
  }
  rows.set(k, r);
}

/** The engine's run of one subject alone: its algorithm, every size, the same rounds as the full run. */
const soloOptions = (s: Subject) => ({
  algorithms: [s.algorithm] as never,
  sizes: SIZES,
  operations: ['encrypt'] as never,
  aadBytes: [0],
  rounds: 2,
  maxReruns: 2,
});

/**
 * noble's own harness (@paulmillr/jsbt's benchmarkRun, lab/bench/jsbt.worker.mjs) over the same
 * calls, in a fresh worker thread: bytes per second by size. Issue "Faithful as the caller's own
 * loop": noble through the engine in Node should read at least 0.95 of it at every size.
 */
const HARNESS_S = Number(process.env.HARNESS_S ?? 1);
const nobleHarness = (s: Subject) =>
  new Promise<Record<string, number>>((resolve, reject) => {
    const w = new Worker(new URL('./jsbt.worker.mjs', import.meta.url), {
      workerData: { algorithm: s.algorithm, sizes: SIZES, seconds: HARNESS_S },
      execArgv: [],
    });
    w.once('message', (m: { bytesPerSecond: Record<string, number> }) => (resolve(m.bytesPerSecond), void w.terminate()));
    w.once('error', reject);
  });
/** Per noble case (loopKey): the engine's run and the engine alone, each over jsbt's figure timed right after. */
const overHarness = new Map<string, { run: number[]; alone: number[] }>();

const ratios: Ratios = new Map();
const started = performance.now();
/** The engine's sample length in this run (its quick preset's), for the neighbours' batches. */
let sampleMs = 2;
for (let run = 0; run < RUNS; run++) {
  // The engine: every subject in one run, interleaved as any run is.
  const doc = await runBenchmark({
    algorithms: ['aes-128-gcm', 'chacha20-poly1305'],
    sizes: SIZES,
    operations: ['encrypt'],
    aadBytes: [0],
    rounds: 2,
    maxReruns: 2,
    implementations: [...new Set(SUBJECTS.map((s) => (s.module === 'noble' ? 'noble' : s.module)))] as never,
    modulesApart: MODULES_APART,
  });
  sampleMs = doc.params.minSampleMs;
  // The same subjects and sizes taking turns as the engine's samples do (its sample length),
  // twice: the second is that reference's own A/A.
  const interleaved = await twice(() => plainLoop(SUBJECTS, doc.params.minSampleMs, { apart: runThreads }));
  // The same turns, each after a turn of its own as the engine takes it; and each case alone, pausing as long as a sample after each 2 ms.
  const settledTurns = await plainLoop(SUBJECTS, doc.params.minSampleMs, { ...settledShape, apart: runThreads });
  for (const s of SUBJECTS) {
    // Side by side: the engine with this subject alone between two runs of the plain loop alone,
    // so that a slow minute falls on both sides.
    const soloRun = () =>
      runBenchmark({
        ...soloOptions(s),
        implementations: [s.module === 'noble' ? 'noble' : s.module] as never,
        modulesAlone: true,
        modulesApart: MODULES_APART,
      });
    const [engineAlone, ...plainAlone] = await sandwiched(soloRun, () => acrossWorkers(() => plainLoop([s])));
    const paused = await plainLoop([s], undefined, pausedShape(doc));
    for (const size of SIZES) {
      addRatios(ratios, doc, s, size, plainAlone, interleaved, engineAlone, settledTurns, paused);
    }
    if (s.module !== 'noble') continue;
    const harness = await nobleHarness(s);
    for (const size of SIZES) {
      const pick = (d: ResultDocument) => d.cases.find((c) => c.implementation === 'noble' && c.algorithm === s.algorithm && c.sizeBytes === size)!;
      const h = overHarness.get(loopKey(s, size)) ?? { run: [], alone: [] };
      h.run.push(pick(doc).totalBytesPerSecond! / harness[size]!);
      h.alone.push(pick(engineAlone).totalBytesPerSecond! / harness[size]!);
      overHarness.set(loopKey(s, size), h);
    }
  }
}

type RatioRow = {
  median: number[];
  all: number[];
  engine: number[];
  loop: number[];
  interleaved: number[];
  vsInterleaved: number[];
  interleavedAA: number[];
  sideBySide: number[];
  plainAA: number[];
  allVsBefore: number[];
  aloneVsBefore: number[];
  /** The plain loop taking turns, each turn first running its case untimed for SETTLE_MS (the engine's turn of its own), over the loop alone. */
  settled: number[];
  /** The plain loop alone in 2 ms batches with as long a pause after each, over the loop alone. */
  paused: number[];
  /** Node only: the share of the plain loop's timed time the collector's pauses took, alone and taking turns (perf_hooks gc entries). */
  collectorAlone: number[];
  collectorTurns: number[];
  /** Node only: the loop taking turns over the loop alone, each over the time the collector's pauses left it. */
  turnsWithoutCollector: number[];
};
type Ratios = Map<string, RatioRow>;
/** median [min–max]; `digits` on the median (three where it is held against a target such as 0.95). */
const f = (xs: number[], digits = 2) => (xs.length ? `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]` : '–');
/** The fairness table (the engine against a plain loop of the same calls) for `where` (Node or a browser), printed and recorded. */
function printTable(rows: Ratios, where: string) {
  console.log(
    `${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}  ${'engine all calls'.padStart(16)}  ${'plain loop'.padStart(10)}  ${'ratio (all calls)'.padStart(17)}  ${'ratio (median)'.padStart(17)}  ${'interleaved/alone'.padStart(17)}  ${'engine/interleaved'.padStart(18)}  ${'alone, side by side'.padStart(19)}  ${'plain after/before'.padStart(18)}  ${'settled turns/alone'.padStart(19)}  paused/alone`,
  );
  const mid = (xs: number[]) => (xs.length ? median(xs) : null);
  for (const [k, r] of rows) {
    const [name, alg, size] = k.split('|');
    figures.row('engine-over-plain-loop', {
      where,
      module: name!,
      algorithm: alg!,
      sizeBytes: Number(size),
      engineMbps: median(r.engine) / 1e6,
      loopMbps: median(r.loop) / 1e6,
      allCalls: mid(r.all),
      median: mid(r.median),
      interleavedOverAlone: mid(r.interleaved),
      engineOverInterleaved: mid(r.vsInterleaved),
    });
    console.log(
      `${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}  ${(median(r.engine) / 1e6).toFixed(2).padStart(16)}  ${(median(r.loop) / 1e6).toFixed(2).padStart(10)}  ${f(r.all).padStart(17)}  ${f(r.median).padStart(17)}  ${f(r.interleaved).padStart(17)}  ${f(r.vsInterleaved).padStart(18)}  ${f(r.sideBySide).padStart(19)}  ${f(r.plainAA).padStart(18)}  ${f(r.settled).padStart(19)}  ${f(r.paused)}`,
    );
  }
  // The repeatability standard (lab/bench/repeatability.ts): each cell's figures over the runs,
  // against how well the plain loop repeats itself (after / before) in the same runs.
  console.log('\nagainst the reference’s repeatability (the plain loop after / before, over the runs; docs/methodology.md):');
  // And the engine's run against the plain loop taking turns as the run's cases do, by that
  // loop's own A/A (timed twice after the run): what is left when the turns are on both sides.
  const cells: JudgedCell[] = [];
  for (const [k, r] of rows) {
    const [name, alg, size] = k.split('|');
    const [run, alone] = [againstRepeatability(r.allVsBefore, r.plainAA), againstRepeatability(r.aloneVsBefore, r.plainAA)];
    const turns = againstRepeatability(r.vsInterleaved, r.interleavedAA);
    cells.push({ run, alone, turns });
    console.log(`${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}  in the run: ${describe(run)}`);
    console.log(`${''.padEnd(54)}alone:      ${describe(alone)}`);
    console.log(`${''.padEnd(54)}the run over the loop taking turns: ${describe(turns)}`);
  }
  const tally = tallyCells(cells);
  figures.row('within-repeatability', { where, cells: tally.cells, run: tally.run, alone: tally.alone, turns: tally.turns });
  console.log(
    `within repeatability: the engine's run ${tally.run} of ${tally.cells} cells; the engine alone ${tally.alone} of ${tally.cells}; the run over the loop taking turns ${tally.turns} of ${tally.cells}`,
  );
  console.log(
    `of the ${tally.notRun} cells whose run is not within against the loop alone, ${tally.notRunTurns} are within against the loop taking turns (the turns' cost, which the plain loop pays too)`,
  );
  printCollector(rows);
}

/**
 * Node only: how much of what the turns cost the plain loop is the collector's pauses. The
 * pauses are perf_hooks' gc entries inside each timed window of the loop (plain-loop.worker.mjs);
 * a pause another case's garbage caused lands in whichever case is timed.
 */
function printCollector(rows: Ratios) {
  const measured = [...rows].filter(([, r]) => r.collectorTurns.length);
  if (!measured.length) return;
  const pct = (xs: number[]) => `${(median(xs) * 100).toFixed(1)} %`;
  console.log(
    "\nthe collector's pauses in the plain loop's timed time (perf_hooks gc entries), alone and taking turns, and the loop taking turns over the loop alone with the pauses left out of both (medians [range] over the runs):",
  );
  console.log(
    `${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}  ${'alone'.padStart(8)}  ${'turns'.padStart(8)}  ${'turns/alone'.padStart(17)}  ${'without the pauses'.padStart(18)}`,
  );
  for (const [k, r] of measured) {
    const [name, alg, size] = k.split('|');
    console.log(
      `${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}  ${pct(r.collectorAlone).padStart(8)}  ${pct(r.collectorTurns).padStart(8)}  ${f(r.interleaved).padStart(17)}  ${f(r.turnsWithoutCollector).padStart(18)}`,
    );
  }
  const low = measured.filter(([, r]) => median(r.interleaved) < 0.95);
  const explained = low.filter(([, r]) => median(r.turnsWithoutCollector) >= 0.95);
  console.log(
    `of the ${low.length} cells whose loop taking turns reads below 0.95 of the loop alone, ${explained.length} read 0.95 or more with the collector's pauses left out (the turns' cost there is the collector's)`,
  );
}

const figures = evidence('modules');
const apartLabel = MODULES_APART ? 'each module in a thread of its own' : 'every case in the measuring thread (MODULES_APART=0)';
const gc = process.execArgv.includes('--single-threaded-gc') ? 'GC on the main thread only (--single-threaded-gc)' : 'concurrent GC';
console.log(
  `\nbench:modules — Node ${process.versions.node}, ${gc}, ${RUNS} run(s), engine vs a plain loop of the same calls, ${apartLabel} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
// The engine's tables, when it ran (RUNS=0 measures only the tables below).
if (RUNS > 0) {
  console.log('ratio = engine MB/s / plain-loop MB/s (1.00: the engine costs the code nothing; below: the engine slows it);');
  console.log("  all calls: every call's bytes over their time, on both sides; median: the engine's median sample over the plain loop's median stretch");
  console.log(
    `interleaved = the plain loop with every case taking turns as the run's do, size by size, one case a turn, in batches as long as the engine's samples, ${MODULES_APART ? "in the engine's threads (each module in a worker of its own, noble's cases together)" : 'in one worker'}, each case its own batch loop (the first of two such loops after the run), / the plain loop alone`,
  );
  console.log(
    "alone, side by side = the engine with that module alone / the plain loop alone just before and just after it, averaged (all calls): the engine's own loop",
  );
  console.log("plain after/before = the plain loop alone just after the engine's run / just before it: how far the reference moves from itself");
  console.log(
    `settled turns = the plain loop taking turns as above, each turn first running its case untimed for ${SETTLE_MS} ms (at most ${SETTLE_MAX_BATCHES} batches: the engine's turn of its own, measure.ts SETTLE_MS), / the plain loop alone`,
  );
  console.log(
    'paused = the plain loop with each case alone, pausing (reading the clock) as long as a sample after every 2 ms of calls, / the plain loop alone\n',
  );
  printTable(ratios, 'node');

  console.log(
    `\nnoble in Node over its own harness (@paulmillr/jsbt benchmarkRun, ${HARNESS_S} s a size, the same calls, timed right after the engine alone; all calls on both sides; target ≥ 0.95):`,
  );
  // Three decimals on the median: it is held against 0.95, and 0.95 printed could be 0.946.
  for (const [k, h] of overHarness) {
    const [name, alg, size] = k.split('|');
    figures.row('noble-over-its-harness', { module: name!, algorithm: alg!, sizeBytes: Number(size), run: median(h.run), alone: median(h.alone) });
    console.log(
      `${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}  in the run ${f(h.run, 3).padStart(18)}   alone ${f(h.alone, 3).padStart(18)}`,
    );
  }
  const medians = [...overHarness.values()].map((h) => median(h.run));
  const alone = [...overHarness.values()].map((h) => median(h.alone));
  if (medians.length)
    console.log(
      `  cells whose run median is ≥ 0.95 of the harness: ${medians.filter((x) => x >= 0.95).length} of ${medians.length}; alone: ${alone.filter((x) => x >= 0.95).length} of ${alone.length}; median of the cells ${median(medians).toFixed(2)}`,
    );
}

if (NEIGHBOUR_SIZES.length) {
  printNeighbours(await withNeighbours(sampleMs, plainLoop), sampleMs, 'Node');
  printNeighbours(await withNeighbours(sampleMs, plainLoop, true), sampleMs, 'Node, each neighbour in a thread of its own', true);
}

if (IDLE_SIZES.length) {
  const idle = await withIdleTurns();
  console.log(
    `\nidle turns (Node): each case in one worker, ${IDLE_TURNS} batches of about ${IDLE_BATCH_MS} ms taking round-robin turns with ${IDLE_OTHERS} threads that sleep, stream through 8 MiB, or call the other cases of its size (a thread each), for ${IDLE_BATCH_MS} ms a turn, without and with ${SETTLE_MS} ms of its own calls before each (at most ${SETTLE_MAX_BATCHES} batches: the engine's turn of its own), and beside the callers with ${IDLE_LONG_MS} ms of them before each or after each; then callers taking ${IDLE_RUN_TURN_MS} ms turns (a run's settling cases: its turn of its own and a sample), without and with ${SETTLE_MS} or ${IDLE_LONG_MS} ms of its own calls before each; then runs whose turns of their own last ${SETTLE_MS / 2} and ${SETTLE_MS * 2} ms, every thread's turn with them, / the same worker's batches back to back before and after; median [range] of ${IDLE_ROTATIONS} rotations:`,
  );
  console.log(`${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}${IDLE_SHAPES.map((x) => x.label.padStart(20)).join('')}`);
  for (const [k, row] of idle) {
    const [name, alg, size] = k.split('|');
    console.log(
      `${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}${row.map((xs) => f(xs.map((a) => a.ratio)).padStart(20)).join('')}`,
    );
  }
  const cells = [...idle.values()];
  const low = (i: number) => cells.filter((row) => median(row[i]!.map((a) => a.ratio)) < 0.95).length;
  console.log(
    `  cells below 0.95: ${IDLE_SHAPES.map((x, i) => `${x.label} ${low(i)}`).join(', ')} (of ${cells.length}); medians of the cells ${IDLE_SHAPES.map((_, i) => median(cells.map((row) => median(row[i]!.map((a) => a.ratio)))).toFixed(2)).join(' / ')}`,
  );
  // What each shape's turns held, as the worker counted them: the wait it was built to give, and where its own calls ran.
  const held = (i: number, pick: (a: IdleAnswer) => number) => median(cells.flatMap((row) => row[i]!.map(pick)));
  console.log(
    `  each timed batch, median over the cells: the wait before it, and its own batches before / after it: ${IDLE_SHAPES.map((x, i) => `${x.label} ${held(i, (a) => a.waitMs).toFixed(1)} ms ${held(i, (a) => a.ownBefore).toFixed(1)} / ${held(i, (a) => a.ownAfter).toFixed(1)}`).join(', ')}`,
  );
}

if (PAUSES.length) {
  const rows = await withPauses();
  console.log(
    `\npauses of its own (Node, and native code): one thread, nothing else of ours working, ${PAUSE_TURNS} batches of about ${IDLE_BATCH_MS} ms each timed after its thread sleeps or spins on the clock (the milliseconds given), / the same thread's batches back to back on either side; a walk is dependent reads at random over a working set, natively (lab/native/src/bin/pause_native.rs) and in JavaScript; median [range] of ${PAUSE_ROTATIONS} rotations:`,
  );
  console.log(`${'what is timed'.padEnd(50)}${PAUSES.map((p) => p.label.padStart(20)).join('')}`);
  for (const row of rows) console.log(`${row.label.padEnd(50)}${row.ratios.map((xs) => f(xs).padStart(20)).join('')}`);
  const cases = rows.filter((r) => r.kind === 'case');
  const wasmRows = rows.filter((r) => r.kind === 'wasm');
  if (wasmRows.length)
    console.log(
      `  the engine's WebAssembly, medians of the cells: ${PAUSES.map((p, i) => `${p.label} ${median(wasmRows.map((r) => median(r.ratios[i]!))).toFixed(2)}`).join(', ')}`,
    );
  if (cases.length)
    console.log(
      `  the cases, medians of the cells: ${PAUSES.map((p, i) => `${p.label} ${median(cases.map((r) => median(r.ratios[i]!))).toFixed(2)} (${cases.filter((r) => median(r.ratios[i]!) < 0.95).length} of ${cases.length} below 0.95)`).join(', ')}`,
    );
  // What each pause held, as the threads measured it: the pause its column says, and its own batches after it.
  console.log(
    `  each pause, median over the rows: ${PAUSES.map((p, i) => `${p.label} lasted ${median(rows.map((r) => r.pausedMs[i]!)).toFixed(1)} ms, ${median(rows.map((r) => r.ownBatches[i]!)).toFixed(1)} own batches after it`).join(', ')}`,
  );
}

if (LIVE_MB.length) {
  const live = await withLiveHeap();
  console.log(
    `\nthe plain loop alone with a caller's heap beside it (${LIVE_MB.join(' and ')} MiB of small live objects, each an object, an array and a string; plain-loop.mjs liveMB), / the same loop with none; median [range] of ${LIVE_ROTATIONS} rotations in fresh workers:`,
  );
  console.log(`${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}${LIVE_MB.map((mb) => `${`${mb} MiB`.padStart(17)}`).join('  ')}`);
  for (const [k, r] of live) {
    const [name, alg, size] = k.split('|');
    console.log(`${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}${LIVE_MB.map((mb) => f(r.get(mb)!).padStart(17)).join('  ')}`);
  }
}

/**
 * The same in a browser (BROWSERS, default chromium; 'none' skips): the engine's run in the
 * harness page (harness.html), each example module bundled for the browser as the CLI bundles
 * it and served under /m/, against a plain loop in a fresh worker of that page
 * (lab/harness/plain.worker.ts), alternately, RUNS times; the plain loop runs interleaved and
 * alone as in Node.
 */
for (const name of (process.env.BROWSERS ?? 'chromium').split(',').filter((b) => b && b !== 'none') as BrowserName[]) {
  const browserStarted = performance.now();
  const files = new Map<string, Uint8Array>();
  const urlOf = new Map<string, string>();
  for (const s of SUBJECTS) {
    if (s.module === 'noble' || urlOf.has(s.module)) continue;
    const bundled = await bundleModule(s.module, 'browser');
    files.set(bundled.urlPath, bundled.bytes);
    urlOf.set(s.module, bundled.urlPath);
  }
  let page: Awaited<ReturnType<typeof openHarness>> | undefined;
  try {
    page = await openHarness(name, files);
    const search = new URLSearchParams({
      preset: 'quick',
      algorithms: 'aes-128-gcm,chacha20-poly1305',
      implementations: 'noble',
      sizes: SIZES.join(','),
      operations: 'encrypt',
      rounds: '2',
      reruns: '2',
      module: [...urlOf.values()].join(','),
    }).toString();
    const inPage = (s: Subject) => ({ name: s.name, module: urlOf.get(s.module) ?? 'noble', algorithm: s.algorithm });
    const plain = async (subjects: Subject[], interleaveMs?: number, { apart, ...shape }: Shape = {}) =>
      (await settled(
        page!,
        `window.harness.plain(${JSON.stringify({ subjects: subjects.map(inPage), sizes: SIZES, ms: LOOP_MS, interleaveMs, ...shape, reps: shape.reps ?? 5 })}, ${JSON.stringify({ apart })})`,
      )) as PlainFigures;
    const rows: Ratios = new Map();
    let version = '';
    let browserSampleMs = sampleMs;
    for (let run = 0; run < RUNS; run++) {
      const doc = (await settled(
        page,
        `window.harness.engine(${JSON.stringify(search)}, ${JSON.stringify({ modulesApart: MODULES_APART })})`,
      )) as ResultDocument;
      browserSampleMs = doc.params.minSampleMs;
      version = `${doc.environment.browser.name} ${doc.environment.browser.version}`.trim();
      // As in Node: every case taking turns in the engine's threads, then each subject alone in a worker of its own.
      const interleaved = await twice(() => plain(SUBJECTS, doc.params.minSampleMs, { apart: runThreads }));
      const settledTurns = await plain(SUBJECTS, doc.params.minSampleMs, { ...settledShape, apart: runThreads });
      for (const s of SUBJECTS) {
        // Noble alone is the built-in alone; a module of yours alone is its module with no built-in beside it.
        const solo = new URLSearchParams(search);
        solo.set('algorithms', s.algorithm);
        if (s.module === 'noble') solo.delete('module');
        else (solo.set('module', urlOf.get(s.module)!), solo.delete('implementations'), solo.set('alone', '1'));
        const soloRun = async () =>
          (await settled(
            page!,
            `window.harness.engine(${JSON.stringify(solo.toString())}, ${JSON.stringify({ modulesApart: MODULES_APART })})`,
          )) as ResultDocument;
        const [engineAlone, ...plainAlone] = await sandwiched(soloRun, () => acrossWorkers(() => plain([s])));
        const paused = await plain([s], undefined, pausedShape(doc));
        for (const size of SIZES) addRatios(rows, doc, s, size, plainAlone, interleaved, engineAlone, settledTurns, paused);
      }
    }
    console.log(
      `\nbench:modules — ${version ? `${version} ` : ''}(${name}), ${RUNS} run(s), the engine in the page vs a plain loop in a browser worker, ${apartLabel} (${((performance.now() - browserStarted) / 1000).toFixed(0)} s)\n`,
    );
    if (RUNS > 0) printTable(rows, name);
    if (NEIGHBOUR_SIZES.length) {
      printNeighbours(await withNeighbours(browserSampleMs, plain), browserSampleMs, name);
      printNeighbours(await withNeighbours(browserSampleMs, plain, true), browserSampleMs, `${name}, each neighbour in a thread of its own`, true);
    }
  } catch (e) {
    console.log(`\n${name}: not measured — ${(e as Error).message.split('\n')[0]}`);
    process.exitCode = 1;
  } finally {
    await page?.close();
  }
}
