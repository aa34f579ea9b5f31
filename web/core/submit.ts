/**
 * Submitting a result to a collector. `submissionBody` is exactly what is sent — the page
 * shows it to the visitor before sending. It reduces the environment to coarse fields:
 * browser and OS family with major version, arch, core count, a memory bucket; the user-agent
 * string and platform are emptied. The run id makes a retried POST idempotent. No cookies.
 * @module
 */
import type { ResultDocument } from './schema.ts';

export const DEVICE_CLASSES = ['phone', 'tablet', 'laptop', 'desktop', 'server'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/**
 * What of a device model the crowd may keep: its family, never the model string itself (a
 * model field is free text: "Anna's Pixel 8"). Each family with the model names that belong
 * to it, as UA Client Hints and user agents report them (Android's `Build.MODEL`); a model that
 * matches none is not sent.
 */
export const DEVICE_FAMILIES = [
  ['iPhone', /^iPhone/i],
  ['iPad', /^iPad/i],
  ['Mac', /^Mac/i],
  ['Google Pixel', /^Pixel\b/i],
  ['Samsung Galaxy', /^(SM-|SC-|SCV|Galaxy\b|Samsung\b)/i],
  ['Xiaomi, Redmi, POCO', /^(Xiaomi|Redmi|POCO|Mi\s|M2\d{3}[A-Z]|2[0-4]\d{3}[A-Z0-9]{2,}\b)/i],
  ['OPPO', /^(OPPO|CPH\d)/i],
  ['realme', /^(realme|RMX\d)/i],
  ['vivo', /^(vivo|V2\d{3}|I2\d{3})/i],
  ['OnePlus', /^(OnePlus|ONEPLUS|[A-Z]{2}\d{4}$)/],
  ['Huawei, Honor', /^(HUAWEI|HONOR|[A-Z]{3}-[A-Z]{1,2}\d{1,2}[A-Z]?$)/i],
  ['Motorola', /^(moto|Motorola|XT\d{4})/i],
  ['Infinix, TECNO, itel', /^(Infinix|TECNO|itel)/i],
  ['Nokia', /^Nokia/i],
  ['Sony Xperia', /^(Xperia|SO-|XQ-)/i],
  ['ASUS', /^(ASUS|ROG|ZenFone)/i],
  ['Lenovo', /^Lenovo/i],
  ['Nothing', /^(Nothing|A0[56]\d)/i],
] as const satisfies readonly (readonly [string, RegExp])[];
export const DEVICE_FAMILY_NAMES = DEVICE_FAMILIES.map(([name]) => name) as unknown as readonly [DeviceFamily, ...DeviceFamily[]];
export type DeviceFamily = (typeof DEVICE_FAMILIES)[number][0];

/** The family a model string belongs to, or null when it is none we know (then nothing is sent). */
export function deviceFamily(model: string): DeviceFamily | null {
  const m = model.trim();
  if ((DEVICE_FAMILY_NAMES as readonly string[]).includes(m)) return m as DeviceFamily;
  return DEVICE_FAMILIES.find(([, re]) => re.test(m))?.[0] ?? null;
}

export interface SubmitOptions {
  deviceClass: DeviceClass;
  /** A model or a family; only its family is sent (deviceFamily), and only when given. */
  deviceModel?: string;
  fetch?: typeof fetch;
}

export interface SubmissionBody {
  result: ResultDocument;
  deviceClass: DeviceClass;
  /** The device's family (DEVICE_FAMILIES), never its model string. */
  deviceModel?: DeviceFamily;
}

const majorOnly = (version: string) => /^\d+/.exec(version)?.[0] ?? '';
/**
 * Memory in GiB as the crowd keeps it, so the exact size does not narrow a device down: 2 (2 or
 * less), 4, 8, 16, or 32 (32 or more). A number end to end: the page sends it, the collector
 * checks it again, the export and the permalink give it back.
 */
export function memoryBucketGiB(gib: number | null): 2 | 4 | 8 | 16 | 32 | null {
  if (gib === null || !(gib > 0)) return null;
  if (gib <= 2) return 2;
  if (gib <= 4) return 4;
  if (gib <= 8) return 8;
  if (gib <= 16) return 16;
  return 32;
}

export function submissionBody(doc: ResultDocument, o: Pick<SubmitOptions, 'deviceClass' | 'deviceModel'>): SubmissionBody {
  const env = doc.environment;
  const family = o.deviceModel ? deviceFamily(o.deviceModel) : null;
  return {
    result: {
      ...doc,
      environment: {
        ...env,
        userAgent: '',
        platform: '',
        browser: { name: env.browser.name, version: majorOnly(env.browser.version) },
        ...(env.engine ? { engine: { name: env.engine.name, version: majorOnly(env.engine.version) } } : {}),
        os: { name: env.os.name, version: majorOnly(env.os.version) },
        deviceMemoryGiB: memoryBucketGiB(env.deviceMemoryGiB),
      },
    },
    deviceClass: o.deviceClass,
    ...(family ? { deviceModel: family } : {}),
  };
}

export class SubmitError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'SubmitError';
  }
}

/**
 * What the crowd takes: runs up to the standard preset's size (about 1,240 cases of up to 63
 * samples with every implementation), so that the widest body a collector accepts stays cheap
 * to check. Full and dense runs stay on the device and in exported files. The collector
 * enforces these (collector/submission.ts); the page and the CLI say so before sending.
 */
export const CROWD_MAX_CASES = 1500;
export const CROWD_MAX_SAMPLES = 80_000;
export const CROWD_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Why the crowd would not take this run, before anything is sent; null when it would. */
export function crowdRefusal(doc: Pick<ResultDocument, 'cases' | 'modules'>): string | null {
  if (doc.modules?.length)
    return `a run with modules of your own (${doc.modules.map((m) => m.id).join(', ')}) is never submitted to the crowd: its figures describe your code, not the device`;
  if (doc.cases.length === 0) return 'a run with no finished case has nothing to submit';
  if (doc.cases.length > CROWD_MAX_CASES)
    return `this run has ${doc.cases.length.toLocaleString('en')} cases; the crowd takes runs of up to ${CROWD_MAX_CASES.toLocaleString('en')} (a standard run's size): export the file instead`;
  const samples = doc.cases.reduce((n, c) => n + c.samples.length, 0);
  if (samples > CROWD_MAX_SAMPLES)
    return `this run has ${samples.toLocaleString('en')} samples; the crowd takes runs of up to ${CROWD_MAX_SAMPLES.toLocaleString('en')}: export the file instead`;
  return null;
}

/** POSTs the submission; resolves with the stored id (duplicate: true for a retry already stored). */
export async function submitResult(collectorUrl: string, doc: ResultDocument, o: SubmitOptions): Promise<{ id: string; duplicate: boolean }> {
  const url = new URL('api/v1/results', collectorUrl.endsWith('/') ? collectorUrl : `${collectorUrl}/`);
  // Never sent: the collector refuses them too, and saying so here sends nothing at all.
  const refusal = crowdRefusal(doc);
  if (refusal) throw new SubmitError(refusal, null);
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(submissionBody(doc, o)),
      credentials: 'omit',
    });
  } catch (e) {
    throw new SubmitError(`the collector at ${url.origin} is unreachable (${(e as Error).message})`, null);
  }
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 500);
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      /* not JSON: keep the text */
    }
    throw new SubmitError(`the collector refused the result (HTTP ${res.status}): ${message}`, res.status);
  }
  const json = JSON.parse(text) as { id: string; duplicate?: boolean };
  return { id: json.id, duplicate: json.duplicate === true };
}
