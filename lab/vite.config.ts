// The lab's harness page (lab/index.html: the engine beside loops written apart from it), built
// on its own into target/lab-site/ for the benchmarks that open it (lab/bench/harness-page.ts), so
// that the site's build ships no harness. `vite build --config lab/vite.config.ts`.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'lab',
  publicDir: '../public',
  worker: { format: 'es' },
  build: {
    outDir: '../target/lab-site',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 800,
    // As the site's: scripts imported by URL (the plain loop, the engine's timing loops) and the
    // vectors are fetched, never inlined as data: URLs.
    assetsInlineLimit: (file: string) => (/\.(json|m?js)$/.test(file) ? false : undefined),
    rollupOptions: { input: { harness: 'lab/index.html' }, checks: { bundlerTimings: false } },
  },
});
