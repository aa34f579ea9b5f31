/** RustCrypto's crates compiled to WebAssembly (wasm/cores): the reference every other implementation is checked against. */
import { ALGORITHM_IDS, type ImplementationDocs, type ImplementationMeta } from '../../tables/aeads.ts';

export default {
  id: 'rustcrypto-wasm',
  label: 'RustCrypto → WASM',
  description: 'RustCrypto crates compiled to WebAssembly; the timing loop runs inside WASM.',
  rank: 1,
  algorithms: ALGORITHM_IDS,
  variants: ['simd128', 'baseline'],
  needsWasm: true,
  runtimes: ['browser', 'node'],
  npm: [],
  // Fixsliced AES, soft GHASH/POLYVAL, bitsliced softaes for AEGIS, bitsliced Serpent; Twofish's key-dependent S-boxes are tables.
  classOf: (alg) => (alg === 'twofish-128-gcm' ? 'table' : 'constant-time'),
} as const satisfies ImplementationMeta;

/** Its row in docs/implementations.md (`npm run docs`): what it is, and how its calls are timed. */
export const docs: ImplementationDocs = {
  what: 'RustCrypto crates built into the WASM cores (their crates and versions: [architecture](architecture.md#algorithms)); variant `simd128` where the browser validates SIMD, else `baseline` (`wasm=both` measures both)',
  timed: 'one JS call runs n operations inside WASM',
};
