// The docs' tables are the tables' own: a table changed without `npm run docs` fails here.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../web/core/tables/algorithms.ts';
import { algorithmTable, implementationTable, readDoc, section, usageBlock } from './docs-tables.ts';
import { BENCH_ENV } from '../lab/bench/measured.ts';
import { abSlower, moduleCells, nobleOverJsbt, standingTable, webCryptoCells } from '../lab/bench/standing.ts';

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

  it('every page of docs/measured/ (but the index) opens with its date, machine and command', () => {
    const dir = new URL('../docs/measured/', import.meta.url);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md');
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

describe('the method and its decisions', () => {
  const read = (f: string) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');

  it('docs/methodology.md is a method: at most 400 lines, no commit hash, no dated run', () => {
    const method = read('docs/methodology.md');
    expect(method.split('\n').length).toBeLessThanOrEqual(400);
    expect(method.match(/\b(?!aead)(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g) ?? []).toEqual([]);
    expect(method.match(/\b20\d\d-\d\d-\d\d\b/g) ?? []).toEqual([]);
  });

  it('each decision record is at most 40 lines, says its question, options, figure and decision, and links the page that holds its figure', () => {
    const dir = new URL('../docs/decisions/', import.meta.url);
    const records = readdirSync(dir).filter((f) => /^\d{3}-[a-z-]+\.md$/.test(f));
    expect(records.length).toBeGreaterThanOrEqual(6);
    for (const f of records) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      expect(text.split('\n').length, f).toBeLessThanOrEqual(40);
      for (const part of ['**Question.**', '**Options.**', '**Measured.**', '**Decision.**']) expect(text, `${f}: ${part}`).toContain(part);
      const pages = [...text.matchAll(/\]\(\.\.\/measured\/([a-z-]+\.md)\)/g)].map((m) => m[1]!);
      expect(pages.length, `${f} links no page of docs/measured/`).toBeGreaterThan(0);
      for (const page of pages) expect(existsSync(new URL(`../docs/measured/${page}`, import.meta.url)), `${f}: ${page}`).toBe(true);
      expect(read('docs/methodology.md'), `the method's list of decisions names ${f}`).toContain(`decisions/${f}`);
    }
  });
});

describe("docs/measured/standing.md: where the figures stand, counted from the benchmarks' pages", () => {
  it('shows the table standing.ts counts from docs/measured/ now (run `npm run docs` after a benchmark writes a page)', () => {
    expect(section(readDoc('docs/measured/standing.md'), 'standing')).toBe(standingTable());
  });

  it("reads each engine's Web Crypto cells, and only the plain loop's own judgement, from bench:verdict's lines", () => {
    const page = [
      'chromium Chrome 156: wall time per run median 29.1 s',
      "  the same against the plain loop's repeatability (timed twice after each run):",
      '      1 KiB: ref A/A ±1.2 %; bias 1.057× (unresolved within 0.991–1.009×), spread 11.3 % (limit 2.2 %): NOT within (bias resolved, spread wider); the reference leans',
      '      1 MiB: ref A/A ±5.8 %; bias 0.970× (unresolved within 0.960–1.042×), spread 5.7 % (limit 10.3 %): within repeatability',
      "  the plain loop's first timing of each size: 1 KiB 0.970 (0.949–0.982), ref A/A ±1.2 %; bias 0.968× (unresolved within 0.991–1.009×), spread 1.0 % (limit 2.2 %): within repeatability",
      '      16 KiB: ref A/A ±2.7 %; bias 0.900× (unresolved within 0.981–1.020×), spread 7.0 % (limit 4.9 %): NOT within (bias resolved)',
      'webkit WebKit 2.48: wall time per run median 30 s',
      "  the same against the plain loop's repeatability (timed twice after each run):",
      '     16 KiB: ref A/A ±8.0 %; bias 0.930× (unresolved within 0.920–1.087×), spread 21.2 % (limit 20.7 %): NOT within (spread wider)',
    ].join('\n');
    expect(webCryptoCells(page)).toEqual([
      { what: 'Chromium', size: '1 KiB', bias: 1.057, within: false },
      { what: 'Chromium', size: '1 MiB', bias: 0.97, within: true },
      { what: 'WebKit', size: '16 KiB', bias: 0.93, within: false },
    ]);
  });

  it("reads bench:modules' cells per home and mode, noble over jsbt, and bench:ab's SLOWER counts", () => {
    const modules = [
      'bench:modules — Node 20.20.2, concurrent GC, 10 run(s), engine vs a plain loop of the same calls, each module in a thread of its own (3576 s)',
      'noble                       aes-128-gcm           64 B  in the run: ref A/A ±6.7 %; bias 0.771× (unresolved within 0.953–1.049×), spread 19.8 % (limit 11.9 %): NOT within (bias resolved, spread wider)',
      '                                                      alone:      ref A/A ±6.7 %; bias 0.935× (unresolved within 0.953–1.049×), spread 3.1 % (limit 11.9 %): within repeatability',
      '                                                      the run over the loop taking turns: ref A/A ±16.3 %; bias 1.093× (unresolved within 0.890–1.124×), spread 4.9 % (limit 29.1 %): within repeatability',
      'noble                       aes-128-gcm           64 B  in the run  0.92 [0.59–0.98]   alone  1.02 [0.95–1.12]',
      'bench:modules — Chrome 156.0.0.0 (chromium), 10 run(s), the engine in the page vs a plain loop in a browser worker, every case in the measuring thread (MODULES_APART=0) (3389 s)',
      'sjcl-gcm                    aes-128-gcm          1 MiB  in the run: ref A/A ±2.0 %; bias 1.003× (unresolved within 0.986–1.015×), spread 4.9 % (limit 3.6 %): within repeatability',
    ].join('\n');
    expect([...moduleCells(modules)]).toEqual([
      ['Node, each module in a thread of its own', [{ what: 'noble aes-128-gcm', size: '64 B', bias: 0.771, within: false }]],
      ['Chromium, every case in the measuring thread', [{ what: 'sjcl-gcm aes-128-gcm', size: '1 MiB', bias: 1.003, within: true }]],
    ]);
    // Against the loop taking the run's turns: the line after a cell's, of that cell; a home without such lines has none.
    expect([...moduleCells(modules, { turns: true })]).toEqual([
      ['Node, each module in a thread of its own', [{ what: 'noble aes-128-gcm', size: '64 B', bias: 1.093, within: true }]],
    ]);
    expect(nobleOverJsbt(modules)).toEqual({ rows: [{ what: 'aes-128-gcm 64 B', inRun: 0.92, text: '0.92', alone: 1.02 }], counted: null });
    // The page's own count, where it prints one, over medians rounded to two decimals.
    const counted = nobleOverJsbt(
      [
        'noble                       aes-128-gcm           64 B  in the run  0.95 [0.67–1.06]   alone  1.00 [0.74–1.03]',
        'noble                       aes-128-gcm          1 MiB  in the run  0.961 [0.90–1.10]   alone  0.948 [0.96–1.22]',
        '  cells whose run median is ≥ 0.95 of the harness: 1 of 2; alone: 1 of 2; median of the cells 0.95',
      ].join('\n'),
    );
    expect(counted.counted).toEqual({ inRun: 1, alone: 1 });
    expect(counted.rows.map((r) => r.text)).toEqual(['0.95', '0.961']);
    const ab = 'firefox   loaded 10 % slower  margin ±5 % aes-128-gcm · encrypt · 16 KiB: 20 sessions — SLOWER 19, SAME 0, UNKNOWN 1, FASTER 0; head/base 0.85';
    expect(abSlower(ab)).toEqual([{ engine: 'Firefox', scenario: '10 % slower', size: '16 KiB', sessions: 20, slower: 19 }]);
  });
});

describe("a measured page's command reproduces it", () => {
  it('names every variable a benchmark reads that shapes its figures (lab/bench/measured.ts BENCH_ENV)', () => {
    const dir = new URL('../lab/bench/', import.meta.url);
    // Not figures: the shell's PATH, and where bench:ab saves its sessions.
    const notFigures = new Set(['PATH', 'SAVE']);
    const read = new Set<string>();
    for (const f of readdirSync(dir).filter((x) => /^bench-.*\.ts$/.test(x)))
      for (const [, name] of readFileSync(new URL(f, dir), 'utf8').matchAll(/process\.env\.([A-Z_]+)/g)) if (!notFigures.has(name!)) read.add(name!);
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((v) => !BENCH_ENV.includes(v))).toEqual([]);
  });
});
