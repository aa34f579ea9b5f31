/**
 * The studies, as numbers: each re-runs one source study's experiment with this project's method
 * (its preset in tables/algorithms.ts), and these functions read a result document into the
 * figures the study's tables hold, beside the published ones (reference.ts, typed by a schema).
 * No words here: the site's study views (web/app/studies/) title, label and explain them.
 * @module
 */
import codeSize from '../wasm/code-size.js';
import { type AlgorithmId, type ImplementationId, type ImplementationRef, primaryVariant } from '../tables/algorithms.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { ratioOf } from '../report/ratio.ts';
import { mean, sd, trimmedMean } from '../stats.ts';
import { type CostModel, crossoverBytes, fitCostModel } from '../report/costmodel.ts';
import { type StudyId, studyFigures } from './reference.ts';

export { studyFigures, type Study, type StudyId } from './reference.ts';

/** The studies in the order the site lists them, each with the study in reference.json it re-runs. */
export const STUDIES = [
  { id: 'doc-encryption', reference: 'doc-encryption' },
  { id: 'aead-vs-etm', reference: 'aead-vs-etm' },
  { id: 'key-length', reference: 'key-length' },
  { id: 'aes-candidates', reference: 'aes-candidates-mobile' },
  { id: 'lightweight-iot', reference: 'lightweight-iot' },
] as const satisfies readonly { id: string; reference: StudyId }[];

export type ScenarioId = (typeof STUDIES)[number]['id'];

/** The case for algorithm × implementation × operation × size: the implementation's primary variant unless asked. */
export function pick(
  doc: ResultDocument,
  algorithm: AlgorithmId,
  implementation: ImplementationRef,
  sizeBytes: number,
  operation = 'encrypt',
  variant?: string,
): CaseResult | undefined {
  const matches = doc.cases.filter(
    (c) => c.algorithm === algorithm && c.implementation === implementation && c.sizeBytes === sizeBytes && c.operation === operation,
  );
  if (variant) return matches.find((c) => c.variant === variant);
  return matches.find((c) => c.variant === primaryVariant(implementation)) ?? matches[0];
}

const us = (c: CaseResult | undefined) => (c ? c.summary.median / 1e3 : null);
const mbps = (c: CaseResult | undefined) => (c ? c.bytesPerSecond / 1e6 : null);
/** The sizes a document measured, smallest first. */
const sizesOf = (doc: ResultDocument) => [...new Set(doc.cases.map((c) => c.sizeBytes))].sort((a, b) => a - b);

export interface Series {
  algorithm: AlgorithmId;
  implementation: ImplementationId;
}

/** Cost models for every algorithm × implementation measured at ≥ 2 sizes. */
export function costModels(doc: ResultDocument, operation = 'encrypt'): (Series & { model: CostModel })[] {
  const out: (Series & { model: CostModel })[] = [];
  const keys = new Set(doc.cases.filter((c) => c.operation === operation).map((c) => `${c.algorithm}|${c.implementation}`));
  for (const key of keys) {
    const [algorithm, implementation] = key.split('|') as [AlgorithmId, ImplementationId];
    const sizes = [...new Set(doc.cases.filter((c) => c.algorithm === algorithm && c.implementation === implementation).map((c) => c.sizeBytes))];
    const points = sizes.flatMap((s) => {
      const c = pick(doc, algorithm, implementation, s, operation);
      return c ? [{ sizeBytes: s, ns: c.summary.median }] : [];
    });
    if (new Set(points.map((p) => p.sizeBytes)).size >= 2) out.push({ algorithm, implementation, model: fitCostModel(points) });
  }
  return out;
}

// ---- doc-encryption -------------------------------------------------------------------------

/** One algorithm × implementation over a set of files, in the study's own statistics. */
export interface FileSetFigures extends Series {
  encMs: number;
  decMs: number;
  totalMs: number;
  encSdMs: number;
  /** The study's throughput: per file size_MB / (t_enc_ms / 1000), averaged over files. */
  mbps: number;
}

/** AES-256-GCM and ChaCha20-Poly1305, in Web Crypto and WASM, over the files of `sizes` (each a case). */
export function docEncryption(doc: ResultDocument, sizes: readonly number[]): FileSetFigures[] {
  return (['aes-256-gcm', 'chacha20-poly1305'] as const).flatMap((algorithm) =>
    (['webcrypto', 'rustcrypto-wasm'] as const).flatMap((implementation) => {
      const files = sizes
        .map((size) => ({ size, enc: pick(doc, algorithm, implementation, size, 'encrypt'), dec: pick(doc, algorithm, implementation, size, 'decrypt') }))
        .filter((x) => x.enc && x.dec);
      if (files.length === 0) return [];
      const enc = files.map((x) => x.enc!.summary.median / 1e6);
      const dec = files.map((x) => x.dec!.summary.median / 1e6);
      const thr = files.map((x, i) => x.size / 1e6 / (enc[i]! / 1000));
      return [{ algorithm, implementation, encMs: mean(enc), decMs: mean(dec), totalMs: mean(enc) + mean(dec), encSdMs: sd(enc), mbps: mean(thr) }];
    }),
  );
}

// ---- aead-vs-etm ----------------------------------------------------------------------------

/** CBC+HMAC against GCM at one payload: per-byte costs (cycles, or ns without a trusted clock) and speedups of GCM. */
export interface EtmRow {
  sizeBytes: number;
  wasm: { etm: number | null; gcm: number | null; speedup: number | null; trimmedSpeedup: number | null };
  webcrypto: { etm: number | null; gcm: number | null; speedup: number | null };
  publishedSpeedup: number | null;
}

/** The study's table for one key length, measured: in cycles per byte when the clock estimate is trustworthy (`ghz`), else ns per byte. */
export function aeadVsEtm(doc: ResultDocument, bits: 128 | 256): { ghz: number | null; rows: EtmRow[] } {
  const r = studyFigures('aead-vs-etm').results;
  const published = bits === 128 ? r.cpb_128 : r.cpb_256;
  const gcmId = `aes-${bits}-gcm` as AlgorithmId;
  const etmId = `aes-${bits}-cbc-hmac-sha256` as AlgorithmId;
  const clock = doc.environment.clock;
  const ghz = clock?.trustworthy ? clock.ghz : null;
  const per = (c?: CaseResult) => (c ? c.nsPerByte * (ghz ?? 1) : null);
  // time(etm) / time(gcm), as the verdict takes it (report/ratio.ts ratioOf).
  const speedup = (etm?: CaseResult, gcm?: CaseResult) => (etm && gcm ? ratioOf(gcm, etm).value : null);
  const rows = published.payload_bytes.map((n, i) => {
    const [wg, we] = [pick(doc, gcmId, 'rustcrypto-wasm', n), pick(doc, etmId, 'rustcrypto-wasm', n)];
    const [cg, ce] = [pick(doc, gcmId, 'webcrypto', n), pick(doc, etmId, 'webcrypto', n)];
    return {
      sizeBytes: n,
      wasm: { etm: per(we), gcm: per(wg), speedup: speedup(we, wg), trimmedSpeedup: we && wg ? trimmedMean(we.samples) / trimmedMean(wg.samples) : null },
      webcrypto: { etm: per(ce), gcm: per(cg), speedup: speedup(ce, cg) },
      publishedSpeedup: published.speedup[i] ?? null,
    };
  });
  return { ghz, rows };
}

// ---- key-length -----------------------------------------------------------------------------

/** AES-128-GCM's throughput against AES-256-GCM's, per implementation, variant, operation and size. */
export function keyLength(
  doc: ResultDocument,
): { implementation: ImplementationRef; variant: string; sizeBytes: number; mbps128: number | null; mbps256: number | null; gainPercent: number | null }[] {
  return doc.cases
    .filter((c) => c.algorithm === 'aes-128-gcm')
    .map((c128) => {
      const c256 = pick(doc, 'aes-256-gcm', c128.implementation, c128.sizeBytes, c128.operation, c128.variant);
      return {
        implementation: c128.implementation,
        variant: c128.variant,
        sizeBytes: c128.sizeBytes,
        mbps128: mbps(c128),
        mbps256: mbps(c256),
        gainPercent: c256 ? (ratioOf(c128, c256).value - 1) * 100 : null,
      };
    });
}

// ---- aes-candidates -------------------------------------------------------------------------

/** The three AES finalists, each in the same GCM construction: the study's names and this project's ids. */
export const FINALISTS = [
  { cipher: 'Rijndael', algorithm: 'aes-128-gcm' },
  { cipher: 'Twofish', algorithm: 'twofish-128-gcm' },
  { cipher: 'Serpent', algorithm: 'serpent-128-gcm' },
] as const satisfies readonly { cipher: string; algorithm: AlgorithmId }[];

/** Each finalist at the shortest message measured (µs per call, state bytes) and its throughput at every size. */
export function aesCandidates(doc: ResultDocument) {
  const sizes = sizesOf(doc);
  const short = sizes[0] ?? 32;
  const ciphers = FINALISTS.map(({ cipher, algorithm }) => ({
    cipher,
    algorithm,
    encUs: us(pick(doc, algorithm, 'rustcrypto-wasm', short, 'encrypt')),
    decUs: us(pick(doc, algorithm, 'rustcrypto-wasm', short, 'decrypt')),
    stateBytes: doc.cases.find((c) => c.algorithm === algorithm)?.stateBytes ?? null,
    mbps: sizes.map((size) => mbps(pick(doc, algorithm, 'rustcrypto-wasm', size, 'encrypt'))),
  }));
  return { short, sizes, ciphers };
}

// ---- lightweight-iot ------------------------------------------------------------------------

/** The curves the study's question compares: Ascon and AES-GCM in WASM, and what Web Crypto, ChaCha and noble add. */
export const IOT_SERIES: readonly Series[] = [
  { algorithm: 'ascon-aead128', implementation: 'rustcrypto-wasm' },
  { algorithm: 'aes-128-gcm', implementation: 'rustcrypto-wasm' },
  { algorithm: 'aes-128-gcm', implementation: 'webcrypto' },
  { algorithm: 'chacha20-poly1305', implementation: 'rustcrypto-wasm' },
  { algorithm: 'aes-128-gcm', implementation: 'noble' },
];

export interface Crossover {
  a: Series;
  b: Series;
  /** Where the two cost models cross within the sizes measured, or null. */
  bytes: number | null;
  /** Faster below the crossover (the cheaper fixed cost), and above it (the cheaper per byte); with no crossover, the one faster throughout. */
  below: Series | null;
  above: Series;
}

/** Time per message of every series at every size, their cost models, where each pair crosses, and each algorithm's state and code. */
export function lightweightIot(doc: ResultDocument) {
  const models = costModels(doc);
  const model = (s: Series) => models.find((m) => m.algorithm === s.algorithm && m.implementation === s.implementation)?.model;
  const sizes = sizesOf(doc);
  const [lo, hi] = [sizes[0] ?? 8, sizes[sizes.length - 1] ?? 1 << 20];
  const perMessage = sizes.map((sizeBytes) => ({ sizeBytes, us: IOT_SERIES.map((s) => us(pick(doc, s.algorithm, s.implementation, sizeBytes))) }));
  const crossovers: Crossover[] = [];
  for (let i = 0; i < IOT_SERIES.length; i++) {
    for (let j = i + 1; j < IOT_SERIES.length; j++) {
      const [a, b] = [IOT_SERIES[i]!, IOT_SERIES[j]!];
      const [ma, mb] = [model(a), model(b)];
      if (!ma || !mb) continue;
      const bytes = crossoverBytes(ma, mb, lo, hi);
      if (bytes === null) crossovers.push({ a, b, bytes, below: null, above: ma.fixedNs + ma.perByteNs * hi < mb.fixedNs + mb.perByteNs * hi ? a : b });
      else crossovers.push({ a, b, bytes, below: ma.fixedNs < mb.fixedNs ? a : b, above: ma.perByteNs < mb.perByteNs ? a : b });
    }
  }
  const memory = (['ascon-aead128', 'aes-128-gcm', 'chacha20-poly1305'] as const).map((algorithm) => ({
    algorithm,
    stateBytes: doc.cases.find((c) => c.algorithm === algorithm && c.stateBytes !== null)?.stateBytes ?? null,
    codeBytes: codeSize.algorithms[algorithm]!.wasmBytes,
    gzipBytes: codeSize.algorithms[algorithm]!.gzipBytes,
  }));
  return { sizes, lo, hi, perMessage, models, crossovers, memory };
}
