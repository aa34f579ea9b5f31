#!/usr/bin/env node
/**
 * The aeadbench command line: `aeadbench help` prints its usage, made from the registry of its
 * outputs (formats.ts). In the repository: npm run bench -- run --browser chromium --preset quick --json out.json
 * @module
 */
import { accessSync, appendFileSync, constants, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { pathToFileURL } from 'node:url';
import { comparisonMarkdown, matrixMarkdown, toJunit } from '../web/core/report/ci-formats.ts';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ParamError, parseParams, toSearch } from '../web/core/params.ts';
import { FILE_OUTPUTS, RUN_OUTPUTS, STDOUT_FORMATS, USAGE, stdoutFormat, summaryMarkdown } from './formats.ts';
import { DEFAULT_OPS_THRESHOLD, compareOps, opsExitCode, opsTable } from '../web/core/report/ops.ts';
import { opsJunit, opsMarkdown, workBehindTime } from './ops-outputs.ts';
import { NOTHING_PASSED, type Progress } from '../web/core/run/runner.ts';
import { type ResultDocument, type RunParams, validateResult } from '../web/core/schema.ts';
import { BROWSER_NAMES } from './browsers.ts';
import { type BrowserName, CliError, EMULATIONS, type Emulation, emulationEnv, runInBrowser } from './browser-run.ts';
import { type BundledModule, bundleModule } from './modules.ts';
import { compareExitCode, compareResults, compareTable, unknownAdvice } from './compare.ts';
import { abCompare, parseBudget } from './ab.ts';
import { DEFAULT_MARGIN } from '../web/core/decision.ts';
import { DEVICE_CLASSES, type DeviceClass, submitResult } from '../web/core/submit.ts';

function progressLine(p: Progress): string {
  const width = 30;
  const frac = p.total ? p.done / p.total : 0;
  const bar = '█'.repeat(Math.round(frac * width)).padEnd(width, '░');
  const eta = p.etaMs != null ? ` ${Math.ceil(p.etaMs / 1000)} s left` : '';
  return `\r${bar} ${p.done}/${p.total} ${p.phase}${eta}`.padEnd(80);
}

const PLAIN_PROGRESS_EVERY_MS = 5000;

/**
 * Progress where stderr is not a terminal (a CI log): a plain line when the phase changes and
 * every few seconds within one, so the log says what the run is doing and that it is alive.
 */
function plainProgress(): (engine: string, p: Progress) => void {
  const started = Date.now();
  let lastLine = -Infinity;
  let lastPhase = '';
  return (engine, p) => {
    if (p.phase === lastPhase && Date.now() - lastLine < PLAIN_PROGRESS_EVERY_MS && p.phase !== 'done') return;
    lastLine = Date.now();
    lastPhase = p.phase;
    process.stderr.write(`${plainProgressLine(engine, p, Date.now() - started)}\n`);
  };
}

/** One progress line for a log: engine, phase, cases, the case being measured, elapsed and estimate. */
export function plainProgressLine(engine: string, p: Progress, elapsedMs: number): string {
  const what = p.phase === 'rerunning' ? 'undecided cases measured again' : p.phase === 'gating' ? 'modules of yours gated' : 'cases';
  const eta = p.etaMs != null && p.phase !== 'done' ? `, about ${Math.ceil(p.etaMs / 1000)} s left` : '';
  return `[${engine}] ${p.phase} ${p.done}/${p.total} ${what}, ${(elapsedMs / 1000).toFixed(0)} s elapsed${eta}${p.current ? ` (${p.current})` : ''}`;
}

/**
 * parseArgs, with an unknown flag refused by name and the nearest known one suggested (as the
 * package does for option names): `--size` answers "did you mean --sizes?".
 */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const m = /Unknown option '(--?[^']+)'/.exec((e as Error).message);
    if (!m) throw e;
    const known = Object.keys(config.options ?? {}).map((k) => `--${k}`);
    const near = closest(m[1]!, known);
    const hint = distance(m[1]!, near) <= Math.max(2, Math.floor(m[1]!.length / 3)) ? ` (did you mean ${near}?)` : '';
    throw new CliError(`unknown option ${m[1]}${hint}; the options are ${known.join(', ')}`);
  }
}

/**
 * Every file a command will write, checked before anything is measured: its folder is made
 * where missing, and a folder that cannot be written (or a path that is a folder) is refused by
 * name, so that a run's minute is never lost to its last step.
 */
export function checkOutputPaths(paths: readonly { flag: string; path: string; dir?: boolean }[]): void {
  for (const { flag, path, dir } of paths) {
    const folder = dir ? path : dirname(path);
    try {
      mkdirSync(folder, { recursive: true });
      accessSync(folder, constants.W_OK);
    } catch (e) {
      throw new CliError(`Invalid --${flag}: '${path}' cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message} on ${folder})`);
    }
    if (!dir) {
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        // absent: written later
      }
      if (isDir) throw new CliError(`Invalid --${flag}: '${path}' is a folder; give a file name`);
    }
  }
}

/** The options of `run`, one table: parsed once, by name, with the nearest one for a misspelling. */
const RUN_FLAGS = {
  browser: { type: 'string', default: 'chromium' },
  preset: { type: 'string' },
  algorithms: { type: 'string' },
  implementations: { type: 'string' },
  implementation: { type: 'string', multiple: true },
  'modules-alone': { type: 'boolean', default: false },
  apart: { type: 'boolean', default: false },
  emulate: { type: 'string' },
  sizes: { type: 'string' },
  operations: { type: 'string' },
  rounds: { type: 'string' },
  budget: { type: 'string' },
  overtime: { type: 'string' },
  ...Object.fromEntries(FILE_OUTPUTS.map((o) => [o.name, { type: 'string' } as const])),
  executable: { type: 'string' },
  submit: { type: 'string' },
  'device-class': { type: 'string', default: 'server' },
  format: { type: 'string', default: 'table' },
  out: { type: 'string' },
} as const;

/** What `run` was asked, checked whole before anything is measured (`runRequest`). */
interface RunRequest {
  values: Record<string, string | boolean | string[] | undefined> & {
    browser: string;
    implementation?: string[];
    implementations?: string;
    executable?: string;
    submit?: string;
    out?: string;
    apart?: boolean;
  };
  engines: string[];
  params: RunParams;
  files: { output: (typeof FILE_OUTPUTS)[number]; path: string }[];
  format: NonNullable<ReturnType<typeof stdoutFormat>>;
  deviceClass: DeviceClass;
  emulate: Emulation | undefined;
  alone: boolean;
  /** Words for a person: stdout with the table format, stderr when stdout carries a machine format. */
  say: (x: string) => void;
}

/** Phase 1 of `run`: every flag parsed and checked, every output path made or refused, before a browser starts. */
function runRequest(argv: string[]): RunRequest {
  const { values } = parseFlags({ args: argv, options: RUN_FLAGS, strict: true });
  const deviceClass = values['device-class']!;
  const format = stdoutFormat(values.format!);
  if (!format) throw new CliError(`Invalid --format: '${values.format}' (expected ${STDOUT_FORMATS.join(', ')})`);
  const files = FILE_OUTPUTS.filter((o) => values[o.name as keyof typeof values]).map((o) => ({
    output: o,
    path: values[o.name as keyof typeof values] as string,
  }));
  if (!(DEVICE_CLASSES as readonly string[]).includes(deviceClass))
    throw new CliError(`Invalid --device-class: '${deviceClass}' (expected ${DEVICE_CLASSES.join(', ')})`);
  if (values.submit) {
    try {
      new URL(values.submit);
    } catch {
      throw new CliError(`Invalid --submit: '${values.submit}' (expected a collector URL like http://localhost:5173)`);
    }
  }
  const engines = values
    .browser!.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const b of engines)
    if (![...BROWSER_NAMES, 'node'].includes(b))
      throw new CliError(`Invalid --browser: '${b}' (expected ${BROWSER_NAMES.join(', ')} or node, or several separated by commas)`);
  if (engines.length === 0 || new Set(engines).size !== engines.length) throw new CliError(`Invalid --browser: '${values.browser}' (name each engine once)`);
  if (engines.includes('node') && values.executable) throw new CliError('--executable applies to browsers, not to --browser node');
  if (engines.length > 1) {
    if (!values.out) throw new CliError('several engines need --out DIR: the result of each is written to DIR/<engine>.json, with DIR/summary.md beside them');
    if (files.length || values.submit || values.executable)
      throw new CliError(`with several engines, use --out DIR (not ${FILE_OUTPUTS.map((o) => `--${o.name}`).join(', ')}, --submit or --executable)`);
  }
  const emulate = values.emulate as Emulation | undefined;
  if (emulate !== undefined && !Object.hasOwn(EMULATIONS, emulate))
    throw new CliError(`Invalid --emulate: '${values.emulate}' (expected ${Object.keys(EMULATIONS).join(', ')})`);
  for (const e of engines) emulationEnv(e as BrowserName, emulate); // an engine that cannot play it is refused before anything runs
  const alone = values['modules-alone']!;
  if (alone && !values.implementation?.length) throw new CliError('--modules-alone times modules of yours alone: give them with --implementation FILE');
  if (values.apart && !values.implementation?.length)
    throw new CliError('--apart measures modules of yours each in a thread of its own: give them with --implementation FILE');
  const q = new URLSearchParams();
  for (const k of ['preset', 'algorithms', 'implementations', 'sizes', 'operations', 'rounds', 'budget', 'overtime'] as const)
    if (values[k] !== undefined) q.set(k, values[k]!);
  let params: RunParams;
  try {
    params = parseParams(q).params; // validated here, so a bad flag fails before a browser starts
  } catch (e) {
    throw new CliError(e instanceof ParamError ? `Invalid --${e.param}: '${e.value}' (${e.detail})` : (e as Error).message);
  }
  checkOutputPaths([...files.map((f) => ({ flag: f.output.name, path: f.path })), ...(values.out ? [{ flag: 'out', path: values.out, dir: true }] : [])]);
  // With a machine format on stdout, the words go to stderr.
  const say = values.format === 'table' ? (x: string) => console.log(x) : (x: string) => console.error(x);
  return { values: values as RunRequest['values'], engines, params, files, format, deviceClass: deviceClass as DeviceClass, emulate, alone, say };
}

/** Phase 2 of `run`: one engine's run, with the modules of yours bundled for it, its words naming your files. */
async function measureEngine(req: RunRequest, engine: string): Promise<ResultDocument> {
  const tty = process.stderr.isTTY;
  const plain = plainProgress();
  const onProgress = (p: Progress) => (tty ? void process.stderr.write(progressLine(p)) : plain(engine, p));
  let doc: ResultDocument;
  // Modules of yours: bundled for where they run, gated, then timed beside what --implementations selects.
  const bundles = await Promise.all((req.values.implementation ?? []).map((f) => bundleModule(f, engine === 'node' ? 'node' : 'browser')));
  // What the run says of a module names the file you gave, not the bundle made of it.
  const yourFiles = (text: string) =>
    bundles.reduce((t, b) => {
      // A Node bundle is named by its path (or file URL); a browser's by its URL on the CLI's server.
      const named = b.path ? t.replaceAll(pathToFileURL(b.path).href, b.source).replaceAll(b.path, b.source) : t;
      return named.replace(new RegExp(`(https?://[^\\s/]+)?${b.urlPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'), b.source);
    }, text);
  try {
    doc = await runEngineFor(req, engine, bundles, onProgress);
  } catch (e) {
    throw Object.assign(e as Error, { message: yourFiles((e as Error).message) });
  } finally {
    for (const b of bundles) b.dispose();
  }
  doc.skipped = doc.skipped.map((x) => ({ ...x, what: yourFiles(x.what), reason: yourFiles(x.reason) }));
  doc.warnings = doc.warnings.map(yourFiles);
  for (const m of doc.modules ?? [])
    req.say(`module ${m.id} (${m.label}${m.version ? ` ${m.version}` : ''}): passed the gate; sha256 of the bundle timed ${m.sha256}`);
  if (tty) process.stderr.write('\n');
  return doc;
}

/** Where one engine's run happens: in this Node process through the package, or in a browser on the built site. */
async function runEngineFor(req: RunRequest, engine: string, bundles: BundledModule[], onProgress: (p: Progress) => void): Promise<ResultDocument> {
  const { values, params, alone } = req;
  if (engine === 'node') {
    const { runBenchmark } = await import('../web/core/node.ts');
    // Without --implementations, Node's defaults (node:crypto too), and the modules beside them.
    const ids = values.implementations ? params.implementations : [];
    const implementations = ids.length || bundles.length ? [...ids, ...bundles.map((b) => b.path!)] : undefined;
    return runBenchmark({ ...params, implementations, modulesAlone: alone, modulesApart: values.apart, onProgress });
  }
  const files = new Map(bundles.map((b) => [b.urlPath, b.bytes]));
  const q = new URLSearchParams(toSearch(params));
  if (bundles.length) q.set('module', bundles.map((b) => b.urlPath).join(','));
  if (values.apart) q.set('apart', '1');
  if (alone) {
    // Alone, the page keeps only the built-ins --implementations names (toSearch leaves out a list equal to the preset's).
    q.delete('implementations');
    if (values.implementations) q.set('implementations', params.implementations.join(','));
    q.set('alone', '1');
  }
  return runInBrowser({ browser: engine as BrowserName, executable: values.executable, search: q.toString(), files, onProgress, emulate: req.emulate });
}

/** Phase 3 of `run`: the result written and said, submitted if asked, and the exit code. */
async function reportRun(req: RunRequest, doc: ResultDocument): Promise<number> {
  const { files, format, say, values, deviceClass } = req;
  const checked = validateResult(doc);
  if (!checked.ok) throw new CliError(`the result failed the schema: ${checked.issues.join('; ')}`);
  // The table and the verdict the page shows first, in the same words (web/core/report/verdict.ts).
  say(RUN_OUTPUTS[0]!.write(doc));
  if (format !== RUN_OUTPUTS[0]) console.log(format.write(doc));
  stepSummary(summaryMarkdown(doc, `aeadbench run --browser ${values.browser}`));
  for (const f of files) writeFileSync(f.path, f.output.write(doc));
  const failed = doc.validation.filter((v) => v.excluded);
  for (const f of failed) console.error(`FAILED: ${f.implementation} (${f.variant}) ${f.algorithm}: ${f.errors.join('; ')}`);
  // A module of yours that could not even be gated (did not load, broke the contract) fails the run too.
  const refused = doc.skipped.filter((x) => x.what.startsWith('module '));
  for (const r of refused) console.error(`FAILED: ${r.what}: ${r.reason}`);
  const written = files.length ? `; the result is in ${files.map((f) => f.path).join(', ')}` : '';
  // A run that measured nothing is no green light for CI.
  if (doc.cases.length === 0)
    throw new CliError(`no case was measured${doc.skipped.length ? `: ${doc.skipped.map((s) => `${s.what} (${s.reason})`).join('; ')}` : ''}${written}`);
  if (values.submit) {
    try {
      const r = await submitResult(values.submit, doc, { deviceClass });
      console.error(`submitted run ${r.id} to ${values.submit} as ${deviceClass}${r.duplicate ? ' (already there)' : ''}`);
    } catch (e) {
      console.error(`aeadbench: ${(e as Error).message}${written}`);
      return 1;
    }
  }
  console.error(
    `${doc.cases.length} cases in ${(doc.durationMs / 1000).toFixed(1)} s on ${doc.environment.browser.name} ${doc.environment.browser.version}${files.length ? `; wrote ${files.map((f) => f.path).join(', ')}` : ''}`,
  );
  return failed.length || refused.length ? 1 : 0;
}

/** `aeadbench run`: the request checked whole, then each engine measured, then the result reported. */
async function run(argv: string[]): Promise<number> {
  const req = runRequest(argv);
  if (req.engines.length > 1) return matrix(req.engines, (engine) => measureEngine(req, engine), req.values.out!);
  let doc: ResultDocument;
  try {
    doc = await measureEngine(req, req.engines[0]!);
  } catch (e) {
    // Every module failed the gate and nothing else runs: a validation failure (1), each named.
    const message = (e as Error).message;
    if (!message.startsWith(NOTHING_PASSED)) throw e;
    for (const failure of message.split('\n  - ').slice(1)) console.error(`FAILED: ${failure}`);
    console.error(`aeadbench: ${NOTHING_PASSED}, so nothing was timed`);
    return 1;
  }
  return reportRun(req, doc);
}

/**
 * One command, several engines, one after the other (never at once: they would compete for
 * the cores): DIR/<engine>.json each, and DIR/summary.md with one table across them. An engine
 * that cannot run (not installed, crashed) is named in the summary and the exit code, never
 * dropped in silence. Exit: 3 if any engine failed to run, else 1 if any failed validation.
 */
async function matrix(engines: string[], measure: (engine: string) => Promise<ResultDocument>, out: string): Promise<number> {
  mkdirSync(out, { recursive: true });
  const done: { engine: string; doc: ResultDocument }[] = [];
  const missing: { engine: string; why: string }[] = [];
  for (const engine of engines) {
    console.error(`[${engine}] starting`);
    try {
      const doc = await measure(engine);
      const checked = validateResult(doc);
      if (!checked.ok) throw new CliError(`the result failed the schema: ${checked.issues.slice(0, 3).join('; ')}`);
      if (doc.cases.length === 0) throw new CliError('no case was measured');
      writeFileSync(join(out, `${engine}.json`), JSON.stringify(doc, null, 2));
      done.push({ engine, doc });
      console.error(`[${engine}] ${doc.cases.length} cases in ${(doc.durationMs / 1000).toFixed(1)} s; wrote ${join(out, `${engine}.json`)}`);
    } catch (e) {
      const why = (e as Error).message.split('\n')[0]!;
      missing.push({ engine, why });
      console.error(`[${engine}] did not run: ${why}`);
    }
  }
  const summary = matrixMarkdown(done, missing);
  writeFileSync(join(out, 'summary.md'), summary);
  console.log(summary);
  stepSummary(summary);
  if (missing.length) return 3;
  return done.some(({ doc }) => doc.validation.some((v) => v.excluded)) ? 1 : 0;
}

/** `5%`, `5 %` or `0.05`: the equivalence margin (or the counts' threshold) as a fraction. */
export function parseMargin(text: string, flag = '--margin'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const value = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(value >= 0 && value < 1)) throw new CliError(`Invalid ${flag}: '${text}' (expected a percentage like 3% or a fraction like 0.03, below 100 %)`);
  return value;
}

/** Appends Markdown to the CI's job summary when there is one (GitHub Actions sets the variable). */
function stepSummary(markdown: string): void {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, `${markdown}\n`);
}

async function compare(argv: string[]): Promise<number> {
  const { positionals, values } = parseFlags({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      margin: { type: 'string' },
      junit: { type: 'string' },
      base: { type: 'string' },
      head: { type: 'string' },
      browser: { type: 'string', default: 'chromium' },
      budget: { type: 'string', default: '60s' },
      algorithms: { type: 'string' },
      sizes: { type: 'string' },
      operations: { type: 'string' },
      json: { type: 'string' },
      out: { type: 'string' },
      executable: { type: 'string' },
      metric: { type: 'string', default: 'time' },
      threshold: { type: 'string' },
    },
  });
  if (values.metric !== 'time' && values.metric !== 'ops') throw new CliError(`Invalid --metric: '${values.metric}' (expected time or ops)`);
  if (values.threshold !== undefined && values.metric !== 'ops') throw new CliError('--threshold goes with --metric ops (time comparisons take --margin)');
  if (values.base !== undefined || values.head !== undefined) {
    if (positionals.length) throw new CliError(`compare takes either two result files or --base and --head modules, not both\n${USAGE}`);
    if (values.base === undefined || values.head === undefined) throw new CliError(`an A/B compare needs both --base and --head (module files)\n${USAGE}`);
    checkOutputPaths([
      ...(['junit', 'json'] as const).flatMap((flag) => (values[flag] ? [{ flag, path: values[flag] }] : [])),
      ...(values.out ? [{ flag: 'out', path: values.out, dir: true }] : []),
    ]);
    const tty = process.stderr.isTTY;
    const plain = plainProgress();
    return abCompare({
      base: values.base,
      head: values.head,
      browser: values.browser!,
      margin: values.margin === undefined ? DEFAULT_MARGIN : parseMargin(values.margin),
      budgetSeconds: parseBudget(values.budget!),
      algorithms: values.algorithms,
      sizes: values.sizes,
      operations: values.operations,
      junit: values.junit,
      json: values.json,
      out: values.out,
      executable: values.executable,
      metric: values.metric as 'time' | 'ops',
      threshold: values.threshold === undefined ? undefined : parseMargin(values.threshold, '--threshold'),
      stepSummary,
      onProgress: (engine, p) => (tty ? void process.stderr.write(progressLine(p)) : plain(engine, p)),
    });
  }
  if (positionals.length !== 2) throw new CliError(`compare takes two result files, got ${positionals.length}\n${USAGE}`);
  const [a, b] = positionals.map((file) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file!, 'utf8'));
    } catch (e) {
      throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
    }
    const checked = validateResult(json);
    if (!checked.ok) throw new CliError(`${file} is not a result document: ${checked.issues.slice(0, 3).join('; ')}`);
    return checked.value;
  }) as [ResultDocument, ResultDocument];
  if (values.metric === 'ops') {
    const threshold = values.threshold === undefined ? DEFAULT_OPS_THRESHOLD : parseMargin(values.threshold, '--threshold');
    const ops = compareOps(a, b, threshold);
    console.log(opsTable(ops));
    if (values.junit) writeFileSync(values.junit, opsJunit(ops));
    stepSummary(opsMarkdown(ops));
    if (ops.rows.length === 0)
      throw new CliError(
        'nothing to compare by counts: no case of A is in B with a count in both (aeadbench run counts the WASM cores; an older result has none)',
      );
    return opsExitCode(ops);
  }
  const r = compareResults(a, b, { margin: values.margin === undefined ? undefined : parseMargin(values.margin) });
  console.log(compareTable(r));
  // Where both results carry counts, a case that reads slower says whether it does more work.
  for (const line of workBehindTime(r, compareOps(a, b))) console.log(line);
  if (values.junit) writeFileSync(values.junit, toJunit(r));
  stepSummary(comparisonMarkdown(r));
  if (r.cases.length === 0)
    throw new CliError(`nothing to compare: ${a.cases.length ? '' : 'A has no case; '}${b.cases.length ? '' : 'B has no case; '}no case of A is in B`);
  for (const line of unknownAdvice(r, { inRun: false })) console.error(line);
  return compareExitCode(r);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'run') return run(rest);
  if (command === 'compare') return compare(rest);
  if (command === undefined || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 3 : 0;
  }
  throw new CliError(`unknown command '${command}'\n${USAGE}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(
      `aeadbench: ${e instanceof CliError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (e as Error).message : (e as Error).stack}`,
    );
    // 3, not 2: 2 is compare's UNKNOWN, and a CI job must tell an error from an undecided answer.
    process.exit(3);
  },
);
