// The docs' tables are the tables' own: a table changed without `npm run docs` fails here.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../web/core/tables/algorithms.ts';
import { algorithmTable, implementationTable, readDoc, section, usageBlock } from './docs-tables.ts';

describe('docs/architecture.md', () => {
  it('shows the algorithm table as the TypeScript and Rust tables give it now (run `npm run docs` after changing one)', async () => {
    expect(section(readDoc(), 'algorithms')).toBe(await algorithmTable());
  });

  it('lists every algorithm id, with the crates the Rust table names and the versions Cargo.lock holds', async () => {
    const table = await algorithmTable();
    for (const id of ALGORITHM_IDS) expect(table).toContain(`| \`${id}\` |`);
    expect(table).toContain('| `aes-128-cbc-hmac-sha256` | RFC 7518 §5.2.3 | aes 0.9.4, cbc 0.2.1, hmac 0.13.0, sha2 0.11.1 | 32 / 16 / 16 |');
  });

  it('gives a code size for every id (the figures follow the compiler, and say which one)', () => {
    const sizes = section(readDoc(), 'code size');
    for (const id of ALGORITHM_IDS) expect(sizes).toMatch(new RegExp(`\\| \`${id}\` \\| \\d+\\.\\d \\| \\d+\\.\\d \\|`));
    expect(sizes).toMatch(/Measured \d{4}-\d{2}-\d{2} with rustc \d+\.\d+/);
  });
});

describe('docs/implementations.md', () => {
  it("shows the implementations as their folders' meta.ts describe them now (run `npm run docs` after changing one)", async () => {
    expect(section(readDoc('docs/implementations.md'), 'implementations')).toBe(await implementationTable());
  });
});

describe("the command line's usage in the docs", () => {
  for (const file of ['docs/package.md', 'web/core/README.md'])
    it(`${file} shows it as \`aeadbench help\` prints it, every output of the registry in it (run \`npm run docs\` after changing one)`, () => {
      const shown = section(readDoc(file), 'usage');
      expect(shown).toBe(usageBlock());
      for (const name of ['table', 'bmf', 'github-action-benchmark', '--json FILE', '--csv FILE', '--junit FILE']) expect(shown).toContain(name);
    });
});

describe('the README is an entry page, and figures come from commands', () => {
  const read = (f: string) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');

  it('README.md: at most 120 lines, no clock time, the two commands', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(120);
    expect(readme.match(/\b[0-2]?\d:[0-5]\d\b/g) ?? []).toEqual([]);
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });

  it('every page of docs/measured/ (but the index and the hand-kept history) opens with its date, machine and command', () => {
    const dir = new URL('../docs/measured/', import.meta.url);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md' && f !== 'history.md');
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const text = readFileSync(new URL(page, dir), 'utf8');
      expect(text, page).toMatch(/^- date: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/m);
      expect(text, page).toMatch(/^- machine: .+$/m);
      expect(text, page).toMatch(/^- command: `.*npm run .+`$/m);
    }
  });

  it('every page the index of docs/measured/ names exists', () => {
    const index = read('docs/measured/README.md');
    for (const [, page] of index.matchAll(/\]\(([a-z-]+\.md)\)/g)) expect(existsSync(new URL(`../docs/measured/${page}`, import.meta.url)), page).toBe(true);
  });
});
