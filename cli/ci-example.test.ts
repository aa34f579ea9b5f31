// The GitHub Actions example (examples/ci/aeadbench.yml) uses only what the CLI offers: every
// command and flag it writes is one the CLI's own usage lists, so a renamed flag breaks here,
// not in a user's pipeline.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const workflow = readFileSync('examples/ci/aeadbench.yml', 'utf8');
const usage = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'help'], { encoding: 'utf8' }).stdout;

describe('the GitHub Actions example', () => {
  const commands = [...workflow.matchAll(/npx aeadbench (run|compare)([^\n|]*)/g)].map((m) => ({
    command: m[1]!,
    flags: [...m[2]!.matchAll(/(--[a-z-]+)/g)].map((f) => f[1]!),
  }));

  it('runs one A/B compare of base and head across the three engines, with a margin, a budget and a JUnit report', () => {
    expect(commands.map((c) => c.command)).toEqual(['compare']);
    expect(workflow).toMatch(/--base "base\/\$MODULE" --head "head\/\$MODULE" --browser chromium,firefox,webkit/);
    expect(commands[0]!.flags).toEqual(expect.arrayContaining(['--base', '--head', '--margin', '--budget', '--junit', '--out']));
  });

  it('uses only flags the CLI lists in its usage', () => {
    expect(usage).toContain('usage: aeadbench run');
    for (const c of commands) for (const f of c.flags) expect(usage, `${c.command} ${f}`).toContain(`${f}`);
  });

  it('pins playwright-core to the version this project drives Firefox with', () => {
    const pinned = JSON.parse(readFileSync('package.json', 'utf8')).devDependencies['playwright-core'];
    expect(workflow).toContain(`playwright-core@${pinned}`);
  });

  it('installs the browsers with a command of a package it installs, and aeadbench from a tarball (it is not published)', () => {
    const installs = /npm install --no-save ([^\n]+)/.exec(workflow)![1]!.split(/\s+/);
    for (const m of workflow.matchAll(/npx ([\w-]+) install/g)) expect(installs.map((p) => p.replace(/@[\d.]+$/, ''))).toContain(m[1]);
    expect(workflow).not.toMatch(/npx playwright install/);
    expect(installs).not.toContain('aeadbench');
    expect(installs.some((p) => /AEADBENCH_TGZ/.test(p))).toBe(true);
  });
});
