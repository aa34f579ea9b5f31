// One folder per implementation (web/core/implementations/<id>/: meta.ts and backend.ts), and
// everything else derived from the folders: these fail when a derived list misses one.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS, IMPLEMENTATION_IDS, implementationClass, implementationsOf } from '../tables/algorithms.ts';
import { BACKENDS as BROWSER_BACKENDS } from '../implementations/backends.browser.ts';
import { BACKENDS as NODE_BACKENDS } from '../implementations/backends.node.ts';
import { nodePlatform } from '../worker/platform-node.ts';
import { wasmFeatures } from '../implementations/cores.ts';
import { UNITS_DIR, readUnits, unitFiles } from '../../../scripts/units.ts';
import { implementationTable } from '../../../scripts/docs-tables.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const folders = readdirSync(UNITS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('an implementation is one folder', () => {
  it('every folder is a built-in of the table, and every built-in a folder', () => {
    expect([...IMPLEMENTATION_IDS].sort()).toEqual(folders);
    expect(folders.length).toBeGreaterThanOrEqual(6);
  });

  it('the derived files (tables/implementations.ts, implementations/backends.browser.ts and backends.node.ts) are what the folders give now (`npm run units`)', async () => {
    for (const [name, text] of Object.entries(unitFiles(await readUnits()))) expect(readFileSync(join(UNITS_DIR, '..', name), 'utf8'), name).toBe(text);
  });

  it("each runtime's worker can load exactly the implementations whose meta.ts says they run there", () => {
    expect(Object.keys(BROWSER_BACKENDS).sort()).toEqual(implementationsOf('browser').sort());
    expect(Object.keys(NODE_BACKENDS).sort()).toEqual(implementationsOf('node').sort());
    expect(implementationsOf('browser')).not.toContain('node-crypto');
  });

  it('each backend.ts makes backends of its own id, with variants its meta.ts lists (in Node, where all of them run)', async () => {
    const features = wasmFeatures();
    for (const meta of IMPLEMENTATIONS) {
      const ctx = {
        params: { wasm: 'both' as const, webcrypto: ['sequential', 'pipelined'] as ('sequential' | 'pipelined')[] },
        loadCores: nodePlatform.loadCores,
        loadBuildInfo: nodePlatform.loadBuildInfo,
        features,
      };
      const made = await (await NODE_BACKENDS[meta.id]!()).default(ctx);
      expect(made.length, meta.id).toBeGreaterThan(0);
      for (const b of made) {
        expect(b.implementation).toBe(meta.id);
        expect(meta.variants as readonly string[]).toContain(b.variant);
        for (const a of b.algorithms) expect(meta.algorithms as readonly string[], `${meta.id} offers ${a}`).toContain(a);
      }
    }
  });

  it("each class comes from the folder's meta.ts, and a module of yours is 'unknown'", () => {
    expect(implementationClass('noble', 'aes-128-gcm')).toBe('table');
    expect(implementationClass('webcrypto', 'aes-128-gcm')).toBe('hardware');
    expect(implementationClass('rustcrypto-wasm', 'twofish-128-gcm')).toBe('table');
    expect(implementationClass('my-module' as never, 'aes-128-gcm')).toBe('unknown');
  });

  it('the package depends on every npm package an implementation imports, and package.json has it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    for (const m of IMPLEMENTATIONS) for (const name of m.npm) expect(pkg.dependencies[name], `${m.id} imports ${name}`).toBeDefined();
    expect(IMPLEMENTATIONS.flatMap((m) => m.npm)).toEqual(expect.arrayContaining(['@noble/ciphers', 'libsodium-wrappers']));
  });

  it('docs/implementations.md has a row for every folder (`npm run docs`)', async () => {
    const table = await implementationTable();
    for (const id of folders) expect(table).toContain(`| \`${id}\` |`);
  });
});

describe('the worked example of docs/implementations.md: a folder is all a built-in needs', () => {
  // A copy of the engine inside the tree (so node_modules resolve), its built WASM and vectors linked.
  mkdirSync(join(ROOT, 'target'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, 'target', 'units-example-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** The code block that follows the line naming `path` in the docs. */
  const block = (doc: string, path: string) => {
    const at = doc.indexOf(`\`${path}\``);
    const m = at < 0 ? null : /```ts\n([\s\S]*?)```/.exec(doc.slice(at));
    if (!m) throw new Error(`docs/implementations.md shows no code for ${path}`);
    return m[1]!;
  };

  it('the copy lists it, loads it in a worker of Node, and it passes the vectors and agrees with RustCrypto', async () => {
    const core = join(copy, 'web', 'core');
    cpSync(join(ROOT, 'web', 'core'), core, { recursive: true, filter: (src) => !/web\/core\/(wasm|vectors|test)(\/|$)/.test(src) });
    for (const linked of ['wasm', 'vectors']) symlinkSync(join(ROOT, 'web', 'core', linked), join(core, linked));
    const doc = readFileSync(join(ROOT, 'docs', 'implementations.md'), 'utf8');
    mkdirSync(join(core, 'implementations', 'stablelib'));
    for (const file of ['meta.ts', 'backend.ts'])
      writeFileSync(join(core, 'implementations', 'stablelib', file), block(doc, `web/core/implementations/stablelib/${file}`));

    // What `npm run units` does, on the copy.
    const units = await readUnits(join(core, 'implementations'));
    for (const [name, text] of Object.entries(unitFiles(units))) writeFileSync(join(core, name), text);

    const tables = await import(pathToFileURL(join(core, 'tables', 'algorithms.ts')).href);
    expect(tables.IMPLEMENTATION_IDS).toContain('stablelib');
    expect(tables.implementationClass('stablelib', 'chacha20-poly1305')).toBe('constant-time');
    expect(tables.BROWSER_IMPLEMENTATIONS).toContain('stablelib');
    const { createApi } = await import(pathToFileURL(join(core, 'worker', 'api.ts')).href);
    const { nodePlatform: platform } = await import(pathToFileURL(join(core, 'worker', 'platform-node.ts')).href);
    const { presetParams } = await import(pathToFileURL(join(core, 'params.ts')).href);
    const api = createApi(platform, () => {});
    const params = { ...presetParams('quick'), algorithms: ['chacha20-poly1305'], implementations: ['rustcrypto-wasm', 'stablelib'], sizes: [64] };
    const facts = await api.init(params);
    expect(facts.available.map((a: { implementation: string }) => a.implementation)).toContain('stablelib');
    const rows = await api.validate(['chacha20-poly1305']);
    const mine = rows.find((r: { implementation: string }) => r.implementation === 'stablelib');
    expect(mine).toMatchObject({ excluded: false, vectorsFailed: 0, crossCheck: 'agree' });
    expect(mine.vectorsPassed).toBeGreaterThan(100);

    expect(units.map((u) => u.meta.id)).toContain('stablelib');
    expect(units.find((u) => u.meta.id === 'stablelib')!.docs.what).toBe('ChaCha20-Poly1305 in plain TypeScript');
  });
});
