// A smoke run of every `npm run bench:*` script, at tiny sizes, inside `npm test`: a benchmark
// nobody runs breaks silently (bench:collector once did, for weeks). Each runs the steps of its
// npm script, as its users start it, and must exit 0 and print its figures. The figures
// themselves are not judged here: these are seconds-long runs on a shared machine; targets live
// in the benchmarks. So the benchmarks' own commands run two at a time (vitest.bench.config.ts's
// maxConcurrency), after the build steps the scripts share (setup, build-wasm, vite build) have
// run once, in order: two `vite build`s at once would empty dist/ under a benchmark serving it.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';

const SCRIPTS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const scripts = Object.keys(SCRIPTS).filter((s) => s.startsWith('bench:'));
/** A script's steps: the build steps before its last `&&`, and its own command after it. */
const steps = (name: string) => SCRIPTS[name]!.split(' && ');
/** Without vitest's NODE_ENV=test: under it `vite build` makes Svelte's development build (84 kB of initial JavaScript for 77). */
const { NODE_ENV: _, ...outside } = process.env;
/** As `npm run` does: the package's binaries first on the PATH. */
const PATH = `${resolve('node_modules/.bin')}${delimiter}${process.env.PATH}`;

function run(command: string, env: Record<string, string>): Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', command], { env: { ...outside, PATH, ...env }, timeout: 600_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status, signal) => done({ status, signal, stdout, stderr }));
  });
}

const decision = v.picklist(['same', 'unknown', 'different']);
/** bench:twins' JSON document (scripts/bench-twins.ts --json). */
const TwinsDocument = v.object({
  bench: v.literal('twins'),
  busy: v.boolean(),
  margin: v.number(),
  runs: v.array(v.object({ engine: v.string(), run: v.number(), seconds: v.pipe(v.number(), v.minValue(0)), aa: v.nullable(decision) })),
  cells: v.pipe(
    v.array(
      v.object({
        engine: v.string(),
        builtIn: v.string(),
        sizeBytes: v.pipe(v.number(), v.integer(), v.minValue(1)),
        ratios: v.pipe(v.array(v.pipe(v.number(), v.minValue(0))), v.minLength(1)),
        decisions: v.array(decision),
        median: v.number(),
      }),
    ),
    v.minLength(1),
  ),
});

/**
 * Per benchmark: the environment that makes it tiny, and what its output must contain; or, for a
 * benchmark that writes a JSON document (`--json FILE`), the schema that document must meet.
 */
const SMOKE: Record<string, { env: Record<string, string>; prints: RegExp[]; json?: v.GenericSchema }> = {
  'bench:cores': {
    env: { ROUNDS: '1', SAMPLE_MS: '2', SAMPLES: '2', SIZES: '64,1024', ALGORITHMS: 'aes-128-gcm,aegis-128l' },
    prints: [/bench:cores — MB\/s/, /aes-128-gcm\s+encrypt\s+64 B\s+\d/, /best WASM build \/ native soft: min \d/],
  },
  'bench:harness': {
    env: { RUNS: '1', SIZES: '16k', BROWSERS: 'chromium', ROUNDS: '1', QUICK: 'preset=quick&sizes=16k&rounds=1&reruns=0&algorithms=aes-128-gcm' },
    prints: [
      /bench:harness/,
      /engine\/bare/,
      /WASM AES-128-GCM 16 KiB\s+\d/,
      /Web Crypto AES-128-GCM \(sequential\) 16 KiB\s+\d/,
      /own Web Crypto AES-128-GCM \(sequential\) 16 KiB: median \d+\.\d MB\/s, engine\/bare \d\.\d{3}; all calls \d+\.\d MB\/s, engine\/bare \d\.\d{3}/,
    ],
  },
  'bench:collector': {
    env: { DURATION: '1', CONNECTIONS: '2', ROWS: '2000', COHORT_ROWS: '2500' },
    prints: [
      /PGlite\s+1 case\(s\)\/submission:\s+\d+ submissions\/s/,
      /PostgreSQL\s+84 case\(s\)\/submission:\s+\d+ submissions\/s/,
      /PGlite\s+largest accepted submission .* \d+ CPU ms/,
      /PostgreSQL\s+largest accepted submission .* \d+ CPU ms/,
      /PGlite\s+invalid body at the limit .* \d+ CPU ms of the collector's at once/,
      /PostgreSQL\s+invalid body over the limit .* \d+ CPU ms of the collector's at once \+ \d+ of the database's/,
      /PostgreSQL\s+widest accepted body .* \d+ CPU ms of the collector's at once \+ \d+ of the database's; its cohorts' refresh \d+ \+ \d+ of the database's; \d+ CPU ms all told/,
      /one address, 3 a day for 30 days\s+fakes stored\s+90\s+median [\d.]+ MB\/s \(-?[\d.]+ % from the honest\)/,
      /30 \/16s, one each in a day\s+fakes stored\s+30/,
      /a new cohort's first 8, identical\s+fakes stored\s+8 .* voices \d+ \(honest sent 24\)/,
      /a split burst, 8 a day at 1.3×\s+fakes stored\s+24 .* review: (moving|steady)/,
      /statistics over 2000 case rows/,
      /PostgreSQL\s+1800 distinct filtered \/stats from 3 networks on a 2500-row cohort, for \d+ s: .* answered \d+, refused \d+ \(live-read budget\); \/health p50 [\d.]+ ms/,
      /PostgreSQL\s+\/stats through the app: first read of a cohort p50 [\d.]+ ms; repeated p50 [\d.]+ ms/,
      /PostgreSQL\s+one cohort of 2500 rows: refreshed in \d+ ms .* a first \/stats p50 [\d.]+ ms/,
    ],
  },
  'bench:stability': {
    env: {
      RUNS: '2',
      BROWSERS: 'chromium',
      SEARCH:
        'preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm,webcrypto&webcrypto=sequential&operations=encrypt&sizes=1k&rounds=1&reruns=0',
    },
    prints: [/WASM AES-128-GCM vs Web Crypto AES-128-GCM\s+1024/, /flags: \d+ of \d+ cases unstable/],
  },
  'bench:tiers': {
    env: { REPS: '1', JS_REPS: '1', JS_SIZES: '64', JS_SUBJECTS: 'noble/aes-128-gcm,sjcl-gcm/aes-128-gcm', STEADY_MS: '300' },
    prints: [/Node aes-128-gcm\/encrypt\/16384/, /Chromium aes-128-gcm\/encrypt\/16384/, /sjcl-gcm\/aes-128-gcm\/64\s+\d\.\d\d \[/, /below 0\.95: .* of 2/],
  },
  'bench:verdict': {
    env: {
      RUNS: '2',
      BROWSERS: 'chromium',
      PAIRS: '2',
      SEARCH: 'preset=quick&sizes=64,1M&rounds=1&reruns=0&algorithms=aes-128-gcm,aes-256-gcm,chacha20-poly1305&operations=encrypt',
    },
    prints: [
      /claim fastest\/small\s+\d\/2 agree/,
      /claims identical in every run: \d+ of \d+/,
      /headline identical in \d of 2 runs: "Fastest on this device:/,
      /claims with one SAME or DIFFERENT answer in at least 90 % of runs: \d+ of \d+/,
      /claims shown resolved, then reversed in the same run: \d+ of \d+ shown in 2 runs/,
      /first claim shown resolved after Start: (median \d+\.\d s \(|never).*; within 5 s in \d of 2 runs/,
      /flags by implementation and size, over 2 runs: (none|[a-z-]+ \d+ (B|KiB|MiB) \d+)/,
      /A\/A check .*: \d\/2 SAME/,
      /AES-128-GCM \/ AES-256-GCM time at 1 MiB/,
      /Web Crypto AES-128-GCM, all calls, over a plain await loop timed right after each run: 1 MiB median \d\.\d{3} \(/,
      /the same against the plain loop's repeatability \(timed twice after each run\):\n\s+1 MiB: ref A\/A ±[\d.]+ %; bias [\d.]+× \(unresolved within [\d.]+–[\d.]+×\), spread [\d.]+ % \(limit [\d.]+ %\): (within repeatability|NOT within)/,
      /the plain loop's first timing of each size in that browser \(a settle, not the reference\), over the reference: 1 MiB \d\.\d{3} \([\d.–]+\), ref A\/A ±/,
      /the plain await loop in the run's shape, over the plain loop timed just before it:\n\s+1 MiB: the run's batches back to back \d\.\d{3} \([\d.–]+\); each after the other cases' turn \(median (?!0\.0 ms)[\d.]+ ms\) \d\.\d{3} \([\d.–]+\), (ref A\/A|too few).*; ours over the latter \d\.\d{3} \([\d.–]+\); each after the turn and 1 untimed call \d\.\d{3} \(.*; the same with the turn spent encrypting in WebAssembly \d\.\d{3} \(/,
      /the same, side by side \(the engine with that case alone, then the plain loop, 2 pairs\): 1 MiB \d\.\d{3} \(\d\.\d{3}, \d\.\d{3}\)/,
      /the plain loop in the engine's shape, in the same pairs, over the plain loop \(the engine's batch, each after a turn of the event loop and 1 untimed call, or back to back\):\n\s+1 MiB \(\d+ calls\): each after a turn \d\.\d{3} \(\d\.\d{3}, \d\.\d{3}\), back to back \d\.\d{3} \(.*\); the engine over the former \d\.\d{3} \(/,
      /the plain loop against itself, measured twice in a row: 1 MiB \d\.\d{3}/,
      /the plain loop call by call, µs, each batch after 35 ms of other work \(first call, second, third and fourth, the rest\): 1 MiB \d+ \/ \d+ \/ \d+ \/ \d+/,
    ],
  },
  'bench:counts': {
    env: { ENGINES: 'node,chromium', SIZES: '64,1k', ALGORITHMS: 'aes-128-gcm,chacha20-poly1305', REPEATS: '1', MODULE_REPEATS: '1', NATIVE_BUILDS: 'hw' },
    prints: [
      /bench:counts/,
      /chacha20-poly1305\s+1 KiB\s+\d+\.\d\d\s+\d+\.\d\d\s+\d\.\d{3}\s+(\d\.\d{3} \[|not paired)/,
      /engines agree: (\d+) of \1 cases counted in 2 engines/,
      /chromium\s+\d+ counted cases: identical in 1 of 1 runs; compare --metric ops --threshold 0 against the first run exits 0 in 1 of 1/,
      /node\s+one more block a message: MORE WORK in 1 of 1 runs \(\+1\.\d{3} %\); the same file as base and head: \+0\.000 % and exit 0 in 1 of 1/,
      /chromium\s+one more block a message: MORE WORK in 1 of 1 runs/,
      /node\s+\d+ cases: SAME \d+, UNKNOWN \d+, FASTER \d+, SLOWER \d+; counted \d+ and 0/,
      /chacha20-poly1305\s+1 KiB\s+\d+\.\d\d\s+–\s+–\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d/,
    ],
  },
  'bench:modules': {
    // The evidence only: the notebooks (a caller's heap, the neighbours, idle turns, pauses) run by hand, never here.
    env: {
      RUNS: '1',
      SIZES: '64',
      LOOP_MS: '50',
      HARNESS_S: '0.1',
      ONLY: 'noble,stablelib-chacha20poly1305',
      BROWSERS: 'chromium',
      LIVE_MB: 'none',
      NEIGHBOUR_SIZES: 'none',
      IDLE_SIZES: 'none',
      PAUSES: 'none',
      PAUSE_KIB: 'none',
    },
    prints: [
      /bench:modules — Node [^\n]*every case in the measuring thread/,
      // The loop taking turns takes them as the run does, size by size and a case a turn, in one worker, as the engine holds the cases.
      /interleaved = the plain loop with every case taking turns as the run's do, size by size, one case a turn, [^\n]*in one worker/,
      /noble\s+aes-128-gcm\s+64 B\s+[\d.]+\s+[\d.]+\s+[\d.]+ \[/,
      /stablelib-chacha20poly1305\s+chacha20-poly1305\s+64 B/,
      /bench:modules — Chrom\S+ [\d.]+ \(chromium\)[^\n]*\n[\s\S]*stablelib-chacha20poly1305\s+chacha20-poly1305\s+64 B\s+[\d.]+\s+[\d.]+(\s+[\d.]+ \[[\d.]+–[\d.]+\]){8}/,
      /noble\s+aes-128-gcm\s+64 B\s+in the run: too few runs to judge/,
      /within repeatability: the engine's run 0 of \d+ cells; the engine alone 0 of \d+; the run over the loop taking turns 0 of \d+/,
      /of the 0 cells whose run is not within against the loop alone, 0 are within against the loop taking turns/,
      /noble\s+aes-128-gcm\s+64 B\s+in the run: too few runs[^\n]*\n[^\n]*alone: [^\n]*\n\s+the run over the loop taking turns: too few runs/,
      // Three decimals on the medians held against 0.95.
      /noble\s+chacha20-poly1305\s+64 B\s+in the run\s+\d\.\d{3} \[[\d.]+–[\d.]+\]\s+alone\s+\d\.\d{3} \[/,
      /cells whose run median is ≥ 0\.95 of the harness: \d of 2; alone: \d of 2/,
      // Node's plain loops measure the collector's pauses in their timed time; the browser's cannot.
      /the collector's pauses in the plain loop's timed time[^\n]*\n[^\n]*\n(?:[^\n]*\n)*noble\s+aes-128-gcm\s+64 B\s+\d+\.\d %\s+\d+\.\d %\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+[\d.]+ \[[\d.]+–[\d.]+\]/,
      /of the \d cells whose loop taking turns reads below 0\.95 of the loop alone, \d read 0\.95 or more with the collector's pauses left out/,
    ],
  },
  'bench:ab': {
    env: { RUNS: '1', BROWSERS: 'chromium', BUDGET: '8', SIZES: '16k', ONLY: 'same,10', LOAD: 'loaded' },
    prints: [
      /bench:ab —/,
      /chromium\s+loaded\s+same code\s+margin ±5 % aes-128-gcm · encrypt · 16 KiB: 1 sessions — SLOWER \d[^\n]*; sessions' t: mean (-?\d+\.\d\d|–), variance/,
      /chromium\s+loaded\s+10 % slower\s+margin ±5 % aes-128-gcm · encrypt · 16 KiB: 1 sessions/,
    ],
  },
  'bench:peers': { env: { SIZES: '64', ROUNDS: '1' }, prints: [/bench:peers —/, /chacha20-poly1305\s+encrypt\s+64 B\s+rustcrypto-wasm/] },
  // Node and Chromium, one run at one size: every pair of the engine measured, in a valid document.
  'bench:twins': { env: { RUNS: '1', ENGINES: 'node,chromium', SIZES: '1k', BUDGET: '4s' }, prints: [], json: TwinsDocument },
};

describe('benchmarks', () => {
  beforeAll(() => {
    // The shared build steps, each once, in the order the scripts give them.
    const shared = [...new Set(scripts.flatMap((s) => steps(s).slice(0, -1)))];
    for (const step of shared) {
      const r = spawnSync('bash', ['-c', step], { encoding: 'utf8', env: { ...outside, PATH }, timeout: 600_000, maxBuffer: 64 << 20 });
      expect(r.status, `'${step}' exited ${r.status}:\n${r.stdout}\n${r.stderr}`.slice(-4000)).toBe(0);
    }
  }, 1_200_000);

  it('every bench:* script has a smoke run here, and ends in its own command', () => {
    expect(scripts.filter((s) => !SMOKE[s])).toEqual([]);
    for (const s of scripts) expect(steps(s).at(-1), s).toMatch(/^tsx scripts\/bench-[a-z]+\.ts$/);
  });

  for (const name of scripts.filter((s) => SMOKE[s])) {
    it.concurrent(
      `${name} smoke run: exits 0 and prints its figures`,
      async ({ expect }) => {
        const { env, prints, json } = SMOKE[name]!;
        const file = json ? join(mkdtempSync(join(tmpdir(), 'bench-smoke-')), 'out.json') : null;
        const r = await run(`${steps(name).at(-1)!}${file ? ` --json ${file}` : ''}`, env);
        const out = `${r.stdout}\n${r.stderr}`;
        expect(r.status, `${name} exited ${r.status} (${r.signal ?? 'no signal'}):\n${out.slice(-4000)}`).toBe(0);
        for (const p of prints) expect(out, `${name} did not print ${p}`).toMatch(p);
        if (json && file) {
          const checked = v.safeParse(json, JSON.parse(readFileSync(file, 'utf8')));
          expect(checked.success ? [] : checked.issues.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`)).toEqual([]);
        }
        // The figures, in the log of npm test: a smoke run is read as well as counted.
        console.log(`${name} smoke run:\n${r.stdout.trim().split('\n').slice(-25).join('\n')}`);
      },
      660_000,
    );
  }
});
