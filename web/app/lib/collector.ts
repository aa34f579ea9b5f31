/**
 * Where the collector is. Build-time VITE_COLLECTOR_URL: empty (default) means the site's own
 * origin (what `npm start` serves), `none` turns submission and the crowd view off. At run time
 * the page asks its health endpoint; a static host without a collector answers 404, and the
 * collector's parts of the page stay hidden.
 */
const configured = (import.meta.env.VITE_COLLECTOR_URL as string | undefined) ?? '';

export const collectorUrl: string | null = configured === 'none' ? null : configured || location.origin;

export async function collectorAvailable(): Promise<boolean> {
  if (!collectorUrl) return false;
  try {
    const r = await fetch(new URL('api/v1/health', `${collectorUrl}/`), { signal: AbortSignal.timeout(4000), credentials: 'omit' });
    return r.ok && (await r.json()).ok === true;
  } catch {
    return false;
  }
}

export async function getJson<T>(path: string, params: Record<string, string | number | undefined>): Promise<T> {
  const url = new URL(`api/v1/${path}`, `${collectorUrl}/`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const r = await fetch(url, { credentials: 'omit' });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error ?? `HTTP ${r.status}`);
  return body as T;
}
