/**
 * Pages of measured figures, written by the benchmark that measured them (never typed): each
 * opens with the date, the machine and the command that wrote it, then the figures as the
 * benchmark printed them. Docs and the README point at these pages instead of quoting numbers.
 *   npm run bench:collector -- --write   →   docs/measured/crowd-attacks.md
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEASURED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'measured');

/** Whether the command line asks for the page to be written (`--write`). */
export const wantsWrite = (argv = process.argv) => argv.includes('--write');

/** The machine, as one line: CPU model, cores, memory, OS kernel, Node. */
export function machineLine(): string {
  const cpu = cpus();
  let kernel = '';
  try {
    kernel = readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
  } catch {
    /* not Linux */
  }
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB${kernel ? `, Linux ${kernel}` : ''}, Node ${process.version}`;
}

/** Writes docs/measured/`name`.md: a heading, what it measures, date, machine and command, then the printed lines. */
export function writeMeasured(name: string, o: { title: string; about: string; command: string; lines: readonly string[] }): string {
  mkdirSync(MEASURED_DIR, { recursive: true });
  const file = join(MEASURED_DIR, `${name}.md`);
  const text = [
    `# ${o.title}`,
    '',
    o.about,
    '',
    `- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- machine: ${machineLine()}`,
    `- command: \`${o.command}\``,
    '',
    'Written by the command above; run it again to bring this page up to date (do not edit by hand).',
    '',
    '```',
    ...o.lines,
    '```',
    '',
  ].join('\n');
  writeFileSync(file, text);
  return file;
}
