// `npm run bench:cores`: the WASM cores (baseline and simd128, in Node) beside the same crates
// compiled natively with forced software backends and with hardware backends, per algorithm ×
// size × operation. Prints MB/s and the ratios wasm/native-soft and simd128/baseline. AEGIS is
// also measured through the aegis crate's libaegis (C): its prebuilt wasm32 SIMD library, and
// natively built by cc with AES-NI.
//
// Method: every round runs each implementation in a fresh process (a V8 process now and then
// compiles a 30–40 % slower variant for its whole life), in an order rotated each round, and
// each process walks the cases in a rotated order too, so drift spreads evenly. Node runs with
// --no-liftoff. A cell is the median over rounds of each process's median sample.
//   ROUNDS=5 SAMPLE_MS=40 npm run bench:cores
//   ALGORITHMS=aegis-128l,aes-128-gcm,chacha20-poly1305 npm run bench:cores   (default: every general id)
//   SIZES=64,1024 npm run bench:cores   (bytes; default 64, 1 KiB, 16 KiB, 1 MiB)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { GENERAL_ALGORITHM_IDS } from '../../web/core/tables/algorithms.ts';
import { evidence, recordPage } from './measured.ts';
import { nativeBuild } from './native.ts';

recordPage('cores', {
  title: 'WASM against native: the cores',
  about: 'The same RustCrypto crates compiled to WebAssembly (baseline and simd128) and natively, soft and hardware backends, per algorithm and size.',
});

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 25);
const SAMPLES = Number(process.env.SAMPLES ?? 7);
const ALGORITHMS: string[] = process.env.ALGORITHMS ? process.env.ALGORITHMS.split(',') : [...GENERAL_ALGORITHM_IDS];
const isAegis = (c: string) => c.startsWith('aegis-');
const SIZES = process.env.SIZES ? process.env.SIZES.split(',').map(Number) : [64, 1024, 16 * 1024, 1024 * 1024];
const OPERATIONS = ['encrypt', 'decrypt'];

const cases = ALGORITHMS.flatMap((a) => SIZES.flatMap((s) => OPERATIONS.map((o) => `${a}/${o}/${s}`)));

const wasm =
  (variant: string) =>
  (c: string[]): [string, string[]] => [
    process.execPath,
    ['--import', 'tsx', '--no-liftoff', 'lab/bench/bench-cores-node.ts', variant, `${SAMPLE_MS}`, `${SAMPLES}`, ...c],
  ];
const impls: Record<string, (c: string[]) => [string, string[]]> = {
  'wasm-baseline': wasm('baseline'),
  'wasm-simd128': wasm('simd128'),
};
const soft = nativeBuild.soft();
const hw = nativeBuild.hw();
impls['native-soft'] = (c) => [soft, [`${SAMPLE_MS}`, `${SAMPLES}`, ...c]];
impls['native-hw'] = (c) => [hw, [`${SAMPLE_MS}`, `${SAMPLES}`, ...c]];
// libaegis in C, for the AEGIS ids only: the prebuilt wasm32 SIMD library, and a native build.
const AEGIS_ONLY = new Set(['wasm-libaegis', 'native-libaegis']);
if (cases.some(isAegis)) {
  impls['wasm-libaegis'] = wasm('libaegis-simd128');
  const libaegis = nativeBuild.libaegis();
  impls['native-libaegis'] = (c) => [libaegis, [`${SAMPLE_MS}`, `${SAMPLES}`, ...c]];
}
const casesOf = (name: string) => (AEGIS_ONLY.has(name) ? cases.filter(isAegis) : cases);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const rotate = <T>(xs: T[], k: number) => xs.map((_, i) => xs[(i + k) % xs.length]!);

const perRound: Record<string, Record<string, number[]>> = {};
const builds: Record<string, unknown> = {};
const names = Object.keys(impls);
const started = Date.now();
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(names, round)) {
    const [cmd, args] = impls[name]!(rotate(casesOf(name), round * 7));
    const run = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (run.status !== 0) throw new Error(`${name} failed: ${run.stderr}`);
    const [info, ...lines] = run.stdout.trim().split('\n');
    builds[name] = JSON.parse(info!);
    for (const line of lines) {
      const { case: c, nsPerOp } = JSON.parse(line) as { case: string; nsPerOp: number[] };
      ((perRound[name] ??= {})[c] ??= []).push(median(nsPerOp));
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS} ${name} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
}

const mbps = (name: string, c: string) => {
  const size = Number(c.split('/')[2]);
  return (size / median(perRound[name]![c]!)) * 1e3; // bytes/ns × 1e3 = MB/s
};
const spread = (name: string, c: string) => {
  const xs = perRound[name]?.[c];
  if (!xs) return 0;
  return (Math.max(...xs) - Math.min(...xs)) / median(xs);
};

console.log(`\nbench:cores — MB/s (10^6 B/s), median of ${ROUNDS} processes × ${SAMPLES} samples of ≥ ${SAMPLE_MS} ms, Node ${process.version}`);
for (const [name, info] of Object.entries(builds)) console.log(`  ${name.padEnd(14)} ${JSON.stringify((info as { backends: unknown }).backends)}`);
const header = [
  'algorithm',
  'op',
  'size',
  'wasm-base',
  'wasm-simd',
  'nat-soft',
  'nat-hw',
  'base/soft',
  'simd/soft',
  'simd/base',
  'spread',
  'libaegis-w',
  'libaegis-n',
];
console.log('\n' + header.map((h, i) => (i < 3 ? h.padEnd(i === 0 ? 24 : 8) : h.padStart(i > 10 ? 11 : 10))).join(''));
const rows: unknown[] = [];
const figures = evidence('cores');
const ratiosBySoft: number[] = [];
for (const c of cases) {
  const [alg, op, size] = c.split('/');
  const [b, s, ns, nh] = ['wasm-baseline', 'wasm-simd128', 'native-soft', 'native-hw'].map((n) => mbps(n, c)) as [number, number, number, number];
  const worst = Math.max(...names.map((n) => spread(n, c)));
  ratiosBySoft.push(Math.max(b, s) / ns);
  const [lw, ln] = isAegis(c) && impls['wasm-libaegis'] ? [mbps('wasm-libaegis', c), mbps('native-libaegis', c)] : [NaN, NaN];
  figures.row('throughput', {
    algorithm: alg!,
    operation: op!,
    sizeBytes: Number(size),
    wasmBaseline: b,
    wasmSimd128: s,
    nativeSoft: ns,
    nativeHw: nh,
    spread: worst,
  });
  rows.push({
    case: c,
    mbps: { wasmBaseline: b, wasmSimd128: s, nativeSoft: ns, nativeHw: nh, ...(isAegis(c) ? { wasmLibaegis: lw, nativeLibaegis: ln } : {}) },
    spread: worst,
  });
  const sizeLabel = Number(size) >= 1 << 20 ? `${Number(size) >> 20} MiB` : Number(size) >= 1024 ? `${Number(size) >> 10} KiB` : `${size} B`;
  console.log(
    alg!.padEnd(24) +
      op!.padEnd(8) +
      sizeLabel.padEnd(8) +
      [b, s, ns, nh].map((x) => x.toFixed(1).padStart(10)).join('') +
      [b / ns, s / ns, s / b].map((x) => x.toFixed(2).padStart(10)).join('') +
      `${(worst * 100).toFixed(0)} %`.padStart(10) +
      [lw, ln].map((x) => (Number.isNaN(x) ? '–' : x.toFixed(1)).padStart(11)).join(''),
  );
}
const best = ratiosBySoft.sort((x, y) => x - y);
figures.row('best-wasm-over-native-soft', { min: best[0]!, median: median(best), max: best.at(-1)! });
console.log(
  `\nbest WASM build / native soft: min ${best[0]!.toFixed(2)}, median ${median(best).toFixed(2)}, max ${best.at(-1)!.toFixed(2)} (moonshot: ≥ 0.85 everywhere)`,
);
// What AEGIS gains in WASM over the AEADs people use today (medians of the same processes).
for (const other of ['aes-128-gcm', 'chacha20-poly1305']) {
  const ratios = SIZES.filter((size) => cases.includes(`aegis-128l/encrypt/${size}`) && cases.includes(`${other}/encrypt/${size}`)).map(
    (size) =>
      `${size >= 1 << 20 ? `${size >> 20} MiB` : size >= 1024 ? `${size >> 10} KiB` : `${size} B`} ${(mbps('wasm-simd128', `aegis-128l/encrypt/${size}`) / mbps('wasm-simd128', `${other}/encrypt/${size}`)).toFixed(2)}×`,
  );
  if (ratios.length) console.log(`AEGIS-128L / ${other}, encrypt, WASM simd128: ${ratios.join(', ')}`);
}
mkdirSync('target', { recursive: true });
writeFileSync(
  'target/bench-cores.json',
  JSON.stringify({ rounds: ROUNDS, sampleMs: SAMPLE_MS, samples: SAMPLES, node: process.version, builds, rows }, null, 2),
);
console.log('raw figures: target/bench-cores.json');
