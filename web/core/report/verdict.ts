/**
 * The verdict: what a run says in plain words, computed from its result document alone (pure
 * functions, so the page, the CLI and the tests read the same answer). Which implementation is
 * fastest for small (≤ 1 KiB), medium and large (≥ 1 MiB) messages; what one message costs in
 * fixed time and per byte; from which size Web Crypto overtakes WASM; whether this device likely
 * has AES instructions, and why. Every statement says how sure it is, by one rule
 * (decision.ts): a ratio's 95 % interval wholly beyond a ±3 % band is a difference, wholly
 * inside it a tie, and anything else is not decided — too close, or too noisy, to say.
 * @module
 */
import { type AlgorithmId, KiB, MiB, algorithm, isContender } from '../tables/algorithms.ts';
import { formatSize } from '../params.ts';
import type { CaseResult, ResultDocument } from '../schema.ts';
import { type CostModel, fitCostModel } from './costmodel.ts';
import { type Ratio, VERDICT_MARGIN, byPrintedEstimate, contenderLabel, printedAhead, ratioOf, timesText } from './ratio.ts';
import { type Decision, decide } from '../decision.ts';
import { caseKey, codeKey } from '../schema.ts';

export type SizeClass = 'small' | 'medium' | 'large';
export const SIZE_CLASSES: readonly { id: SizeClass; label: string; holds: (bytes: number) => boolean }[] = [
  { id: 'small', label: 'small messages (≤ 1 KiB)', holds: (b) => b <= KiB },
  // Edges that do not overlap: 1 KiB is small, 1 MiB is large.
  { id: 'medium', label: 'medium messages (over 1 KiB, under 1 MiB)', holds: (b) => b > KiB && b < MiB },
  { id: 'large', label: 'large messages (≥ 1 MiB)', holds: (b) => b >= MiB },
];
/** Web Crypto's AES-GCM this many times WASM's software AES-GCM needs AES instructions. */
export const HARDWARE_AES_RATIO = 3;
/**
 * At most this ratio, the platform's AES is software: its native constant-time AES and GHASH read
 * 1.3–1.4× WASM's [1.1–1.5] at 1 MiB when Chromium and Firefox were started as a device without
 * AES instructions (`aeadbench run --emulate no-aes`), against 6–7× with them, on this host.
 */
export const SOFTWARE_AES_RATIO = 2;
/** The hardware-AES call reads a size at least this large, where per-call costs no longer dominate. */
export const HARDWARE_AES_MIN_BYTES = 64 * KiB;

/**
 * How far a statement can be trusted (decision.ts): `sure` a difference beyond the margin,
 * `tie` equal within it, `too-close` / `noisy` undecided (noisy: measured cases are flagged).
 */
export type Certainty = 'sure' | 'tie' | 'too-close' | 'noisy' | 'busy';

/**
 * How far the run's A/A check (one case measured twice, side by side) read from 1, as a fraction:
 * null when it read SAME. A device that cannot tell a case from itself within ±3 % cannot
 * separate two contenders by less than this, and no claim narrower than it is made.
 */
export function busySpread(aa: ResultDocument['aaCheck'] | undefined): number | null {
  if (!aa || aa.decision === 'same') return null;
  return Math.max(aa.high, 1 / aa.low) - 1;
}

/** time(b) / time(a) at one size, > 1 when a is faster: paired where sampled side by side. */
export interface Contender {
  implementation: CaseResult['implementation'];
  variant: string;
  algorithm: AlgorithmId;
  label: string;
}

export interface Fastest {
  sizeClass: SizeClass;
  sizes: number[];
  /** `mbps`: the median's MB/s at `margin.sizeBytes` (the class's representative size), or at its only size. */
  winner: Contender & { mbps: number };
  runnerUp: (Contender & { mbps: number }) | null;
  /** The runner-up's time over the winner's, at the class's representative size. */
  margin: Ratio | null;
  /**
   * Contenders after the runner-up not shown slower than the winner (their ratio to it is SAME
   * or undecided), each with that ratio: the winner, the runner-up (unless shown slower) and
   * these are the class's leading group, and the certainty is the group's.
   */
  alsoLeading: (Contender & { mbps: number; margin: Ratio })[];
  certainty: Certainty;
  /**
   * What a visitor picks from (Claim.leading): the winner and every contender whose time is
   * within ABOUT_THE_SAME of the winner's by its ratio's estimate, labels sorted; null when a
   * contender near enough to matter was measured too loosely to place (its interval reaches
   * further than ABOUT_THE_SAME from its estimate).
   */
  aboutTheSame: string[] | null;
  /** Undecided: the largest difference the leading group's intervals allow, as a fraction ("within 8 %"). */
  within: number | null;
}

export interface Cost {
  contender: Contender;
  /** The line as printed (three significant figures): fixed µs per message, ns per byte. */
  fixedUs: number;
  perByteNs: number;
  r2: number;
  /** The sizes it holds for: every measured size from one to the other is within `maxError` of the line. */
  fromBytes: number;
  toBytes: number;
  maxError: number;
}

export interface Crossover {
  /** Whose AES-GCM is held against WASM's: the browser's Web Crypto, or in Node (no Web Crypto measured) node:crypto's OpenSSL. */
  platform: 'webcrypto' | 'node-crypto';
  algorithm: AlgorithmId;
  /** `overtakes`: from `atBytes` up Web Crypto is faster; `always` / `never`: at every size measured. */
  kind: 'overtakes' | 'always' | 'never' | 'mixed';
  atBytes: number | null;
  ratios: Ratio[];
  certainty: Certainty;
}

export interface HardwareAes {
  likely: boolean | null;
  ratio: Ratio | null;
  why: string;
}

/**
 * One thing the verdict asserts, in a form two runs can agree on: its decision, a short answer
 * that is the same string whenever two runs say the same thing, and the cases that decide it
 * (the stop rule re-measures those while it is undecided).
 */
export interface Claim {
  /** `fastest/small`, `fastest/medium`, `fastest/large`, `crossover`, `hardware-aes`. */
  id: string;
  decision: Decision;
  answer: string;
  cases: string[];
  /**
   * A fastest claim as a visitor reads it (web/core/report/headline.ts): Fastest.aboutTheSame —
   * one label when nothing else comes within ABOUT_THE_SAME of the winner (and the claim is
   * decided), several when some do ("about the same"). Absent while measuring, when a near
   * contender was measured too loosely to place, and when a lone winner is not decided.
   */
  leading?: string[];
  /** An undecided fastest claim: the largest difference its leaders' intervals allow, a fraction (Fastest.within). */
  within?: number;
  /** Left undecided because the device was too busy: the A/A's spread, a fraction (busySpread). */
  busy?: number;
}

/**
 * A visitor reads contenders within this of the winner's time (by the ratio's estimate) as
 * "about the same". The expert's rule (decision.ts, ±5 %) decides ties and differences from
 * intervals, and a contender a few per cent behind sits on its edge: ten Chromium runs split
 * 7/3 between a tie and undecided on Web Crypto's AES-128 against AES-256, ten Firefox runs
 * 6/3/1 on whether WASM's Ascon joined them at 1 MiB, and the headline moved each time. A
 * threshold on the estimate, far from where such contenders sit, moves only with the
 * estimate's own noise (1–3 % from run to run here); the expert's decision stays in the claim
 * and the detail.
 */
export const ABOUT_THE_SAME = 0.12;

export interface Verdict {
  operation: CaseResult['operation'];
  claims: Claim[];
  fastest: Fastest[];
  cost: Cost | null;
  crossover: Crossover | null;
  hardwareAes: HardwareAes;
  /** Every statement in plain words, in the order the page shows them. */
  sentences: string[];
}

const key = codeKey;

function certaintyOf(r: Ratio | null, cases: CaseResult[]): Certainty {
  if (!r) return 'too-close';
  const d = decide(r, VERDICT_MARGIN);
  if (d === 'different') return 'sure';
  if (d === 'same') return 'tie';
  return cases.some((c) => c.unstable) ? 'noisy' : 'too-close';
}

/** The cases a verdict reads: one operation (encrypt first), the smallest AAD, the contenders (Web Crypto sequential, not pipelined). */
function casesOf(doc: Pick<ResultDocument, 'cases'>): { operation: CaseResult['operation']; cases: CaseResult[] } {
  const ops = [...new Set(doc.cases.map((c) => c.operation))];
  const operation = ops.includes('encrypt') ? 'encrypt' : (ops[0] ?? 'encrypt');
  const ofOp = doc.cases.filter((c) => c.operation === operation);
  const aad = Math.min(...ofOp.map((c) => c.aadBytes));
  return { operation, cases: ofOp.filter((c) => c.aadBytes === aad && isContender(c)) };
}

/**
 * The fastest contender of each size class. `busy` (busySpread): the A/A's spread on a device too
 * busy to tell a case from itself; a difference or a tie narrower than it is not claimed.
 */
export function fastestBySize(cases: CaseResult[], busy: number | null = null): Fastest[] {
  const out: Fastest[] = [];
  for (const cls of SIZE_CLASSES) {
    const inClass = cases.filter((c) => cls.holds(c.sizeBytes));
    const sizes = [...new Set(inClass.map((c) => c.sizeBytes))].sort((a, b) => a - b);
    if (!sizes.length) continue;
    const byContender = new Map<string, CaseResult[]>();
    for (const c of inClass) byContender.set(key(c), [...(byContender.get(key(c)) ?? []), c]);
    // The representative size: the class's edge that matters most (smallest small message, largest large one).
    const at = cls.id === 'small' ? sizes[0]! : cls.id === 'large' ? sizes[sizes.length - 1]! : sizes[sizes.length >> 1]!;
    // Only contenders measured at every size of the class compete on the same ground; they are
    // ranked at the representative size, where the claim is decided and its figure shown.
    // Ranked by the median, then the leader chosen by the paired ratio the sentence prints
    // (ratio.ts byPrintedEstimate), so that a winner is never "ahead" at 0.94×.
    const scored = byPrintedEstimate(
      [...byContender.values()]
        .filter((cs) => cs.length === sizes.length)
        .map((cs) => ({ cs, mbps: cs.find((c) => c.sizeBytes === at)!.bytesPerSecond / 1e6 }))
        .sort((a, b) => b.mbps - a.mbps),
      (s) => s.cs.find((c) => c.sizeBytes === at)!,
    );
    const [first, second, ...rest] = scored;
    if (!first) continue;
    // The figure shown is the median's MB/s at that size, a row of the table (the ranking
    // above uses every size of the class; a mean over sizes would match no row).
    const contender = (cs: CaseResult[]) => ({
      implementation: cs[0]!.implementation,
      variant: cs[0]!.variant,
      algorithm: cs[0]!.algorithm,
      label: contenderLabel(cs[0]!),
      mbps: cs.find((c) => c.sizeBytes === at)!.bytesPerSecond / 1e6,
    });
    const w = first.cs.find((c) => c.sizeBytes === at)!;
    const against = ({ cs }: { cs: CaseResult[] }) => {
      const c = cs.find((x) => x.sizeBytes === at)!;
      const m = ratioOf(w, c);
      return { cs, c, m, decision: decide(m, VERDICT_MARGIN) };
    };
    const runnerUp = second ? against(second) : null;
    // Three contenders within a few per cent (Chromium at 1 MiB: Web Crypto AES-128 and AES-256,
    // WASM Ascon) were named as a tie of whichever two ranked first: "AES-128 = AES-256" in six
    // runs of ten, "AES-256 = Ascon" in four, the third undecided against the winner each time.
    // A claim of the fastest is the leading group's: everyone not shown slower than the winner.
    const behind = rest.map(against);
    const alsoLeading = behind.filter((x) => x.decision !== 'different');
    const others = [...(runnerUp ? [runnerUp] : []), ...alsoLeading];
    // The group's certainty: every other contender shown slower, the winner is sure; none
    // undecided and some equal within the margin, a tie; else undecided (noisy if a case is flagged).
    const open = others.filter((o) => o.decision === 'unknown');
    // The visitor's group: every contender within ABOUT_THE_SAME of the winner by the estimate;
    // unplaceable when one that could be (within twice that) has an interval reaching further than that.
    const all = [...(runnerUp ? [runnerUp] : []), ...behind];
    const loose = all.some(
      (o) => o.m.value <= (1 + ABOUT_THE_SAME) ** 2 && !(o.m.low >= o.m.value / (1 + ABOUT_THE_SAME) && o.m.high <= o.m.value * (1 + ABOUT_THE_SAME)),
    );
    const aboutTheSame = loose ? null : [contenderLabel(w), ...all.filter((o) => o.m.value <= 1 + ABOUT_THE_SAME).map((o) => contenderLabel(o.c))].sort();
    const found: Certainty = open.length ? certaintyOf(open[0]!.m, [w, ...open.map((o) => o.c)]) : others.some((o) => o.decision === 'same') ? 'tie' : 'sure';
    // On a busy device a difference must clear the A/A's spread, and a tie is claimed only when the
    // spread is inside its margin; an undecided class is the device's fault only when that spread
    // exceeds the margin (an A/A within ±5 % left it too close to call, not too busy).
    const narrow =
      busy !== null &&
      (found === 'tie' ? busy > VERDICT_MARGIN : found === 'sure' ? all.some((o) => o.decision === 'different' && o.m.low < 1 + busy) : busy > VERDICT_MARGIN);
    const certainty: Certainty = narrow ? 'busy' : found;
    const undecided = certainty !== 'sure' && certainty !== 'tie';
    const spanOf = (xs: typeof all) => Math.max(0, ...xs.map((o) => Math.max(o.m.high, 1 / o.m.low) - 1));
    out.push({
      sizeClass: cls.id,
      sizes,
      winner: contender(first.cs),
      runnerUp: second ? contender(second.cs) : null,
      margin: runnerUp?.m ?? null,
      alsoLeading: alsoLeading.map((x) => ({ ...contender(x.cs), margin: x.m })),
      certainty,
      aboutTheSame: certainty === 'busy' && busy! > ABOUT_THE_SAME ? null : aboutTheSame,
      within: undecided ? spanOf(open.length ? open : others) : null,
    });
  }
  return out;
}

/** A cost line is said only over the sizes whose measured median it predicts within this. */
export const COST_FIT_ERROR = 0.1;

/** Three significant figures: what the cost sentence prints, and what its errors are computed from. */
const sig3 = (x: number) => Number(x.toPrecision(3));

/**
 * The cost line of one contender, fitted to its medians (costmodel.ts) over the widest run of
 * consecutive measured sizes whose every median the printed line (three significant figures)
 * predicts within COST_FIT_ERROR: a line fitted to every size read 27 % off the table at 1 MiB
 * (the fixed cost and the per-byte cost are not the whole story across six decades), and a
 * sentence must hold for the rows beside it. Null when fewer than two sizes were measured.
 */
export function costOf(cases: CaseResult[], c: Pick<CaseResult, 'implementation' | 'variant' | 'algorithm'>): Cost | null {
  const bySize = new Map<number, number>();
  for (const x of cases) if (key(x) === key(c) && !bySize.has(x.sizeBytes)) bySize.set(x.sizeBytes, x.summary.median);
  const points = [...bySize].map(([sizeBytes, ns]) => ({ sizeBytes, ns })).sort((a, b) => a.sizeBytes - b.sizeBytes);
  let lo = 0;
  let hi = points.length - 1;
  while (hi > lo) {
    const span = points.slice(lo, hi + 1);
    let m: CostModel;
    try {
      m = fitCostModel(span);
    } catch {
      return null;
    }
    const fixedUs = sig3(Math.max(0, m.fixedNs) / 1e3);
    const perByteNs = sig3(Math.max(0, m.perByteNs));
    const errors = span.map((p) => Math.abs(fixedUs * 1e3 + perByteNs * p.sizeBytes - p.ns) / p.ns);
    const worst = Math.max(...errors);
    if (worst <= COST_FIT_ERROR)
      return {
        contender: { implementation: c.implementation, variant: c.variant, algorithm: c.algorithm, label: contenderLabel(c) },
        fixedUs,
        perByteNs,
        r2: m.r2,
        fromBytes: span[0]!.sizeBytes,
        toBytes: span[span.length - 1]!.sizeBytes,
        maxError: worst,
      };
    // Drop the end the line misses more, and fit again.
    if (errors[0]! >= errors[errors.length - 1]!) lo++;
    else hi--;
  }
  return null;
}

/** Web Crypto's AES-GCM against the fastest WASM build of the same id, size by size. */
export function webCryptoCrossover(cases: CaseResult[], busy: number | null = null): Crossover | null {
  // On a busy device (busySpread) a size is decided only by a difference wider than the A/A's spread.
  const margin = Math.max(VERDICT_MARGIN, busy ?? 0);
  for (const [platform, alg] of [
    ['webcrypto', 'aes-128-gcm'],
    ['webcrypto', 'aes-256-gcm'],
    ['node-crypto', 'aes-128-gcm'],
    ['node-crypto', 'aes-256-gcm'],
  ] as const) {
    const web = cases.filter((c) => c.implementation === platform && c.algorithm === alg);
    const wasm = cases.filter((c) => c.implementation === 'rustcrypto-wasm' && c.algorithm === alg);
    const sizes = [...new Set(web.map((c) => c.sizeBytes))].filter((s) => wasm.some((c) => c.sizeBytes === s)).sort((a, b) => a - b);
    if (!sizes.length) continue;
    // ratio = WASM time / Web Crypto time: above 1, Web Crypto is faster.
    const ratios = sizes.map((s) => {
      const w = web.find((c) => c.sizeBytes === s)!;
      const best = wasm.filter((c) => c.sizeBytes === s).sort((a, b) => a.summary.median - b.summary.median)[0]!;
      return ratioOf(w, best);
    });
    // Each size decided by the one rule: Web Crypto faster, WASM faster, a tie, or undecided.
    const state = ratios.map((r) => {
      const d = decide(r, margin);
      return d === 'different' ? (r.value > 1 ? 'web' : 'wasm') : d;
    });
    const webFrom = state.length - [...state].reverse().findIndex((x) => x !== 'web');
    const from = state.every((x) => x === 'web') ? 0 : webFrom;
    let kind: Crossover['kind'];
    let atBytes: number | null = null;
    if (from === 0) kind = 'always';
    else if (!state.includes('web')) kind = 'never';
    else if (from < state.length && state.slice(0, from).every((x) => x !== 'web')) {
      kind = 'overtakes';
      atBytes = sizes[from]!;
    } else kind = 'mixed';
    // Sure when no size it rests on is undecided: around the crossover, or every size otherwise.
    const relevant = kind === 'overtakes' ? state.slice(Math.max(0, from - 1), from + 1) : state;
    const certainty: Certainty = relevant.every((x) => x !== 'unknown')
      ? 'sure'
      : busy !== null
        ? 'busy'
        : cases.some((c) => c.unstable && c.algorithm === alg)
          ? 'noisy'
          : 'too-close';
    return { platform, algorithm: alg, kind, atBytes, ratios, certainty };
  }
  return null;
}

/** Whose AES-GCM a crossover holds against WASM's, as the page names it. */
const platformLabel = (c: Pick<Crossover, 'platform'>) => (c.platform === 'webcrypto' ? 'Web Crypto' : 'node:crypto (OpenSSL)');

/** What the platform's AES-GCM (Web Crypto, or node:crypto in Node) against WASM's at the largest size says about AES instructions. */
export function hardwareAes(cross: Crossover | null): HardwareAes {
  if (!cross) return { likely: null, ratio: null, why: 'Neither Web Crypto’s nor node:crypto’s AES-GCM was measured beside WASM’s, so this run cannot tell.' };
  const r = cross.ratios[cross.ratios.length - 1]!;
  const at = formatSize(r.sizeBytes);
  const who = platformLabel(cross);
  // Below this, both sides pay mostly per-call costs (an await, a key schedule, OpenSSL's
  // context): a small ratio says nothing about AES instructions.
  if (r.sizeBytes < HARDWARE_AES_MIN_BYTES)
    return {
      likely: null,
      ratio: r,
      why: `Not enough evidence about AES instructions: the largest size measured is ${at}, and the call needs ${who}’s AES-GCM beside WASM’s at ${formatSize(HARDWARE_AES_MIN_BYTES)} or more.`,
    };
  if (r.low >= HARDWARE_AES_RATIO)
    return {
      likely: true,
      ratio: r,
      why: `${who}’s AES-GCM is ${r.value.toFixed(1)}× WASM’s constant-time software AES at ${at}: a speed that needs AES instructions (AES-NI, ARMv8 Crypto).`,
    };
  if (r.high <= SOFTWARE_AES_RATIO)
    return {
      likely: false,
      ratio: r,
      why: `${who}’s AES-GCM is only ${r.value.toFixed(1)}× WASM’s software AES at ${at}: the platform probably has no AES instructions, or does not use them here. ChaCha20-Poly1305 is the safer choice on such devices.`,
    };
  return {
    likely: null,
    ratio: r,
    why: `${who}’s AES-GCM is ${r.value.toFixed(1)}× WASM’s at ${at} [${r.low.toFixed(1)}–${r.high.toFixed(1)}]: between software and hardware speed, so this run cannot say.`,
  };
}

const SURE_WORDS: Record<Certainty, string> = {
  sure: '',
  tie: ` (a tie: within ±${VERDICT_MARGIN * 100} %)`,
  'too-close': ` (too close to call: the 95 % interval reaches within ±${VERDICT_MARGIN * 100} %, which counts as a tie)`,
  noisy: ' (the run was too noisy to be sure: measured cases are flagged unstable)',
  busy: ' (not told apart: the device was too busy, see below)',
};

/**
 * The contenders not told apart from the winner, each with its ratio. One whose interval excludes
 * 1 is behind, and says so, with why that is not a difference: it may be less than the margin.
 */
function notToldApart(open: { label: string; margin: Ratio }[]): string {
  const behind = open.filter((x) => x.margin.low > 1);
  const level = open.filter((x) => x.margin.low <= 1);
  const out: string[] = [];
  if (level.length) out.push(` Not told apart from ${listed(level.map((x) => `${x.label} (${timesText(x.margin)})`))} either.`);
  if (behind.length)
    out.push(
      ` ${listed(behind.map((x) => `${x.label} (${timesText(x.margin)})`))} ${behind.length > 1 ? 'are' : 'is'} behind, but perhaps by less than the ±${VERDICT_MARGIN * 100} % that counts as a difference.`,
    );
  return out.join('');
}

/**
 * `live`: the run is still measuring — an undecided statement says so ("measuring…") rather than
 * "too close to call", since the stop rule is still sampling it; and a statement that rests on a
 * payload size not measured yet (the live document's `awaiting`) is not made at all, only
 * "measuring…": made from the sizes so far, it could read otherwise a second later (the
 * hardware-AES call said "not enough evidence" until 1 MiB arrived; the crossover "never" until
 * the size where Web Crypto overtakes).
 */
export function verdict(
  doc: Pick<ResultDocument, 'cases'> & Partial<Pick<ResultDocument, 'aaCheck' | 'environment'>> & { awaiting?: readonly number[] },
  o: { live?: boolean } = {},
): Verdict {
  const words = (c: Certainty) => (o.live && (c === 'too-close' || c === 'noisy' || c === 'busy') ? ' (measuring…)' : SURE_WORDS[c]);
  const awaiting = o.live ? (doc.awaiting ?? []) : [];
  // A class's winner waits for the class's own sizes; the crossover, the cost and the hardware-AES call for every size.
  const pending = (claimId: string) => {
    const cls = SIZE_CLASSES.find((c) => claimId === `fastest/${c.id}`);
    return cls ? awaiting.some(cls.holds) : awaiting.length > 0;
  };
  const { operation, cases } = casesOf(doc);
  const busy = busySpread(doc.aaCheck);
  const fastest = fastestBySize(cases, busy);
  const large = fastest.find((f) => f.sizeClass === 'large') ?? fastest[fastest.length - 1];
  // Whose message cost is told: the large messages' winner, or for a tie its first member in the
  // claim's order, so that the sentence does not follow whichever member ranked first this run.
  const costed =
    large &&
    (large.certainty === 'tie'
      ? [large.winner, ...rivals(large).filter((x) => x.decision === 'same')].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))[0]!
      : large.winner);
  const cost = costed && !pending('cost') ? costOf(cases, costed) : null;
  const crossover = webCryptoCrossover(cases, busy);
  const hw = hardwareAes(crossover);
  const sentences: string[] = [];
  const mode = doc.environment?.execution?.mode;
  if (mode === 'wasm-off')
    sentences.push(
      'Measured with WebAssembly off: only implementations without it ran (Web Crypto, pure JavaScript), and these answers hold for this setting only.',
    );
  if (mode === 'wasm-interpreted')
    sentences.push(
      'Measured without a JIT (a security setting or flag): WebAssembly and JavaScript were interpreted, many times slower than this device can do, and these answers hold for this setting only.',
    );
  if (mode === 'no-js-optimizer')
    sentences.push(
      'Measured without the optimising JavaScript compiler (a security setting or flag): pure-JavaScript figures are several times slower than this device can do, and these answers hold for this setting only.',
    );
  for (const cls of SIZE_CLASSES) {
    if (pending(`fastest/${cls.id}`)) {
      sentences.push(`Fastest for ${cls.label}: measuring…`);
      continue;
    }
    const f = fastest.find((x) => x.sizeClass === cls.id);
    if (!f) continue;
    const at = formatSize(f.margin?.sizeBytes ?? f.sizes[0]!);
    const mbps = `${f.winner.mbps.toFixed(f.winner.mbps < 10 ? 2 : 0)} MB/s (median) at ${at}`;
    const twoModes = cases.some((c) => key(c) === key(f.winner) && c.modes && f.sizes.includes(c.sizeBytes));
    const caveat = twoModes ? ' Its samples fall in two modes at some sizes: its speed there is not one figure.' : '';
    const rs = rivals(f);
    const tied = rs.filter((x) => x.decision === 'same');
    // Contenders after the runner-up that the run could not tell from the winner yet.
    const open = rs.slice(f.margin ? 1 : 0).filter((x) => x.decision === 'unknown');
    const notApart = open.length && f.certainty !== 'tie' ? notToldApart(open) : '';
    // A tie names its members in one order (the claim's), whichever of them ranked first this run,
    // with the span of their figures: no member reads as the winner of it.
    const members = [f.winner, ...tied].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const span = (xs: number[]) => [Math.min(...xs), Math.max(...xs)].map((x) => x.toFixed(x < 10 ? 2 : 0)).join('–');
    sentences.push(
      f.certainty === 'tie' && tied.length
        ? `Tie for ${cls.label}: ${listed(members.map((x) => x.label))}, within ±${VERDICT_MARGIN * 100} % of one another at ${at}, ${span(members.map((x) => x.mbps))} MB/s (medians).${caveat}`
        : `Fastest for ${cls.label}: ${f.winner.label}, ${mbps}` +
            (f.runnerUp && f.margin
              ? printedAhead(f.margin)
                ? `, ${timesText(f.margin)} ahead of ${f.runnerUp.label}`
                : `, level with ${f.runnerUp.label} (${timesText(f.margin)})`
              : '') +
            `${words(f.certainty)}.${notApart}${caveat}`,
    );
  }
  if (cost)
    sentences.push(
      `One message with ${cost.contender.label} costs about ${cost.fixedUs} µs plus ${cost.perByteNs} ns per byte, from ${formatSize(cost.fromBytes)} to ${formatSize(cost.toBytes)} (within ${Math.max(1, Math.ceil(cost.maxError * 100))} % of every median measured there).`,
    );
  const who = crossover ? platformLabel(crossover) : '';
  if (crossover && pending('crossover')) sentences.push(`Where ${who} overtakes WASM for ${algorithm(crossover.algorithm).label}: measuring…`);
  else if (crossover) {
    const name = algorithm(crossover.algorithm).label;
    const text =
      crossover.kind === 'overtakes'
        ? `${who} overtakes WASM for ${name} from ${formatSize(crossover.atBytes!)} on`
        : crossover.kind === 'always'
          ? `${who} is faster than WASM for ${name} at every size measured`
          : crossover.kind === 'never'
            ? `${who} is not faster than WASM for ${name} at any size measured (its per-call cost outweighs any hardware AES here)`
            : `${who} and WASM trade places for ${name} from size to size`;
    sentences.push(`${text}${words(crossover.certainty)}.`);
  }
  sentences.push(pending('hardware-aes') ? 'AES instructions: measuring…' : hw.why);
  const aa = doc.aaCheck;
  if (aa && busy !== null && !o.live) sentences.push(busySentence(aa, busy));
  const decided = claimsOf(fastest, crossover, hw, busy);
  // A claim that waits for a size says so, even a size class with no case yet.
  const claims = CLAIM_IDS.flatMap((id): Claim[] => {
    const c = decided.find((x) => x.id === id);
    return pending(id) && (c || id.startsWith('fastest/')) ? [{ id, decision: 'unknown', answer: 'measuring', cases: [] }] : c ? [c] : [];
  });
  return { operation, claims, fastest, cost, crossover, hardwareAes: hw, sentences };
}

/**
 * A claim as the page showed it while its run measured: the first resolved answer (SAME or
 * DIFFERENT), and the first other answer shown after it — a reversal — if any.
 */
export interface ShownClaim {
  id: string;
  answer: string;
  reversedTo: string | null;
  /** When it was first shown resolved: ms after the run started (the page's Start). */
  atMs?: number;
}

/**
 * What a run has shown, with one more view's claims added (live views, then the final verdict):
 * a claim joins when first shown resolved; any later answer other than that one — another
 * winner, a tie, "measuring", "undecided" — is its reversal. The run state keeps this, and
 * bench:verdict counts the runs that reversed a claim.
 */
export function noteShown(shown: readonly ShownClaim[], claims: readonly Claim[], atMs?: number): ShownClaim[] {
  const out = shown.map((s) => ({ ...s }));
  for (const c of claims) {
    const before = out.find((s) => s.id === c.id);
    if (!before) {
      if (c.decision !== 'unknown') out.push({ id: c.id, answer: c.answer, reversedTo: null, ...(atMs === undefined ? {} : { atMs: Math.round(atMs) }) });
    } else if (before.reversedTo === null && c.answer !== before.answer) before.reversedTo = c.answer;
  }
  return out;
}

/** Every claim the verdict can make, in the order the page states them. */
const CLAIM_IDS = [...SIZE_CLASSES.map((c) => `fastest/${c.id}`), 'crossover', 'hardware-aes'];

/** The winner's rivals in its leading group — the runner-up, then `alsoLeading` — each with its ratio to the winner and what that decides. */
function rivals(f: Fastest): (Contender & { mbps: number; margin: Ratio; decision: Decision })[] {
  const all = [...(f.runnerUp && f.margin ? [{ ...f.runnerUp, margin: f.margin }] : []), ...f.alsoLeading];
  return all.map((x) => ({ ...x, decision: decide(x.margin, VERDICT_MARGIN) }));
}

/** The words for a run whose A/A check did not read SAME: what the device could not see, and what that means here. */
export function busySentence(aa: NonNullable<ResultDocument['aaCheck']>, spread: number): string {
  return (
    `This device was too busy during the run to separate differences smaller than ±${Math.ceil(spread * 100)} %: ` +
    `${contenderLabel(aa)} at ${formatSize(aa.sizeBytes)}, measured twice side by side, read ${aa.ratio.toFixed(3)}× [${aa.low.toFixed(3)}–${aa.high.toFixed(3)}] against itself ` +
    `(the check passes within ±3 %). No claim above rests on a smaller difference; a quieter moment, or a longer run, would narrow it.`
  );
}

/** "A", "A and B", "A, B and C". */
const listed = (xs: string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

const decisionOf = (c: Certainty): Decision => (c === 'sure' ? 'different' : c === 'tie' ? 'same' : 'unknown');

/** The verdict's statements as claims (see Claim): what bench:verdict counts and the stop rule decides. */
function claimsOf(fastest: Fastest[], crossover: Crossover | null, hw: HardwareAes, busy: number | null): Claim[] {
  const out: Claim[] = [];
  for (const f of fastest) {
    const decision = decisionOf(f.certainty);
    const rs = rivals(f);
    const answer =
      decision === 'different'
        ? f.winner.label
        : decision === 'same'
          ? [f.winner.label, ...rs.filter((x) => x.decision === 'same').map((x) => x.label)].sort().join(' = ')
          : 'undecided';
    // What would decide it: each pair of the leading group still undecided (the stop rule measures these).
    const open = rs.filter((x) => x.decision === 'unknown');
    const leading = f.aboutTheSame;
    const named = leading !== null && (leading.length > 1 || decision === 'different');
    out.push({
      id: `fastest/${f.sizeClass}`,
      decision,
      answer,
      cases: decision === 'unknown' ? [...new Set(open.flatMap((x) => x.margin.cases))] : f.margin ? [...f.margin.cases] : [],
      ...(named ? { leading } : {}),
      ...(f.within !== null ? { within: f.within } : {}),
      ...(f.certainty === 'busy' ? { busy: busy! } : {}),
    });
  }
  if (crossover) {
    const decision = decisionOf(crossover.certainty);
    const answer =
      decision === 'unknown' ? 'undecided' : `${crossover.algorithm} ${crossover.kind}${crossover.atBytes ? ` at ${formatSize(crossover.atBytes)}` : ''}`;
    const undecided = crossover.ratios.filter((r) => decide(r, VERDICT_MARGIN) === 'unknown');
    out.push({ id: 'crossover', decision, answer, cases: undecided.flatMap((r) => r.cases) });
  }
  const undecided = hw.likely === null && hw.ratio !== null && hw.ratio.sizeBytes >= HARDWARE_AES_MIN_BYTES;
  // "Not enough evidence" decides nothing: UNKNOWN, with no case that more samples would settle.
  out.push({
    id: 'hardware-aes',
    decision: hw.likely === null ? 'unknown' : 'different',
    answer: hw.likely === null ? (undecided ? 'undecided' : 'not enough evidence') : hw.likely ? 'AES instructions' : 'no AES instructions',
    cases: undecided ? [...hw.ratio!.cases] : [],
  });
  return out;
}

/**
 * The cases a visitor's device is placed among its class for (with a collector): WASM AES-128-GCM
 * and ChaCha20-Poly1305 and Web Crypto AES-128-GCM, encrypt, at the largest size up to 1 MiB the
 * run measured — what every device runs, so the cohorts are full.
 */
export function headlineCases(doc: Pick<ResultDocument, 'cases'>): CaseResult[] {
  const enc = doc.cases.filter((c) => c.operation === 'encrypt' && c.aadBytes === 0 && c.sizeBytes <= MiB);
  const out: CaseResult[] = [];
  for (const [impl, alg] of [
    ['rustcrypto-wasm', 'aes-128-gcm'],
    ['rustcrypto-wasm', 'chacha20-poly1305'],
    ['webcrypto', 'aes-128-gcm'],
  ] as const) {
    const mine = enc.filter((c) => c.implementation === impl && c.algorithm === alg && isContender(c));
    const best = mine.sort((a, b) => b.sizeBytes - a.sizeBytes || a.summary.median - b.summary.median)[0];
    if (best) out.push(best);
  }
  return out;
}

/**
 * A cohort as a strip on a log scale from its 5th to 95th percentile (widened to hold this
 * device's figure): where the middle half, the median and this device fall, as fractions 0–1.
 */
export function stripOf(
  cohort: { p05: number; q1: number; median: number; q3: number; p95: number },
  mine: number,
): { q1: number; median: number; q3: number; mine: number } {
  const lo = Math.log(Math.min(cohort.p05, mine) * 0.95);
  const hi = Math.log(Math.max(cohort.p95, mine) * 1.05);
  const at = (x: number) => (Math.log(x) - lo) / (hi - lo);
  return { q1: at(cohort.q1), median: at(cohort.median), q3: at(cohort.q3), mine: at(mine) };
}
