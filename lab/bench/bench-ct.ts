/**
 * bench:ct — constant time, checked (web/core/ct.ts): every case of the WASM cores (RustCrypto's
 * two builds and libaegis's) traced over K secret classes in Node: per build, algorithm and size,
 * the answer for encrypt, decrypt and a forged tag's decrypt (one wrong in its first byte against
 * one wrong in its last), the events traced, and what the check costs beside one untraced call.
 *   npm run bench:ct [-- --write] [-- --json FILE]
 *   VARIANTS=simd128,baseline,libaegis-simd128,libaegis-relaxed-simd  SIZES=64,1k,16k  K=4
 * @module
 */
import { type CtAnswer, checkCoresCase, offeredBy } from '../../web/core/ct.ts';
import { formatSize, parseSize } from '../../web/core/params.ts';
import { ALGORITHMS } from '../../web/core/tables/algorithms.ts';
import type { WasmVariant } from '../../web/core/implementations/shared.ts';
import { nodePlatform } from '../../web/core/worker/platform-node.ts';
import { evidence, listEnv, recordPage } from './measured.ts';

recordPage('ct', {
  title: 'Constant time, checked: the WASM cores under a trace of their branches and addresses',
  about:
    'Each case of the WASM cores run over K secret classes (keys and messages of the same public lengths; for a forged tag, one wrong in its first byte against one wrong in its last), its branch conditions, indirect-call indices and memory addresses folded into a hash (wasm/counter/src/ct.rs). Equal hashes: no secret decided a branch or an address on the inputs tried. It checks the WebAssembly, not the machine code an engine makes of it.',
});

const VARIANTS = listEnv('VARIANTS', 'simd128,baseline,libaegis-simd128,libaegis-relaxed-simd') as WasmVariant[];
const SIZES = listEnv('SIZES', '64,1k,16k').map((s) => parseSize(s));
const K = Number(process.env.K ?? 4);
const figures = evidence('ct');

const word = (a: CtAnswer) =>
  a.answer === 'secret-dependent'
    ? `LEAK ${a.site.kind} in ${a.site.function}+0x${a.site.offset.toString(16)}`
    : a.answer === 'constant-time'
      ? 'ct'
      : a.answer;

console.log(
  `bench:ct — ${K} secret classes a case, Node ${process.version}; ct = one trace for every class; events = branch conditions and addresses traced in one call`,
);
console.log(
  `${'build'.padEnd(22)}${'algorithm'.padEnd(26)}${'size'.padStart(7)}  ${'encrypt'.padEnd(14)}${'decrypt'.padEnd(14)}${'forged tag'.padEnd(14)}${'events'.padStart(9)}  check ms / call ms`,
);
const leaks: string[] = [];
let checked = 0;
for (const variant of VARIANTS) {
  let cores: Awaited<ReturnType<NonNullable<typeof nodePlatform.loadTracedCores>>>;
  try {
    cores = await nodePlatform.loadTracedCores!(variant);
  } catch (e) {
    // A build this Node cannot compile (relaxed SIMD behind a flag in Node 20) is named, never dropped.
    console.log(`${variant.padEnd(22)}not checked here: ${(e as Error).message.split('\n')[0]}`);
    figures.row('unchecked', { build: variant, reason: (e as Error).message.split('\n')[0]! });
    continue;
  }
  const plain = (await nodePlatform.loadCores(variant)) as unknown as { encrypt: typeof cores.encrypt };
  for (const a of ALGORITHMS.filter((x) => offeredBy(cores).includes(x.id))) {
    for (const sizeBytes of SIZES) {
      const t0 = performance.now();
      const r = checkCoresCase(cores, { algorithm: a.id, keyBytes: a.keyBytes, nonceBytes: a.nonceBytes, tagBytes: a.tagBytes, sizeBytes, aadBytes: 16 }, K);
      const checkMs = performance.now() - t0;
      const [key, nonce, aad, pt] = [new Uint8Array(a.keyBytes), new Uint8Array(a.nonceBytes), new Uint8Array(16), new Uint8Array(sizeBytes)];
      const t1 = performance.now();
      let calls = 0;
      while (performance.now() - t1 < 20 || calls < 3) (plain.encrypt(a.id, key, nonce, aad, pt), calls++);
      const callMs = (performance.now() - t1) / calls;
      checked++;
      for (const [op, x] of Object.entries(r)) {
        if (x.answer !== 'constant-time') leaks.push(`${variant} ${a.id} ${formatSize(sizeBytes)} ${op}: ${word(x)}`);
        figures.row('case', {
          build: variant,
          algorithm: a.id,
          sizeBytes,
          operation: op,
          answer: x.answer,
          classes: x.classes,
          events: x.events,
          site: x.answer === 'secret-dependent' ? `${x.site.function}+0x${x.site.offset.toString(16)} ${x.site.kind}` : null,
          checkMs,
          callMs,
        });
      }
      console.log(
        `${variant.padEnd(22)}${a.id.padEnd(26)}${formatSize(sizeBytes).padStart(7)}  ${word(r.encrypt).slice(0, 13).padEnd(14)}${word(r.decrypt).slice(0, 13).padEnd(14)}${word(r.forged).slice(0, 13).padEnd(14)}${String(r.encrypt.events).padStart(9)}  ${checkMs.toFixed(1)} / ${callMs.toFixed(3)}`,
      );
    }
  }
}
console.log(`\n${checked} cases checked; not one trace for every secret in ${leaks.length} answers${leaks.length ? ':' : ''}`);
for (const l of leaks) console.log(`  ${l}`);
figures.row('summary', { cases: checked, notConstantTime: leaks.length });
