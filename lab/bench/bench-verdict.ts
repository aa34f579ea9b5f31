/**
 * `npm run bench:verdict`: does the verdict hold still? N fresh-browser runs per engine (default
 * 5) of the quick preset, each run's verdict broken into claims — the winner per size class
 * with its certainty (decision.ts), Web Crypto's crossover, the hardware-AES call — and for
 * each claim how many runs agree with the most common answer. Also per engine: the share of
 * cases flagged unstable, wall time per run, the A/A check, and Web Crypto AES-128-GCM against AES-256-GCM at
 * the largest size (paired; an order bias showed as AES-256 20–35 % "faster" at 1 MiB).
 *   RUNS=5 BROWSERS=chromium,firefox,webkit SEARCH='preset=quick' PAIRS=3 BUSY=0 npm run bench:verdict
 * BUSY=1 runs every run with one core busy (busy.ts), and counts the headlines that answer every
 * size class: a winner, a tie, "too close to call" or the device too busy, never still measuring.
 * Also per engine: where the flags fall (implementation and size, summed over the runs), how many
 * claims the page showed resolved and then reversed within the same run,
 * and each run's Web Crypto AES-128-GCM figure over a plain await loop written apart from the engine,
 * timed right after that run, and beside it the engine with that one case alone (againstPlainLoop);
 * and that plain loop in the run's shape (runShape: the run's batches, each after as long a turn of
 * other work as the run's other cases took), to tell what taking turns costs any loop of that case.
 * OUT=DIR keeps each run's result document, DIR/<engine>-<run>.json, to look into a run that disagrees.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInBrowser } from '../../cli/browser-run.ts';
import type { BrowserName } from '../../cli/browsers.ts';
import type { ResultDocument } from '../../web/core/schema.ts';
import { formatSize } from '../../web/core/params.ts';
import { decide } from '../../web/core/decision.ts';
import { ratioOf } from '../../web/core/report/ratio.ts';
import { type ShownClaim, verdict } from '../../web/core/report/verdict.ts';
import { mean, median } from '../../web/core/stats.ts';
import { bareBatches, bareLoop, inRotation, openHarness, settled } from './harness-page.ts';
import { SETTLE_CALLS } from '../../web/core/worker/measure.ts';
import type { BrowserPage } from '../../cli/browser-run.ts';
import { evidence, listEnv, recordPage } from './measured.ts';
import { againstRepeatability, describe } from './repeatability.ts';
import { headline, stateOf, visitorAnswer } from '../../web/core/report/headline.ts';
import { burnOneCore } from './busy.ts';

recordPage('verdict', {
  title: 'Does the verdict hold?',
  about:
    'N fresh-browser quick runs per engine: for every claim of the verdict, how many runs agree with the most common answer; flags, wall time and the A/A check per engine.',
});

const RUNS = Number(process.env.RUNS ?? 5);
const BROWSERS = (process.env.BROWSERS ?? 'chromium,firefox,webkit').split(',') as BrowserName[];
const SEARCH = process.env.SEARCH ?? 'preset=quick';
const OUT = process.env.OUT;
/** Side-by-side pairs of the engine (one case alone) and the plain loop, per size (againstPlainLoop). */
const PAIRS = Number(process.env.PAIRS ?? 3);
/** One core busy beside every run (busy.ts). */
const BUSY = process.env.BUSY === '1';
if (OUT) mkdirSync(OUT, { recursive: true });

/** Our Web Crypto AES-128-GCM sequential encrypt case at `size` in a run's document. */
const webCase = (d: ResultDocument, size: number) =>
  d.cases.find(
    (c) =>
      c.implementation === 'webcrypto' &&
      c.variant === 'sequential' &&
      c.algorithm === 'aes-128-gcm' &&
      c.operation === 'encrypt' &&
      c.aadBytes === 0 &&
      c.sizeBytes === size,
  );
/** The plain-loop notebook's sizes (PLAIN_SIZES=none: the verdict's evidence alone). */
const PLAIN_SIZES = listEnv('PLAIN_SIZES', '1024,16384,1048576').map(Number);
/** The turn of other work before each batch of callByCall: about the run's other cases' turn at 1 and 16 KiB. */
const PROFILE_GAP_MS = 35;
/** A plain loop's all-calls figure: its bytes over its time, bytes per ns. */
const rateOf = (size: number, ns: number[]) => size / mean(ns);

/** A run's verdict as its claims (verdict.ts Claim): an answer two runs either share or not; every undecided one reads 'undecided'. */
function claims(doc: ResultDocument): Map<string, string> {
  return new Map(verdict(doc).claims.map((c) => [c.id, `${c.answer} (${c.decision.toUpperCase()})`]));
}

/** The ratio a fastest/<class> claim decided on, as `winner/runner-up [low–high]` (time of the runner-up over the winner's). */
function ratioForClaim(doc: ResultDocument, id: string): string {
  const f = verdict(doc).fastest.find((x) => `fastest/${x.sizeClass}` === id);
  if (!f?.margin) return '-';
  const m = f.margin;
  const short = (s: string) => s.replace(/ in /, ' ').replace('RustCrypto → WASM', 'wasm');
  return `${short(f.winner.label)} vs ${short(f.runnerUp!.label)} ${m.value.toFixed(3)} [${m.low.toFixed(3)}–${m.high.toFixed(3)}]`;
}

/** Web Crypto AES-128-GCM time / AES-256-GCM time at the run's largest size: below 1, AES-128 is faster. */
function aes128vs256(doc: ResultDocument) {
  const web = doc.cases.filter((c) => c.implementation === 'webcrypto' && c.variant === 'sequential' && c.operation === 'encrypt' && c.aadBytes === 0);
  const size = Math.max(...web.map((c) => c.sizeBytes));
  const a = web.find((c) => c.algorithm === 'aes-128-gcm' && c.sizeBytes === size);
  const b = web.find((c) => c.algorithm === 'aes-256-gcm' && c.sizeBytes === size);
  if (!a || !b) return null;
  // ratioOf(b, a) = time(a) / time(b): AES-128's time over AES-256's.
  const r = ratioOf(b, a);
  return { size, ratio: r, decision: decide(r) };
}

const figures = evidence('verdict');
console.log(`bench:verdict — ${RUNS} fresh-browser runs per engine of ${SEARCH}${BUSY ? ', one core busy' : ''}`);
for (const browser of BROWSERS) {
  const docs: ResultDocument[] = [];
  const wall: number[] = [];
  const shown: ShownClaim[][] = [];
  /** The plain loop timed right after each run, by size (plainAfter). */
  const plainAfterRun: Map<number, PlainAfter>[] = [];
  try {
    for (let k = 0; k < RUNS; k++) {
      const t = performance.now();
      const burner = BUSY ? burnOneCore() : null;
      try {
        docs.push(await runInBrowser({ browser, search: SEARCH, onClaimsShown: (c) => shown.push(c) }));
      } finally {
        burner?.kill();
      }
      if (OUT) writeFileSync(join(OUT, `${browser}-${k + 1}.json`), JSON.stringify(docs.at(-1)));
      wall.push((performance.now() - t) / 1000);
      plainAfterRun.push(await plainAfter(browser, docs.at(-1)!));
      process.stderr.write(`${browser} run ${k + 1}/${RUNS}: ${wall.at(-1)!.toFixed(1)} s\n`);
    }
  } catch (e) {
    // A missing engine is reported, never silently dropped.
    console.log(`\n${browser}: not measured — ${(e as Error).message.split('\n')[0]}`);
    continue;
  }
  const d0 = docs[0]!;
  console.log(
    `\n${browser} ${d0.environment.browser.name} ${d0.environment.browser.version}: wall time per run median ${median(wall).toFixed(1)} s (${Math.min(...wall).toFixed(1)}–${Math.max(...wall).toFixed(1)}); engine time median ${(median(docs.map((d) => d.durationMs)) / 1000).toFixed(1)} s`,
  );
  const all = docs.map(claims);
  const names = [...new Set(all.flatMap((m) => [...m.keys()]))];
  let steady = 0;
  // A claim undecided in every run is identical in every run, and answers nothing: counted apart.
  let settledAnswers = 0;
  for (const name of names) {
    const answers = all.map((m) => m.get(name) ?? '(no claim)');
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
    const [top, n] = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]!;
    if (n === docs.length) steady++;
    if (n >= 0.9 * docs.length && !top.endsWith('(UNKNOWN)') && top !== '(no claim)') settledAnswers++;
    figures.row('claim', { browser, claim: name, runs: docs.length, agree: n, answer: top });
    console.log(
      `  claim ${name.padEnd(24)} ${n}/${docs.length} agree: ${top}${
        counts.size > 1
          ? `   (others: ${[...counts.entries()]
              .filter(([a]) => a !== top)
              .map(([a, c]) => `${c}× ${a}`)
              .join('; ')})`
          : ''
      }`,
    );
    // Where runs disagree, the ratio each run decided on: an interval on the band's edge shows here.
    if (counts.size > 1) console.log(`    ratios: ${docs.map((d) => ratioForClaim(d, name)).join(', ')}`);
  }
  console.log(`  claims identical in every run: ${steady} of ${names.length}`);
  // The headline a visitor reads first: the same words in every run, or how many agree.
  const heads = new Map<string, number>();
  for (const d of docs) {
    const h = headline(verdict(d).claims).join(' ');
    heads.set(h, (heads.get(h) ?? 0) + 1);
  }
  const [topHead, nHead] = [...heads.entries()].sort((x, y) => y[1] - x[1])[0]!;
  // A headline answers when every size class has one: a winner, a tie, too close to call, or too busy to tell.
  const answered = docs.filter((d) => verdict(d).claims.every((c) => !c.id.startsWith('fastest/') || stateOf(c) !== 'measuring')).length;
  console.log(
    `  headline identical in ${nHead} of ${docs.length} runs: "${topHead}"${
      heads.size > 1
        ? ` (others: ${[...heads.entries()]
            .filter(([h]) => h !== topHead)
            .map(([h, c]) => `${c}× "${h}"`)
            .join('; ')})`
        : ''
    }`,
  );
  console.log(`  headlines answering every size class (a winner, a tie, too close to call or too busy; not still measuring): ${answered} of ${docs.length}`);
  // The same claims as a visitor reads them (headline.ts visitorAnswer): a tie and a group not
  // within 12 % of the winner read alike; the expert's decision stays above.
  // One verdict per run, read for every claim (the costliest read of a document).
  const claimsOfRun = docs.map((d) => verdict(d).claims);
  const read = names
    .filter((n) => n.startsWith('fastest/'))
    .map((name) => {
      const words = claimsOfRun.map((cs) => {
        const c = cs.find((x) => x.id === name);
        return c ? visitorAnswer(c) : '(no claim)';
      });
      const top = Math.max(...words.map((w) => words.filter((x) => x === w).length));
      return `${name} ${top}/${docs.length}`;
    });
  console.log(`  claims as a visitor reads them, runs agreeing with the most common words: ${read.join(', ')}`);
  console.log(`  claims with one SAME or DIFFERENT answer in at least 90 % of runs: ${settledAnswers} of ${names.length}`);
  // Once the page shows a claim resolved, it must not read otherwise later in the same run.
  const reversed = shown.flatMap((run, k) => run.filter((c) => c.reversedTo !== null).map((c) => `run ${k + 1} ${c.id}: ${c.answer} → ${c.reversedTo}`));
  console.log(
    `  claims shown resolved, then reversed in the same run: ${reversed.length} of ${shown.reduce((n, r) => n + r.length, 0)} shown in ${shown.length} runs${reversed.length ? ` (${reversed.join('; ')})` : ''}`,
  );
  // How soon the page has an answer: the first claim it showed resolved, after Start (the headline speaks from then on).
  const first = shown.map((run) => Math.min(...run.map((c) => c.atMs ?? Infinity)));
  const firstS = first.filter(Number.isFinite).map((ms) => ms / 1000);
  console.log(
    `  first claim shown resolved after Start: ${firstS.length ? `median ${median(firstS).toFixed(1)} s (${firstS.map((x) => x.toFixed(1)).join(', ')})` : 'never'}; within 5 s in ${first.filter((ms) => ms <= 5000).length} of ${shown.length} runs`,
  );
  const flagged = docs.map((d) => d.cases.filter((c) => c.unstable).length / Math.max(1, d.cases.length));
  console.log(`  cases flagged unstable: median ${(median(flagged) * 100).toFixed(0)} % (${flagged.map((f) => `${(f * 100).toFixed(0)} %`).join(', ')})`);
  // Where the flags fall, summed over the runs: which implementation, at which size.
  const where = new Map<string, number>();
  for (const c of docs.flatMap((d) => d.cases.filter((x) => x.unstable))) {
    const k = `${c.implementation} ${formatSize(c.sizeBytes)}`;
    where.set(k, (where.get(k) ?? 0) + 1);
  }
  console.log(
    `  flags by implementation and size, over ${docs.length} runs: ${
      where.size
        ? [...where]
            .sort((a, b) => b[1] - a[1])
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')
        : 'none'
    }`,
  );
  const aa = docs.map((d) => d.aaCheck);
  console.log(
    `  A/A check (the same case twice, must be SAME): ${aa.filter((x) => x?.decision === 'same').length}/${docs.length} SAME` +
      (aa[0]
        ? ` — ${aa[0].implementation} ${aa[0].algorithm} ${formatSize(aa[0].sizeBytes)}: ${aa.map((x) => (x ? `${x.ratio.toFixed(3)} [${x.low.toFixed(3)}–${x.high.toFixed(3)}] ${x.decision.toUpperCase()}` : 'none')).join(', ')}`
        : ''),
  );
  figures.row('engine', {
    browser,
    runs: docs.length,
    wallSecondsMedian: median(wall),
    claims: names.length,
    claimsIdentical: steady,
    claimsSettled: settledAnswers,
    headlineAgree: nHead,
    headlinesAnswered: answered,
    busy: BUSY,
    headline: topHead,
    shownResolved: shown.reduce((n, r) => n + r.length, 0),
    reversed: reversed.length,
    firstResolvedSecondsMedian: firstS.length ? median(firstS) : null,
    flaggedShareMedian: median(flagged),
    aaSame: aa.filter((x) => x?.decision === 'same').length,
  });
  const aes = docs.map(aes128vs256);
  if (aes.every(Boolean))
    console.log(
      `  Web Crypto AES-128-GCM / AES-256-GCM time at ${formatSize(aes[0]!.size)} (below 1: AES-128 faster): ` +
        aes.map((x) => `${x!.ratio.value.toFixed(3)} [${x!.ratio.low.toFixed(3)}–${x!.ratio.high.toFixed(3)}] ${x!.decision.toUpperCase()}`).join(', '),
    );
  else console.log('  Web Crypto AES-128-GCM and AES-256-GCM were not both measured');
  await againstPlainLoop(browser, docs, plainAfterRun);
}

/**
 * How the run sampled Web Crypto AES-128-GCM at `size`: its batch (calls a sample), and the
 * median time the other cases of its group took between two of its samples (their samples of
 * the same cycle: a cycle samples every case of the group once, in turn). A cycle's number is
 * unique within a run (across groups and rounds, worker/api.ts), so the cases that share one
 * with it are its group. Undefined without the case or its cycles.
 */
function runShape(doc: ResultDocument, size: number): { iterations: number; gapMs: number; batchMs: number } | undefined {
  const c = webCase(doc, size);
  if (!c?.cycles) return undefined;
  const msInCycle = new Map<number, number>();
  for (const x of doc.cases)
    if (x !== c && x.cycles)
      x.samples.forEach((ns, i) => msInCycle.set(x.cycles![i]!, (msInCycle.get(x.cycles![i]!) ?? 0) + (ns * x.iterationsPerSample) / 1e6));
  return {
    iterations: c.iterationsPerSample,
    gapMs: median(c.cycles.map((k) => msInCycle.get(k) ?? 0)),
    batchMs: (median(c.samples) * c.iterationsPerSample) / 1e6,
  };
}

/** The plain loop's figures after one run at one size, bytes per ns (plainAfter). */
interface PlainAfter {
  /** The first plain loop of the size in that browser, timed but not the reference (plainAfter says why). */
  settle: number;
  /** The plain loop, then the same again: the second over the first is the reference's own A/A. */
  first: number;
  again: number;
  /**
   * After them, the plain loop in the run's batches (runShape): back to back, each after a turn
   * of `gapMs`, and each after the turn and SETTLE_CALLS untimed calls, as the engine samples an
   * asynchronous case, and the last as that but with the turn spent encrypting as the run's other
   * cases do (bare.worker.ts gapWork 'wasm'); absent without the run's cycles.
   */
  shaped?: { batches: number; turns: number; settled: number; wasmTurns: number; gapMs: number };
}

/**
 * The plain await loop (lab/harness/bare.worker.ts) at each of 1 KiB, 16 KiB and 1 MiB the
 * run measured, in a fresh browser of the same engine right after the run: once to settle
 * (a fresh worker of every loop, but the first loop of a size in that browser read low in
 * Chromium: four loops in a row, six fresh browsers, the later three over the first 1.15, 1.15,
 * 1.00 at 1 KiB and 1.10, 1.06, 1.15 at 16 KiB, so the reference and its A/A both read from the
 * first and each run's figure read 1.13-1.15 of it), then twice as the reference; then the
 * same loop in the run's shape (runShape): its batches back to back, then each batch after as
 * long a turn of other work as the run's other cases took. Bytes per ns by size.
 * A run's figure held against a loop timed seconds after it, not minutes: this machine's level
 * moves 15–20 % from one minute to the next. Empty if the page could not be opened.
 */
async function plainAfter(browser: BrowserName, doc: ResultDocument): Promise<Map<number, PlainAfter>> {
  const out = new Map<number, PlainAfter>();
  const sizes = PLAIN_SIZES.filter((s) => webCase(doc, s));
  if (!sizes.length) return out;
  let page: BrowserPage | undefined;
  try {
    page = await openHarness(browser);
    for (const size of sizes) {
      const plain = (shape?: Parameters<typeof bareLoop>[4]) => bareLoop(page!, 'webcrypto', 'aes-128-gcm', size, shape).then((ns) => rateOf(size, ns));
      const settle = await plain();
      const [first, again] = [await plain(), await plain()];
      const shape = runShape(doc, size);
      let shaped: PlainAfter['shaped'];
      if (shape) {
        const { iterations, gapMs, batchMs } = shape;
        // About 3 s of turns (at least 10 samples), and as many batches back to back.
        const samples = Math.max(10, Math.min(300, Math.round(3000 / (gapMs + batchMs))));
        const batches = await plain({ iterations, samples, gapMs: 0 });
        const turns = await plain({ iterations, samples, gapMs });
        const settled = await plain({ iterations, samples, gapMs, settle: SETTLE_CALLS });
        const wasmTurns = await plain({ iterations, samples, gapMs, gapWork: 'wasm', settle: SETTLE_CALLS });
        shaped = { batches, turns, settled, wasmTurns, gapMs };
      }
      out.set(size, { settle, first, again, shaped });
    }
  } catch (e) {
    process.stderr.write(`${browser}: the plain loop after the run was not timed — ${(e as Error).message.split('\n')[0]}\n`);
  } finally {
    await page?.close();
  }
  return out;
}

/**
 * Our Web Crypto AES-128-GCM figure (all calls: total bytes over total time, what a caller
 * encrypting many messages gets) against a plain `await` loop written apart from the engine
 * (lab/harness/bare.worker.ts), at 1 KiB, 16 KiB and 1 MiB where the runs measured them:
 *  - each run's figure over the plain loop timed right after that run (plainAfter), the median
 *    and range over the runs: the figure a visitor gets, neighbours and fresh workers included;
 *  - side by side: PAIRS times (default 3), the engine measuring that one case alone (SEARCH with
 *    only it) and the plain loop one right after the other in one page, the order swapped every
 *    pair; the median of the pairs' ratios: the engine's own loop, without the run's neighbours;
 *  - in the same pairs, the plain loop in the engine's shape (engineShaped): the engine's batch,
 *    each after a turn of the event loop and an untimed call, and the same batches back to back,
 *    over the plain loop; and the engine over the former: what the engine's shape does to any loop;
 *  - the plain loop twice in a row, the second over the first: how far it moves from itself is
 *    the floor under any comparison with it.
 */
async function againstPlainLoop(browser: BrowserName, docs: ResultDocument[], plainAfterRun: Map<number, PlainAfter>[]) {
  const sizes = PLAIN_SIZES.filter((s) => docs.some((d) => webCase(d, s)));
  if (!sizes.length) return console.log('  Web Crypto AES-128-GCM against a plain loop: not measured at 1 KiB, 16 KiB or 1 MiB');
  const range = (xs: number[]) => (xs.length ? `${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})` : 'not measured');
  const judged: string[] = [];
  const settles: string[] = [];
  const shaped: string[] = [];
  const perRun = sizes.map((size) => {
    const ours: number[] = [];
    const again: number[] = [];
    const settle: number[] = [];
    const batches: number[] = [];
    const turns: number[] = [];
    const oursOverTurns: number[] = [];
    const settledTurns: number[] = [];
    const wasmTurns: number[] = [];
    const gaps: number[] = [];
    docs.forEach((d, k) => {
      const c = webCase(d, size);
      const plain = plainAfterRun[k]?.get(size);
      if (!c?.totalBytesPerSecond || !plain) return;
      ours.push(c.totalBytesPerSecond / 1e9 / plain.first);
      again.push(plain.again / plain.first);
      settle.push(plain.settle / plain.first);
      if (!plain.shaped) return;
      // Over the reference timed just before them.
      batches.push(plain.shaped.batches / plain.again);
      turns.push(plain.shaped.turns / plain.again);
      settledTurns.push(plain.shaped.settled / plain.again);
      wasmTurns.push(plain.shaped.wasmTurns / plain.again);
      oursOverTurns.push(c.totalBytesPerSecond / 1e9 / plain.shaped.turns);
      gaps.push(plain.shaped.gapMs);
    });
    judged.push(`    ${formatSize(size).padStart(7)}: ${describe(againstRepeatability(ours, again))}`);
    settles.push(`${formatSize(size)} ${range(settle)}, ${describe(againstRepeatability(settle, again))}`);
    if (turns.length)
      shaped.push(
        `    ${formatSize(size).padStart(7)}: the run's batches back to back ${range(batches)}; each after the other cases' turn (median ${median(gaps).toFixed(1)} ms) ${range(turns)}, ${describe(againstRepeatability(turns, again))}; ours over the latter ${range(oursOverTurns)}; each after the turn and ${SETTLE_CALLS} untimed call ${range(settledTurns)}, ${describe(againstRepeatability(settledTurns, again))}; the same with the turn spent encrypting in WebAssembly ${range(wasmTurns)}, ${describe(againstRepeatability(wasmTurns, again))}`,
      );
    return `${formatSize(size)} median ${range(ours)}`;
  });
  console.log(`  Web Crypto AES-128-GCM, all calls, over a plain await loop timed right after each run: ${perRun.join('; ')}`);
  // The repeatability standard (lab/bench/repeatability.ts): held against how well the plain loop repeats itself in the same runs.
  console.log(`  the same against the plain loop's repeatability (timed twice after each run):\n${judged.join('\n')}`);
  // The loop before the reference, held to the same standard: a reference that read from it would carry its order.
  console.log(`  the plain loop's first timing of each size in that browser (a settle, not the reference), over the reference: ${settles.join('; ')}`);
  // The run's shape: is a case's shortfall in a run what the same plain loop meets when other work takes turns with it?
  if (shaped.length) console.log(`  the plain await loop in the run's shape, over the plain loop timed just before it:\n${shaped.join('\n')}`);
  let page: BrowserPage | undefined;
  try {
    page = await openHarness(browser);
    const sideBySide: string[] = [];
    const itself: string[] = [];
    const byCall: string[] = [];
    const engineShape: string[] = [];
    const listed = (xs: number[]) => (xs.length ? `${median(xs).toFixed(3)} (${xs.map((x) => x.toFixed(3)).join(', ')})` : 'not measured');
    for (const size of sizes) {
      const pairs: number[] = [];
      // The engine's own shape written plainly (engineShaped): its batch from a first, untimed
      // engine run of the case alone, which also warms the page as the pairs' first member.
      const batch = PAIRS > 0 ? (await engineAlone(page, size))?.iterations : undefined;
      const shapes = { turned: [] as number[], backToBack: [] as number[], engineOverTurned: [] as number[] };
      for (let k = 0; k < PAIRS; k++) {
        const plainLoop = async () => rateOf(size, await bareLoop(page!, 'webcrypto', 'aes-128-gcm', size));
        const shaped = async (turn: boolean) =>
          batch ? rateOf(size, await bareLoop(page!, 'webcrypto', 'aes-128-gcm', size, engineShaped(size, batch, turn))) : undefined;
        // Four loops a pair, each pair in the next rotation of their order.
        const [alone, plain, turned, backToBack] = await inRotation<number | undefined>(k, [
          () => engineAlone(page!, size).then((m) => m?.rate),
          plainLoop,
          () => shaped(true),
          () => shaped(false),
        ]);
        if (alone) pairs.push(alone / 1e9 / plain!);
        if (turned) shapes.turned.push(turned / plain!);
        if (backToBack) shapes.backToBack.push(backToBack / plain!);
        if (alone && turned) shapes.engineOverTurned.push(alone / 1e9 / turned);
      }
      sideBySide.push(`${formatSize(size)} ${listed(pairs)}`);
      if (batch)
        engineShape.push(
          `${formatSize(size)} (${batch} calls): each after a turn ${listed(shapes.turned)}, back to back ${listed(shapes.backToBack)}; the engine over the former ${listed(shapes.engineOverTurned)}`,
        );
      const [first, second] = [await bareLoop(page, 'webcrypto', 'aes-128-gcm', size), await bareLoop(page, 'webcrypto', 'aes-128-gcm', size)];
      itself.push(`${formatSize(size)} ${(rateOf(size, second) / rateOf(size, first)).toFixed(3)}`);
      byCall.push(`${formatSize(size)} ${await callByCall(page, size)}`);
    }
    if (PAIRS > 0) console.log(`  the same, side by side (the engine with that case alone, then the plain loop, ${PAIRS} pairs): ${sideBySide.join('; ')}`);
    if (engineShape.length)
      console.log(
        `  the plain loop in the engine's shape, in the same pairs, over the plain loop (the engine's batch, each after a turn of the event loop and ${SETTLE_CALLS} untimed call, or back to back):\n${engineShape.map((l) => `    ${l}`).join('\n')}`,
      );
    console.log(`  the plain loop against itself, measured twice in a row: ${itself.join('; ')}`);
    console.log(
      `  the plain loop call by call, µs, each batch after ${PROFILE_GAP_MS} ms of other work (first call, second, third and fourth, the rest): ${byCall.join('; ')}`,
    );
  } catch (e) {
    console.log(`  Web Crypto AES-128-GCM against a plain loop side by side: not measured — ${(e as Error).message.split('\n')[0]}`);
  } finally {
    await page?.close();
  }
}

/**
 * What a Web Crypto call costs by its place after a turn of other work: the plain loop's
 * batches of 24 calls, each call timed on its own, each batch after PROFILE_GAP_MS of
 * synchronous work, 40 batches; the mean µs of the first call, the second, the third and fourth,
 * and the rest. The first call waits for the crypto thread to wake (measure.ts SETTLE_CALLS).
 */
async function callByCall(page: BrowserPage, size: number): Promise<string> {
  const at = await bareLoop(page, 'webcrypto', 'aes-128-gcm', size, { iterations: 24, samples: 40, gapMs: PROFILE_GAP_MS, profile: true });
  const us = (xs: number[]) => (mean(xs) / 1000).toFixed(0);
  return `${us(at.slice(0, 1))} / ${us(at.slice(1, 2))} / ${us(at.slice(2, 4))} / ${us(at.slice(4))}`;
}

/**
 * The plain loop in the engine's shape: the engine's batch of `iterations` calls, as many calls in
 * all as the plain loop makes (at least 10 batches), each batch after a turn of the event loop and
 * SETTLE_CALLS untimed calls, as the engine samples an asynchronous case (measure.ts); or, with
 * `turn` false, the same batches back to back. Which of the engine's differences from the plain
 * loop (its short batches, the turn before each) moves the figure, without the engine's code.
 */
function engineShaped(size: number, iterations: number, turn: boolean) {
  const plain = bareBatches('webcrypto', 'aes-128-gcm', size);
  const samples = Math.max(10, Math.round((plain.samples * plain.iterations) / iterations));
  return turn ? { iterations, samples, turn, settle: SETTLE_CALLS } : { iterations, samples };
}

/** The engine's all-calls figure (bytes/s) for Web Crypto AES-128-GCM at `size`, measured alone (SEARCH's run with only that case), and its batch. */
async function engineAlone(page: BrowserPage, size: number): Promise<{ rate: number; iterations: number } | undefined> {
  const q = new URLSearchParams(SEARCH);
  for (const [k, v] of Object.entries({
    implementations: 'webcrypto',
    algorithms: 'aes-128-gcm',
    sizes: String(size),
    operations: 'encrypt',
    aad: '0',
    webcrypto: 'sequential',
  }))
    q.set(k, v);
  const doc = (await settled(page, `window.harness.engine(${JSON.stringify(q.toString())})`)) as ResultDocument;
  const c = webCase(doc, size);
  return c?.totalBytesPerSecond ? { rate: c.totalBytesPerSecond, iterations: c.iterationsPerSample } : undefined;
}
console.log(
  '\ntargets: every claim identical in ≥ 9 of 10 runs (Chromium, Firefox), ≥ 8 of 10 (WebKit); ≤ 10 % flagged; AES-128 time ≤ AES-256 time × 1.05 at 1 MiB',
);
