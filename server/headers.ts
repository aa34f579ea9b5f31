/**
 * HTTP headers every server of the site sends (Vite dev/preview, server/serve.ts, the CLI).
 *
 * Cross-origin isolation everywhere: with COOP + COEP, timers go from 100 µs (Chromium) / 1 ms
 * (Firefox) to 5 / 20 µs, which is what makes short samples trustworthy.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * No 'unsafe-eval': WebAssembly needs only 'wasm-unsafe-eval'. Observable Plot sets inline
 * styles. No form may post anywhere but here (`form-action`).
 *
 * `meta`: the policy as a `<meta>` tag can carry it, for static hosts that send no headers
 * (the page then relies on coi-serviceworker for isolation). A meta policy may not hold
 * `frame-ancestors`; only the header can forbid framing.
 */
export function contentSecurityPolicy(collectorOrigin = '', o: { meta?: boolean } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self'${collectorOrigin ? ' ' + collectorOrigin : ''}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    ...(o.meta ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}
