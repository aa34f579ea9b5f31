/**
 * The cores compiled for the host (wasm/examples/bench_native.rs), for the benchmarks that set
 * WebAssembly beside native code: `bench:cores` times them, `bench:counts` counts their
 * instructions under callgrind. The lab's probe of native code after pauses of its own thread
 * (lab/native, outside the product's workspace) is built only when bench:modules' pauses
 * notebook runs, never ahead of the benchmarks.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The RustCrypto crates' portable backends, forced: the same algorithms as the WASM baseline build, in native code. */
export const SOFT_CFGS = ['aes_backend="soft"', 'polyval_backend="soft"', 'chacha20_backend="soft"', 'poly1305_backend="soft"', 'sha2_backend="soft"'];
export const SOFT_RUSTFLAGS = SOFT_CFGS.map((c) => `--cfg ${c}`).join(' ');

/** Builds an example of the cores (bench_native unless named) with these RUSTFLAGS (and features) in release; returns the binary's path. */
export function buildNative(name: string, rustflags: string, features: string[] = [], example = 'bench_native'): string {
  // Without flags of its own, the native build shares the workspace's target dir.
  const targetDir = rustflags ? `target/bench-${name}` : 'target';
  console.error(`building native ${name} (RUSTFLAGS='${rustflags}' ${features.join(' ')})`);
  execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'aeadbench-cores', '--example', example, '--target-dir', targetDir, ...features], {
    env: { ...process.env, RUSTFLAGS: rustflags },
    stdio: 'inherit',
  });
  return `${targetDir}/release/examples/${example}`;
}

/** The native builds the benchmarks run, by name. */
export const nativeBuild = {
  soft: () => buildNative('native-soft', SOFT_RUSTFLAGS),
  hw: () => buildNative('native-hw', ''),
  /** libaegis in C, for the AEGIS ids only. */
  libaegis: () => buildNative('native-libaegis', '', ['--no-default-features']),
};

/** The lab's probe (lab/native/src/bin/pause_native.rs): what a pause of its own thread costs native code, for bench:modules' pauses notebook. */
export function buildPauseProbe(): string {
  console.error('building the lab probe pause_native (lab/native)');
  execFileSync('cargo', ['build', '--quiet', '--release', '--manifest-path', 'lab/native/Cargo.toml', '--target-dir', 'target/lab-native'], {
    env: { ...process.env, RUSTFLAGS: '' },
    stdio: 'inherit',
  });
  return 'target/lab-native/release/pause_native';
}

// `tsx lab/bench/native.ts`: every build ahead of the benchmarks (npm test does, beside the WebKit suite).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) for (const build of Object.values(nativeBuild)) build();
