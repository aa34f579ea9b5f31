/**
 * Every output of the command line in one registry: its name (the `--format` value or the flag),
 * where it goes, what writes it, and the line the usage text and the docs show for it. The usage
 * (`aeadbench help`) is made from this table, and the docs' copy of it from the usage
 * (`npm run docs`), so a format added here is offered, parsed, written and documented at once.
 * @module
 */
import { CASE_PRECISION, medianPrecision } from '../web/core/run/stop-rule.ts';
import { verdict } from '../web/core/report/verdict.ts';
import { runMarkdown, toBmf, toGithubActionBenchmark, toGithubActionBenchmarkOps } from '../web/core/report/ci-formats.ts';
import { toCsv } from '../web/core/report/csv.ts';
import { formatSize } from '../web/core/params.ts';
import { countCell } from '../web/core/report/ops.ts';
import type { ResultDocument } from '../web/core/schema.ts';

/** The results as a table for a terminal: one row per case. */
export function resultsTable(doc: ResultDocument): string {
  const mbps = (b: number | undefined) => (b === undefined ? '–' : (b / 1e6).toFixed(1));
  // The exact counts, where the run made them: WebAssembly operations per byte of message.
  const counted = doc.cases.some((c) => c.ops);
  const rows = doc.cases.map((c) => [
    c.algorithm,
    `${c.implementation} (${c.variant})`,
    c.operation,
    formatSize(c.sizeBytes),
    mbps(c.bytesPerSecond),
    mbps(c.totalBytesPerSecond),
    c.usPerOp.toFixed(3),
    `±${(medianPrecision(c) * 100).toFixed(1)}%${c.unstable ? ' ⚠' : ''}`,
    ...(counted ? [countCell(c, doc.modules).text] : []),
  ]);
  const head = ['algorithm', 'implementation', 'op', 'size', 'MB/s median', 'MB/s all calls', 'µs/op', 'median ±', ...(counted ? ['WASM ops/B'] : [])];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((x, i) => (i >= 3 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  ');
  const legend =
    `median ±: reach of the median's 95 % interval; ⚠ not resolved within the run's budget (beyond ±${CASE_PRECISION * 100} %)` +
    (counted ? '; WASM ops/B: executed WebAssembly operations per byte, exact (JS: no count, the code is JavaScript; –: WebAssembly not counted)' : '');
  return [line(head), ...rows.map(line), legend].join('\n');
}

export interface RunOutput {
  name: string;
  /** `stdout`: chosen with --format NAME (one at a time); `file`: written with --NAME FILE (any of them). */
  to: 'stdout' | 'file';
  /** One line for the usage text and the docs. */
  usage: string;
  write(doc: ResultDocument): string;
}

/** What `aeadbench run` can write: the table by default, or one machine format on stdout; files beside either. */
export const RUN_OUTPUTS: readonly RunOutput[] = [
  {
    name: 'table',
    to: 'stdout',
    usage: 'the results table and the verdict, in the words the page shows (the default; with another --format they go to stderr)',
    write: (doc) => [resultsTable(doc), '', 'Verdict:', ...verdict(doc).sentences.map((x) => `  - ${x}`)].join('\n'),
  },
  {
    name: 'bmf',
    to: 'stdout',
    usage:
      'Bencher Metric Format: throughput (MB/s) and latency (ns per operation) per case, with the bounds of its 95 % interval (bencher run --adapter json)',
    write: (doc) => JSON.stringify(toBmf(doc), null, 2),
  },
  {
    name: 'github-action-benchmark',
    to: 'stdout',
    usage: "github-action-benchmark's customBiggerIsBetter JSON: MB/s per case, the interval as its range",
    write: (doc) => JSON.stringify(toGithubActionBenchmark(doc), null, 2),
  },
  {
    name: 'github-action-benchmark-ops',
    to: 'stdout',
    usage: "github-action-benchmark's customSmallerIsBetter JSON: WebAssembly operations per message per counted case, exact (a second chart: more work)",
    write: (doc) => JSON.stringify(toGithubActionBenchmarkOps(doc), null, 2),
  },
  {
    name: 'json',
    to: 'file',
    usage: 'the result document (it validates against the schema; the collector and compare read it)',
    write: (doc) => JSON.stringify(doc, null, 2),
  },
  { name: 'csv', to: 'file', usage: 'one row per case, for a spreadsheet', write: toCsv },
];

export const STDOUT_FORMATS = RUN_OUTPUTS.filter((o) => o.to === 'stdout').map((o) => o.name);
export const FILE_OUTPUTS = RUN_OUTPUTS.filter((o) => o.to === 'file');

/** The output --format names; a name it is not is refused with the list. */
export function stdoutFormat(name: string): RunOutput | undefined {
  return RUN_OUTPUTS.find((o) => o.to === 'stdout' && o.name === name);
}

/** The Markdown table a CI job summary gets (GitHub Actions sets $GITHUB_STEP_SUMMARY). */
export const summaryMarkdown = (doc: ResultDocument, command: string) => runMarkdown(doc, command);

/** A flag and its description in two columns, at least two spaces between them however long the flag. */
const pad = (flag: string) => `  ${`${flag}  `.padEnd(36)}`;

/** `aeadbench help`: the commands, then every output from the registry. */
export const USAGE = `usage: aeadbench run --browser chromium|chrome|edge|firefox|webkit|node[,…] [--out DIR] [--preset quick|standard|full]
                     [--algorithms a,b] [--implementations a,b] [--sizes 64,1k,1M]
                     [--operations encrypt,decrypt] [--rounds N] [--budget 20s] [--overtime 20s] ${FILE_OUTPUTS.map((o) => `[--${o.name} FILE]`).join(' ')}
                     [--executable PATH] [--submit COLLECTOR_URL [--device-class server]]
                     [--format ${STDOUT_FORMATS.join('|')}] [--implementation FILE]… [--modules-alone] [--apart]
                     [--emulate no-aes]
       aeadbench compare A.json B.json [--margin 3%] [--junit FILE]
                     throughput of B over A per case, FASTER / SAME / SLOWER / UNKNOWN against the margin
       aeadbench compare A.json B.json --metric ops [--threshold 0.5%] [--junit FILE]
                     WebAssembly operations per message of B over A per case, exact: more work fails
       aeadbench compare --base A.mjs --head B.mjs [--browser chromium|firefox|webkit|node[,…]] [--margin 3%]
                     [--budget 60s] [--algorithms a,b] [--sizes 1k,1M] [--operations encrypt] [--junit FILE]
                     [--json FILE] [--out DIR]
                     A/B in one session: two modules of yours, both gated, then interleaved case by case
                     and measured until each comparison is decided (head over base, paired) or the budget is spent;
                     with --metric ops [--threshold 0.5%], their WebAssembly's operations per message instead (exact)

outputs of run:
${RUN_OUTPUTS.map((o) => `${pad(o.to === 'stdout' ? `--format ${o.name}` : `--${o.name} FILE`)}${o.usage}`).join('\n')}
${pad('--out DIR')}several engines: DIR/<engine>.json each, and DIR/summary.md, one table across them
outputs of compare:
${pad('--junit FILE')}JUnit XML, one test case per comparison, SLOWER a failure and UNKNOWN skipped
${pad('--json FILE, --out DIR')}(A/B) the comparison's document, or one per engine and summary.md
both append a Markdown table to $GITHUB_STEP_SUMMARY where it is set (a GitHub Actions job summary).

--implementation FILE (repeatable) adds a module of yours (docs/custom-implementations.md):
bundled with its own node_modules, checked by the gate, then timed beside the built-ins;
a module that fails the gate is not timed, is named with its first failure, and the run exits 1.
--modules-alone times the modules without the preset's built-ins: only those --implementations
names run beside them (none named: the modules alone; a CI job watching its own code).
--apart measures each module, and each built-in whose calls are JavaScript's, in a thread of its
own; by default every case shares the measuring thread, one condition for all that is compared.
--emulate no-aes starts Chromium or Firefox as a device without AES instructions would run its
Web Crypto (the browser's cryptography library kept off AES-NI and carry-less multiply).
--budget and --overtime bound a run's time: the quick preset measures for 20 s, then up to 20 s
more while a tenth of its cases or a claim is unresolved (--overtime 0s: never more).

exit codes: 0 done (compare: nothing slower beyond the margin); 1 a case failed validation (run),
            or something is SLOWER (compare); 2 a comparison stayed UNKNOWN (compare);
            3 bad input or an error (a bad flag, a missing browser, no case measured or in common)`;
