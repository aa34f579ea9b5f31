/** What `aeadbench compare --metric ops` writes besides its table: JUnit, the job summary, and the note under a time comparison. */
import type { Comparison } from '../web/core/report/compare.ts';
import type { OpsComparison } from '../web/core/report/ops.ts';
import { xml } from '../web/core/report/ci-formats.ts';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(3)} %`;

/** JUnit XML: one test case per counted case, more work beyond the threshold a failure. */
export function opsJunit(r: OpsComparison, suite = 'aeadbench compare --metric ops'): string {
  const failures = r.rows.filter((x) => x.verdict === 'more-work').length;
  const cases = r.rows.map((x) => {
    const line = `${x.key}: ${x.base} → ${x.head} operations per message (${pct(x.change)})`;
    const body = x.verdict === 'more-work' ? `<failure message="${xml(line)}" type="more-work"/>` : `<system-out>${xml(line)}</system-out>`;
    return `    <testcase classname="aeadbench" name="${xml(x.key)}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${r.rows.length}" failures="${failures}">`,
    `  <testsuite name="${xml(suite)}" tests="${r.rows.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The job summary's table: more work first. */
export function opsMarkdown(r: OpsComparison): string {
  const order = { 'more-work': 0, 'less-work': 1, 'same-work': 2 } as const;
  const rows = [...r.rows].sort((a, b) => order[a.verdict] - order[b.verdict]);
  return [
    `### aeadbench compare --metric ops (threshold ±${(r.threshold * 100).toFixed(1)} %)`,
    '',
    '| case | base ops/msg | head ops/msg | change | |',
    '|---|---:|---:|---:|---|',
    ...rows.map((x) => `| ${x.key} | ${x.base} | ${x.head} | ${pct(x.change)} | ${x.verdict.replace('-', ' ')} |`),
  ].join('\n');
}

/** Under a time comparison: for each case that reads SLOWER or FASTER, whether its work changed (both results counted it). */
export function workBehindTime(time: Comparison, ops: OpsComparison): string[] {
  const byKey = new Map(ops.rows.map((x) => [x.key, x]));
  return time.cases.flatMap((c) => {
    const o = byKey.get(c.key);
    if (!o || (c.verdict !== 'slower' && c.verdict !== 'faster')) return [];
    const what =
      o.change === 0
        ? 'the same work (counts equal), so the time moved without the code'
        : `${o.change > 0 ? 'more' : 'less'} work (${pct(o.change)} operations per message)`;
    return [`${c.key}: ${c.verdict.toUpperCase()} in time, with ${what}`];
  });
}
