/**
 * `npm run bench:counts`: what an exact count says beside time. One run per engine of every
 * RustCrypto id in both WASM builds (baseline and simd128, `wasm=both`), counted and timed in
 * the same run; per algorithm and size, the builds' count ratio (WebAssembly operations per
 * message, baseline / simd128: exact) beside their time ratio (simd128's throughput over
 * baseline's, paired), so a reader sees where counting agrees with time and where it parts
 * (a v128 operation counts one, as an i32 one does; the engine's code generation and caches are
 * invisible to a count). Then whether the engines counted the same: a count is the module's, so
 * any difference is a failure, and the command exits 1.
 * Then, per engine: the same build counted REPEATS times in fresh runs (every count identical,
 * and `compare --metric ops` of each against the first exits 0); two modules of yours compared
 * by counts (`compare --base --head --metric ops`: libsodium.js's ChaCha20-Poly1305, and the
 * same with one more ChaCha20 block a message, MORE WORK in every one of MODULE_REPEATS runs;
 * the same file as base and head, +0.000 %); and an A/A of times with the counting pass on and
 * off (the pass runs after the timing, in a worker of its own, so it must not move them).
 * Last, where valgrind is installed, the same crates compiled natively (wasm/examples/bench_native.rs,
 * portable backends forced and the host's own), their x86 instructions per message counted by
 * callgrind over 1, 2 and 3 messages as the WebAssembly is: instructions per byte beside
 * WebAssembly operations per byte (NATIVE_ALGORITHMS; NATIVE_BUILDS=soft,hw; NATIVE=0 skips).
 *   ENGINES=node,chromium,firefox,webkit SIZES=64,1k,16k ALGORITHMS=… REPEATS=10 MODULE_REPEATS=10 npm run bench:counts
 */
import { runInBrowser } from '../../cli/browser-run.ts';
import type { BrowserName } from '../../cli/browsers.ts';
import { runBenchmark } from '../../web/core/node.ts';
import { formatSize, parseParams } from '../../web/core/params.ts';
import { type CaseResult, type ResultDocument } from '../../web/core/schema.ts';
import { pairedRatio } from '../../web/core/stats.ts';
import { ALGORITHM_IDS } from '../../web/core/tables/algorithms.ts';
import { evidence, recordPage } from './measured.ts';
import { abCompare } from '../../cli/ab.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeBuild } from './native.ts';
import { compareResults } from '../../web/core/report/compare.ts';
import { compareOps, opsExitCode } from '../../web/core/report/ops.ts';

recordPage('counts', {
  title: 'Exact counts beside time',
  about:
    "Every RustCrypto id in both WASM builds, counted and timed in one run per engine: the builds' count ratio (operations per message, baseline / simd128, exact) beside their time ratio (simd128 over baseline, paired), and whether the engines counted alike.",
});

const ENGINES = (process.env.ENGINES ?? 'node,chromium,firefox,webkit').split(',').filter(Boolean);
const REPEATS = Number(process.env.REPEATS ?? 10);
const MODULE_REPEATS = Number(process.env.MODULE_REPEATS ?? 10);
const MODULE_SIZE = process.env.MODULE_SIZE ?? '8k';
const SIZES = process.env.SIZES ?? '64,1k,16k';
const ALGORITHMS = process.env.ALGORITHMS ?? ALGORITHM_IDS.join(',');
const ROUNDS = process.env.ROUNDS ?? '1';
const search = `preset=quick&implementations=rustcrypto-wasm&wasm=both&algorithms=${ALGORITHMS}&sizes=${SIZES}&rounds=${ROUNDS}&operations=encrypt`;

/** One run in an engine: `more` search parameters on top of the table's (a repeat: a short budget; the counts come after it). */
async function runIn(engine: string, more: Record<string, string> = {}): Promise<ResultDocument> {
  const { counts, ...rest } = more;
  const q = new URLSearchParams(search);
  for (const [k, v] of Object.entries(rest)) q.set(k, v);
  if (engine !== 'node') return runInBrowser({ browser: engine as BrowserName, search: q.toString() });
  const { params } = parseParams(q);
  return runBenchmark({ ...params, counts: counts !== 'off' });
}

const docs: { engine: string; doc: ResultDocument }[] = [];
for (const engine of ENGINES) {
  const started = performance.now();
  const doc = await runIn(engine);
  process.stderr.write(`[${engine}] ${doc.cases.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  docs.push({ engine, doc });
}

const where = (c: CaseResult) => `${c.algorithm}/${c.sizeBytes}`;
const figures = evidence('counts');
console.log(`\nbench:counts — ${search}`);
console.log(
  'ops/B: executed WebAssembly operations per byte (exact); count ratio = baseline / simd128 operations; time ratio = simd128 / baseline throughput, paired, 95 % interval\n',
);
for (const { engine, doc } of docs) {
  const env = doc.environment;
  console.log(`${engine}: ${env.browser.name} ${env.browser.version}`);
  console.log(
    `${'algorithm'.padEnd(26)}${'size'.padStart(7)}  ${'ops/B baseline'.padStart(14)}  ${'ops/B simd128'.padStart(13)}  ${'count ratio'.padStart(11)}  time ratio [interval]`,
  );
  const base = new Map(doc.cases.filter((c) => c.variant === 'baseline').map((c) => [where(c), c]));
  for (const s of doc.cases.filter((c) => c.variant === 'simd128')) {
    const b = base.get(where(s));
    if (!b?.ops || !s.ops) continue;
    const p = pairedRatio(b, s);
    figures.row('ops-per-byte', {
      engine,
      algorithm: s.algorithm,
      sizeBytes: s.sizeBytes,
      baseline: b.ops.perByte,
      simd128: s.ops.perByte,
      countRatio: b.ops.perMessage / s.ops.perMessage,
      timeRatio: p?.ratio ?? null,
    });
    console.log(
      `${s.algorithm.padEnd(26)}${formatSize(s.sizeBytes).padStart(7)}  ${b.ops.perByte.toFixed(2).padStart(14)}  ${s.ops.perByte.toFixed(2).padStart(13)}  ${(b.ops.perMessage / s.ops.perMessage).toFixed(3).padStart(11)}  ` +
        (p ? `${p.ratio.toFixed(3)} [${p.ciLow.toFixed(3)}–${p.ciHigh.toFixed(3)}]` : 'not paired'),
    );
  }
  console.log('');
}

// A count belongs to the module, not to the engine: every engine must give every case the same.
const key = (c: CaseResult) => `${c.algorithm}/${c.variant}/${c.sizeBytes}`;
const first = docs[0];
let disagree = 0;
let compared = 0;
if (first) {
  const reference = new Map(first.doc.cases.filter((c) => c.ops).map((c) => [key(c), c.ops!.perMessage]));
  for (const { engine, doc } of docs.slice(1)) {
    for (const c of doc.cases) {
      const r = reference.get(key(c));
      if (r === undefined || !c.ops) continue;
      compared++;
      if (c.ops.perMessage !== r) {
        disagree++;
        console.log(`MISMATCH ${engine} ${key(c)}: ${c.ops.perMessage} operations per message, ${first.engine} ${r}`);
      }
    }
  }
}
const counted = docs.reduce((n, d) => n + d.doc.cases.filter((c) => c.ops).length, 0);
figures.row('engines-agree', { engines: docs.length, compared, disagree, counted });
console.log(
  `engines agree: ${compared - disagree} of ${compared} cases counted in ${docs.length} engines (${ENGINES.join(', ')}) give ${first?.engine ?? '–'}'s count; ${counted} counts in all`,
);
if (disagree || counted === 0) process.exitCode = 1;

// The same build, counted again in fresh runs: every count identical, so comparing by counts
// two runs of unchanged code finds no change (compare --metric ops exits 0).
const SHORT = { budget: '1s', overtime: '0s', rounds: '1', reruns: '0' };
console.log(`\nthe same build counted in ${REPEATS} fresh runs per engine (each run's counting pass; budget 1 s for the times)`);
for (const { engine, doc } of docs) {
  const counts = (d: ResultDocument) => new Map(d.cases.filter((c) => c.ops).map((c) => [key(c), c.ops!.perMessage]));
  const reference = counts(doc);
  let identical = 0;
  let exitZero = 0;
  for (let i = 0; i < REPEATS; i++) {
    const again = await runIn(engine, SHORT);
    const now = counts(again);
    if (now.size === reference.size && [...reference].every(([k, v]) => now.get(k) === v)) identical++;
    if (opsExitCode(compareOps(doc, again, 0)) === 0) exitZero++;
  }
  figures.row('repeat', { engine, counted: reference.size, runs: REPEATS, identical, exitZero });
  console.log(
    `${engine.padEnd(9)} ${reference.size} counted cases: identical in ${identical} of ${REPEATS} runs; compare --metric ops --threshold 0 against the first run exits 0 in ${exitZero} of ${REPEATS}`,
  );
  if (identical !== REPEATS || exitZero !== REPEATS) process.exitCode = 1;
}

// Modules of yours compared by their work: one more ChaCha20 block a message is more work, every time.
const MOD = (m: string) => `web/core/test/modules/${m}.mjs`;
console.log(`\nmodules of yours by counts (compare --base --head --metric ops, ${MODULE_SIZE}, encrypt): libsodium.js ChaCha20-Poly1305`);
for (const engine of ENGINES) {
  const runs = engine === 'node' ? MODULE_REPEATS : Math.min(MODULE_REPEATS, 2);
  const tally = { more: 0, same: 0, changes: new Set<string>(), sameChanges: new Set<string>() };
  for (let i = 0; i < runs; i++) {
    for (const [head, what] of [
      ['sodium-chacha-more', 'more'],
      ['sodium-chacha', 'same'],
    ] as const) {
      const lines: string[] = [];
      const code = await abCompare({
        base: MOD('sodium-chacha'),
        head: MOD(head),
        browser: engine,
        margin: 0.05,
        budgetSeconds: 5,
        sizes: MODULE_SIZE,
        operations: 'encrypt',
        metric: 'ops',
        threshold: what === 'same' ? 0 : undefined,
        say: (x) => lines.push(x),
      });
      const change = /([+-]\d+\.\d{3}) %/.exec(lines.join('\n'))?.[1] ?? '?';
      if (what === 'more') {
        tally.changes.add(change);
        if (code === 1 && lines.join('\n').includes('MORE WORK')) tally.more++;
      } else {
        tally.sameChanges.add(change);
        if (code === 0 && change === '+0.000') tally.same++;
      }
    }
  }
  figures.row('module-work', { engine, runs, moreWork: tally.more, sameExitZero: tally.same });
  console.log(
    `${engine.padEnd(9)} one more block a message: MORE WORK in ${tally.more} of ${runs} runs (${[...tally.changes].join(', ')} %); the same file as base and head: +0.000 % and exit 0 in ${tally.same} of ${runs} (${[...tally.sameChanges].join(', ')} %)`,
  );
  if (tally.more !== runs || tally.same !== runs) process.exitCode = 1;
}

// A/A: the counting pass runs after the timing in a worker of its own; times with it on and off
// must read alike (two runs, so the comparison is unpaired: SAME or UNKNOWN, never a difference).
// In Node, where the package's `counts` option turns it off (the page always counts).
console.log('\nA/A of times, counting on against counting off (two runs in Node, compare A.json B.json, margin ±5 %)');
for (const engine of ENGINES.filter((e) => e === 'node')) {
  const on = await runIn(engine);
  const off = await runIn(engine, { counts: 'off' });
  const r = compareResults(on, off, { margin: 0.05 });
  const by = (v: string) => r.cases.filter((c) => c.verdict === v).length;
  figures.row('counting-aa', { engine, cases: r.cases.length, same: by('same'), unknown: by('unknown'), faster: by('faster'), slower: by('slower') });
  console.log(
    `${engine.padEnd(9)} ${r.cases.length} cases: SAME ${by('same')}, UNKNOWN ${by('unknown')}, FASTER ${by('faster')}, SLOWER ${by('slower')}; counted ${on.cases.filter((c) => c.ops).length} and ${off.cases.filter((c) => c.ops).length}`,
  );
}

// Native beside WebAssembly: the same crates' x86 instructions per message under callgrind.
const NATIVE = process.env.NATIVE !== '0' && spawnSync('valgrind', ['--version']).status === 0;
if (!NATIVE) console.log('\nnative under callgrind: skipped (valgrind is not installed, or NATIVE=0)');
else {
  const algorithms = (process.env.NATIVE_ALGORITHMS ?? 'aes-128-gcm,chacha20-poly1305,ascon-aead128,aegis-128l')
    .split(',')
    .filter((a) => ALGORITHMS.split(',').includes(a));
  const builds = (process.env.NATIVE_BUILDS ?? 'soft,hw').split(',');
  const binaries = Object.fromEntries(builds.map((b) => [b, b === 'soft' ? nativeBuild.soft() : nativeBuild.hw()]));
  const dir = mkdtempSync(join(tmpdir(), 'aeadbench-callgrind-'));
  /** x86 instructions that `messages` messages execute inside bench_native's `measured` (callgrind's total, setup left out). */
  const instructions = (binary: string, c: string, messages: number): number => {
    const out = join(dir, `cg.${messages}.out`);
    const r = spawnSync(
      'valgrind',
      ['--tool=callgrind', '--toggle-collect=*measured*', `--callgrind-out-file=${out}`, binary, '--messages', String(messages), c],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`callgrind ${c}: ${r.stderr.slice(-300)}`);
    return Number(/^totals: (\d+)/m.exec(readFileSync(out, 'utf8'))?.[1]);
  };
  const nodeDoc = docs.find((d) => d.engine === 'node')?.doc ?? docs[0]?.doc;
  const wasmOps = (variant: string, algorithm: string, size: number) =>
    nodeDoc?.cases.find((c) => c.variant === variant && c.algorithm === algorithm && c.sizeBytes === size)?.ops?.perByte;
  const sizes = SIZES.split(',').map((s) => (s.endsWith('k') ? Number(s.slice(0, -1)) * 1024 : Number(s)));
  console.log(
    `\nnative under callgrind (x86 instructions per byte of message, 1–3 messages, linear) beside WebAssembly operations per byte (${nodeDoc ? 'Node' : '–'}'s count); soft: the crates' portable backends forced, as the WASM baseline build runs them; hw: the host's own (AES-NI, AVX2)`,
  );
  console.log(
    `${'algorithm'.padEnd(20)}${'size'.padStart(7)}  ${'WASM baseline'.padStart(13)}  ${'native soft'.padStart(11)}  ${'WASM/soft'.padStart(9)}  ${'WASM simd128'.padStart(12)}  ${'native hw'.padStart(9)}  ${'WASM/hw'.padStart(7)}`,
  );
  for (const algorithm of algorithms) {
    for (const size of sizes) {
      const perByte: Record<string, number | string> = {};
      for (const b of builds) {
        const [one, two, three] = [1, 2, 3].map((n) => instructions(binaries[b]!, `${algorithm}/encrypt/${size}`, n)) as [number, number, number];
        perByte[b] = three - two === two - one ? (two - one) / size : `not linear (${one}, ${two}, ${three})`;
      }
      const cell = (x: number | string | undefined, w: number) => (typeof x === 'number' ? x.toFixed(2) : (x ?? '–')).padStart(w);
      const ratio = (a: number | undefined, b: number | string | undefined) => (a !== undefined && typeof b === 'number' ? (a / b).toFixed(2) : '–');
      const [base, simd] = [wasmOps('baseline', algorithm, size), wasmOps('simd128', algorithm, size)];
      const num = (x: number | string | undefined) => (typeof x === 'number' ? x : null);
      figures.row('native', {
        algorithm,
        sizeBytes: size,
        wasmBaseline: base ?? null,
        nativeSoft: num(perByte.soft),
        wasmSimd128: simd ?? null,
        nativeHw: num(perByte.hw),
      });
      console.log(
        `${algorithm.padEnd(20)}${formatSize(size).padStart(7)}  ${cell(base, 13)}  ${cell(perByte.soft, 11)}  ${ratio(base, perByte.soft).padStart(9)}  ${cell(simd, 12)}  ${cell(perByte.hw, 9)}  ${ratio(simd, perByte.hw).padStart(7)}`,
      );
    }
  }
}
