/**
 * `npm run bench:tiers`: is what the engine times the optimised code? V8 compiles WASM with
 * Liftoff first and TurboFan in the background; a warm-up that stopped on a slow tier would
 * time Liftoff. This runs the same WASM cases with V8's default tiering, with TurboFan only
 * (--no-liftoff) and with Liftoff only (--liftoff-only), in Node (lab/bench/bench-cores-node.ts,
 * the engine's measureCase) and in Chromium (the site, --js-flags), alternating, several
 * times, and prints each median and its ratio to TurboFan only. Default ≈ 1 means the engine's
 * warm-up reached the optimised tier; Liftoff only shows how far off a slow tier would be.
 * And JavaScript, in Node: noble and the example modules at 64 B and 1 KiB, each in a fresh
 * process, sampled as a run's first round samples them right after the engine's warm-up
 * (lab/bench/bench-js-warmup-node.ts), over the same code's samples after STEADY_MS of calls;
 * with the engine's warm-up (measure.ts warmUp: at least 50 ms, until three batches agree) and
 * with the same rule held for at least LONG_MS, alternating, JS_REPS times: does a longer
 * warm-up change what a run's JavaScript reads?
 *   REPS=3 JS_REPS=5 npm run bench:tiers
 */
import { spawnSync } from 'node:child_process';
import { runInBrowser } from '../../cli/browser-run.ts';
import { median } from '../../web/core/stats.ts';
import { evidence, listEnv, recordPage } from './measured.ts';

recordPage('tiers', {
  title: "Does the engine time V8's optimised tier?",
  about:
    'The same WASM cases under default tiering, TurboFan only and Liftoff only, in Node and Chromium; and JavaScript right after the warm-up over the same code seconds later, in Node.',
});

const REPS = Number(process.env.REPS ?? 3);
const CASES = ['aes-128-gcm/encrypt/16384', 'chacha20-poly1305/encrypt/16384'];
const TIERS = [
  ['default tiering', []],
  ['TurboFan only (--no-liftoff)', ['--no-liftoff']],
  ['Liftoff only (--liftoff-only)', ['--liftoff-only']],
] as const;

const results: Record<string, Record<string, number[]>> = {};
const add = (where: string, tier: string, c: string, ns: number) => ((results[`${where} ${c}`] ??= {})[tier] ??= []).push(ns);

for (let rep = 0; rep < REPS; rep++) {
  for (const [tier, flags] of rep % 2 ? [...TIERS].reverse() : TIERS) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', ...flags, 'lab/bench/bench-cores-node.ts', 'simd128', '20', '9', ...CASES], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node ${flags.join(' ')} failed: ${r.stderr}`);
    for (const line of r.stdout.split('\n').filter((l) => l.startsWith('{"case"'))) {
      const { case: c, nsPerOp } = JSON.parse(line) as { case: string; nsPerOp: number[] };
      add('Node', tier, c, median(nsPerOp));
    }
    const doc = await runInBrowser({
      browser: 'chromium',
      search: 'preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm&sizes=16k&operations=encrypt&rounds=1&reruns=0',
      browserArgs: flags.length ? [`--js-flags=${flags.join(' ')}`] : [],
    });
    for (const c of doc.cases) add('Chromium', tier, `${c.algorithm}/${c.operation}/${c.sizeBytes}`, c.summary.median);
    process.stderr.write(`rep ${rep + 1}/${REPS}: ${tier} done\n`);
  }
}

const figures = evidence('tiers');
console.log(`\nbench:tiers — median ns per operation over ${REPS} alternating runs each, and the ratio to TurboFan only (1.00 = as fast)`);
for (const [key, tiers] of Object.entries(results)) {
  const turbofan = median(tiers[TIERS[1][0]]!);
  console.log(`${key}`);
  for (const [tier] of TIERS) {
    const m = median(tiers[tier]!);
    figures.row('wasm-tiers', { case: key, tier, nsPerOp: m, overTurbofan: m / turbofan });
    console.log(`  ${tier.padEnd(32)} ${(m / 1e3).toFixed(1).padStart(9)} µs   time ratio to TurboFan only ${(m / turbofan).toFixed(2)}`);
  }
}

/**
 * JavaScript's tiers are not flags one can pin (Sparkplug, Maglev, TurboFan, each a plateau), so
 * the reference is the same code later: each case in a fresh process, its first round's samples
 * over its samples after STEADY_MS of calls (speed ratio: 1.00 = as fast as it runs by then).
 */
const JS_REPS = Number(process.env.JS_REPS ?? 5);
const JS_SAMPLES = Number(process.env.JS_SAMPLES ?? 20);
const STEADY_MS = Number(process.env.STEADY_MS ?? 2000);
const JS_SIZES = listEnv('JS_SIZES', '64,1024');
const JS_SUBJECTS = listEnv(
  'JS_SUBJECTS',
  'noble/aes-128-gcm,noble/chacha20-poly1305,node-forge-gcm/aes-128-gcm,sjcl-gcm/aes-128-gcm,asmcrypto-gcm/aes-128-gcm,stablelib-chacha20poly1305/chacha20-poly1305',
);
const LONG_MS = Number(process.env.LONG_MS ?? 500);
const RULES = [
  ['engine', "the engine's warm-up"],
  ['long', `at least ${LONG_MS} ms`],
] as const;
const js: Record<string, Record<string, { ratio: number[]; warmupMs: number[] }>> = {};
for (let rep = 0; rep < JS_REPS; rep++)
  for (const subject of JS_SUBJECTS)
    for (const size of JS_SIZES)
      for (const [rule] of rep % 2 ? [...RULES].reverse() : RULES) {
        const c = `${subject}/${size}`;
        const r = spawnSync(
          process.execPath,
          ['--import', 'tsx', 'lab/bench/bench-js-warmup-node.ts', rule, String(JS_SAMPLES), String(STEADY_MS), String(LONG_MS), c],
          {
            encoding: 'utf8',
          },
        );
        if (r.status !== 0) throw new Error(`${c} (${rule}) failed: ${r.stderr}`);
        const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { warmupMs: number; first: number[]; steady: number[] };
        const cell = ((js[c] ??= {})[rule] ??= { ratio: [], warmupMs: [] });
        // ns per call: the steady median over the first round's is its speed over the steady speed.
        cell.ratio.push(median(out.steady) / median(out.first));
        cell.warmupMs.push(out.warmupMs);
      }
if (JS_REPS > 0) {
  console.log(
    `\nbench:tiers — JavaScript in Node: the first round's median sample right after the warm-up (${JS_SAMPLES} samples of 2 ms, each after a turn of its own), as speed over the same code's after ${STEADY_MS / 1000} s of calls (1.00 = as fast), median [range] of ${JS_REPS} fresh processes a rule, alternating; warm-up ms median`,
  );
  console.log(`${'case'.padEnd(52)}${RULES.map(([, label]) => label.padStart(42)).join('')}`);
  for (const [c, rules] of Object.entries(js)) {
    const cells = RULES.map(([rule]) => {
      const { ratio, warmupMs } = rules[rule]!;
      figures.row('js-warmup', {
        case: c,
        rule,
        speedOverSteady: median(ratio),
        low: Math.min(...ratio),
        high: Math.max(...ratio),
        warmupMs: median(warmupMs),
      });
      return `${median(ratio).toFixed(2)} [${Math.min(...ratio).toFixed(2)}–${Math.max(...ratio).toFixed(2)}] ${median(warmupMs).toFixed(0).padStart(5)} ms`.padStart(
        42,
      );
    });
    console.log(`${c.padEnd(52)}${cells.join('')}`);
  }
  const cells = Object.values(js);
  const below = (rule: string) => cells.filter((rules) => median(rules[rule]!.ratio) < 0.95).length;
  console.log(`cells whose median reads below 0.95: ${RULES.map(([rule, label]) => `${label} ${below(rule)} of ${cells.length}`).join('; ')}`);
}
