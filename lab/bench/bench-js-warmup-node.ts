// One process of bench:tiers' JavaScript table: a JavaScript case in a fresh isolate, warmed up
// and sampled by the engine's sampling loop (web/core/worker/measure.ts, as a run's first round
// does), then run on for STEADY_MS of calls and sampled again on the same batch: the code's speed
// once its engine has long finished compiling it. `engine` warms up by the engine's rule (at
// least 50 ms, until three batches agree within 3 %); `long` for at least LONG_MS by that rule.
//   node --import tsx lab/bench/bench-js-warmup-node.ts engine|long SAMPLES STEADY_MS LONG_MS SUBJECT/ALG/SIZE
// SUBJECT: noble, or a folder of examples/modules. Prints one JSON line.
import { measureInterleaved, timerResolutionMs } from '../../web/core/worker/measure.ts';
import { noble } from '../../web/core/implementations/noble/backend.ts';
import { customBackend } from '../../web/core/implementations/contract.ts';
import type { AlgorithmId } from '../../web/core/tables/algorithms.ts';
import type { CaseSpec } from '../../web/core/implementations/shared.ts';

const [rule, samplesArg, steadyArg, longArg, c] = process.argv.slice(2) as [string, string, string, string, string];
if (rule !== 'engine' && rule !== 'long') throw new Error(`rule ${JSON.stringify(rule)}: expected engine or long`);
const [subject, alg, size] = c.split('/') as [string, AlgorithmId, string];
const backend =
  subject === 'noble' ? noble() : customBackend((await import(new URL(`../../examples/modules/${subject}/index.mjs`, import.meta.url).href)).default);
const spec: CaseSpec = { algorithm: alg, operation: 'encrypt', sizeBytes: Number(size), aadBytes: 0 };
const prepared = await backend.prepare(spec);
// Both settle before each sample, as a run's JavaScript does; only the warm-up's floor differs.
const o = { samples: Number(samplesArg), minSampleMs: 2, timerResolutionMs: timerResolutionMs(), settleFor: () => true };
const t0 = performance.now();
const [first] = await measureInterleaved([prepared], { ...o, ...(rule === 'long' && { warmupMinMs: Number(longArg) }) });
// On and on, as a caller's loop runs, then the same batch sampled again with no warm-up of its own.
while (performance.now() - t0 < Number(steadyArg)) await prepared.run(first!.iterations);
const [steady] = await measureInterleaved([prepared], { ...o, iterations: first!.iterations, warmupMinMs: 0, warmupMaxMs: 0 });
prepared.dispose();
console.log(JSON.stringify({ case: c, rule, warmupMs: first!.warmupMs, first: first!.samples, steady: steady!.samples }));
