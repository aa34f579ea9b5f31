/**
 * The tables the docs show, generated from the tables they describe: in docs/architecture.md the
 * algorithm table (ids, constructions and sizes from web/core/tables/algorithms.ts, crates from
 * the Rust table as the built cores report it, versions from the build's record) and the code
 * size per algorithm (web/core/wasm/code-size.json, written by build-wasm); in
 * docs/implementations.md the implementations, from their folders' meta.ts. `npm run docs`
 * rewrites them between their markers (and the lab's standing page, lab/bench/standing.ts, with
 * writeSections); scripts/docs.test.ts fails while they are stale.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { ALGORITHMS, IMPLEMENTATIONS } from '../web/core/tables/algorithms.ts';
import { nodePlatform } from '../web/core/worker/platform-node.ts';
import codeSize from '../web/core/wasm/code-size.js';
import { readUnits } from './units.ts';
import { USAGE } from '../cli/formats.ts';

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** `| id | construction | crates (versions) | key / nonce / tag bytes |`, one row per id of the table. */
export async function algorithmTable(): Promise<string> {
  const cores = await nodePlatform.loadCores('simd128');
  const rust = new Map((JSON.parse(cores.algorithms()) as { id: string; crate: string }[]).map((r) => [r.id, r.crate]));
  // The versions the build recorded from Cargo.lock (scripts/wasm-build-info.mjs).
  const versions = ((await nodePlatform.loadBuildInfo!('simd128')) as { crates?: Record<string, string> }).crates ?? {};
  const rows = ALGORITHMS.map((a) => {
    const crates = (rust.get(a.id) ?? '')
      .split('+')
      .filter(Boolean)
      .map((c) => (versions[c] ? `${c} ${versions[c]}` : c));
    return `| \`${a.id}\` | ${a.spec} | ${crates.join(', ') || '–'} | ${a.keyBytes} / ${a.nonceBytes} / ${a.tagBytes} |`;
  });
  return ['| id | construction | crates (versions) | key / nonce / tag bytes |', '|---|---|---|---|', ...rows].join('\n');
}

/** `| id | KiB | KiB gzip |`: what each algorithm's seal and open add to an empty module. */
export function codeSizeTable(): string {
  const rows = ALGORITHMS.map((a) => {
    const s = codeSize.algorithms[a.id];
    return `| \`${a.id}\` | ${s ? kib(s.wasmBytes) : '–'} | ${s ? kib(s.gzipBytes) : '–'} |`;
  });
  // Sizes follow the compiler: say which one, and when, so the figures can be made again.
  const rustc = execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim();
  const today = new Date().toISOString().slice(0, 10);
  return [
    '| id | KiB | KiB gzip |',
    '|---|---:|---:|',
    ...rows,
    '',
    `Measured ${today} with ${rustc} (\`npm run docs\`); the empty probe itself: ${codeSize.emptyProbe.wasmBytes} B.`,
  ].join('\n');
}

/** `| id | what | timed how |`, one row per implementation folder; an npm package's version is package.json's. */
export async function implementationTable(): Promise<string> {
  const docs = new Map((await readUnits()).map((u) => [u.meta.id, u.docs]));
  const deps = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const rows = IMPLEMENTATIONS.map((m) => {
    const packages = m.npm.map((name) => `\`${name}\` ${deps[name] ?? '?'}`).join(', ');
    const d = docs.get(m.id)!;
    return `| \`${m.id}\` | ${packages ? `${packages}: ` : ''}${d.what} | ${d.timed} |`;
  });
  return ['| id | what | timed how |', '|---|---|---|', ...rows].join('\n');
}

const marker = (name: string) => [`<!-- generated: ${name} (npm run docs) -->`, `<!-- end: ${name} -->`] as const;

/** A generated section of the document as it stands. */
export function section(doc: string, name: string): string {
  const [open, close] = marker(name);
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a < 0 || b < a) throw new Error(`the document has no section '${name}' between ${open} and ${close}`);
  return doc.slice(a + open.length + 1, b - 1);
}

/** The generated sections of each document under docs/. */
const SECTIONS: Record<string, () => Promise<Record<string, string>>> = {
  'docs/architecture.md': async () => ({ algorithms: await algorithmTable(), 'code size': codeSizeTable() }),
  'docs/implementations.md': async () => ({ implementations: await implementationTable() }),
  'docs/package.md': async () => ({ usage: usageBlock() }),
  'web/core/README.md': async () => ({ usage: usageBlock() }),
};

/** The command line's usage as `aeadbench help` prints it (cli/formats.ts, made from its registry of outputs). */
export const usageBlock = () => ['```', USAGE, '```'].join('\n');

/** `doc` with each of `sections` replaced by the body given. */
function withSections(doc: string, sections: Record<string, string>): string {
  for (const [name, body] of Object.entries(sections)) {
    const old = section(doc, name);
    const [open] = marker(name);
    const at = doc.indexOf(open) + open.length + 1;
    doc = `${doc.slice(0, at)}${body}${doc.slice(at + old.length)}`;
  }
  return doc;
}

/** The document with each generated section replaced by what the tables give now. */
export async function regenerated(doc: string, file = 'docs/architecture.md'): Promise<string> {
  return withSections(doc, await SECTIONS[file]!());
}

const docUrl = (file: string) => new URL(`../${file}`, import.meta.url);
export const readDoc = (file = 'docs/architecture.md') => readFileSync(docUrl(file), 'utf8');

/** Rewrites `file`'s generated sections and says whether they changed; a page of docs/measured/ then says it was written today. */
export function writeSections(file: string, sections: Record<string, string>): void {
  const before = readDoc(file);
  let after = withSections(before, sections);
  if (file.startsWith('docs/measured/') && after !== before)
    after = after.replace(/^- date: .*$/m, `- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  writeFileSync(docUrl(file), after);
  console.log(before === after ? `${file}: its tables were current` : `${file}: tables regenerated`);
}

if (import.meta.url === `file://${process.argv[1]}`) for (const file of Object.keys(SECTIONS)) writeSections(file, await SECTIONS[file]!());
