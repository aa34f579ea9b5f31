/**
 * Pages of measured figures, written by the benchmark that measured them (never typed): each
 * opens with the date, the machine and the command that wrote it, then the figures as the
 * benchmark printed them. Docs and the README point at these pages instead of quoting numbers.
 *   npm run bench:collector -- --write   →   docs/measured/crowd-attacks.md
 *   npm run bench:<name> -- --write      →   docs/measured/<name>.md (recordPage: what the benchmark printed)
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEASURED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'measured');

/** The file `--json FILE` names on the command line (undefined without it; an error without its file). */
export function jsonOutPath(argv = process.argv): string | undefined {
  if (!argv.includes('--json')) return undefined;
  const file = argv[argv.indexOf('--json') + 1];
  if (!file) throw new Error('--json needs a file name');
  return file;
}

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

/** A comma-separated list from the environment (a bench's BENCH_ENV), `fallback` when unset, empty for 'none' (that table is skipped). */
export const listEnv = (name: string, fallback: string): string[] => (process.env[name] === 'none' ? [] : (process.env[name] ?? fallback).split(','));

/** The environment variables the benchmarks read (RUNS, ONLY …), as they were set: part of the command. */
export const BENCH_ENV = [
  'RUNS',
  'HARNESS_S',
  'ONLY',
  'PARTS',
  'ATTACKS',
  'BROWSERS',
  'BROWSER',
  'SIZES',
  'SIZE',
  'ROUNDS',
  'SAMPLE',
  'SAMPLES',
  'ALGORITHMS',
  'QUICK',
  'SEARCH',
  'REPS',
  'OUT',
  'PAIRS',
  'LOOP',
  'PLAIN',
  'PLAIN_SIZES',
  'BUDGET',
  'ENGINES',
  'REPEATS',
  'MODULE_REPEATS',
  'MODULE_SIZE',
  'NATIVE',
  'NATIVE_ALGORITHMS',
  'NATIVE_BUILDS',
  'LOAD',
  'BUSY',
  'MODULES_APART',
  'LIVE_MB',
  'LIVE_ROTATIONS',
  'NEIGHBOUR_SIZES',
  'NEIGHBOUR_ROTATIONS',
  'IDLE_SIZES',
  'IDLE_ROTATIONS',
  'IDLE_TURNS',
  'IDLE_OTHERS',
  'PAUSES',
  'PAUSE_KIB',
  'PAUSE_SIZES',
  'PAUSE_ROTATIONS',
  'PAUSE_TURNS',
  'JS_REPS',
  'JS_SAMPLES',
  'JS_SIZES',
  'JS_SUBJECTS',
  'STEADY_MS',
  'LONG_MS',
  'LOOP_MS',
  'PLAIN_WORKERS',
  'SAMPLE_MS',
  'DURATION',
  'CONNECTIONS',
  'ROWS',
  'COHORT_ROWS',
  'VARIANTS',
  'K',
  'MODULE',
];

/** The command that ran this benchmark, as one types it: its variables, `npm run <script> --` and its arguments. */
export function commandLine(script: string, argv = process.argv.slice(2)): string {
  const env = BENCH_ENV.filter((k) => process.env[k] !== undefined).map((k) => `${k}=${process.env[k]}`);
  const args = argv.filter((a) => a !== '--write');
  return [...env, `npm run ${script}`, ...(args.length ? ['--', ...args, '--write'] : ['--', '--write'])].join(' ');
}

/**
 * With `--write`, everything the benchmark prints (stdout and stderr, as they interleave) also
 * becomes docs/measured/`name`.md when it exits normally: the page holds the figures exactly as
 * the run printed them, under the date, the machine and the command. Without it, nothing changes.
 */
export function recordPage(name: string, o: { title: string; about: string; script?: string }): void {
  if (!wantsWrite()) return;
  const lines: string[] = [];
  let partial = '';
  const tee = (stream: NodeJS.WriteStream) => {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      // A progress bar redraws its line with \r: the page keeps only what a line ends with.
      const text = partial + (typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const p of parts) lines.push(p.slice(p.lastIndexOf('\r') + 1).trimEnd());
      return write(chunk, ...rest);
    }) as typeof stream.write;
  };
  tee(process.stdout);
  tee(process.stderr);
  process.on('exit', (code) => {
    if (code !== 0) return; // a failed run writes no page
    if (partial) lines.push(partial.slice(partial.lastIndexOf('\r') + 1).trimEnd());
    const file = writeMeasured(name, {
      title: o.title,
      about: o.about,
      command: commandLine(o.script ?? `bench:${name}`),
      lines: lines.filter((l) => l !== ''),
    });
    console.log(`wrote ${file}`);
  });
}

/** A row of one of a benchmark's tables: its name and its cells (numbers where a figure is measured). */
export type EvidenceRow = { table: string } & Record<string, string | number | boolean | null>;

/**
 * The figures a benchmark measured, as one JSON document beside the table it prints for people:
 * with `--json FILE`, `{ bench, rows }` is written to FILE when it exits normally (a failed run
 * writes none). `npm test`'s smoke runs check this document against a schema
 * (lab/bench/bench.smoke.test.ts), never the wording of the printed tables.
 */
export function evidence(bench: string) {
  const at = process.argv.indexOf('--json');
  const file = at >= 0 ? process.argv[at + 1] : undefined;
  if (at >= 0 && !file) throw new Error('--json needs a file name');
  const rows: EvidenceRow[] = [];
  if (file)
    process.on('exit', (code) => {
      if (code === 0) writeFileSync(file, `${JSON.stringify({ bench, rows }, null, 1)}\n`);
    });
  return {
    /** Records one row of table `table`; returns nothing, so it sits beside the line that prints it. */
    row(table: string, cells: Omit<EvidenceRow, 'table'>): void {
      rows.push({ table, ...cells } as EvidenceRow);
    },
  };
}
