// A smoke run of every `npm run bench:*` script, at tiny sizes, inside `npm test`: a benchmark
// nobody runs breaks silently (bench:collector once did, for weeks). Each runs the steps of its
// npm script, as its users start it, and must exit 0 and write its figures as a JSON document
// that its schema accepts (lab/bench/measured.ts evidence): which tables, which cells, and the few
// real bounds (counts are exact; a headline leads with what is fastest). The figures themselves
// are not judged here, nor the wording of the tables printed for people: these are seconds-long
// runs on a shared machine; targets live in the benchmarks. So the benchmarks' own commands run two at a time (vitest.bench.config.ts's
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
/** bench:twins' JSON document (lab/bench/bench-twins.ts --json). */
const whole = v.pipe(v.number(), v.integer(), v.minValue(0));
const AaDocument = v.object({
  bench: v.literal('aa'),
  busy: v.boolean(),
  budget: v.string(),
  module: v.string(),
  sessions: v.pipe(
    v.array(
      v.object({
        engine: v.string(),
        run: v.number(),
        // A session exits 0 (all SAME) or 2 (undecided); 1 (SLOWER) is printed, and an error fails the run.
        exit: v.picklist([0, 1, 2]),
        seconds: v.pipe(v.number(), v.minValue(0)),
        comparisons: v.object({ same: whole, unknown: whole, slower: whole, faster: whole }),
        widest: v.nullable(v.pipe(v.number(), v.minValue(0))),
        aa: v.nullable(v.object({ ratio: v.pipe(v.number(), v.minValue(0)), decision })),
        cycleNoise: v.nullable(v.pipe(v.number(), v.minValue(0))),
      }),
    ),
    v.minLength(1),
  ),
});

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
        // The same runs' cycles pooled, every cycle kept and with the descheduled left out (decision 009).
        everyCycle: v.array(decision),
        descheduledOut: v.array(decision),
        leftOut: v.pipe(v.number(), v.integer(), v.minValue(0)),
        paired: v.pipe(v.number(), v.integer(), v.minValue(1)),
        median: v.number(),
      }),
    ),
    v.minLength(1),
  ),
});

const n = v.number();
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const bytes = v.pipe(v.number(), v.integer(), v.minValue(1));
const ratio = v.pipe(v.number(), v.minValue(0));
const maybe = <S extends v.GenericSchema>(s: S) => v.nullable(s);

/**
 * A benchmark's JSON document (lab/bench/measured.ts evidence): `{ bench, rows }`, every row one of
 * `tables` (its cells checked), and every table with at least one row: a table the run should
 * have measured and did not is a failure, whatever the printed text says.
 */
function evidenceDocument(bench: string, tables: Record<string, v.ObjectEntries>) {
  const options = Object.entries(tables).map(([table, entries]) => v.object({ table: v.literal(table), ...entries }));
  return v.pipe(
    v.object({ bench: v.literal(bench), rows: v.array(v.variant('table', options as unknown as v.VariantOptions<'table'>)) }),
    v.check(
      (d) => Object.keys(tables).every((t) => d.rows.some((r) => (r as { table: string }).table === t)),
      `a row of every table (${Object.keys(tables).join(', ')})`,
    ),
  );
}

/**
 * Per benchmark: the environment that makes it tiny, and the schema its JSON document
 * (`--json FILE`) must meet. Never the wording of its tables: those are for people.
 */
const SMOKE: Record<string, { env: Record<string, string>; json: v.GenericSchema }> = {
  'bench:cores': {
    env: { ROUNDS: '1', SAMPLE_MS: '2', SAMPLES: '2', SIZES: '64,1024', ALGORITHMS: 'aes-128-gcm,aegis-128l' },
    json: evidenceDocument('cores', {
      throughput: {
        algorithm: v.picklist(['aes-128-gcm', 'aegis-128l']),
        operation: v.string(),
        sizeBytes: v.picklist([64, 1024]),
        wasmBaseline: ratio,
        wasmSimd128: ratio,
        nativeSoft: ratio,
        nativeHw: ratio,
        spread: ratio,
      },
      'best-wasm-over-native-soft': { min: ratio, median: ratio, max: ratio },
    }),
  },
  'bench:harness': {
    env: { RUNS: '1', SIZES: '16k', BROWSERS: 'chromium', ROUNDS: '1', QUICK: 'preset=quick&sizes=16k&rounds=1&reruns=0&algorithms=aes-128-gcm' },
    json: evidenceDocument('harness', {
      'engine-over-bare': {
        browser: v.literal('chromium'),
        case: v.string(),
        sizeBytes: v.literal(16384),
        engineMbps: ratio,
        bareMbps: ratio,
        ratio,
        engineTotalMbps: ratio,
        bareTotalMbps: ratio,
        totalRatio: ratio,
      },
      'quick-run': { browser: v.string(), cases: v.pipe(count, v.minValue(1)), wallSeconds: ratio, engineSeconds: ratio },
      'quick-run-over-bare': { browser: v.string(), case: v.string(), sizeBytes: bytes, mbps: ratio, ratio, totalMbps: ratio, totalRatio: ratio },
    }),
  },
  'bench:collector': {
    // The attacks of one address, a new cohort's first voices and the sleeper (30 days): the others play as those do.
    env: { DURATION: '1', CONNECTIONS: '2', ROWS: '2000', COHORT_ROWS: '2500', ATTACKS: 'one address,first 8,sleeper' },
    json: evidenceDocument('collector', {
      load: {
        store: v.picklist(['PGlite', 'PostgreSQL']),
        cases: v.picklist([1, 84]),
        submissionsPerSecond: ratio,
        p50Ms: ratio,
        p99Ms: ratio,
        non2xx: count,
        errors: count,
      },
      export: { store: v.string(), rows: count, rowsPerSecond: ratio, healthP50Ms: ratio, healthP99Ms: ratio },
      'body-cpu': {
        store: v.string(),
        body: v.picklist(['largest', 'widest', 'invalid', 'over']),
        bytes,
        cpuMs: ratio,
        databaseMs: maybe(ratio),
        refreshMs: maybe(ratio),
      },
      nginx: { collectors: v.picklist([1, 3]), submissionsPerSecond: ratio, p50Ms: ratio, p99Ms: ratio },
      // The attacks are played whole even in the smoke run: a fake stored is counted, the median is where the crowd stands.
      attack: {
        store: v.string(),
        attack: v.string(),
        fakesStored: count,
        medianOffHonest: maybe(n),
        worstDayOffHonest: maybe(n),
        voices: count,
        honestSent: count,
        moving: v.boolean(),
      },
      statistics: { store: v.string(), rows: v.literal(2000), p50Ms: ratio, p95Ms: ratio },
      reads: { store: v.string(), firstP50Ms: ratio, repeatedP50Ms: ratio, percentileP50Ms: ratio },
      'large-cohort': { store: v.string(), rows: v.literal(2500), refreshMs: ratio, statsMs: ratio, percentileMs: ratio, liveMs: ratio },
      // 1800 distinct reads: every one answered or refused by the live-read budget, none lost to an error.
      'read-flood': {
        store: v.string(),
        answered: count,
        refused: count,
        collectorShare: ratio,
        databaseShare: maybe(ratio),
        healthP50Ms: ratio,
      },
    }),
  },
  'bench:stability': {
    env: {
      RUNS: '2',
      BROWSERS: 'chromium',
      SEARCH:
        'preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm,webcrypto&webcrypto=sequential&operations=encrypt&sizes=1k&rounds=1&reruns=0',
    },
    json: evidenceDocument('stability', {
      spread: {
        browser: v.literal('chromium'),
        comparison: v.string(),
        sizeBytes: v.literal(1024),
        runs: v.literal(2),
        spreadA: ratio,
        spreadB: ratio,
        spreadOfMedians: ratio,
        spreadPaired: maybe(ratio),
        target: ratio,
      },
      flags: { browser: v.string(), cases: v.pipe(count, v.minValue(1)), unstable: count },
    }),
  },
  'bench:tiers': {
    env: { REPS: '1', JS_REPS: '1', JS_SIZES: '64', JS_SUBJECTS: 'noble/aes-128-gcm,sjcl-gcm/aes-128-gcm', STEADY_MS: '300' },
    json: evidenceDocument('tiers', {
      'wasm-tiers': { case: v.string(), tier: v.string(), nsPerOp: ratio, overTurbofan: ratio },
      'js-warmup': {
        case: v.picklist(['noble/aes-128-gcm/64', 'sjcl-gcm/aes-128-gcm/64']),
        rule: v.picklist(['engine', 'long']),
        speedOverSteady: ratio,
        low: ratio,
        high: ratio,
        warmupMs: ratio,
      },
    }),
  },
  'bench:verdict': {
    // The verdict's evidence only: the plain-loop notebook (PLAIN_SIZES, PAIRS) runs by hand.
    env: {
      RUNS: '2',
      BROWSERS: 'chromium',
      PAIRS: '0',
      PLAIN_SIZES: 'none',
      SEARCH: 'preset=quick&sizes=64,1M&rounds=1&reruns=0&algorithms=aes-128-gcm,aes-256-gcm,chacha20-poly1305&operations=encrypt',
    },
    json: evidenceDocument('verdict', {
      claim: { browser: v.literal('chromium'), claim: v.string(), runs: v.literal(2), agree: v.pipe(count, v.minValue(1), v.maxValue(2)), answer: v.string() },
      engine: {
        browser: v.literal('chromium'),
        runs: v.literal(2),
        wallSecondsMedian: ratio,
        claims: v.pipe(count, v.minValue(1)),
        claimsIdentical: count,
        claimsSettled: count,
        headlineAgree: v.pipe(count, v.minValue(1), v.maxValue(2)),
        headlinesAnswered: v.pipe(count, v.maxValue(2)),
        busy: v.boolean(),
        // The headline is the page's first sentence: it always leads with what is fastest.
        headline: v.pipe(v.string(), v.startsWith('Fastest on this device:')),
        shownResolved: count,
        reversed: count,
        firstResolvedSecondsMedian: maybe(ratio),
        flaggedShareMedian: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
        aaSame: v.pipe(count, v.maxValue(2)),
      },
    }),
  },
  'bench:counts': {
    env: { ENGINES: 'node,chromium', SIZES: '64,1k', ALGORITHMS: 'aes-128-gcm,chacha20-poly1305', REPEATS: '1', MODULE_REPEATS: '1', NATIVE_BUILDS: 'hw' },
    json: evidenceDocument('counts', {
      'ops-per-byte': {
        engine: v.picklist(['node', 'chromium']),
        algorithm: v.string(),
        sizeBytes: v.picklist([64, 1024]),
        baseline: ratio,
        simd128: ratio,
        countRatio: ratio,
        timeRatio: maybe(ratio),
      },
      // Counts are exact: the engines agree on every case, and a repeated run counts the same.
      'engines-agree': { engines: v.literal(2), compared: v.pipe(count, v.minValue(1)), disagree: v.literal(0), counted: v.pipe(count, v.minValue(1)) },
      repeat: { engine: v.string(), counted: v.pipe(count, v.minValue(1)), runs: v.literal(1), identical: v.literal(1), exitZero: v.literal(1) },
      'module-work': { engine: v.string(), runs: v.literal(1), moreWork: v.literal(1), sameExitZero: v.literal(1) },
      'counting-aa': { engine: v.literal('node'), cases: v.pipe(count, v.minValue(1)), same: count, unknown: count, faster: count, slower: count },
      native: {
        algorithm: v.string(),
        sizeBytes: bytes,
        wasmBaseline: maybe(ratio),
        nativeSoft: maybe(ratio),
        wasmSimd128: maybe(ratio),
        nativeHw: maybe(ratio),
      },
    }),
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
    json: evidenceDocument('modules', {
      'engine-over-plain-loop': {
        where: v.picklist(['node', 'chromium']),
        module: v.picklist(['noble', 'stablelib-chacha20poly1305']),
        algorithm: v.string(),
        sizeBytes: v.literal(64),
        engineMbps: ratio,
        loopMbps: ratio,
        allCalls: maybe(ratio),
        median: maybe(ratio),
        interleavedOverAlone: maybe(ratio),
        engineOverInterleaved: maybe(ratio),
      },
      'within-repeatability': { where: v.string(), cells: v.pipe(count, v.minValue(1)), run: count, alone: count, turns: count },
      'noble-over-its-harness': { module: v.literal('noble'), algorithm: v.string(), sizeBytes: v.literal(64), run: ratio, alone: ratio },
    }),
  },
  'bench:ab': {
    env: { RUNS: '1', BROWSERS: 'chromium', BUDGET: '8', SIZES: '16k', ONLY: 'same,10', LOAD: 'loaded' },
    json: evidenceDocument('ab', {
      decisions: {
        browser: v.literal('chromium'),
        load: v.literal('loaded'),
        scenario: v.picklist(['same code', '10 % slower']),
        margin: ratio,
        case: v.string(),
        sessions: v.literal(1),
        slower: count,
        same: count,
        unknown: count,
        faster: count,
        medianRatio: maybe(ratio),
        tMean: maybe(n),
        tVariance: maybe(ratio),
      },
    }),
  },
  'bench:peers': {
    env: { SIZES: '64', ROUNDS: '1' },
    json: evidenceDocument('peers', {
      'versus-libsodium': {
        algorithm: v.string(),
        operation: v.string(),
        sizeBytes: v.literal(64),
        implementation: v.picklist(['rustcrypto-wasm', 'libaegis-wasm']),
        variant: v.string(),
        bytesPerSecond: ratio,
        libsodiumBytesPerSecond: ratio,
        ratio: maybe(ratio),
        low: maybe(ratio),
        high: maybe(ratio),
      },
    }),
  },
  // One build at one size: every case traced, Twofish's S-box loads found (a leak the check must see).
  'bench:ct': {
    env: { VARIANTS: 'simd128', SIZES: '64' },
    json: v.pipe(
      evidenceDocument('ct', {
        case: {
          build: v.literal('simd128'),
          algorithm: v.string(),
          sizeBytes: v.literal(64),
          operation: v.picklist(['encrypt', 'decrypt', 'forged']),
          answer: v.picklist(['constant-time', 'secret-dependent', 'unsteady']),
          // K classes for encrypt and decrypt; two forgeries (wrong in the tag's first byte, and in its last) for a forged tag.
          classes: v.picklist([2, 4]),
          events: v.pipe(count, v.minValue(1)),
          site: maybe(v.string()),
          checkMs: ratio,
          callMs: ratio,
        },
        summary: { cases: v.pipe(count, v.minValue(10)), notConstantTime: count },
      }),
      v.check(
        (d) =>
          d.rows.some(
            (r) => (r as { algorithm?: string; answer?: string }).algorithm === 'twofish-128-gcm' && (r as { answer?: string }).answer === 'secret-dependent',
          ),
        'Twofish-128-GCM read secret-dependent',
      ),
    ),
  },
  // Node and Chromium, one run at one size: every pair of the engine measured, in a valid document.
  'bench:twins': { env: { RUNS: '1', ENGINES: 'node,chromium', SIZES: '1k', BUDGET: '4s' }, json: TwinsDocument },
  // One Node session at one size: its exit code, outcomes, widest interval and A/A in a valid document.
  'bench:aa': { env: { RUNS: '1', ENGINES: 'node', SIZES: '1k', ALGORITHMS: 'aes-128-gcm', BUDGET: '5s' }, json: AaDocument },
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
    for (const s of scripts) expect(steps(s).at(-1), s).toMatch(/^tsx lab\/bench\/bench-[a-z]+\.ts$/);
  });

  for (const name of scripts.filter((s) => SMOKE[s])) {
    it.concurrent(
      `${name} smoke run: exits 0 and writes a document its schema accepts`,
      async ({ expect }) => {
        const { env, json } = SMOKE[name]!;
        const file = join(mkdtempSync(join(tmpdir(), 'bench-smoke-')), 'out.json');
        const r = await run(`${steps(name).at(-1)!} --json ${file}`, env);
        const out = `${r.stdout}\n${r.stderr}`;
        expect(r.status, `${name} exited ${r.status} (${r.signal ?? 'no signal'}):\n${out.slice(-4000)}`).toBe(0);
        const checked = v.safeParse(json, JSON.parse(readFileSync(file, 'utf8')));
        expect(
          checked.success
            ? []
            : checked.issues.slice(0, 10).map((i) => `${v.getDotPath(i) ?? ''}: ${i.message} (got ${JSON.stringify(i.input)?.slice(0, 200)})`),
        ).toEqual([]);
        // The figures, in the log of npm test: a smoke run is read as well as counted.
        console.log(`${name} smoke run:\n${r.stdout.trim().split('\n').slice(-25).join('\n')}`);
      },
      660_000,
    );
  }
});
