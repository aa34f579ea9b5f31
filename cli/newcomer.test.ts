// What a newcomer met on the command line, each refused before any browser starts or any case is
// measured: a misspelt flag answered with the nearest one, a size or a budget the package would
// refuse, an output path whose folder is missing (made) or cannot be written (refused by name),
// and a usage text whose columns never run together.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { USAGE } from './formats.ts';

const cli = (...args: string[]) => {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { ...r, ms: Date.now() - started };
};

describe('the command line refuses a newcomer’s spellings by name, before measuring', () => {
  it.each([
    [['run', '--browser', 'node', '--sizes', '1kb'], /Invalid --sizes: '1kb' \('kb' may mean 1000 or 1024: write 1KiB \(or 1k\)\)/],
    [['run', '--browser', 'node', '--budget', '5'], /Invalid --budget: '5' \(a duration needs its unit: write 5s for 5 seconds\)/],
    [['run', '--browser', 'node', '--size', '1k'], /unknown option --size \(did you mean --sizes\?\)/],
    [['compare', '--base', 'a.mjs', '--head', 'b.mjs', '--budget', '60'], /Invalid --budget: '60' \(a duration needs its unit: write 60s/],
    [['compare', '--base', 'a.mjs', '--hed', 'b.mjs'], /unknown option --hed \(did you mean --head\?\)/],
  ])('%j', (args, message) => {
    const r = cli(...args);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // a sentence, not a stack trace
  });

  it('makes a missing output folder before the run, and refuses a path it cannot write, naming the flag and the path', () => {
    const root = mkdtempSync(join(tmpdir(), 'aeadbench-out-'));
    try {
      // A missing folder is made before anything runs: a module file that does not exist stops the run right after.
      const deep = join(root, 'not', 'yet', 'x.json');
      const made = cli('run', '--browser', 'node', '--json', deep, '--implementation', join(root, 'absent.mjs'));
      expect(made.status).toBe(3);
      expect(existsSync(join(root, 'not', 'yet'))).toBe(true);
      // Under a file (a folder cannot be made there) and onto a folder: refused, nothing measured.
      writeFileSync(join(root, 'plain'), '');
      const under = cli('run', '--browser', 'node', '--json', join(root, 'plain', 'x.json'));
      expect(under.status).toBe(3);
      expect(under.stderr).toMatch(/Invalid --json: '.*plain\/x\.json' cannot be written \(E\w+ on /);
      const onto = cli('run', '--browser', 'node', '--csv', root);
      expect(onto.status).toBe(3);
      expect(onto.stderr).toMatch(/Invalid --csv: '.*' is a folder; give a file name/);
      for (const r of [under, onto]) expect(r.stderr).not.toMatch(/cases in|\n\s+at /);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('prints its usage with at least two spaces between every flag and its description', () => {
    for (const line of USAGE.split('\n').filter((l) => /^ {2}--/.test(l))) expect(line).toMatch(/^ {2}\S.*? {2,}\S/);
    expect(USAGE).not.toContain('github-action-benchmark-opsgithub');
  });
});
