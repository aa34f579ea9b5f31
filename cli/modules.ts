/**
 * `--implementation FILE`: a module of yours (web/core/implementations/custom.ts), bundled with esbuild from its
 * own directory (so its own node_modules resolve) into one ES module, for Node or for a browser
 * worker. What is hashed and timed is that bundle's bytes.
 * @module
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { CliError } from './browser-run.ts';

export interface BundledModule {
  /** The file as given. */
  source: string;
  /** The bundle on disk, for Node to import (a browser's bundle is served from memory: none). */
  path?: string;
  /** Where a browser page fetches it from the CLI's server: /m/<name>-<hash>.mjs */
  urlPath: string;
  bytes: Uint8Array;
  /** Removes the bundle from disk once the run that imports it is over (a CI runner runs the CLI on every push). */
  dispose(): void;
}

export async function bundleModule(file: string, platform: 'node' | 'browser'): Promise<BundledModule> {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new CliError(`Invalid --implementation: '${file}' does not exist`);
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new CliError('--implementation needs esbuild (npm install esbuild) to bundle the module');
  }
  let out: import('esbuild').BuildResult<{ write: false }>;
  try {
    out = await esbuild.build({
      entryPoints: [abs],
      absWorkingDir: dirname(abs),
      bundle: true,
      write: false,
      format: 'esm',
      platform,
      target: 'es2022',
      logLevel: 'silent',
      // CommonJS libraries may require Node's built-ins: in Node, give them a require; in a
      // browser, leave those requires unresolved (asmcrypto.js asks for 'crypto' only where
      // `process` exists), so that they fail only if they are ever reached.
      ...(platform === 'node'
        ? { banner: { js: "import { createRequire as __aeadbenchRequire } from 'node:module'; const require = __aeadbenchRequire(import.meta.url);" } }
        : { external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)] }),
    });
  } catch (e) {
    const first = (e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0];
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new CliError(`Invalid --implementation: '${file}' does not bundle: ${first?.text ?? (e as Error).message}${where}`);
  }
  const bytes = out.outputFiles[0]!.contents;
  const name =
    basename(abs)
      .replace(/\.[cm]?[jt]s$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '-') || 'module';
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const urlPath = `/m/${name}-${hash}.mjs`;
  if (platform === 'browser') return { source: file, urlPath, bytes, dispose() {} };
  const dir = mkdtempSync(join(tmpdir(), 'aeadbench-module-'));
  const path = join(dir, `${name}-${hash}.mjs`);
  writeFileSync(path, bytes);
  return { source: file, path, urlPath, bytes, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
