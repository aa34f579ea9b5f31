/**
 * A result and a comparison in the formats CI tools read, as pure functions of the documents:
 * - github-action-benchmark's custom JSON (`customBiggerIsBetter`: an array of
 *   `{ name, unit, value, range?, extra? }`; `range` is a string, `extra` a tooltip);
 * - Bencher Metric Format (`{ [benchmark]: { [measure]: { value, lower_value?, upper_value? } } }`),
 *   what `bencher run --adapter json` reads from a command's standard output;
 * - JUnit XML for a comparison: one test case per compared case, SLOWER a failure, UNKNOWN
 *   skipped (undecided is no pass), so a CI's test view shows which case regressed;
 * - Markdown for `$GITHUB_STEP_SUMMARY`.
 * Every figure is recomputed from the raw samples, as everywhere else.
 * @module
 */
import type { Comparison, CompareVerdict } from './compare.ts';
import { formatSize } from '../params.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { throughputOf } from './summary.ts';

/** One name per case, stable across runs, as CI tools key their history by it. */
export const benchmarkName = (c: CaseResult) =>
  `${c.algorithm} ${c.implementation}/${c.variant} ${c.operation} ${formatSize(c.sizeBytes)}${c.aadBytes ? ` aad ${c.aadBytes}` : ''}`;

const sig = (x: number) => Number(x.toPrecision(4));

export interface GithubActionBenchmarkEntry {
  name: string;
  unit: string;
  value: number;
  range?: string;
  extra?: string;
}

/** github-action-benchmark, tool `customBiggerIsBetter`: MB/s per case, the interval as its range. */
export function toGithubActionBenchmark(doc: ResultDocument): GithubActionBenchmarkEntry[] {
  return doc.cases.map((c) => {
    const t = throughputOf(c, doc.cases);
    return {
      name: benchmarkName(c),
      unit: 'MB/s',
      value: sig(t.value),
      range: `±${sig(Math.max(t.high - t.value, t.value - t.low))}`,
      extra: `median of ${c.samples.length} samples; 95 % interval ${sig(t.low)}–${sig(t.high)} MB/s${c.unstable ? '; not resolved within the run’s budget' : ''}\n${doc.environment.browser.name} ${doc.environment.browser.version}`,
    };
  });
}

/**
 * github-action-benchmark, tool `customSmallerIsBetter`: executed WebAssembly operations per
 * message for each counted case (exact: no range). Its own file and chart, since the tool takes
 * one direction per file; a rise is more work, whatever the runner's speed.
 */
export function toGithubActionBenchmarkOps(doc: ResultDocument): GithubActionBenchmarkEntry[] {
  return doc.cases.flatMap((c) =>
    c.ops
      ? [
          {
            name: benchmarkName(c),
            unit: 'WASM ops/message',
            value: c.ops.perMessage,
            extra: `exact (the counting pass): ${c.ops.perByte.toFixed(2)} operations per byte, ${c.ops.perCall} per call\n${doc.environment.browser.name} ${doc.environment.browser.version}`,
          },
        ]
      : [],
  );
}

export type BencherMetricFormat = Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>>;

/** Bencher Metric Format: per case, `throughput` (MB/s) and `latency` (ns per operation), each with its interval. */
export function toBmf(doc: ResultDocument): BencherMetricFormat {
  const out: BencherMetricFormat = {};
  for (const c of doc.cases) {
    const t = throughputOf(c, doc.cases);
    out[benchmarkName(c)] = {
      throughput: { value: sig(t.value), lower_value: sig(t.low), upper_value: sig(t.high) },
      latency: { value: sig(t.ns), lower_value: sig(t.nsLow), upper_value: sig(t.nsHigh) },
      // Exact: no bounds to give (the counting pass; WASM cases only).
      ...(c.ops ? { 'wasm-ops': { value: c.ops.perMessage } } : {}),
    };
  }
  return out;
}

/** Text escaped for an XML attribute or element (JUnit). */
export const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const WORD: Record<CompareVerdict, string> = { faster: 'FASTER', slower: 'SLOWER', same: 'SAME', unknown: 'UNKNOWN' };
const line = (r: Comparison, c: Comparison['cases'][number]) =>
  `${WORD[c.verdict]}: B/A throughput ${c.ratio.toFixed(3)} [${c.low.toFixed(3)}–${c.high.toFixed(3)}] against a margin of ±${+(r.margin * 100).toFixed(1)} % (A ${sig(c.aMbps)} MB/s, B ${sig(c.bMbps)} MB/s)`;

/** JUnit XML: one test case per compared case; SLOWER fails it, UNKNOWN skips it. */
export function toJunit(r: Comparison, suite = 'aeadbench compare'): string {
  const failures = r.cases.filter((c) => c.verdict === 'slower').length;
  const skipped = r.cases.filter((c) => c.verdict === 'unknown').length;
  const cases = r.cases.map((c) => {
    const body =
      c.verdict === 'slower'
        ? `<failure message="${xml(line(r, c))}" type="slower"/>`
        : c.verdict === 'unknown'
          ? `<skipped message="${xml(line(r, c))}"/>`
          : `<system-out>${xml(line(r, c))}</system-out>`;
    return `    <testcase classname="aeadbench" name="${xml(c.key)}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${r.cases.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${xml(suite)}" tests="${r.cases.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** Markdown for a CI's job summary: a comparison, one row per case, verdicts first. */
export function comparisonMarkdown(r: Comparison, title = 'aeadbench compare'): string {
  const order: CompareVerdict[] = ['slower', 'unknown', 'faster', 'same'];
  const rows = [...r.cases].sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict));
  const n = (v: CompareVerdict) => r.cases.filter((c) => c.verdict === v).length;
  return [
    `### ${title}`,
    '',
    `${r.cases.length} cases, margin ±${+(r.margin * 100).toFixed(1)} %: **${n('slower')} slower**, ${n('unknown')} unknown, ${n('faster')} faster, ${n('same')} same.`,
    '',
    '| case | verdict | B/A throughput | 95 % interval |',
    '|---|---|---:|---|',
    ...rows.map((c) => `| ${cell(c.key)} | ${WORD[c.verdict]} | ${c.ratio.toFixed(3)} | ${c.low.toFixed(3)}–${c.high.toFixed(3)} |`),
    '',
  ].join('\n');
}

/** Markdown for a CI's job summary: a run, one row per case. */
export function runMarkdown(doc: ResultDocument, title = 'aeadbench run'): string {
  return [
    `### ${title}: ${doc.environment.browser.name} ${doc.environment.browser.version}`,
    '',
    `${doc.cases.length} cases in ${(doc.durationMs / 1000).toFixed(1)} s; ${doc.cases.filter((c) => c.unstable).length} not resolved within the budget (⚠).`,
    '',
    '| case | MB/s (median) | 95 % interval |',
    '|---|---:|---|',
    ...doc.cases.map((c) => {
      const t = throughputOf(c, doc.cases);
      return `| ${cell(benchmarkName(c))} | ${sig(t.value)}${c.unstable ? ' ⚠' : ''} | ${sig(t.low)}–${sig(t.high)} |`;
    }),
    '',
  ].join('\n');
}

/**
 * One table across engines (`aeadbench run --browser chromium,firefox,webkit --out DIR`): a row
 * per case, a column per engine with its median MB/s; engines that did not run are named.
 */
export function matrixMarkdown(done: { engine: string; doc: ResultDocument }[], missing: { engine: string; why: string }[]): string {
  const names = [...new Set(done.flatMap(({ doc }) => doc.cases.map(benchmarkName)))];
  const figure = (doc: ResultDocument, name: string) => {
    const c = doc.cases.find((x) => benchmarkName(x) === name);
    return c ? `${sig(throughputOf(c, doc.cases).value)}${c.unstable ? ' ⚠' : ''}` : '–';
  };
  return [
    `### aeadbench across engines: MB/s (median)`,
    '',
    ...done.map(
      ({ engine, doc }) =>
        `- **${engine}**: ${doc.environment.browser.name} ${doc.environment.browser.version}, ${doc.cases.length} cases in ${(doc.durationMs / 1000).toFixed(1)} s`,
    ),
    ...missing.map(({ engine, why }) => `- **${engine}**: did not run (${why})`),
    '',
    `| case | ${done.map(({ engine }) => engine).join(' | ')} |`,
    `|---|${done.map(() => '---:').join('|')}|`,
    ...names.map((name) => `| ${cell(name)} | ${done.map(({ doc }) => figure(doc, name)).join(' | ')} |`),
    '',
    '⚠ not resolved within the run’s budget.',
    '',
  ].join('\n');
}
