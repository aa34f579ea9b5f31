// One process of `npm run bench:cores` (and of bench:tiers): the in-WASM bench loops of one
// built variant, sampled by the engine's one sampling loop (web/core/worker/measure.ts: calibrated
// batches, warm-up until three batches agree). Same output as wasm/examples/bench_native.rs.
//   node --import tsx [--no-liftoff|--liftoff-only] lab/bench/bench-cores-node.ts VARIANT SAMPLE_MS SAMPLES ALG/OP/SIZE...
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { measureCase, timerResolutionMs } from '../../web/core/worker/measure.ts';

const [variant, sampleMsArg, samplesArg, ...cases] = process.argv.slice(2) as [string, string, string, ...string[]];
const sampleMs = Number(sampleMsArg);
const samples = Number(samplesArg);
// A variant name (baseline, simd128) or a directory holding another build (experiments).
const dir = variant.includes('/') ? pathToFileURL(`${variant.replace(/\/$/, '')}/`) : new URL(`../../web/core/wasm/${variant}/`, import.meta.url);
const cores = await import(new URL('cores.js', dir).href);
cores.initSync({ module: readFileSync(new URL('cores_bg.wasm', dir)) });
console.log(cores.buildInfo());
const resolution = timerResolutionMs();
for (const c of cases) {
  const [alg, op, size] = c.split('/');
  const bench = new cores.Bench(alg, op, Number(size), 0);
  const m = await measureCase(
    { run: (n: number) => void bench.run(n), stateBytes: null, dispose: () => bench.free() },
    { samples, minSampleMs: sampleMs, timerResolutionMs: resolution },
  );
  bench.free();
  console.log(JSON.stringify({ case: c, nsPerOp: m.samples.map((x) => Number(x.toFixed(3))), warmupMs: Number(m.warmupMs.toFixed(1)) }));
}
