/**
 * What a submission is, and what of it is kept: validated with the shared result schema,
 * every summary recomputed from the raw samples (a client's summary is never trusted),
 * physically absurd figures refused, and the environment reduced to coarse fields.
 * Pure functions; the routes and the store do the I/O.
 * @module
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { IMPLEMENTATIONS, SCENARIO_IDS, implementationSupports, isBuiltInImplementation } from '../web/core/tables/algorithms.ts';
import { ARCHES, BROWSER_NAMES, type EngineName, OS_NAMES } from '../web/core/platform/env.ts';
import type { ExecutionMode } from '../web/core/execution.ts';
import { type CaseIdentity, CaseResultSchema, ResultDocumentSchema, type ResultDocument, caseIdentity, caseKey, formatIssue } from '../web/core/schema.ts';
import { derived, medianAndRobustCv } from '../web/core/stats.ts';
import { EXTRA_ROUND_SAMPLES, mostExtraRounds, mostSamples } from '../web/core/run/stop-rule.ts';

import { CROWD_MAX_CASES, CROWD_MAX_SAMPLES, DEVICE_CLASSES, DEVICE_FAMILY_NAMES, type DeviceClass, memoryBucketGiB } from '../web/core/submit.ts';

export { DEVICE_CLASSES, type DeviceClass };

/**
 * What the collector keeps of a case, checked as the result schema checks it. The rest of a case
 * (the client's summary, cycles, modes) is neither checked nor kept: every figure is recomputed
 * from the samples. The samples are checked by one loop (reduceSubmission) that names the first
 * bad one: 250,000 samples through a schema pipe cost a fifth of a second.
 */
const KeptCaseSchema = v.object({
  ...v.pick(CaseResultSchema, ['algorithm', 'implementation', 'variant', 'operation', 'sizeBytes', 'aadBytes']).entries,
  samples: v.pipe(v.custom<number[]>(Array.isArray, 'an array of samples'), v.minLength(1), v.maxLength(10_000)),
});

/** What the collector keeps of a result: its id, parameters, environment, modules and cases. */
const KeptDocumentSchema = v.object({
  ...v.pick(ResultDocumentSchema, ['schema', 'runId', 'params', 'environment', 'modules']).entries,
  cases: v.array(KeptCaseSchema),
});
type KeptDocument = v.InferOutput<typeof KeptDocumentSchema>;

export const SubmissionSchema = v.object({
  result: KeptDocumentSchema,
  deviceClass: v.picklist(DEVICE_CLASSES),
  /** A family from the engine's table, never a model string (free text would be published as is). */
  deviceModel: v.optional(v.picklist(DEVICE_FAMILY_NAMES, `a device family (${DEVICE_FAMILY_NAMES.join('; ')}), not a model`)),
});
export type Submission = v.InferOutput<typeof SubmissionSchema>;

/**
 * Above this no AEAD runs on any device: it is beyond the memory bandwidth of any machine a
 * browser runs on (a whole server socket moves a few hundred GB/s; one core tens).
 */
export const MAX_PLAUSIBLE_BYTES_PER_SECOND = 100e9;
/** One operation never takes longer than a minute in any preset. */
export const MAX_PLAUSIBLE_NS_PER_OP = 60e9;
/** What the crowd takes (web/core/submit.ts): runs up to the standard preset's size. */
export const MAX_CASES = CROWD_MAX_CASES;
export const MAX_SAMPLES_TOTAL = CROWD_MAX_SAMPLES;

/** A request the collector refuses, with the status and a message naming what was wrong: a body, a query, a content type, an origin. */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 403 | 422 | 429,
    message: string,
  ) {
    super(message);
  }
}

/** A case as the collector keeps it: its identity and the figures recomputed from its samples. */
export interface ReducedCase extends CaseIdentity {
  /** Its samples are `n` float64s in its submission's `samples`, after the cases before it. */
  n: number;
  medianNs: number;
  bytesPerSecond: number;
  robustCv: number;
  /** Every sample the same value: no timer gives that, so the case is kept but never counted (cohorts.ts). */
  noSpread: boolean;
}

export interface Reduced {
  id: string;
  payloadSha256: string;
  schemaVersion: string;
  engineVersion: string;
  deviceClass: DeviceClass;
  deviceModel: string | null;
  browser: string;
  browserMajor: number | null;
  engine: EngineName;
  os: string;
  osMajor: number | null;
  arch: string;
  cores: number;
  /** GiB: 2, 4, 8, 16 or 32 (web/core/submit.ts memoryBucketGiB). */
  memoryBucket: number | null;
  runtime: 'browser' | 'node';
  /** The execution mode (web/core/execution.ts): anything but standard is a population of its own. */
  execution: ExecutionMode;
  isolated: boolean;
  timerUs: number;
  preset: string;
  scenario: string | null;
  /** The keyed hash of the sender's network for the day (source.ts); set by the route. */
  source: string | null;
  /** The same hash of the sender's address (IPv6: its /64), for the address's share of the daily cap; never stored with the submission. */
  addressKey?: string | null;
  cases: ReducedCase[];
  /** Every case's samples in case order, little-endian float64s (sampleBytes): what is hashed and stored. */
  samples: Uint8Array;
}

/**
 * The major version, or null if there is none. The page sends majors only (submit.ts), so
 * anything but up to four digits is refused, and so is a number no release ever had.
 */
function major(version: string, field: string): number | null {
  if (version === '') return null;
  const m = /^(\d{1,6})(?:\.\d{1,6}){0,3}$/.exec(version);
  if (!m) throw new RequestError(422, `${field}: '${version.slice(0, 40)}' is not a version number`);
  const n = Number(m[1]);
  if (n > 1000) throw new RequestError(422, `${field}: major version ${m[1]} is not plausible`);
  return n;
}

const MOBILE_OS: Record<string, readonly string[]> = {
  phone: ['Android', 'iOS'],
  // iPadOS's Safari sends a macOS user agent by default, and 2-in-1s run Windows or ChromeOS.
  tablet: ['Android', 'iOS', 'iPadOS', 'macOS', 'Windows', 'ChromeOS'],
};

/**
 * The environment must be one this engine can produce, and hang together: names from the
 * engine's own lists (env.ts), a phone that runs a phone's OS, a core count a device has.
 * Free text never reaches the crowd: every published field is an enum, a number or a pattern.
 */
function checkEnvironment(doc: KeptDocument, deviceClass: DeviceClass): void {
  const env = doc.environment;
  const oneOf = (field: string, value: string, list: readonly string[]) => {
    if (!list.includes(value)) throw new RequestError(422, `${field}: '${value.slice(0, 40)}' is not one of ${list.join(', ')}`);
  };
  oneOf('result.environment.browser.name', env.browser.name, BROWSER_NAMES);
  oneOf('result.environment.os.name', env.os.name, OS_NAMES);
  oneOf('result.environment.arch', env.arch, ARCHES);
  if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]{1,20})?$/.test(env.engineVersion))
    throw new RequestError(422, `result.environment.engineVersion: '${env.engineVersion.slice(0, 40)}' is not a version`);
  if (env.hardwareConcurrency < 1 || env.hardwareConcurrency > 256)
    throw new RequestError(422, `result.environment.hardwareConcurrency: ${env.hardwareConcurrency} cores is not a device (1–256)`);
  if ((env.runtime === 'node') !== (env.browser.name === 'Node.js'))
    throw new RequestError(422, `result.environment.runtime: '${env.runtime}' does not match browser '${env.browser.name}'`);
  const mobile = MOBILE_OS[deviceClass];
  if (mobile && !mobile.includes(env.os.name))
    throw new RequestError(422, `deviceClass: a ${deviceClass} does not run ${env.os.name} (expected ${mobile.join(', ')})`);
  if (mobile && env.hardwareConcurrency > 16)
    throw new RequestError(422, `deviceClass: a ${deviceClass} with ${env.hardwareConcurrency} cores is not plausible (at most 16)`);
  const engine = engineOf(doc);
  if ((env.os.name === 'iOS' || env.os.name === 'iPadOS') && engine !== 'WebKit')
    throw new RequestError(422, `result.environment.engine: every browser on ${env.os.name} is WebKit, not ${engine}`);
  if ((env.runtime === 'node') !== (engine === 'V8'))
    throw new RequestError(422, `result.environment.engine: ${engine} does not run ${env.runtime === 'node' ? 'Node.js' : 'a browser page'}`);
  if (deviceClass === 'server' && (env.os.name === 'iOS' || env.os.name === 'iPadOS'))
    throw new RequestError(422, `deviceClass: a server does not run ${env.os.name}`);
  if (!(env.timerResolutionMs > 0 && env.timerResolutionMs <= 1000))
    throw new RequestError(422, `result.environment.timerResolutionMs: ${env.timerResolutionMs} is not a timer resolution`);
}

/** The engine the document names, or for documents from before engines were recorded, the one its browser implies. */
export function engineOf(doc: Pick<ResultDocument, 'environment'>): EngineName {
  const env = doc.environment;
  if (env.engine) return env.engine.name;
  if (env.os.name === 'iOS' || env.os.name === 'iPadOS') return 'WebKit';
  const byBrowser: Record<string, EngineName> = {
    Chrome: 'Blink',
    Edge: 'Blink',
    Opera: 'Blink',
    'Samsung Internet': 'Blink',
    Firefox: 'Gecko',
    Safari: 'WebKit',
    WebKitGTK: 'WebKit',
    Epiphany: 'WebKit',
    'Node.js': 'V8',
  };
  return byBrowser[env.browser.name] ?? 'unknown';
}

/**
 * The crowd holds figures of the built-in implementations only: a module of someone's own
 * (custom.ts) describes their code, not the device, and no one else can run it again.
 */
function checkBuiltInOnly(doc: KeptDocument): void {
  const own = [...new Set([...(doc.modules ?? []).map((m) => m.id), ...doc.params.implementations.filter((i) => !isBuiltInImplementation(i))])];
  if (own.length)
    throw new RequestError(
      422,
      `result: a run with modules of your own (${own.slice(0, 5).join(', ')}) is not accepted by the crowd; its figures describe your code, not the device (keep the exported file, or run again without them)`,
    );
}

/**
 * A case must be one the run's own parameters asked for, measured the way its implementation
 * is measured, with no more samples than its rounds, samples and re-runs allow: a body cannot
 * be padded with cases or samples no run would make.
 */
function checkCase(doc: KeptDocument, asked: AskedFor, c: KeptDocument['cases'][number], where: string): void {
  const p = doc.params;
  const impl = IMPLEMENTATIONS.find((i) => i.id === c.implementation);
  // The schema lets a module of yours name its cases; the crowd takes only the built-ins.
  if (!impl)
    throw new RequestError(
      422,
      `${where}.implementation: '${String(c.implementation).slice(0, 40)}' is not a built-in implementation; results of modules of yours stay out of the crowd`,
    );
  if (!(impl.variants as readonly string[]).includes(c.variant))
    throw new RequestError(422, `${where}.variant: '${c.variant.slice(0, 40)}' is not a variant of ${c.implementation} (${impl.variants.join(', ')})`);
  if (!implementationSupports(c.implementation, c.algorithm)) throw new RequestError(422, `${where}: ${c.implementation} does not implement ${c.algorithm}`);
  for (const field of ASKED_FIELDS) {
    if (!asked[field].has(c[field])) throw new RequestError(422, `${where}.${field}: ${c[field]} is not in the run's params.${PARAM_OF[field]}`);
  }
  if (c.samples.length > asked.mostSamples)
    throw new RequestError(
      422,
      `${where}.samples: ${c.samples.length} samples, but ${p.rounds} rounds of ${p.samplesPerRound} with ${mostExtraRounds(p)} re-runs (each up to ${EXTRA_ROUND_SAMPLES}× a round's) make at most ${asked.mostSamples}`,
    );
}

/** A case's fields that must be among the run's own parameters, and the parameter each is in. */
const PARAM_OF = { algorithm: 'algorithms', implementation: 'implementations', operation: 'operations', sizeBytes: 'sizes', aadBytes: 'aadBytes' } as const;
const ASKED_FIELDS = Object.keys(PARAM_OF) as (keyof typeof PARAM_OF)[];
type AskedFor = { [F in keyof typeof PARAM_OF]: Set<unknown> } & { mostSamples: number };

/** The run's parameters as sets, made once per body: a body has up to MAX_CASES cases to look up. */
function askedFor(p: KeptDocument['params']): AskedFor {
  return {
    algorithm: new Set(p.algorithms),
    implementation: new Set(p.implementations),
    operation: new Set(p.operations),
    sizeBytes: new Set(p.sizes),
    aadBytes: new Set(p.aadBytes),
    mostSamples: mostSamples(p),
  };
}

/**
 * SHA-256 of what is kept, so that a resend of the same run is told apart from another run
 * under the same id: everything but the samples as JSON, then the samples as the bytes that are
 * stored (a JSON string of 250,000 numbers cost 60–90 ms to make).
 */
function payloadHash(doc: KeptDocument, deviceClass: string, deviceModel: string | null, samples: Uint8Array): string {
  const h = createHash('sha256').update(JSON.stringify({ doc: { ...doc, cases: doc.cases.map(({ samples: _, ...c }) => c) }, deviceClass, deviceModel }));
  return h.update(samples).digest('hex');
}

const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/**
 * Every case's samples, one after another, as little-endian float64s: made once per body, for
 * the hash and for the row (store.ts samplesOf reads them back). One native copy; byte-swapped
 * only on a big-endian host.
 */
export function sampleBytes(cases: readonly { samples: readonly number[] }[]): Uint8Array {
  const all = new Float64Array(cases.reduce((n, c) => n + c.samples.length, 0));
  let at = 0;
  for (const c of cases) {
    all.set(c.samples, at);
    at += c.samples.length;
  }
  const bytes = new Uint8Array(all.buffer);
  if (!LITTLE_ENDIAN) for (let i = 0; i < bytes.length; i += 8) bytes.subarray(i, i + 8).reverse();
  return bytes;
}

/**
 * What a body may hold before it is parsed: JSON.parse costs about 50 ns per value and far more
 * per object, so a 4 MiB body of 1.4 M tiny values or 500,000 `{}` costs a core for a tenth of
 * a second before any check runs. The largest valid document has 80,000 samples, as many cycle
 * ids, up to 100,000 interference values and some 40 fields per case; these bounds sit above
 * that and well below what is expensive. One pass over the text.
 */
export const MAX_BODY_VALUES = 600_000;
export const MAX_BODY_CONTAINERS = 30_000;
const MAX_ARRAY_ITEMS = 100_000;

export function checkBodyText(text: string): void {
  // indexOf runs natively and the count stops at its bound, so this costs a few ms at most.
  // Separators inside strings count too: the strings of a valid result are short.
  const count = (ch: string, most: number) => {
    let n = 0;
    for (let i = text.indexOf(ch); i !== -1 && n <= most; i = text.indexOf(ch, i + 1)) n++;
    return n;
  };
  if (count(',', MAX_BODY_VALUES) > MAX_BODY_VALUES) throw new RequestError(422, `body: more than ${MAX_BODY_VALUES} values; a result holds fewer`);
  const containers = count('{', MAX_BODY_CONTAINERS) + count('[', MAX_BODY_CONTAINERS);
  if (containers > MAX_BODY_CONTAINERS) throw new RequestError(422, `body: more than ${MAX_BODY_CONTAINERS} objects and arrays; a result holds fewer`);
}

/**
 * The body's shape, checked before the schema in time proportional to the number of cases:
 * the case count and the number of samples are what make a body expensive, and an array of
 * millions of bad samples must be refused without visiting them. (A schema that collects every
 * issue made one object per bad item: an 8 MiB body of `-1`s took 7 s of CPU and 3 GB.)
 */
function checkShape(body: unknown): void {
  // No array of a result holds more than 100,000 items (interference's; samples 10,000):
  // refused here by length, before a schema visits every item of it.
  const pending: unknown[] = [body];
  while (pending.length) {
    const x = pending.pop();
    if (Array.isArray(x)) {
      if (x.length > MAX_ARRAY_ITEMS) throw new RequestError(422, `body: an array of ${x.length} items, at most ${MAX_ARRAY_ITEMS} in a result`);
      // An array of numbers or strings (samples) is not walked: an object hidden in it fails
      // the schema at once, before anything inside it is visited.
      if (typeof x[0] !== 'object' && typeof x[x.length - 1] !== 'object') continue;
      for (const item of x) if (typeof item === 'object' && item !== null) pending.push(item);
    } else if (typeof x === 'object' && x !== null) {
      for (const k in x) {
        const value = (x as Record<string, unknown>)[k];
        if (typeof value === 'object' && value !== null) pending.push(value);
      }
    }
  }
  const cases = (body as { result?: { cases?: unknown } } | null)?.result?.cases;
  if (!Array.isArray(cases)) return; // the schema names what is missing
  if (cases.length > MAX_CASES) throw new RequestError(422, `result.cases: ${cases.length} cases, at most ${MAX_CASES}`);
  let total = 0;
  for (const c of cases) {
    const samples = (c as { samples?: unknown } | null)?.samples;
    if (Array.isArray(samples)) total += samples.length;
  }
  if (total > MAX_SAMPLES_TOTAL) throw new RequestError(422, `result.cases: ${total} samples in all, at most ${MAX_SAMPLES_TOTAL}`);
}

/** Validates, checks plausibility and reduces; throws RequestError naming the field. */
export function reduceSubmission(body: unknown): Reduced {
  checkShape(body);
  // The first issue is enough to refuse, and stopping there bounds the work by where it is.
  const parsed = v.safeParse(SubmissionSchema, body, { abortEarly: true });
  if (!parsed.success) throw new RequestError(400, `invalid submission: ${parsed.issues.map(formatIssue).join('; ')}`);
  const { result, deviceClass, deviceModel } = parsed.output;
  const doc: KeptDocument = result;
  checkBuiltInOnly(doc);
  checkEnvironment(doc, deviceClass);
  if (doc.environment.userAgent !== '')
    throw new RequestError(422, 'result.environment.userAgent: must be empty; the collector does not take user-agent strings');
  if (doc.cases.length === 0) throw new RequestError(422, 'result.cases: a submission needs at least one case');
  if (doc.cases.length > MAX_CASES) throw new RequestError(422, `result.cases: ${doc.cases.length} cases, at most ${MAX_CASES}`);
  const totalSamples = doc.cases.reduce((n, c) => n + c.samples.length, 0);
  if (totalSamples > MAX_SAMPLES_TOTAL) throw new RequestError(422, `result.cases: ${totalSamples} samples in all, at most ${MAX_SAMPLES_TOTAL}`);
  const seen = new Set<string>();
  const asked = askedFor(doc.params);
  const cases = doc.cases.map((c, i): ReducedCase => {
    const where = `result.cases.${i}`;
    const key = caseKey(c);
    if (seen.has(key)) throw new RequestError(422, `${where}: the case ${key} appears twice`);
    seen.add(key);
    checkCase(doc, asked, c, where);
    for (let j = 0; j < c.samples.length; j++) {
      const s = c.samples[j];
      if (typeof s !== 'number')
        throw new RequestError(400, `invalid submission: ${where}.samples.${j}: expected a number, got ${JSON.stringify(s)?.slice(0, 40)}`);
      if (!(s > 0) || s > MAX_PLAUSIBLE_NS_PER_OP) throw new RequestError(422, `${where}.samples.${j}: ${s} ns per operation is not a plausible time`);
    }
    const summary = medianAndRobustCv(c.samples); // recomputed: the client's summary is ignored
    const { bytesPerSecond } = derived(summary.median, c.sizeBytes);
    if (bytesPerSecond > MAX_PLAUSIBLE_BYTES_PER_SECOND) {
      throw new RequestError(
        422,
        `${where}: ${(bytesPerSecond / 1e9).toFixed(1)} GB/s is above any plausible memory bandwidth (limit ${MAX_PLAUSIBLE_BYTES_PER_SECOND / 1e9} GB/s)`,
      );
    }
    return {
      // caseIdentity(c)'s fields, written out: a spread costs a copy per case of 1,500.
      algorithm: c.algorithm,
      implementation: c.implementation,
      variant: c.variant,
      operation: c.operation,
      sizeBytes: c.sizeBytes,
      aadBytes: c.aadBytes,
      n: c.samples.length,
      medianNs: summary.median,
      bytesPerSecond,
      robustCv: summary.robustCv,
      noSpread: c.samples.length > 1 && c.samples.every((x) => x === c.samples[0]),
    };
  });
  const env = doc.environment;
  const samples = sampleBytes(doc.cases);
  return {
    id: doc.runId,
    payloadSha256: payloadHash(doc, deviceClass, deviceModel ?? null, samples),
    schemaVersion: doc.schema,
    engineVersion: env.engineVersion,
    deviceClass,
    deviceModel: deviceModel ?? null,
    browser: env.browser.name,
    browserMajor: major(env.browser.version, 'result.environment.browser.version'),
    engine: engineOf(doc),
    os: env.os.name,
    osMajor: major(env.os.version, 'result.environment.os.version'),
    arch: env.arch,
    cores: env.hardwareConcurrency,
    memoryBucket: memoryBucketGiB(env.deviceMemoryGiB),
    runtime: env.runtime,
    execution: env.execution?.mode ?? 'standard',
    isolated: env.crossOriginIsolated,
    timerUs: env.timerResolutionMs * 1000,
    preset: doc.params.preset,
    scenario: SCENARIO_IDS.includes(doc.params.preset) ? doc.params.preset : null,
    source: null,
    cases,
    samples,
  };
}
