// One process of `npm run bench:cores`: the in-WASM bench loops of one built variant, timed
// around single JS calls. Same protocol and output as wasm/examples/bench_native.rs.
//   node --no-liftoff scripts/bench-cores-node.mjs VARIANT SAMPLE_MS SAMPLES ALG/OP/SIZE...
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [variant, sampleMsArg, samplesArg, ...cases] = process.argv.slice(2);
const sampleMs = Number(sampleMsArg);
const samples = Number(samplesArg);
// A variant name (baseline, simd128) or a directory holding another build (experiments).
const dir = variant.includes('/') ? pathToFileURL(`${variant.replace(/\/$/, '')}/`) : new URL(`../web/core/wasm/${variant}/`, import.meta.url);
const cores = await import(new URL('cores.js', dir).href);
cores.initSync({ module: readFileSync(new URL('cores_bg.wasm', dir)) });
console.log(cores.buildInfo());
for (const c of cases) {
  const [alg, op, size] = c.split('/');
  const bench = new cores.Bench(alg, op, Number(size), 0);
  let iterations = 1;
  for (;;) {
    const t = performance.now();
    bench.run(iterations);
    const ms = performance.now() - t;
    if (ms >= sampleMs / 4) {
      iterations = Math.max(1, Math.ceil((iterations * sampleMs) / ms));
      break;
    }
    iterations *= 2;
  }
  const nsPerOp = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    bench.run(iterations);
    nsPerOp.push(Number((((performance.now() - t) * 1e6) / iterations).toFixed(3)));
  }
  bench.free();
  console.log(JSON.stringify({ case: c, nsPerOp }));
}
