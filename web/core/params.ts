/**
 * Run parameters from a URL (Speedometer style): parsed once, validated, frozen, so a run is
 * shareable and scriptable. A bad value is an error that names the parameter and the value.
 * @module
 */
import * as v from 'valibot';
import {
  ALGORITHM_IDS,
  BROWSER_IMPLEMENTATIONS,
  GENERAL_ALGORITHM_IDS,
  IMPLEMENTATION_IDS,
  type ImplementationId,
  MAX_SIZE_BYTES,
  OPERATIONS,
  PRESETS,
  PRESET_IDS,
  type Preset,
  type PresetId,
} from './tables/algorithms.ts';
import { CV_THRESHOLD } from './stats.ts';
import { DEFAULT_MARGIN } from './decision.ts';
import { RunParamsSchema, type RunParams, formatIssue } from './schema.ts';

export class ParamError extends Error {
  constructor(
    readonly param: string,
    readonly value: string,
    readonly detail: string,
  ) {
    super(`Invalid ${param} param: '${value}' (${detail})`);
    this.name = 'ParamError';
  }
}

/** Parameters the URL may carry; anything else is reported, not silently ignored. */
export const PARAM_NAMES = [
  'preset',
  'algorithms',
  'implementations',
  'sizes',
  'operations',
  'aad',
  'rounds',
  'samples',
  'minSampleMs',
  'wasm',
  'webcrypto',
  'cv',
  'reruns',
  'budget',
  'overtime',
  'autorun',
  'module',
  'alone',
  'apart',
  'ab',
] as const;

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kib: 1024, m: 1 << 20, mib: 1 << 20 };
/** Units read two ways (kB is 1000 bytes to SI and 1024 to many tools): refused, with the spelling that says 1024. */
const AMBIGUOUS_UNITS: Record<string, string> = { kb: 'KiB', mb: 'MiB' };

/** Parses `64`, `1k`, `16KiB`, `1M`, `4 MiB` into bytes; refuses `1kb` (1000 or 1024?) naming `1KiB`. */
export function parseSize(text: string, param = 'sizes'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const ambiguous = m ? AMBIGUOUS_UNITS[m[2]!.toLowerCase()] : undefined;
  if (ambiguous) throw new ParamError(param, text, `'${m![2]}' may mean 1000 or 1024: write ${m![1]}${ambiguous} (or ${m![1]}${ambiguous[0]!.toLowerCase()})`);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new ParamError(param, text, 'expected a size like 64, 1k, 16KiB or 1M');
  const bytes = Math.round(Number(m[1]) * unit);
  if (bytes > MAX_SIZE_BYTES) throw new ParamError(param, text, `above the limit of ${MAX_SIZE_BYTES} bytes`);
  return bytes;
}

export function formatSize(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes >> 20} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes >> 10} KiB`;
  return `${bytes} B`;
}

function list<T extends string>(param: string, raw: string, allowed: readonly T[]): T[] {
  if (raw === 'all') return [...allowed];
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ParamError(param, raw, 'empty list');
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      throw new ParamError(param, raw, `'${item}' is not one of ${allowed.join(', ')}`);
    }
  }
  return [...new Set(items)] as T[];
}

function integer(param: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) throw new ParamError(param, raw, `expected an integer from ${min} to ${max}`);
  return n;
}

function number(param: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new ParamError(param, raw, `expected a number from ${min} to ${max}`);
  return n;
}

/** Seconds, with or without an `s` (`20`, `20s`), as ms; an error names the value as written. */
function seconds(param: string, raw: string, min: number, max: number): number {
  const n = Number(raw.trim().replace(/s$/, ''));
  // A bare number is refused: '5' read as seconds by one caller and as milliseconds by another (the package's budgetMs).
  if (/^\s*\d+(\.\d+)?\s*$/.test(raw) && n !== 0) throw new ParamError(param, raw, `a duration needs its unit: write ${raw.trim()}s for ${raw.trim()} seconds`);
  if (!/^\s*\d+(\.\d+)?s?\s*$/.test(raw) || n < min || n > max) throw new ParamError(param, raw, `expected seconds from ${min} to ${max}, like 20s`);
  return Math.round(n * 1000);
}

/** The parameters a preset implies, before any URL override. */
export function presetParams(preset: PresetId = 'quick'): RunParams {
  // Callers from plain JavaScript can pass anything: name the value, never a TypeError.
  if (!Object.hasOwn(PRESETS, preset)) throw new Error(`Invalid preset: '${String(preset).slice(0, 40)}' is not one of ${PRESET_IDS.join(', ')}`);
  const p: Preset = PRESETS[preset];
  return {
    preset,
    algorithms: [...(p.algorithms ?? GENERAL_ALGORITHM_IDS)],
    implementations: [...(p.implementations ?? BROWSER_IMPLEMENTATIONS)],
    sizes: [...p.sizes],
    operations: [...p.operations],
    aadBytes: [...p.aadBytes],
    rounds: p.rounds,
    samplesPerRound: p.samplesPerRound,
    minSampleMs: p.minSampleMs,
    wasm: 'auto',
    webcrypto: [...(p.webcrypto ?? ['sequential', 'pipelined'])],
    estimateClock: p.estimateClock ?? false,
    cvThreshold: CV_THRESHOLD,
    maxReruns: p.maxReruns ?? 2,
    ...(p.budgetMs !== undefined ? { budgetMs: p.budgetMs } : {}),
    ...(p.overtimeMs !== undefined ? { overtimeMs: p.overtimeMs } : {}),
  };
}

export interface ParsedUrl {
  params: Readonly<RunParams>;
  autorun: boolean;
  /**
   * Modules of yours to gate and time beside the built-ins (custom.ts): paths on this site only
   * (`module=/m/my-gcm.mjs`, several comma-separated), as the CLI serves them. Never another
   * origin: a link must not make this site run someone else's code.
   */
  modules: string[];
  /** With `apart=1`: modules of yours, and the built-ins whose calls are JavaScript's, each in a thread of its own (options.ts modulesApart). */
  apart?: boolean;
  /**
   * With `alone=1`: the built-ins that run beside the modules, only those `implementations=`
   * names (none: the modules alone; options.ts modulesAlone). Undefined otherwise.
   */
  builtIns?: ImplementationId[];
}

/**
 * An A/B run's samples last at least this long (ms) unless `minSampleMs` is given. Its verdict
 * rests on one cycle's head/base, and a 2 ms sample (the quick preset's) under load moved that
 * ratio far more than a 10 ms one: Chromium, same code, one core loaded, SD of the cycles'
 * log(head/base) 44 % at 1 KiB and 32 % at 16 KiB with 2 ms samples, 9 % and 14 % with 10 ms
 * (docs/methodology.md; bench:ab measures the error rates that follow, docs/measured/ab.md).
 */
export const AB_MIN_SAMPLE_MS = 10;

/** The sample length of an A/B run whose caller did not choose one. */
export const abSampleMs = (presetMs: number): number => Math.max(presetMs, AB_MIN_SAMPLE_MS);

/** A module path a link may name: on this origin, plain path characters, a JavaScript file. */
const MODULE_PATH = /^\/(?!\/)[A-Za-z0-9._~\/-]{1,200}\.m?js$/;

/** A switch of the URL (`autorun`, `alone`): on when present, unless '0' or 'false'. */
const flag = (raw: string | undefined): boolean => raw !== undefined && raw !== '0' && raw !== 'false';

/** Parses and validates run parameters from a query string; throws ParamError naming the value. */
export function parseParams(search: string | URLSearchParams): ParsedUrl {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  for (const key of q.keys()) {
    if (!(PARAM_NAMES as readonly string[]).includes(key)) throw new ParamError(key, q.get(key) ?? '', `unknown parameter; known: ${PARAM_NAMES.join(', ')}`);
  }
  const get = (k: string) => q.get(k) ?? undefined;
  const presetRaw = get('preset') ?? 'quick';
  if (!(PRESET_IDS as readonly string[]).includes(presetRaw)) throw new ParamError('preset', presetRaw, `expected one of ${PRESET_IDS.join(', ')}`);
  const p = presetParams(presetRaw as PresetId);
  const raw: Record<string, string | undefined> = Object.fromEntries(PARAM_NAMES.map((k) => [k, get(k)]));
  if (raw.algorithms) p.algorithms = list('algorithms', raw.algorithms, ALGORITHM_IDS);
  if (raw.implementations) p.implementations = list('implementations', raw.implementations, IMPLEMENTATION_IDS);
  if (raw.sizes) {
    const sizes = raw.sizes.split(',').map((s) => s.trim());
    if (sizes.some((s) => s === '')) throw new ParamError('sizes', raw.sizes, 'empty entry');
    const parse = (s: string) => {
      try {
        return parseSize(s);
      } catch (e) {
        throw e instanceof ParamError ? new ParamError('sizes', raw.sizes!, e.detail) : e;
      }
    };
    p.sizes = [...new Set(sizes.map(parse))].sort((a, b) => a - b);
  }
  if (raw.operations) p.operations = list('operations', raw.operations, OPERATIONS);
  if (raw.aad) p.aadBytes = raw.aad.split(',').map((s) => integer('aad', s, 0, 1 << 20));
  if (raw.rounds) p.rounds = integer('rounds', raw.rounds, 1, 50);
  if (raw.samples) p.samplesPerRound = integer('samples', raw.samples, 1, 1000);
  if (raw.minSampleMs) p.minSampleMs = number('minSampleMs', raw.minSampleMs, 0.1, 10_000);
  if (raw.wasm) p.wasm = list('wasm', raw.wasm, ['auto', 'both', 'baseline', 'simd128'] as const)[0]!;
  if (raw.webcrypto) p.webcrypto = list('webcrypto', raw.webcrypto, ['sequential', 'pipelined'] as const);
  if (raw.cv) p.cvThreshold = number('cv', raw.cv, 0, 10);
  if (raw.reruns) p.maxReruns = integer('reruns', raw.reruns, 0, 50);
  if (raw.budget) p.budgetMs = seconds('budget', raw.budget, 1, 3600);
  if (raw.overtime) p.overtimeMs = seconds('overtime', raw.overtime, 0, 3600);
  if (raw.ab) {
    // ab=BASE,HEAD[,MARGIN]: two modules of this run, compared case by case (compare.ts compareInRun).
    const [base, head, margin, ...more] = raw.ab.split(',');
    if (!base || !head || more.length || base === head)
      throw new ParamError('ab', raw.ab, 'expected two different module ids and an optional margin, like base,head,0.05');
    p.ab = { base, head, margin: margin === undefined ? DEFAULT_MARGIN : number('ab', margin, 0, 0.5) } as RunParams['ab'];
    // The two modules are the run: nothing else is timed unless asked for.
    p.implementations = [...(raw.implementations ? p.implementations : []), base, head] as RunParams['implementations'];
    if (!raw.minSampleMs) p.minSampleMs = abSampleMs(p.minSampleMs);
  }
  const autorun = flag(raw.autorun);
  const modules = raw.module ? raw.module.split(',') : [];
  for (const m of modules)
    if (!MODULE_PATH.test(m) || m.split('/').includes('..'))
      throw new ParamError('module', m, 'expected a path on this site to a .js or .mjs file, like /m/my-gcm.mjs');
  const alone = flag(raw.alone);
  if (alone && !modules.length) throw new ParamError('alone', raw.alone!, 'runs modules of yours alone: give them with module=');
  const apart = flag(raw.apart);
  if (apart && !modules.length) throw new ParamError('apart', raw.apart!, 'measures modules of yours each in a thread of its own: give them with module=');
  const checked = v.safeParse(RunParamsSchema, p);
  if (!checked.success) throw new Error(`Invalid parameters: ${checked.issues.map(formatIssue).join('; ')}`);
  return {
    params: Object.freeze(checked.output),
    autorun,
    modules,
    ...(alone ? { builtIns: raw.implementations ? ([...checked.output.implementations] as ImplementationId[]) : [] } : {}),
    ...(apart ? { apart } : {}),
  };
}

/** The query string that reproduces `params`: only what differs from the preset is written. */
export function toSearch(params: RunParams, extra: Record<string, string> = {}): string {
  const base = presetParams(params.preset);
  const q = new URLSearchParams();
  q.set('preset', params.preset);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(params.algorithms, base.algorithms)) q.set('algorithms', params.algorithms.join(','));
  // An A/B run's two modules come with `ab`; only built-ins beside them are listed.
  const builtIns = params.ab ? params.implementations.filter((i) => i !== params.ab!.base && i !== params.ab!.head) : params.implementations;
  if (params.ab ? builtIns.length > 0 : !same(params.implementations, base.implementations)) q.set('implementations', builtIns.join(','));
  if (params.ab) q.set('ab', `${params.ab.base},${params.ab.head},${params.ab.margin}`);
  if (!same(params.sizes, base.sizes)) q.set('sizes', params.sizes.join(','));
  if (!same(params.operations, base.operations)) q.set('operations', params.operations.join(','));
  if (!same(params.aadBytes, base.aadBytes)) q.set('aad', params.aadBytes.join(','));
  if (params.rounds !== base.rounds) q.set('rounds', String(params.rounds));
  if (params.samplesPerRound !== base.samplesPerRound) q.set('samples', String(params.samplesPerRound));
  if (params.minSampleMs !== base.minSampleMs) q.set('minSampleMs', String(params.minSampleMs));
  if (params.wasm !== base.wasm) q.set('wasm', params.wasm);
  if (!same(params.webcrypto, base.webcrypto)) q.set('webcrypto', params.webcrypto.join(','));
  if (params.cvThreshold !== base.cvThreshold) q.set('cv', String(params.cvThreshold));
  if (params.maxReruns !== base.maxReruns) q.set('reruns', String(params.maxReruns));
  if (params.budgetMs !== base.budgetMs && params.budgetMs !== undefined) q.set('budget', `${params.budgetMs / 1000}s`);
  if (params.overtimeMs !== base.overtimeMs && params.overtimeMs !== undefined) q.set('overtime', `${params.overtimeMs / 1000}s`);
  for (const [k, val] of Object.entries(extra)) q.set(k, val);
  return q.toString();
}
