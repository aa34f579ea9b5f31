/**
 * The list of implementations is the list of folders: web/core/implementations/<id>/ holds an
 * implementation's description (meta.ts, pure data) and its backend (backend.ts, what runs in a
 * worker). This writes the three files derived from the folders, so that adding one is adding a
 * folder:
 *   tables/implementations.ts            every description as data, in rank order (the table of implementations)
 *   implementations/backends.browser.ts  the backends a browser's worker can run (bundled with it)
 *   implementations/backends.node.ts     how a Node worker thread loads each backend it can run
 * Bundlers see every import as written (no computed paths); in Node a backend is loaded only
 * when a run asks for it. `npm run units` writes them; every npm start, test and build runs it
 * (scripts/setup); web/core/test/units.test.ts fails while they are stale.
 * @module
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ALGORITHM_IDS, type ImplementationDocs, type ImplementationMeta } from '../web/core/tables/aeads.ts';

export const UNITS_DIR = fileURLToPath(new URL('../web/core/implementations', import.meta.url));
const HEADER = '// Written by `npm run units` (scripts/units.ts) from the folders beside it: do not edit.\n';

const camel = (id: string) => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export interface Unit {
  meta: ImplementationMeta;
  docs: ImplementationDocs;
}

/** The folders of `dir` that are implementations, in rank order, each checked: both files there, and the folder named by its id. */
export async function readUnits(dir = UNITS_DIR): Promise<Unit[]> {
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const units: Unit[] = [];
  for (const folder of folders) {
    for (const file of ['meta.ts', 'backend.ts'])
      if (!existsSync(`${dir}/${folder}/${file}`))
        throw new Error(`implementations/${folder}/ has no ${file}: an implementation's folder holds meta.ts and backend.ts`);
    const mod = (await import(pathToFileURL(`${dir}/${folder}/meta.ts`).href)) as { default?: ImplementationMeta; docs?: ImplementationDocs };
    const meta = mod.default;
    if (meta?.id !== folder) throw new Error(`implementations/${folder}/meta.ts describes '${meta?.id}': the folder is named by the id`);
    if (!mod.docs?.what || !mod.docs.timed)
      throw new Error(`implementations/${folder}/meta.ts exports no docs ({ what, timed }: its row in docs/implementations.md)`);
    units.push({ meta, docs: mod.docs });
  }
  const ranks = new Map<number, string>();
  for (const { meta: m } of units) {
    if (ranks.has(m.rank)) throw new Error(`'${m.id}' and '${ranks.get(m.rank)}' both have rank ${m.rank}`);
    ranks.set(m.rank, m.id);
  }
  return units.sort((a, b) => a.meta.rank - b.meta.rank);
}

/** The three files' texts, by path under web/core/. */
export function unitFiles(units: readonly Unit[]): Record<string, string> {
  const metas = units.map((u) => u.meta);
  const key = (id: string) => (/^[a-z_$][\w$]*$/i.test(id) ? id : `'${id}'`);
  // A browser's worker imports every backend it can run as it starts: a backend split into a
  // chunk of its own and imported later makes WebKit evaluate the worker's entry module a
  // second time (its shared code lives there), and that copy takes the worker's messages. Only
  // a backend's heavy library (libsodium.js) is imported on demand, by the backend itself.
  const browser = metas.filter((m) => m.runtimes.includes('browser'));
  const browserFile =
    HEADER +
    `import type { MakeBackends } from './shared.ts';\n` +
    browser.map((m) => `import ${camel(m.id)} from './${m.id}/backend.ts';\n`).join('') +
    `\n/** How a browser's worker loads the backends of each implementation that runs there (bundled with it). */\n` +
    `export const BACKENDS: Readonly<Record<string, () => Promise<{ default: MakeBackends }>>> = {\n` +
    browser.map((m) => `  ${key(m.id)}: async () => ({ default: ${camel(m.id)} }),\n`).join('') +
    `};\n`;
  // Node's worker threads import each backend when a run asks for it (node:crypto's only there).
  const nodeFile =
    HEADER +
    `import type { MakeBackends } from './shared.ts';\n\n` +
    `/** How a Node worker thread loads the backends of each implementation that runs there, when a run asks for it. */\n` +
    `export const BACKENDS: Readonly<Record<string, () => Promise<{ default: MakeBackends }>>> = {\n` +
    metas
      .filter((m) => m.runtimes.includes('node'))
      .map((m) => `  ${key(m.id)}: () => import('./${m.id}/backend.ts'),\n`)
      .join('') +
    `};\n`;
  // The table of implementations is data, written into tables/ (the lowest layer, which imports
  // no implementation's folder): each description as its meta.ts gives it, and its class for
  // every algorithm (classOf, evaluated here).
  const rows = metas.map(({ classOf, ...data }) => ({ ...data, classes: Object.fromEntries(ALGORITHM_IDS.map((a) => [a, classOf(a)])) }));
  return {
    'tables/implementations.ts':
      '// Written by `npm run units` (scripts/units.ts) from web/core/implementations/<id>/meta.ts: do not edit.\n' +
      `/** Every built-in implementation's description (its folder's meta.ts), in rank order; \`classes\` is its classOf for every algorithm. */\n` +
      `export const METAS = ${JSON.stringify(rows, null, 2)} as const;\n`,
    'implementations/backends.browser.ts': browserFile,
    'implementations/backends.node.ts': nodeFile,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = unitFiles(await readUnits());
  for (const [name, text] of Object.entries(files)) {
    const path = `${UNITS_DIR}/../${name}`;
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      writeFileSync(path, text);
      console.error(`units: wrote web/core/${name}`);
    }
  }
}
