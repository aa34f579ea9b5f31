/**
 * The AEAD table (ids, key, nonce and tag lengths: the same kebab-case ids in Rust, TypeScript,
 * URLs, JSON and the database) and what an implementation's description is made of
 * (implementations/<id>/meta.ts). Everything else in tables/algorithms.ts derives from these.
 * @module
 */

export const ALGORITHMS = Object.freeze([
  { id: 'aes-128-gcm', label: 'AES-128-GCM', spec: 'NIST SP 800-38D', keyBytes: 16, nonceBytes: 12, tagBytes: 16, blockBytes: 0 },
  { id: 'aes-256-gcm', label: 'AES-256-GCM', spec: 'NIST SP 800-38D', keyBytes: 32, nonceBytes: 12, tagBytes: 16, blockBytes: 0 },
  { id: 'chacha20-poly1305', label: 'ChaCha20-Poly1305', spec: 'RFC 8439', keyBytes: 32, nonceBytes: 12, tagBytes: 16, blockBytes: 0 },
  { id: 'xchacha20-poly1305', label: 'XChaCha20-Poly1305', spec: 'draft-irtf-cfrg-xchacha', keyBytes: 32, nonceBytes: 24, tagBytes: 16, blockBytes: 0 },
  { id: 'ascon-aead128', label: 'Ascon-AEAD128', spec: 'NIST SP 800-232', keyBytes: 16, nonceBytes: 16, tagBytes: 16, blockBytes: 0 },
  { id: 'aes-128-cbc-hmac-sha256', label: 'AES-128-CBC + HMAC-SHA256', spec: 'RFC 7518 §5.2.3', keyBytes: 32, nonceBytes: 16, tagBytes: 16, blockBytes: 16 },
  {
    id: 'aes-256-cbc-hmac-sha256',
    label: 'AES-256-CBC + HMAC-SHA256',
    spec: 'RFC 7518 §5.2.2.1, AES-256',
    keyBytes: 64,
    nonceBytes: 16,
    tagBytes: 16,
    blockBytes: 16,
  },
  // GCM over the other AES finalists, for the aes-candidates study only: no standard, no test vectors.
  { id: 'twofish-128-gcm', label: 'Twofish-128-GCM', spec: 'GCM over Twofish', keyBytes: 16, nonceBytes: 12, tagBytes: 16, blockBytes: 0, candidate: true },
  { id: 'serpent-128-gcm', label: 'Serpent-128-GCM', spec: 'GCM over Serpent', keyBytes: 16, nonceBytes: 12, tagBytes: 16, blockBytes: 0, candidate: true },
  // The AEADs people ask for next: the standard and full presets measure them, quick does not
  // (it stays within its half-minute budget on the first seven).
  { id: 'aegis-128l', label: 'AEGIS-128L', spec: 'draft-irtf-cfrg-aegis-aead', keyBytes: 16, nonceBytes: 16, tagBytes: 16, blockBytes: 0, next: true },
  { id: 'aegis-256', label: 'AEGIS-256', spec: 'draft-irtf-cfrg-aegis-aead', keyBytes: 32, nonceBytes: 32, tagBytes: 16, blockBytes: 0, next: true },
  { id: 'aes-128-gcm-siv', label: 'AES-128-GCM-SIV', spec: 'RFC 8452', keyBytes: 16, nonceBytes: 12, tagBytes: 16, blockBytes: 0, next: true },
  { id: 'aes-256-gcm-siv', label: 'AES-256-GCM-SIV', spec: 'RFC 8452', keyBytes: 32, nonceBytes: 12, tagBytes: 16, blockBytes: 0, next: true },
  { id: 'aes-128-ocb3', label: 'AES-128-OCB3', spec: 'RFC 7253', keyBytes: 16, nonceBytes: 12, tagBytes: 16, blockBytes: 0, next: true },
  { id: 'aes-256-ocb3', label: 'AES-256-OCB3', spec: 'RFC 7253', keyBytes: 32, nonceBytes: 12, tagBytes: 16, blockBytes: 0, next: true },
  // AEGIS with the draft's 256-bit tag: the only AEGIS libsodium offers.
  {
    id: 'aegis-128l-tag256',
    label: 'AEGIS-128L (256-bit tag)',
    spec: 'draft-irtf-cfrg-aegis-aead',
    keyBytes: 16,
    nonceBytes: 16,
    tagBytes: 32,
    blockBytes: 0,
    next: true,
  },
  {
    id: 'aegis-256-tag256',
    label: 'AEGIS-256 (256-bit tag)',
    spec: 'draft-irtf-cfrg-aegis-aead',
    keyBytes: 32,
    nonceBytes: 32,
    tagBytes: 32,
    blockBytes: 0,
    next: true,
  },
] as const);

/** The table by id (algorithm()): one-shot implementations look their row up on every call. */
const BY_ID: ReadonlyMap<string, (typeof ALGORITHMS)[number]> = new Map(ALGORITHMS.map((x) => [x.id, x]));

export type AlgorithmId = (typeof ALGORITHMS)[number]['id'];
export type Algorithm = (typeof ALGORITHMS)[number];
export const ALGORITHM_IDS = ALGORITHMS.map((a) => a.id) as readonly AlgorithmId[] as [AlgorithmId, ...AlgorithmId[]];
/** What the standard and full presets measure: every standard AEAD, not the aes-candidates study's candidates. */
export const GENERAL_ALGORITHM_IDS = ALGORITHMS.filter((a) => !('candidate' in a)).map((a) => a.id);
/** What the quick preset measures: the general AEADs without the newer ones. */
export const QUICK_ALGORITHM_IDS = GENERAL_ALGORITHM_IDS.filter((id) => !('next' in algorithm(id)));

/**
 * What kind of code does the work, which decides both speed and safety: AES instructions run
 * in constant time at hardware speed; constant-time software (bitsliced or vector-permute AES,
 * software GHASH/POLYVAL, ChaCha, Ascon) is slower but leaks nothing through timing; table-based
 * software AES is fast in JavaScript but its secret-indexed lookups can leak the key through
 * cache timing to code sharing the CPU.
 */
export const IMPLEMENTATION_CLASSES = Object.freeze({
  hardware: { label: 'hardware AES', short: 'hw', why: 'AES instructions (AES-NI, ARMv8 Crypto) where the CPU has them: fastest, constant time.' },
  'constant-time': {
    label: 'constant-time software',
    short: 'ct',
    why: 'No secret-dependent lookups or branches (bitsliced or vector-permute AES, ChaCha, Ascon): slower than hardware, safe on shared machines.',
  },
  table: {
    label: 'table-based software',
    short: 'tbl',
    why: 'AES through lookup tables indexed by secret bytes: quick in software, but cache timing can leak the key to code on the same CPU.',
  },
  unknown: {
    label: 'your own module',
    short: 'own',
    why: 'A module you brought (custom.ts): it passed the gate, but what kind of code it runs is for you to say.',
  },
} as const);
export type ImplementationClass = keyof typeof IMPLEMENTATION_CLASSES;

export function algorithm(id: AlgorithmId): Algorithm {
  const a = BY_ID.get(id);
  if (!a) throw new Error(`unknown algorithm '${id}'`);
  return a;
}

/** Where an implementation can run: a browser's worker, a Node worker thread. */
export type Runtime = 'browser' | 'node';

/**
 * One implementation, described as pure data in its own folder (implementations/<id>/meta.ts,
 * beside the backend.ts that runs it in a worker). The table of implementations, their classes,
 * the runtimes that offer them, the package's dependencies and docs/implementations.md are all
 * derived from these (`npm run units` writes them into tables/implementations.ts as data).
 */
export interface ImplementationMeta {
  /** The id cases, URLs and the collector carry; also the folder's name. */
  readonly id: string;
  readonly label: string;
  /** A sentence for the page's picker and the CLI's list. */
  readonly description: string;
  /** Where it stands in every list (the table's order: the reference, RustCrypto, first). */
  readonly rank: number;
  /** What it can offer at best; its backend's detect says what the running environment has. */
  readonly algorithms: readonly AlgorithmId[];
  /**
   * The ways it is measured, recorded per case; the first is its primary one. Builds of their
   * own (WASM baseline against SIMD: both contenders), or, with `sameCalls`, ways of timing the
   * same calls (Web Crypto pipelined: read beside, never weighed against the sequential calls).
   */
  readonly variants: readonly [string, ...string[]];
  readonly sameCalls?: true;
  /** It runs WebAssembly, so cannot run where WebAssembly is off. */
  readonly needsWasm?: true;
  readonly runtimes: readonly Runtime[];
  /** The npm packages its backend imports: the published package depends on them. */
  readonly npm: readonly string[];
  /** What kind of code does the work for each algorithm (IMPLEMENTATION_CLASSES). */
  classOf(alg: AlgorithmId): ImplementationClass;
}

/** Its row in docs/implementations.md, meta.ts's `docs` export (kept out of the page: only the docs read it). */
export interface ImplementationDocs {
  readonly what: string;
  readonly timed: string;
}

/** Whether an id is one of AES's constructions, or one built on its round (AEGIS), or another AES finalist's GCM. */
export const aesBased = (alg: AlgorithmId): boolean =>
  alg.startsWith('aes-') || alg.startsWith('aegis-') || alg === 'twofish-128-gcm' || alg === 'serpent-128-gcm';
