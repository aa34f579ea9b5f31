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
import { type ResultDocument, type RunParams, validateResult } from '../web/core/schema.ts';
import { busySpread } from '../web/core/report/verdict.ts';
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

/** Phase 1 of an A/B: the engines and the run's parameters, checked before anything is bundled. */
function abRequest(o: AbOptions): { engines: string[]; params: RunParams; byOps: boolean } {
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
  // By counts, which are exact: one short round of timing (the run's), then the counting pass
  // decides. By time: rounds of the stop rule, as many as the budget allows.
  const timing = byOps
    ? [
        ['budget', '1s'],
        ['overtime', '0s'],
        ['rounds', '1'],
        ['reruns', '0'],
      ]
    : [
        ['budget', `${o.budgetSeconds}s`],
        ['reruns', '50'],
      ];
  for (const [k, v] of timing) q.set(k!, v!);
  try {
    return { engines, params: parseParams(q).params, byOps };
  } catch (e) {
    throw new CliError(e instanceof ParamError ? `Invalid --${e.param}: '${e.value}' (${e.detail})` : (e as Error).message);
  }
}

/** Phase 2: one engine's session, base and head bundled for it and measured in one run; its document written where asked. */
async function abSession(o: AbOptions, params: RunParams, engine: string, alone: boolean): Promise<ResultDocument> {
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
  } finally {
    base.dispose();
    head.dispose();
  }
  const checked = validateResult(doc);
  if (!checked.ok) throw new CliError(`[${engine}] the result failed the schema: ${checked.issues.slice(0, 3).join('; ')}`);
  if (o.json && alone) writeFileSync(o.json, JSON.stringify(doc, null, 2));
  if (o.out) writeFileSync(join(o.out, `${engine}.json`), JSON.stringify(doc, null, 2));
  return doc;
}

type Sessions = { done: { engine: string; doc: ResultDocument }[]; missing: { engine: string; why: string }[] };

/** Phase 3, by counts: each engine's table of operations per message, then the summary and JUnit; the worst exit. */
function reportOps(o: AbOptions, say: (x: string) => void, { done, missing }: Sessions): 0 | 1 | 2 | 3 {
  let worst: 0 | 1 | 2 | 3 = missing.length ? 3 : 0;
  const opsResults: { engine: string; ops: OpsComparison }[] = [];
  for (const { engine, doc } of done) {
    // Validated before timed: a side the gate refused is an error, not a comparison.
    const refused = refusedIn(doc);
    const ops = opsOfAb(doc, o.threshold);
    say(`[${engine}] ${doc.environment.browser.name} ${doc.environment.browser.version}: head over base, WebAssembly operations per message (exact)`);
    say(opsTable(ops));
    for (const x of refused) console.error(`FAILED: ${x}`);
    if (!refused.length && ops.rows.length === 0) console.error(`[${engine}] ${nothingCounted(doc)}`);
    opsResults.push({ engine, ops });
    worst = worse(worst, refused.length ? 3 : opsExitCode(ops));
  }
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
  return worst;
}

/** Phase 3, by time: each engine's comparison, its A/A check in words, what would decide the undecided; the worst exit. */
function reportTimes(o: AbOptions, say: (x: string) => void, { done, missing }: Sessions): 0 | 1 | 2 | 3 {
  let worst: 0 | 1 | 2 | 3 = missing.length ? 3 : 0;
  const results: { engine: string; r: Comparison }[] = [];
  for (const { engine, doc } of done) {
    const refused = refusedIn(doc);
    const r = compareInRun(doc);
    say(
      `[${engine}] ${doc.environment.browser.name} ${doc.environment.browser.version}: head over base, one session, paired; ${(doc.durationMs / 1000).toFixed(1)} s`,
    );
    say(compareTable(r).replace('B/A throughput', 'head/base throughput'));
    const aa = doc.aaCheck;
    if (aa) {
      say(`A/A check (one case twice, must be SAME): ${aa.ratio.toFixed(3)} [${aa.low.toFixed(3)}–${aa.high.toFixed(3)}] ${aa.decision.toUpperCase()}`);
      // Not SAME: the same code differed from itself beyond the margin, in words.
      const spread = busySpread(aa);
      if (spread !== null)
        say(
          `  the device was too busy in this session to separate differences smaller than about ±${Math.ceil(spread * 100)} %: a comparison above narrower than that says more of the machine than of the code`,
        );
    }
    for (const x of refused) console.error(`FAILED: ${x}`);
    results.push({ engine, r });
    const code = refused.length || r.cases.length === 0 ? 3 : compareExitCode(r);
    if (r.cases.length === 0 && !refused.length) console.error(`[${engine}] nothing to compare: no case of the head has a base case beside it`);
    if (!refused.length) for (const line of unknownAdvice(r, { inRun: true, budgetSeconds: o.budgetSeconds })) console.error(`[${engine}] ${line}`);
    worst = worse(worst, code);
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
  return worst;
}

/** `aeadbench compare --base --head`: the request checked, a session per engine, then the report by counts or by time. */
export async function abCompare(o: AbOptions): Promise<number> {
  const say = o.say ?? ((x: string) => console.log(x));
  const { engines, params, byOps } = abRequest(o);
  if (o.out) mkdirSync(o.out, { recursive: true });
  const sessions: Sessions = { done: [], missing: [] };
  for (const engine of engines) {
    try {
      sessions.done.push({ engine, doc: await abSession(o, params, engine, engines.length === 1) });
    } catch (e) {
      if (engines.length === 1) throw e;
      sessions.missing.push({ engine, why: (e as Error).message.split('\n')[0]! });
    }
  }
  const code = byOps ? reportOps(o, say, sessions) : reportTimes(o, say, sessions);
  for (const m of sessions.missing) console.error(`[${m.engine}] did not run: ${m.why}`);
  return code;
}
