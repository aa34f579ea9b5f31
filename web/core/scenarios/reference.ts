/**
 * The five studies' published figures (reference.json, transcribed from the studies), each
 * checked against its schema when it is read: a figure the scenarios show is a typed number
 * from the study, never `any`, and a transcription that lost a field fails loudly, naming it.
 * @module
 */
import * as v from 'valibot';
import reference from './reference.json' with { type: 'json' };

const Citation = v.object({
  title: v.string(),
  titleIsDescriptive: v.optional(v.boolean()),
  authors: v.array(v.string()),
  venue: v.string(),
  year: v.optional(v.number()),
  doi: v.optional(v.string()),
  url: v.optional(v.string()),
  note: v.optional(v.string()),
});

/** What every study carries beside its figures. */
const study = <I extends string, S extends v.ObjectEntries, R extends v.ObjectEntries>(id: I, setup: S, results: R) =>
  v.object({
    id: v.literal(id),
    seed: v.string(),
    title: v.string(),
    notes: v.string(),
    citation: Citation,
    setup: v.object(setup),
    results: v.object(results),
  });

const series = v.array(v.number());
/** doc-encryption's per-algorithm means (Go, 5 repetitions per file). */
const GoMeans = v.object({ enc_ms: v.number(), dec_ms: v.number(), total_ms: v.number(), enc_sd_ms: v.number(), throughput_MBps: v.number() });
const Tls = v.object({ rps: v.number(), latency_ms: v.number(), throughput_MBps: v.number() });
const Phone = v.object({ time_ms: v.number(), memory_KB: v.number(), cpu_percent: v.number() });
/** The three AES finalists the phone study compared. */
const Finalists = v.object({ Rijndael: Phone, Twofish: Phone, Serpent: Phone });

export const STUDY_SCHEMAS = {
  'doc-encryption': study(
    'doc-encryption',
    { platform: v.string(), scenario_1: v.string(), scenario_2: v.string() },
    {
      scenario_1: v.record(v.string(), GoMeans),
      scenario_2: v.record(v.string(), GoMeans),
      size_overhead_bytes: v.object({ 'AES-GCM': v.number(), 'ChaCha20-Poly1305': v.number() }),
    },
  ),
  'aead-vs-etm': study(
    'aead-vs-etm',
    { platform: v.string(), warmup_iterations: v.number(), measured_iterations: v.number(), statistic: v.string() },
    {
      cpb_128: v.object({ payload_bytes: series, 'AES-128-CBC+HMAC-SHA256': series, 'AES-128-GCM': series, speedup: series }),
      cpb_256: v.object({ payload_bytes: series, 'AES-256-CBC+HMAC-SHA256': series, 'AES-256-GCM': series, speedup: series }),
    },
  ),
  'key-length': study('key-length', { platform: v.string() }, { 'AES-256-GCM': Tls, 'AES-128-GCM': Tls, throughput_gain_128_over_256_percent: v.number() }),
  'aes-candidates-mobile': study(
    'aes-candidates-mobile',
    { devices: v.array(v.string()), key_bits: v.number(), runs: v.string(), message: v.string() },
    { encrypt_mean: Finalists, decrypt_mean: Finalists },
  ),
  'lightweight-iot': study(
    'lightweight-iot',
    { platform: v.string(), timer: v.string(), associated_data: v.string() },
    {
      encrypt_us: v.object({ payload_bytes: series, 'Ascon-128': series, 'AES-128-GCM': series, ratio_ascon_over_aes: series }),
      peak_memory_KB: v.object({ 'Ascon-128': v.number(), 'AES-128-GCM': v.number() }),
      ascon_ops_per_s: v.number(),
    },
  ),
};

export type StudyId = keyof typeof STUDY_SCHEMAS;
export type Study<I extends StudyId> = v.InferOutput<(typeof STUDY_SCHEMAS)[I]>;

/** A study's record checked against its schema; an error names the study and the field. */
export function parseStudy<I extends StudyId>(id: I, raw: unknown): Study<I> {
  const parsed = v.safeParse(STUDY_SCHEMAS[id], raw);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    throw new Error(`reference.json, study '${id}': ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return parsed.output as Study<I>;
}

/** One study's figures from reference.json, checked (parseStudy). */
export function studyFigures<I extends StudyId>(id: I): Study<I> {
  const raw = (reference.studies as { id: string }[]).find((s) => s.id === id);
  if (!raw) throw new Error(`reference.json has no study '${id}'`);
  return parseStudy(id, raw);
}

/** The ids of reference.json's studies, in its order. */
export const REFERENCE_STUDY_IDS = (reference.studies as { id: string }[]).map((s) => s.id);
