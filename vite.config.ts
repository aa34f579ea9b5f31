import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { ISOLATION_HEADERS, contentSecurityPolicy } from './server/headers.ts';
import { initialJsReport } from './scripts/initial-js.ts';

/** The collector's origin when the site is built to submit to another host (VITE_COLLECTOR_URL). */
const collectorOrigin = () => {
  const url = process.env.VITE_COLLECTOR_URL;
  return url ? new URL(url).origin : '';
};

export default defineConfig({
  root: 'web/app',
  publicDir: '../../public',
  plugins: [
    svelte(),
    // The first visit's JavaScript, against its budget (scripts/initial-js.ts), after every build.
    { name: 'initial-js', apply: 'build', closeBundle: () => console.log(initialJsReport(fileURLToPath(new URL('./dist', import.meta.url)))) },
    // The same policy in the page itself, for static hosts that send no headers.
    {
      name: 'csp-meta',
      apply: 'build',
      transformIndexHtml: () => [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy(collectorOrigin(), { meta: true }) },
          injectTo: 'head-prepend',
        },
      ],
    },
  ],
  worker: { format: 'es' },
  build: {
    outDir: '../../dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
    // Never inlined as data: URLs, which the CSP refuses: test vectors, fetched (connect-src), and
    // scripts imported by URL, such as the timing loops contract.ts and bench:modules' plain loop
    // import a fresh copy of per code path (script-src 'self').
    assetsInlineLimit: (file: string) => (/\.(json|m?js)$/.test(file) ? false : undefined),
    // The site alone: the lab's harness page has a build of its own (lab/vite.config.ts).
    // No [PLUGIN_TIMINGS] warning: Rolldown names a plugin that took much of a build's time, and on
    // a busy 2-core host Svelte's compiler always does; it said nothing a reader could act on.
    rollupOptions: { input: { main: 'web/app/index.html' }, checks: { bundlerTimings: false } },
  },
  server: { headers: ISOLATION_HEADERS, fs: { allow: ['../..'] } },
  preview: { headers: { ...ISOLATION_HEADERS, 'Content-Security-Policy': contentSecurityPolicy() } },
});
