/**
 * Where the figures stand against the repeatability standard (docs/methodology.md, "Faithful to a
 * reference"), counted from the pages the benchmarks wrote: docs/measured/verdict.md (Web Crypto
 * over a plain await loop), modules.md (the JavaScript modules over a plain loop, noble over its
 * own harness) and ab.md (the same code as A/B head, under load). The methodology shows this
 * table between its markers (`npm run docs`, docs-tables.ts), and scripts/docs.test.ts fails when
 * it no longer matches the pages, so the summary cannot drift from what a command measured.
 * @module
 */
import { readFileSync } from 'node:fs';
import { writeSections } from '../../scripts/docs-tables.ts';

/** One cell of a page judged against its reference's repeatability. */
export interface Cell {
  /** What was measured, but its size: "Chromium", "noble aes-128-gcm". */
  what: string;
  size: string;
  bias: number;
  within: boolean;
}

/** A page's own record of when and how it was written. */
export interface PageInfo {
  file: string;
  date: string;
  command: string;
}

const page = (file: string) => readFileSync(new URL(`../../docs/measured/${file}`, import.meta.url), 'utf8');

function info(file: string, text: string): PageInfo {
  const date = /^- date: (\d{4}-\d{2}-\d{2})/m.exec(text)?.[1];
  const command = /^- command: `(.+)`$/m.exec(text)?.[1];
  if (!date || !command) throw new Error(`docs/measured/${file} does not open with its date and command`);
  return { file, date, command };
}

/** `…: ref A/A ±1.2 %; bias 1.057× (…), spread …: within repeatability` or `…: NOT within (…)`. */
const JUDGED = /ref A\/A ±[\d.]+ %; bias ([\d.]+)× \([^)]*\), spread [^:]*: (within repeatability|NOT within)/;
const ENGINE_NAMES: Record<string, string> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

/** bench:verdict: per engine, the engine's Web Crypto AES-128-GCM in the run against the plain await loop's repeatability. */
export function webCryptoCells(text = page('verdict.md')): Cell[] {
  const cells: Cell[] = [];
  let engine = '';
  let judging = false;
  for (const line of text.split('\n')) {
    const head = /^(chromium|firefox|webkit) /.exec(line);
    if (head) engine = ENGINE_NAMES[head[1]!]!;
    if (/^ {2}the same against the plain loop's repeatability/.test(line)) {
      judging = true;
      continue;
    }
    const row = judging ? /^\s+(\d+ [KM]iB|\d+ B): (ref A\/A.*)$/.exec(line) : null;
    const judged = row ? JUDGED.exec(row[2]!) : null;
    if (!row || !judged) {
      judging = false;
      continue;
    }
    cells.push({ what: engine, size: row[1]!, bias: Number(judged[1]), within: judged[2] === 'within repeatability' });
  }
  return cells;
}

/**
 * bench:modules: per home (Node, then each browser), each module's engine in the run against the
 * plain loop's repeatability: the loop alone, or (`turns`) the loop taking the run's turns, which
 * the page judges on the line after.
 */
export function moduleCells(text = page('modules.md'), { turns = false } = {}): Map<string, Cell[]> {
  const homes = new Map<string, Cell[]>();
  let home = '';
  let at: RegExpExecArray | null = null;
  for (const line of text.split('\n')) {
    const head = /^bench:modules — (?:(Node) |.*\((chromium|firefox|webkit)\))/.exec(line);
    // The home, and how the engine measured the modules there (pages before modulesApart do not say).
    if (head)
      home = `${head[1] ?? ENGINE_NAMES[head[2]!]!}${/each module in a thread of its own/.test(line) ? ', each module in a thread of its own' : /every case in the measuring thread/.test(line) ? ', every case in the measuring thread' : ''}`;
    const row = /^(\S+)\s+(\S+)\s+(\d+ [KM]iB|\d+ B)\s+in the run: (ref A\/A.*)$/.exec(line);
    if (row) at = row;
    const judgedLine = turns ? /^\s+the run over the loop taking turns: (ref A\/A.*)$/.exec(line)?.[1] : row?.[4];
    const judged = at && judgedLine ? JUDGED.exec(judgedLine) : null;
    if (!at || !judged) continue;
    const cells = homes.get(home) ?? homes.set(home, []).get(home)!;
    cells.push({ what: `${at[1]} ${at[2]}`, size: at[3]!, bias: Number(judged[1]), within: judged[2] === 'within repeatability' });
  }
  return homes;
}

/** noble over jsbt, one cell: the medians as the page prints them (`text`: two decimals on older pages, three since). */
export interface OverHarness {
  what: string;
  inRun: number;
  text: string;
  alone: number;
}

/**
 * bench:modules: noble in Node over its own harness (jsbt), in the run and alone, per algorithm
 * and size; and the page's own count of cells at 0.95 or more (`counted`), where it prints one.
 */
export function nobleOverJsbt(text = page('modules.md')): { rows: OverHarness[]; counted: { inRun: number; alone: number | null } | null } {
  const rows: OverHarness[] = [];
  for (const m of text.matchAll(/^noble\s+(\S+)\s+(\d+ [KM]iB|\d+ B)\s+in the run\s+([\d.]+) \[[^\]]*\]\s+alone\s+([\d.]+)/gm))
    rows.push({ what: `${m[1]} ${m[2]}`, inRun: Number(m[3]), text: m[3]!, alone: Number(m[4]) });
  const c = /cells whose run median is ≥ 0\.95 of the harness: (\d+) of \d+(?:; alone: (\d+) of \d+)?/.exec(text);
  return { rows, counted: c ? { inRun: Number(c[1]), alone: c[2] === undefined ? null : Number(c[2]) } : null };
}

/** bench:ab: per engine and scenario (same code, 10 % slower), the SLOWER verdicts out of the sessions at each size. */
export function abSlower(text = page('ab.md')): { engine: string; scenario: string; size: string; slower: number; sessions: number }[] {
  const rows = [];
  for (const m of text.matchAll(
    /^(chromium|firefox|webkit)\s+loaded (same code|10 % slower)\s+margin [^·]*·[^·]*· (\d+ [KM]iB|\d+ B): (\d+) sessions — SLOWER (\d+)/gm,
  ))
    rows.push({ engine: ENGINE_NAMES[m[1]!]!, scenario: m[2]!, size: m[3]!, sessions: Number(m[4]), slower: Number(m[5]) });
  return rows;
}

/** The cells outside, by what was measured: "noble aes-128-gcm: 64 B 0.77, 1 KiB 0.86". */
function outside(cells: Cell[]): string {
  const by = new Map<string, string[]>();
  for (const c of cells.filter((x) => !x.within)) (by.get(c.what) ?? by.set(c.what, []).get(c.what)!).push(`${c.size} ${c.bias.toFixed(2)}`);
  return [...by].map(([what, sizes]) => `${what}: ${sizes.join(', ')}`).join('; ') || 'none';
}
/** The page, its date, and how many runs (the command's RUNS) its figures are over. */
const source = (p: PageInfo) => `[${p.file}](measured/${p.file}), ${p.date}, ${/\bRUNS=(\d+)/.exec(p.command)?.[1] ?? '?'} runs`;

/** A page whose lines these patterns no longer find (a benchmark's output changed) fails here, not as "0 of 0". */
function need(n: number, file: string, what: string): void {
  if (n === 0) throw new Error(`docs/measured/${file}: no ${what} found; did the benchmark's output change? (lab/bench/standing.ts reads it)`);
}
const withinOf = (cells: Cell[]) => `${cells.filter((c) => c.within).length} of ${cells.length}`;

/** The methodology's summary: one row per reference, each counted from its page. */
export function standingTable(): string {
  const verdict = page('verdict.md');
  const modules = page('modules.md');
  const ab = page('ab.md');
  const web = webCryptoCells(verdict);
  const homes = moduleCells(modules);
  const loads = abSlower(ab);
  // A verdict page whose command left the plain loop out (PLAIN_SIZES=none) has no such cell, and says so in its row.
  const noPlainLoop = /\bPLAIN_SIZES=none\b/.test(info('verdict.md', verdict).command);
  if (!noPlainLoop) need(web.length, 'verdict.md', "Web Crypto cell judged against the plain loop's repeatability");
  need(homes.size, 'modules.md', "module cell judged against the plain loop's repeatability");
  need(loads.length, 'ab.md', 'loaded A/B verdict count');
  const [fromVerdict, fromModules, fromAb] = [info('verdict.md', verdict), info('modules.md', modules), info('ab.md', ab)].map(source);
  const rows = [
    noPlainLoop
      ? `| Web Crypto over a plain \`await\` loop (\`bench:verdict\`) | ${fromVerdict} | not measured (its command left the plain loop out: PLAIN_SIZES=none) | – |`
      : `| Web Crypto over a plain \`await\` loop (\`bench:verdict\`) | ${fromVerdict} | ${withinOf(web)} | ${outside(web)} |`,
  ];
  for (const [home, cells] of homes)
    rows.push(`| JavaScript modules over a plain loop, ${home} (\`bench:modules\`) | ${fromModules} | ${withinOf(cells)} | ${outside(cells)} |`);
  // The same cells against the loop taking the run's turns: what is left once a caller's loop pays the turns too.
  for (const [home, cells] of moduleCells(modules, { turns: true }))
    rows.push(
      `| JavaScript modules over the plain loop taking turns (the page's "interleaved"), ${home} (\`bench:modules\`) | ${fromModules} | ${withinOf(cells)} | ${outside(cells)} |`,
    );
  const jsbt = nobleOverJsbt(modules);
  if (jsbt.rows.length) {
    const n = jsbt.rows.length;
    // The page's own count where it prints one: a median printed 0.95 with two decimals may be 0.946.
    const inRun = jsbt.counted?.inRun ?? jsbt.rows.filter((r) => r.inRun >= 0.95).length;
    const alone = jsbt.counted?.alone ?? jsbt.rows.filter((r) => r.alone >= 0.95).length;
    const low = jsbt.rows.filter((r) => r.inRun < 0.95 || r.text === '0.95');
    rows.push(
      `| noble in Node over its own harness, jsbt (\`bench:modules\`; ≥ 0.95 counts) | ${fromModules} | ${inRun} of ${n} in the run, ${alone} of ${n} alone | ${low.map((r) => `${r.what} ${r.text}`).join('; ') || 'none'} |`,
    );
  }
  const n = Math.max(...loads.map((r) => r.sessions));
  for (const engine of [...new Set(loads.map((r) => r.engine))]) {
    const of = (scenario: string) => loads.filter((r) => r.engine === engine && r.scenario === scenario);
    const same = of('same code');
    const slower = of('10 % slower');
    const range = (rs: typeof loads) => {
      const xs = rs.map((r) => r.slower);
      return Math.min(...xs) === Math.max(...xs) ? `${xs[0]}` : `${Math.min(...xs)}–${Math.max(...xs)}`;
    };
    const met = same.every((r) => r.slower <= r.sessions / 20) && slower.every((r) => r.slower >= (r.sessions * 19) / 20);
    rows.push(
      `| the same code as A/B head under load, ${engine} (\`bench:ab\`) | ${fromAb} | same code SLOWER ${range(same)} of ${n} a size; 10 % slower SLOWER ${range(slower)} of ${n} | ${met ? 'none (target met at every size)' : 'the target is not met'} |`,
    );
  }
  return ['| reference | page | within repeatability | outside: our bias over the reference |', '|---|---|---|---|', ...rows].join('\n');
}

// `npm run docs` (after scripts/docs-tables.ts): the standing page's table, from the pages beside it.
if (import.meta.url === `file://${process.argv[1]}`) writeSections('docs/measured/standing.md', { standing: standingTable() });
