/**
 * The cores compiled for the host (wasm/examples/bench_native.rs), for the benchmarks that set
 * WebAssembly beside native code: `bench:cores` times them, `bench:counts` counts their
 * instructions under callgrind.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The RustCrypto crates' portable backends, forced: the same algorithms as the WASM baseline build, in native code. */
export const SOFT_CFGS = ['aes_backend="soft"', 'polyval_backend="soft"', 'chacha20_backend="soft"', 'poly1305_backend="soft"', 'sha2_backend="soft"'];
export const SOFT_RUSTFLAGS = SOFT_CFGS.map((c) => `--cfg ${c}`).join(' ');

/** Builds bench_native with these RUSTFLAGS (and features) in release; returns the binary's path. */
export function buildNative(name: string, rustflags: string, features: string[] = []): string {
  // Without flags of its own, the native build shares the workspace's target dir.
  const targetDir = rustflags ? `target/bench-${name}` : 'target';
  console.error(`building native ${name} (RUSTFLAGS='${rustflags}' ${features.join(' ')})`);
  execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'aeadbench-cores', '--example', 'bench_native', '--target-dir', targetDir, ...features], {
    env: { ...process.env, RUSTFLAGS: rustflags },
    stdio: 'inherit',
  });
  return `${targetDir}/release/examples/bench_native`;
}

/** The native builds the benchmarks run, by name. */
export const nativeBuild = {
  soft: () => buildNative('native-soft', SOFT_RUSTFLAGS),
  hw: () => buildNative('native-hw', ''),
  /** libaegis in C, for the AEGIS ids only. */
  libaegis: () => buildNative('native-libaegis', '', ['--no-default-features']),
};

// `tsx scripts/native.ts`: every build ahead of the benchmarks (npm test does, beside the WebKit suite).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) for (const build of Object.values(nativeBuild)) build();
