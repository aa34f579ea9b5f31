/**
 * `npm run bench:modules`: is the engine fair to JavaScript? Each example module (and the
 * built-in noble) timed by the engine (gate, then the stop rule's sampling, in its worker
 * thread) and by a plain loop written apart from it (scripts/plain-loop.worker.mjs: the same
 * calls, by hand), alternately, in Node. Prints engine / plain loop per size, for the engine's
 * median and for its total bytes over total time ("all calls"), which is what the loop measures.
 *
 * The plain loop runs twice: each case alone (what a developer times by hand), and every case
 * taking turns in batches as long as the engine's samples ("interleaved"), which is how the
 * engine samples. Engine / interleaved isolates the engine's own loop; interleaved / alone is
 * what taking turns in one JavaScript heap does to a module's figure (garbage collection
 * started by one case and paid by the next, see docs/implementations.md). The engine timed is
 * the compiled one the package ships (built into target/bench-engine/ first, a few seconds).
 *   RUNS=3 SIZES=64,1k,1M npm run bench:modules
 *   node --single-threaded-gc --import tsx scripts/bench-modules.ts   (no GC helper threads)
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatSize, parseSize } from '../web/core/params.ts';
import { median } from '../web/core/stats.ts';
// @ts-expect-error a plain .mjs script, without types
import { buildEngine } from './build-engine.mjs';

// The engine as it ships (the package's compiled JavaScript), not its sources through tsx's
// loader, which no user runs: tsx detaches an ArrayBuffer in the thread it starts in (`node
// --trace-protector-invalidation` shows it), and V8 then checks every typed-array access of that
// isolate (docs/implementations.md).
const ENGINE = fileURLToPath(new URL('../target/bench-engine', import.meta.url));
buildEngine(ENGINE, { declaration: false });
const { runBenchmark } = (await import(pathToFileURL(`${ENGINE}/web/core/node.js`).href)) as typeof import('../web/core/node.ts');

const RUNS = Number(process.env.RUNS ?? 3);
const SIZES = (process.env.SIZES ?? '64,1k,1M').split(',').map((s) => parseSize(s));
const LOOP_MS = Number(process.env.LOOP_MS ?? 300);
const example = (d: string) => fileURLToPath(new URL(`../examples/modules/${d}/index.mjs`, import.meta.url));
const SUBJECTS = [
  { name: 'noble', module: 'noble', implementation: 'noble', algorithm: 'aes-128-gcm' },
  { name: 'noble', module: 'noble', implementation: 'noble', algorithm: 'chacha20-poly1305' },
  ...(['node-forge-gcm', 'sjcl-gcm', 'asmcrypto-gcm'] as const).map((d) => ({ name: d, module: example(d), implementation: d, algorithm: 'aes-128-gcm' })),
  { name: 'stablelib-chacha20poly1305', module: example('stablelib-chacha20poly1305'), implementation: 'stablelib-chacha20poly1305', algorithm: 'chacha20-poly1305' },
].filter((s) => !process.env.ONLY || process.env.ONLY.split(',').includes(s.name));

type Subject = (typeof SUBJECTS)[number];
/** The plain loop's figures, by `module|algorithm|size`: alone, or interleaved with batches of `interleaveMs`. */
const plainLoop = (subjects: Subject[], interleaveMs?: number) =>
  new Promise<Record<string, { bytesPerSecond: number }>>((resolve, reject) => {
    const workerData = { subjects: subjects.map((s) => ({ module: s.module, algorithm: s.algorithm })), sizes: SIZES, ms: LOOP_MS, reps: 5, interleaveMs };
    const w = new Worker(new URL('./plain-loop.worker.mjs', import.meta.url), { workerData });
    w.once('message', (m: { out: Record<string, { bytesPerSecond: number }> }) => (resolve(m.out), void w.terminate()));
    w.once('error', reject);
  });
const loopKey = (s: Subject, size: number) => `${s.module}|${s.algorithm}|${size}`;

const ratios = new Map<string, { median: number[]; all: number[]; engine: number[]; loop: number[]; interleaved: number[]; vsInterleaved: number[] }>();
const started = performance.now();
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
  });
  // The same subjects and sizes taking turns as the engine's samples do (its sample length).
  const interleaved = await plainLoop(SUBJECTS, doc.params.minSampleMs);
  for (const s of SUBJECTS) {
    const alone = await plainLoop([s]);
    for (const size of SIZES) {
      const loop = alone[loopKey(s, size)]!;
      const mixed = interleaved[loopKey(s, size)]!;
      const c = doc.cases.find((x) => x.implementation === s.implementation && x.algorithm === s.algorithm && x.sizeBytes === size);
      if (!c) throw new Error(`the engine measured no ${s.name} ${s.algorithm} ${size}: ${doc.warnings.join('; ')}`);
      const k = `${s.name}|${s.algorithm}|${size}`;
      const r = ratios.get(k) ?? { median: [], all: [], engine: [], loop: [], interleaved: [], vsInterleaved: [] };
      r.median.push(c.bytesPerSecond / loop.bytesPerSecond);
      r.all.push(c.totalBytesPerSecond! / loop.bytesPerSecond);
      r.engine.push(c.totalBytesPerSecond!);
      r.loop.push(loop.bytesPerSecond);
      r.interleaved.push(mixed.bytesPerSecond / loop.bytesPerSecond);
      r.vsInterleaved.push(c.totalBytesPerSecond! / mixed.bytesPerSecond);
      ratios.set(k, r);
    }
  }
}

const gc = process.execArgv.includes('--single-threaded-gc') ? 'GC on the main thread only (--single-threaded-gc)' : 'concurrent GC';
console.log(`\nbench:modules — Node ${process.versions.node}, ${gc}, ${RUNS} run(s), engine vs a plain loop of the same calls (${((performance.now() - started) / 1000).toFixed(0)} s)`);
console.log('ratio = engine MB/s / plain-loop MB/s (1.00: the engine costs the code nothing; below: the engine slows it)');
console.log('interleaved = the plain loop with every case taking turns in batches as long as the engine\'s samples, / the plain loop alone\n');
console.log(`${'module'.padEnd(28)}${'algorithm'.padEnd(19)}${'size'.padStart(7)}  ${'engine all calls'.padStart(16)}  ${'plain loop'.padStart(10)}  ${'ratio (all calls)'.padStart(17)}  ${'ratio (median)'.padStart(17)}  ${'interleaved/alone'.padStart(17)}  engine/interleaved`);
const f = (xs: number[]) => `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
for (const [k, r] of ratios) {
  const [name, alg, size] = k.split('|');
  console.log(`${name!.padEnd(28)}${alg!.padEnd(19)}${formatSize(Number(size)).padStart(7)}  ${(median(r.engine) / 1e6).toFixed(2).padStart(16)}  ${(median(r.loop) / 1e6).toFixed(2).padStart(10)}  ${f(r.all).padStart(17)}  ${f(r.median).padStart(17)}  ${f(r.interleaved).padStart(17)}  ${f(r.vsInterleaved)}`);
}
