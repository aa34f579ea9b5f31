/**
 * `aeadbench compare --base A.mjs --head B.mjs`: A/B in one session. Two modules of yours (the
 * bring-your-own contract, web/core/implementations/custom.ts) are loaded into the same benchmark worker, both
 * through the gate before anything is timed, sampled interleaved case by case, and measured
 * again by the stop rule until each head/base comparison is SAME, FASTER or SLOWER against the
 * margin, or the budget is spent (UNKNOWN). The ratios are paired cycle by cycle, so a busy CI
 * runner slows both sides alike. Exit codes as for two files (compare.ts compareExitCode).
 * @module
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compareExitCode, compareInRun, compareTable, type Comparison, unknownAdvice } from '../web/core/report/compare.ts';
import { ParamError, parseParams, toSearch } from '../web/core/params.ts';
import type { Progress } from '../web/core/run/runner.ts';
import { type ResultDocument, validateResult } from '../web/core/schema.ts';
import { comparisonMarkdown, toJunit } from '../web/core/report/ci-formats.ts';
import { DEFAULT_OPS_THRESHOLD, type OpsComparison, compareOps, opsExitCode, opsTable } from '../web/core/report/ops.ts';
import { opsJunit, opsMarkdown } from './ops-outputs.ts';
import { BROWSER_NAMES } from './browsers.ts';
import { type BrowserName, CliError, runInBrowser } from './browser-run.ts';
import { type BundledModule, bundleModule } from './modules.ts';

export interface AbOptions {
  base: string;
  head: string;
  browser: string;
  margin: number;
  budgetSeconds: number;
  algorithms?: string;
  sizes?: string;
  operations?: string;
  junit?: string;
  json?: string;
  out?: string;
  executable?: string;
  onProgress?: (engine: string, p: Progress) => void;
  /** Where the table and notes go (stdout by default). */
  say?: (line: string) => void;
  stepSummary?: (markdown: string) => void;
  /** `ops`: compare the two modules' exact counts (their WebAssembly, counted), not their times. */
  metric?: 'time' | 'ops';
  /** With `ops`: the change in operations per message that counts as more work. */
  threshold?: number;
}

/** The ids the two sides carry in the result, whatever ids the modules declare (often the same one). */
export const AB_IDS = { base: 'base', head: 'head' } as const;

/**
 * A module under an id of the A/B run's choosing: a two-line entry that re-exports it with its
 * own id and label on top (its methods, version and the rest come through unchanged), bundled
 * as any module of yours is, from the module's own directory.
 */
export async function bundleAs(file: string, id: string, platform: 'node' | 'browser'): Promise<BundledModule> {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new CliError(`Invalid --${id}: '${file}' does not exist`);
  const dir = mkdtempSync(join(tmpdir(), `aeadbench-ab-${id}-`));
  const entry = join(dir, `${id}.mjs`);
  writeFileSync(
    entry,
    `import m from ${JSON.stringify(abs)};\nexport default Object.assign(Object.create(m), { id: ${JSON.stringify(id)}, label: ${JSON.stringify(`${id}: `)} + String(m && m.label).slice(0, 90) });\n`,
  );
  try {
    return await bundleModule(entry, platform);
  } catch (e) {
    // Name the module as given, not the entry made for it.
    throw new CliError(
      (e as Error).message
        .replaceAll(entry, file)
        .replace(`'${entry}'`, `'${file}'`)
        .replace(/Invalid --implementation/, `Invalid --${id}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An A/B run's two sides as two results of one implementation, compared by their counts: the
 * same case of base and head, head's operations per message over base's (report/ops.ts).
 */
export function opsOfAb(doc: ResultDocument, threshold?: number): OpsComparison {
  const side = (id: string) => ({
    cases: doc.cases.filter((c) => c.implementation === id).map((c) => ({ ...c, implementation: 'module' as typeof c.implementation })),
  });
  return compareOps(side(AB_IDS.base), side(AB_IDS.head), threshold);
}

/** Why an A/B by counts has nothing to compare: what the counting pass found each side runs. */
function nothingCounted(doc: ResultDocument): string {
  const js = (doc.modules ?? []).filter((m) => m.code === 'javascript').map((m) => m.id);
  if (js.length)
    return `nothing to compare by counts: ${js.join(' and ')} ${js.length > 1 ? 'are' : 'is'} JavaScript (no WebAssembly was instantiated); compare them by time (without --metric ops)`;
  return 'nothing to compare by counts: no case of the head has a counted base case beside it';
}

/** The exit code that says more: an error (3), then something SLOWER (1), then UNKNOWN (2), then 0. */
const RANK = { 0: 0, 2: 1, 1: 2, 3: 3 } as const;
const worse = (a: 0 | 1 | 2 | 3, b: 0 | 1 | 2 | 3): 0 | 1 | 2 | 3 => (RANK[a] >= RANK[b] ? a : b);

/** What the gate kept from being timed in a run: modules refused outright, and rows excluded by validation. */
export function refusedIn(doc: ResultDocument): string[] {
  return [
    ...doc.skipped.filter((s) => s.what.startsWith('module ')).map((s) => `${s.what}: ${s.reason}`),
    ...doc.validation.filter((v) => v.excluded).map((v) => `${v.implementation} ${v.algorithm}: ${v.errors[0] ?? 'failed validation'}`),
  ];
}

export function parseBudget(text: string): number {
  if (/^\s*\d+(\.\d+)?\s*$/.test(text))
    throw new CliError(`Invalid --budget: '${text}' (a duration needs its unit: write ${text.trim()}s for ${text.trim()} seconds)`);
  const m = /^\s*(\d+(?:\.\d+)?)\s*s\s*$/.exec(text);
  const s = m ? Number(m[1]) : NaN;
  if (!(s >= 5 && s <= 3600)) throw new CliError(`Invalid --budget: '${text}' (expected seconds from 5 to 3600, like 120s)`);
  return s;
}

export async function abCompare(o: AbOptions): Promise<number> {
  const say = o.say ?? ((x: string) => console.log(x));
  for (const [flag, file] of [
    ['base', o.base],
    ['head', o.head],
  ] as const)
    if (!file) throw new CliError(`--${flag} needs a module file`);
  const engines = o.browser
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const b of engines)
    if (![...BROWSER_NAMES, 'node'].includes(b))
      throw new CliError(`Invalid --browser: '${b}' (expected ${BROWSER_NAMES.join(', ')} or node, or several separated by commas)`);
  if (engines.length === 0 || new Set(engines).size !== engines.length) throw new CliError(`Invalid --browser: '${o.browser}' (name each engine once)`);
  if (engines.length > 1 && !o.out) throw new CliError('several engines need --out DIR: each engine writes DIR/<engine>.json, with DIR/summary.md beside them');
  const q = new URLSearchParams({ preset: 'quick' });
  for (const k of ['algorithms', 'sizes', 'operations'] as const) if (o[k] !== undefined) q.set(k, o[k]!);
  q.set('ab', `${AB_IDS.base},${AB_IDS.head},${o.margin}`);
  const byOps = o.metric === 'ops';
  if (byOps) {
    // Counts are exact: one short round of timing (the run's), then the counting pass decides.
    for (const [k, v] of [
      ['budget', '1s'],
      ['overtime', '0s'],
      ['rounds', '1'],
      ['reruns', '0'],
    ])
      q.set(k!, v!);
  } else {
    q.set('budget', `${o.budgetSeconds}s`);
    // Rounds of the stop rule: as many as the budget allows.
    q.set('reruns', '50');
  }
  let params;
  try {
    params = parseParams(q).params;
  } catch (e) {
    throw new CliError(e instanceof ParamError ? `Invalid --${e.param}: '${e.value}' (${e.detail})` : (e as Error).message);
  }
  if (o.out) mkdirSync(o.out, { recursive: true });
  const results: { engine: string; doc: ResultDocument; r: Comparison }[] = [];
  const opsResults: { engine: string; ops: OpsComparison }[] = [];
  const missing: { engine: string; why: string }[] = [];
  let worst: 0 | 1 | 2 | 3 = 0;
  for (const engine of engines) {
    const platform = engine === 'node' ? 'node' : 'browser';
    const [base, head] = await Promise.all([bundleAs(o.base, AB_IDS.base, platform), bundleAs(o.head, AB_IDS.head, platform)]);
    let doc: ResultDocument;
    try {
      if (engine === 'node') {
        const { runBenchmark } = await import('../web/core/node.ts');
        const { implementations: _, ...rest } = params;
        doc = await runBenchmark({ ...rest, implementations: [base.path!, head.path!], onProgress: (p) => o.onProgress?.(engine, p) });
      } else {
        const files = new Map([base, head].map((b) => [b.urlPath, b.bytes]));
        const search = `${toSearch(params)}&module=${base.urlPath},${head.urlPath}`;
        doc = await runInBrowser({ browser: engine as BrowserName, executable: o.executable, search, files, onProgress: (p) => o.onProgress?.(engine, p) });
      }
    } catch (e) {
      if (engines.length === 1) throw e;
      missing.push({ engine, why: (e as Error).message.split('\n')[0]! });
      worst = 3;
      continue;
    } finally {
      base.dispose();
      head.dispose();
    }
    const checked = validateResult(doc);
    if (!checked.ok) throw new CliError(`[${engine}] the result failed the schema: ${checked.issues.slice(0, 3).join('; ')}`);
    if (o.json && engines.length === 1) writeFileSync(o.json, JSON.stringify(doc, null, 2));
    if (o.out) writeFileSync(join(o.out, `${engine}.json`), JSON.stringify(doc, null, 2));
    // Validated before timed: a side the gate refused is an error, not a comparison.
    const refused = refusedIn(doc);
    if (byOps) {
      const ops = opsOfAb(doc, o.threshold);
      say(`[${engine}] ${doc.environment.browser.name} ${doc.environment.browser.version}: head over base, WebAssembly operations per message (exact)`);
      say(opsTable(ops));
      for (const x of refused) console.error(`FAILED: ${x}`);
      if (!refused.length && ops.rows.length === 0) console.error(`[${engine}] ${nothingCounted(doc)}`);
      opsResults.push({ engine, ops });
      worst = worse(worst, refused.length ? 3 : opsExitCode(ops));
      continue;
    }
    const r = compareInRun(doc);
    say(
      `[${engine}] ${doc.environment.browser.name} ${doc.environment.browser.version}: head over base, one session, paired; ${(doc.durationMs / 1000).toFixed(1)} s`,
    );
    say(compareTable(r).replace('B/A throughput', 'head/base throughput'));
    if (doc.aaCheck)
      say(
        `A/A check (one case twice, must be SAME): ${doc.aaCheck.ratio.toFixed(3)} [${doc.aaCheck.low.toFixed(3)}–${doc.aaCheck.high.toFixed(3)}] ${doc.aaCheck.decision.toUpperCase()}`,
      );
    for (const x of refused) console.error(`FAILED: ${x}`);
    results.push({ engine, doc, r });
    const code = refused.length || r.cases.length === 0 ? 3 : compareExitCode(r);
    if (r.cases.length === 0 && !refused.length) console.error(`[${engine}] nothing to compare: no case of the head has a base case beside it`);
    if (!refused.length) for (const line of unknownAdvice(r, { inRun: true, budgetSeconds: o.budgetSeconds })) console.error(`[${engine}] ${line}`);
    worst = worse(worst, code);
  }
  if (byOps) {
    const markdown = opsResults.map(({ engine, ops }) => `### ${engine}\n\n${opsMarkdown(ops)}`).join('\n\n');
    if (o.out) writeFileSync(join(o.out, 'summary.md'), `# aeadbench A/B by counts: ${o.head} against ${o.base}\n\n${markdown}\n`);
    o.stepSummary?.(markdown);
    if (o.junit)
      writeFileSync(
        o.junit,
        opsJunit({
          threshold: o.threshold ?? DEFAULT_OPS_THRESHOLD,
          rows: opsResults.flatMap(({ engine, ops }) => ops.rows.map((x) => ({ ...x, key: `${engine} · ${x.key}` }))),
          uncounted: [],
          uncountedWhy: [],
        }),
      );
    for (const m of missing) console.error(`[${m.engine}] did not run: ${m.why}`);
    return worst;
  }
  const markdown = [
    ...results.map(({ engine, r }) => `### ${engine}\n\n${comparisonMarkdown(r)}`),
    ...missing.map((m) => `### ${m.engine}\n\nnot measured: ${m.why}`),
  ].join('\n\n');
  if (o.out) writeFileSync(join(o.out, 'summary.md'), `# aeadbench A/B: ${o.head} against ${o.base}\n\n${markdown}\n`);
  o.stepSummary?.(markdown);
  if (o.junit) {
    // One JUnit file: every engine's comparisons, the engine named in each case.
    const merged: Comparison = {
      margin: o.margin,
      cases: results.flatMap(({ engine, r }) => r.cases.map((c) => ({ ...c, key: `${engine} · ${c.key}` }))),
      onlyInA: [],
      onlyInB: [],
    };
    writeFileSync(o.junit, toJunit(merged));
  }
  for (const m of missing) console.error(`[${m.engine}] did not run: ${m.why}`);
  return worst;
}
