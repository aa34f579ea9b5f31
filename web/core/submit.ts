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

export interface SubmitOptions {
  deviceClass: DeviceClass;
  /** Sent only when given (the site sends it only when the visitor ticks the box). */
  deviceModel?: string;
  fetch?: typeof fetch;
}

export interface SubmissionBody {
  result: ResultDocument;
  deviceClass: DeviceClass;
  deviceModel?: string;
}

const majorOnly = (version: string) => /^\d+/.exec(version)?.[0] ?? '';
/** Memory rounded up to a power of two, so the exact size does not narrow a device down. */
const memoryBucket = (gib: number | null) => (gib === null ? null : 2 ** Math.ceil(Math.log2(Math.max(1, gib))));

export function submissionBody(doc: ResultDocument, o: Pick<SubmitOptions, 'deviceClass' | 'deviceModel'>): SubmissionBody {
  const env = doc.environment;
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
        deviceMemoryGiB: memoryBucket(env.deviceMemoryGiB),
      },
    },
    deviceClass: o.deviceClass,
    ...(o.deviceModel ? { deviceModel: o.deviceModel } : {}),
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

/** POSTs the submission; resolves with the stored id (duplicate: true for a retry already stored). */
export async function submitResult(collectorUrl: string, doc: ResultDocument, o: SubmitOptions): Promise<{ id: string; duplicate: boolean }> {
  const url = new URL('api/v1/results', collectorUrl.endsWith('/') ? collectorUrl : `${collectorUrl}/`);
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(submissionBody(doc, o)), credentials: 'omit' });
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
