/**
 * Two results compared by their exact counts: each case's WebAssembly operations per message
 * (the counting pass, `ops` in a case), head over base. A count does not move with the machine,
 * so the change is exact and the threshold is a policy, not a guard against noise: 0 % means the
 * same work. What a count does not see (the engine's code generation, caches, the cost of one
 * v128 operation against one i32) is for the time verdict beside it.
 * @module
 */
import { type CaseResult, type ResultDocument } from '../schema.ts';
import { isBuiltInImplementation, needsWasm } from '../tables/algorithms.ts';
import { caseLabel } from './compare.ts';

/**
 * A case's count as a table shows it: operations per byte; `JS` where there is nothing to count
 * (JavaScript, or the platform's own code: a built-in that is not WebAssembly, or a module of
 * yours that executed none); `–` where WebAssembly went uncounted (a run without the pass, or a
 * count that failed: the run's warnings say why).
 */
/**
 * Why a case has no count, in words: its code is JavaScript (or the platform's own), or it is
 * WebAssembly that the counting pass does not rewrite — a built-in's that loads its own module
 * (libsodium.js) is timed as it ships, not counted — or a module's WebAssembly not counted in
 * that run (its warnings say why).
 */
export function uncountedWhy(c: Pick<CaseResult, 'implementation'>, modules?: ResultDocument['modules']): 'javascript' | 'own-wasm' | 'not-counted' {
  if (isBuiltInImplementation(c.implementation)) return needsWasm(c.implementation) ? 'own-wasm' : 'javascript';
  return modules?.find((m) => m.id === c.implementation)?.code === 'javascript' ? 'javascript' : 'not-counted';
}

const UNCOUNTED_WORDS = {
  javascript: 'JavaScript (or the platform’s own code), not WebAssembly',
  'own-wasm': 'WebAssembly the library loads itself, which the counting pass does not rewrite',
  'not-counted': 'WebAssembly not counted in that run (its warnings say why)',
} as const;

export function countCell(c: CaseResult, modules: ResultDocument['modules']): { text: string; title: string } {
  if (c.ops)
    return {
      text: c.ops.perByte.toFixed(c.ops.perByte >= 100 ? 1 : 2),
      title: `${c.ops.perMessage.toLocaleString('en')} WebAssembly operations per message, exact (the same in every engine)`,
    };
  const why = uncountedWhy(c, modules);
  return why === 'javascript'
    ? { text: 'JS', title: `no count: ${UNCOUNTED_WORDS[why]}` }
    : { text: 'not counted', title: `no count: ${UNCOUNTED_WORDS[why]}` };
}

/** The default threshold: any change of at least 0.5 % in the work a message takes is reported. */
export const DEFAULT_OPS_THRESHOLD = 0.005;

export type OpsVerdict = 'more-work' | 'less-work' | 'same-work';

export interface OpsRow {
  key: string;
  base: number;
  head: number;
  /** head / base − 1: exact. */
  change: number;
  verdict: OpsVerdict;
}

export interface OpsComparison {
  threshold: number;
  rows: OpsRow[];
  /** Cases in both results that one of them has no count for, each with why (uncountedWhy). */
  uncounted: string[];
  uncountedWhy: ReturnType<typeof uncountedWhy>[];
}

const counted = (c: CaseResult) => c.ops?.perMessage;

export function compareOps(
  base: Pick<ResultDocument, 'cases'> & Partial<Pick<ResultDocument, 'modules'>>,
  head: Pick<ResultDocument, 'cases'> & Partial<Pick<ResultDocument, 'modules'>>,
  threshold = DEFAULT_OPS_THRESHOLD,
): OpsComparison {
  const heads = new Map(head.cases.map((c) => [caseLabel(c), c]));
  const rows: OpsRow[] = [];
  const uncounted: string[] = [];
  const whys: ReturnType<typeof uncountedWhy>[] = [];
  for (const b of base.cases) {
    const key = caseLabel(b);
    const h = heads.get(key);
    if (!h) continue;
    const [x, y] = [counted(b), counted(h)];
    if (x === undefined || y === undefined || x === 0) {
      uncounted.push(key);
      whys.push(x === undefined ? uncountedWhy(b, base.modules) : uncountedWhy(h, head.modules));
      continue;
    }
    const change = y / x - 1;
    rows.push({
      key,
      base: x,
      head: y,
      change,
      verdict: change > 0 && change >= threshold ? 'more-work' : change < 0 && change <= -threshold ? 'less-work' : 'same-work',
    });
  }
  return { threshold, rows, uncounted, uncountedWhy: whys };
}

const WORDS: Record<OpsVerdict, string> = { 'more-work': '▲ MORE WORK', 'less-work': '▼ less work', 'same-work': '= same work' };

/** The comparison as a table for a terminal: one row per counted case, exact change. */
export function opsTable(r: OpsComparison): string {
  const rows = r.rows.map((x) => [x.key, String(x.base), String(x.head), `${x.change >= 0 ? '+' : ''}${(x.change * 100).toFixed(3)} %`, WORDS[x.verdict]]);
  const head = ['case', 'base ops/msg', 'head ops/msg', 'change', `beyond ±${(r.threshold * 100).toFixed(1)} %`];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((x, i) => (i >= 1 && i <= 3 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  ');
  const reasons = (Object.keys(UNCOUNTED_WORDS) as (keyof typeof UNCOUNTED_WORDS)[])
    .map((why) => [why, r.uncountedWhy.filter((w) => w === why).length] as const)
    .filter(([, n]) => n > 0)
    .map(([why, n]) => `${n} ${UNCOUNTED_WORDS[why]}`);
  const uncounted = r.uncounted.length ? [`${r.uncounted.length} case(s) in both without a count in one of them, not compared: ${reasons.join('; ')}`] : [];
  return [line(head), ...rows.map(line), ...uncounted].join('\n');
}

/** 0: no case takes more work beyond the threshold; 1: one does; 3: no counted case in common. */
export function opsExitCode(r: OpsComparison): 0 | 1 | 3 {
  if (r.rows.length === 0) return 3;
  return r.rows.some((x) => x.verdict === 'more-work') ? 1 : 0;
}
