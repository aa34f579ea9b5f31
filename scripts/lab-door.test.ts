// The lab's one-way door: the lab (lab/: the harness page, its notes, its native probes) may
// import the product; nothing in the product imports the lab, and the site's build has no
// harness entry. A product file that reaches into lab/ fails here, naming itself.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The product's source trees: the engine and the site, the CLI, the collector, the server, the examples. */
const PRODUCT = ['web', 'cli', 'collector', 'server', 'examples'];
const SOURCE = /\.(ts|mts|mjs|js|svelte)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (SOURCE.test(name)) yield path;
  }
}

/** Every module specifier a file imports (static, dynamic, `new URL(…, import.meta.url)`). */
const specifiers = (text: string) =>
  [...text.matchAll(/(?:from\s+|import\s*\(\s*|new URL\(\s*)['"]([^'"]+)['"]/g), ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

describe('the lab’s one-way door', () => {
  it('no product file imports anything under lab/', () => {
    const through: string[] = [];
    for (const root of PRODUCT)
      for (const f of files(root)) for (const s of specifiers(readFileSync(f, 'utf8'))) if (/(^|\/)lab\//.test(s)) through.push(`${f} imports ${s}`);
    expect(through).toEqual([]);
  });

  it('finds an import into the lab where there is one (the check itself)', () => {
    expect(specifiers("import { x } from '../../lab/harness/plain-loop.mjs';\nconst u = new URL('../lab/a.js', import.meta.url);")).toEqual([
      '../../lab/harness/plain-loop.mjs',
      '../lab/a.js',
    ]);
  });

  it('builds the site without the harness page, which the lab builds on its own', () => {
    expect(readFileSync('vite.config.ts', 'utf8')).not.toMatch(/input:[^}]*harness/);
    expect(readFileSync('lab/vite.config.ts', 'utf8')).toMatch(/input:\s*\{\s*harness: 'lab\/index\.html'/);
  });

  it('keeps the lab’s tools in the lab’s own package: the product’s package lists none of them', () => {
    const pkg = (f: string) =>
      JSON.parse(readFileSync(f, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; workspaces?: string[] };
    const [root, lab] = [pkg('package.json'), pkg('lab/package.json')];
    const labTools = Object.keys(lab.devDependencies ?? {});
    expect(labTools).toEqual(expect.arrayContaining(['@paulmillr/jsbt', 'autocannon', 'jstat']));
    expect(labTools.filter((t) => t in (root.devDependencies ?? {}) || t in (root.dependencies ?? {}))).toEqual([]);
    expect(root.workspaces).toEqual(['lab']);
  });

  it('holds the benchmarks in the lab, each run from the root by its npm run bench:* name', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const benches = Object.entries(scripts).filter(([name]) => name.startsWith('bench:'));
    expect(benches.length).toBeGreaterThan(0);
    for (const [name, command] of benches) expect(command, name).toMatch(/&& tsx lab\/bench\/bench-[a-z]+\.ts$/);
    expect(readdirSync('scripts').filter((f) => f.startsWith('bench'))).toEqual([]);
  });
});
