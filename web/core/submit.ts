/**
 * Submits a result document to a collector. The document is sent as it is; the collector keeps
 * only the coarse environment and recomputes every summary from the raw samples. The run id
 * makes a retried POST idempotent.
 * @module
 */
import type { ResultDocument } from './schema.ts';

export interface SubmitOptions {
  deviceClass: 'phone' | 'tablet' | 'laptop' | 'desktop' | 'server';
  /** Sent only when given (the site sends it only when the visitor ticks the box). */
  deviceModel?: string;
  fetch?: typeof fetch;
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

export async function submitResult(collectorUrl: string, doc: ResultDocument, o: SubmitOptions): Promise<{ id: string; duplicate: boolean }> {
  const url = new URL('/api/v1/results', collectorUrl);
  const body = JSON.stringify({ result: doc, deviceClass: o.deviceClass, ...(o.deviceModel ? { deviceModel: o.deviceModel } : {}) });
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, credentials: 'omit' });
  } catch (e) {
    throw new SubmitError(`collector at ${url.origin} is unreachable: ${(e as Error).message}`, null);
  }
  const text = await res.text();
  if (!res.ok) throw new SubmitError(`collector refused the result (HTTP ${res.status}): ${text.slice(0, 500)}`, res.status);
  const json = JSON.parse(text) as { id: string; duplicate?: boolean };
  return { id: json.id, duplicate: json.duplicate === true };
}
