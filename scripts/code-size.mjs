// Code size per algorithm: builds wasm/size-probe once per id of the table (AEADBENCH_PROBE=<id>)
// and once empty, with the shipped simd128 variant's flags (release profile, +simd128,
// wasm-opt), and writes what each algorithm adds over the empty probe — raw and gzip bytes — to
// web/core/wasm/code-size.json (and .js for imports). Called by scripts/build-wasm.
//   node scripts/code-size.mjs OUT_DIR WASM_OPT_FLAGS FEATURES...
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const [outDir, wasmOptFlags, ...features] = process.argv.slice(2);
const RUSTFLAGS = '-C target-feature=+simd128';
const glue = await import(pathToFileURL(join(outDir, 'simd128', 'cores.js')).href);
glue.initSync({ module: readFileSync(join(outDir, 'simd128', 'cores_bg.wasm')) });
const ids = JSON.parse(glue.algorithms()).map((a) => a.id);
const tmp = mkdtempSync(join(tmpdir(), 'aeadbench-size-'));

function measure(id) {
  const env = { ...process.env, RUSTFLAGS };
  if (id) env.AEADBENCH_PROBE = id;
  else delete env.AEADBENCH_PROBE;
  execFileSync(
    'cargo',
    ['build', '--quiet', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'aeadbench-size-probe', '--target-dir', 'target/wasm-size'],
    { env, stdio: 'inherit' },
  );
  const built = 'target/wasm-size/wasm32-unknown-unknown/release/aeadbench_size_probe.wasm';
  const out = join(tmp, `${id || 'empty'}.wasm`);
  execFileSync(
    'node_modules/.bin/wasm-opt',
    [...wasmOptFlags.split(' ').filter(Boolean), '--strip-debug', '--strip-producers', ...features, built, '-o', out],
    { stdio: 'inherit' },
  );
  const bytes = readFileSync(out);
  return { wasmBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

const empty = measure('');
const algorithms = {};
for (const id of ids) {
  const m = measure(id);
  algorithms[id] = { wasmBytes: m.wasmBytes - empty.wasmBytes, gzipBytes: m.gzipBytes - empty.gzipBytes };
}
rmSync(tmp, { recursive: true, force: true });
const doc = {
  method: `WASM bytes one algorithm's seal and open add to an otherwise empty module (wasm/size-probe), built as the simd128 variant (${RUSTFLAGS}, release profile, wasm-opt ${wasmOptFlags || 'off'}); shared code (allocator, panics) counts once, in the empty probe`,
  emptyProbe: empty,
  algorithms,
};
writeFileSync(join(outDir, 'code-size.json'), JSON.stringify(doc, null, 2) + '\n');
writeFileSync(join(outDir, 'code-size.js'), `/** Written by scripts/code-size.mjs. */\nexport default ${JSON.stringify(doc, null, 2)};\n`);
writeFileSync(
  join(outDir, 'code-size.d.ts'),
  'declare const codeSize: { method: string; emptyProbe: { wasmBytes: number; gzipBytes: number }; algorithms: Record<string, { wasmBytes: number; gzipBytes: number }> };\nexport default codeSize;\n',
);
console.error(`code added per algorithm (empty probe ${empty.wasmBytes} B, ${empty.gzipBytes} B gzip):`);
for (const [id, m] of Object.entries(algorithms))
  console.error(`  ${id.padEnd(26)} ${String(m.wasmBytes).padStart(7)} B  ${String(m.gzipBytes).padStart(6)} B gzip`);
