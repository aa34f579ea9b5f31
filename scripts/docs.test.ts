// The docs' tables are the tables' own: a table changed without `npm run docs` fails here.
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
