// The engine compiled as the npm package ships it: web/core (with cli/ and server/, as
// tsconfig.package.json includes them) to JavaScript under `outDir`, the built WASM and the
// vectors beside it. build-package.mjs packs it; bench:modules times it.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Compiles into `outDir` (absolute, or relative to the repository); `declaration` for the package's types. */
export function buildEngine(outDir, { declaration = true } = {}) {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.package.json', '--outDir', outDir, '--declaration', String(declaration)], { stdio: 'inherit', cwd: ROOT });
  const out = outDir.startsWith('/') ? outDir : ROOT + outDir;
  for (const dir of ['wasm', 'counter', 'vectors'])
    cpSync(`${ROOT}web/core/${dir}`, `${out}/web/core/${dir}`, { recursive: true, filter: (p) => !p.endsWith('.stamp') });
  // Plain JavaScript that tsc does not emit: the timing loops contract.ts loads a fresh copy of per code path.
  cpSync(`${ROOT}web/core/implementations/loop.js`, `${out}/web/core/implementations/loop.js`);
}
