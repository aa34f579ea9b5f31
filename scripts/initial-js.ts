/**
 * The JavaScript a first visit loads before anything is measured: every script and
 * modulepreload that dist/index.html names, gzip-compressed (level 9) as a server would send it.
 * Printed after every build (vite.config.ts) and held to INITIAL_JS_BUDGET by e2e/budget.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budget: 80 KB of gzip JavaScript before the first run. */
export const INITIAL_JS_BUDGET = 80_000;

export function initialJs(distDir: string): { files: { file: string; bytes: number; gzipBytes: number }[]; gzipBytes: number } {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  const files = refs.map((ref) => {
    const body = readFileSync(join(distDir, ref.replace(/^\//, '')));
    return { file: ref, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0) };
}

/** One line for the build output. */
export function initialJsReport(distDir: string): string {
  const { files, gzipBytes } = initialJs(distDir);
  const list = files.map((f) => `${f.file.split('/').pop()} ${(f.gzipBytes / 1000).toFixed(1)}`).join(', ');
  return `initial JavaScript: ${(gzipBytes / 1000).toFixed(1)} kB gzip of ${(INITIAL_JS_BUDGET / 1000).toFixed(0)} kB budget (${list})`;
}
