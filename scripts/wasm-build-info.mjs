// Writes build-info.json beside each built variant and prints a summary: crate versions from
// Cargo.lock, the flags used, .wasm sizes (raw and gzip), and the backend every crate compiled
// to as reported by the module itself (buildInfo()).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [outDir, bindgenVersion, wasmOptFlags] = process.argv.slice(2);
// Node 20 compiles relaxed SIMD only behind this flag (later versions ship it, and ignore it).
setFlagsFromString('--experimental-wasm-relaxed-simd');
const lock = readFileSync('Cargo.lock', 'utf8');
const crates = {};
for (const name of [
  'aes-gcm',
  'aes',
  'ghash',
  'polyval',
  'chacha20poly1305',
  'chacha20',
  'poly1305',
  'ascon-aead',
  'cbc',
  'hmac',
  'sha2',
  'aes-gcm-siv',
  'ocb3',
  'aegis',
  'softaes',
  'wasm-bindgen',
]) {
  const m = lock.match(new RegExp(`name = "${name}"\\nversion = "([^"]+)"`));
  if (m) crates[name] = m[1];
}
const rows = [];
const codeSize = JSON.parse(readFileSync(join(outDir, 'code-size.json'), 'utf8'));
const variants = readdirSync(outDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
for (const variant of variants) {
  const dir = join(outDir, variant);
  const wasm = readFileSync(join(dir, 'cores_bg.wasm'));
  const glue = await import(pathToFileURL(join(dir, 'cores.js')).href);
  glue.initSync({ module: wasm });
  const module = JSON.parse(glue.buildInfo());
  const info = {
    variant,
    // As scripts/build-wasm recorded them for this variant.
    ...JSON.parse(readFileSync(join(dir, 'build-flags.json'), 'utf8')),
    wasmOpt: wasmOptFlags || 'off',
    wasmBindgen: bindgenVersion,
    crates,
    wasmBytes: wasm.length,
    wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
    // What each algorithm's code weighs on its own (scripts/code-size.mjs, simd128 flags).
    codeBytesPerAlgorithm: codeSize.algorithms,
    ...module,
  };
  writeFileSync(join(dir, 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
  // The same as a module, so the engine imports it in any bundler or in Node without JSON imports.
  writeFileSync(join(dir, 'build-info.js'), `/** Written by scripts/build-wasm. */\nexport default ${JSON.stringify(info, null, 2)};\n`);
  writeFileSync(join(dir, 'build-info.d.ts'), 'declare const info: Record<string, unknown>;\nexport default info;\n');
  rows.push(info);
}
console.error(`${'variant'.padEnd(22)} wasm KB  gzip KB  backends`);
for (const r of rows) {
  const b = Object.entries(r.backends)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.error(`${r.variant.padEnd(22)} ${(r.wasmBytes / 1024).toFixed(0).padStart(7)}  ${(r.wasmGzipBytes / 1024).toFixed(0).padStart(7)}  ${b}`);
}
console.error(
  'crates: ' +
    Object.entries(crates)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
);
