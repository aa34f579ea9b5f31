/**
 * `npm run bench:tiers`: is what the engine times the optimised code? V8 compiles WASM with
 * Liftoff first and TurboFan in the background; a warm-up that stopped on a slow tier would
 * time Liftoff. This runs the same WASM cases with V8's default tiering, with TurboFan only
 * (--no-liftoff) and with Liftoff only (--liftoff-only), in Node (scripts/bench-cores-node.ts,
 * the engine's measureCase) and in Chromium (the site, --js-flags), alternating, several
 * times, and prints each median and its ratio to TurboFan only. Default ≈ 1 means the engine's
 * warm-up reached the optimised tier; Liftoff only shows how far off a slow tier would be.
 *   REPS=3 npm run bench:tiers
 */
import { spawnSync } from 'node:child_process';
import { runInBrowser } from '../cli/browser-run.ts';
import { median } from '../web/core/stats.ts';
import { recordPage } from './measured.ts';

recordPage('tiers', {
  title: "Does the engine time V8's optimised tier?",
  about: 'The same WASM cases under default tiering, TurboFan only and Liftoff only, in Node and Chromium.',
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
    const r = spawnSync(process.execPath, ['--import', 'tsx', ...flags, 'scripts/bench-cores-node.ts', 'simd128', '20', '9', ...CASES], { encoding: 'utf8' });
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

console.log(`\nbench:tiers — median ns per operation over ${REPS} alternating runs each, and the ratio to TurboFan only (1.00 = as fast)`);
for (const [key, tiers] of Object.entries(results)) {
  const turbofan = median(tiers[TIERS[1][0]]!);
  console.log(`${key}`);
  for (const [tier] of TIERS) {
    const m = median(tiers[tier]!);
    console.log(`  ${tier.padEnd(32)} ${(m / 1e3).toFixed(1).padStart(9)} µs   time ratio to TurboFan only ${(m / turbofan).toFixed(2)}`);
  }
}
