/**
 * `npm run bench:stability`: does a comparison hold still when the machine does not?
 * K fresh-browser runs (default 3) of the quick preset in Chromium and in Firefox; for two
 * kinds of comparison at every size — WASM vs WASM (AES-128-GCM against ChaCha20-Poly1305) and
 * Web Crypto vs WASM (AES-128-GCM) — prints the spread across runs (max/min − 1) of each
 * side's absolute median, of the ratio of those medians, and of the paired ratio (sampled side
 * by side, stats.ts pairedRatio); then the flags with their reasons. Targets on this machine:
 * paired ratios within 3 % (WASM vs WASM) and 5 % (Web Crypto vs WASM) across runs.
 *   RUNS=3 BROWSERS=chromium,firefox npm run bench:stability
 */
import { runInBrowser } from '../../cli/browser-run.ts';
import type { BrowserName } from '../../cli/browsers.ts';
import type { CaseResult, ResultDocument } from '../../web/core/schema.ts';
import { explainedShare, speedRange } from '../../web/core/run/interference.ts';
import { median, pairedRatio } from '../../web/core/stats.ts';
import { evidence, recordPage } from './measured.ts';

recordPage('stability', {
  title: 'Do comparisons hold still?',
  about: 'K fresh-browser quick runs: the spread of absolute medians against the spread of paired ratios, the flags and their reasons.',
});

const RUNS = Number(process.env.RUNS ?? 3);
const BROWSERS = (process.env.BROWSERS ?? 'chromium,firefox').split(',') as BrowserName[];
const SEARCH =
  process.env.SEARCH ??
  'preset=quick&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm,webcrypto&webcrypto=sequential&operations=encrypt';

const find = (d: ResultDocument, [impl, variant, alg]: readonly [string, string, string], size: number) =>
  d.cases.find((c) => c.implementation === impl && c.variant === variant && c.algorithm === alg && c.sizeBytes === size && c.operation === 'encrypt');
const spread = (xs: number[]) => (xs.length ? Math.max(...xs) / Math.min(...xs) - 1 : NaN);
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %`.padStart(8) : '     n/a');

const COMPARISONS = [
  {
    name: 'WASM AES-128-GCM vs WASM ChaCha20-Poly1305',
    a: ['rustcrypto-wasm', 'simd128', 'aes-128-gcm'],
    b: ['rustcrypto-wasm', 'simd128', 'chacha20-poly1305'],
    target: 0.03,
  },
  {
    name: 'WASM AES-128-GCM vs Web Crypto AES-128-GCM',
    a: ['rustcrypto-wasm', 'simd128', 'aes-128-gcm'],
    b: ['webcrypto', 'sequential', 'aes-128-gcm'],
    target: 0.05,
  },
] as const;

const figures = evidence('stability');
for (const browser of BROWSERS) {
  const docs: ResultDocument[] = [];
  for (let k = 0; k < RUNS; k++) {
    const t = performance.now();
    docs.push(await runInBrowser({ browser, search: SEARCH }));
    process.stderr.write(`${browser} run ${k + 1}/${RUNS}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  console.log(`\n${browser} ${docs[0]!.environment.browser.version}, ${RUNS} fresh-browser runs of ${SEARCH}`);
  console.log(`${'comparison'.padEnd(46)} ${'size'.padStart(8)}  spread across runs of:  A median  B median  A/B medians  paired A/B   (paired ratios)`);
  for (const cmp of COMPARISONS) {
    for (const size of docs[0]!.params.sizes) {
      const pairs = docs
        .map((d) => [find(d, cmp.a, size), find(d, cmp.b, size)] as [CaseResult | undefined, CaseResult | undefined])
        .filter((p): p is [CaseResult, CaseResult] => !!p[0] && !!p[1]);
      if (pairs.length < 2) continue;
      const paired = pairs.map(([a, b]) => pairedRatio(a, b)?.ratio).filter((x): x is number => x !== undefined);
      const line = [
        cmp.name.padEnd(46),
        String(size).padStart(8),
        ' '.repeat(24),
        pct(spread(pairs.map(([a]) => a.summary.median))),
        pct(spread(pairs.map(([, b]) => b.summary.median))),
        pct(spread(pairs.map(([a, b]) => a.summary.median / b.summary.median))),
        `${pct(spread(paired))}${paired.length === pairs.length && spread(paired) <= cmp.target ? ' ✓' : '  '}`,
        `  ${paired.map((x) => x.toFixed(3)).join(' ')}`,
      ];
      figures.row('spread', {
        browser,
        comparison: cmp.name,
        sizeBytes: size,
        runs: pairs.length,
        spreadA: spread(pairs.map(([a]) => a.summary.median)),
        spreadB: spread(pairs.map(([, b]) => b.summary.median)),
        spreadOfMedians: spread(pairs.map(([a, b]) => a.summary.median / b.summary.median)),
        spreadPaired: paired.length ? spread(paired) : null,
        target: cmp.target,
      });
      console.log(line.join('  '));
    }
  }
  const flags = new Map<string, number>();
  let cases = 0;
  for (const d of docs)
    for (const c of d.cases) {
      cases++;
      for (const r of c.unstableReasons ?? []) flags.set(r, (flags.get(r) ?? 0) + 1);
    }
  const flagged = docs.reduce((n, d) => n + d.cases.filter((c) => c.unstable).length, 0);
  figures.row('flags', { browser, cases, unstable: flagged });
  console.log(`flags: ${flagged} of ${cases} cases unstable; reasons ${JSON.stringify(Object.fromEntries(flags))}`);
  for (const [k, d] of docs.entries()) {
    const range = d.interference ? speedRange(d.interference) : null;
    const explained = d.interference ? d.cases.map((c) => explainedShare(c, d.interference!)).filter((x): x is number => x !== null) : [];
    console.log(
      `run ${k + 1} interference: ${range ? `ran at ${Math.round(range.low * 100)}–100 % of its best speed (median ${Math.round(range.median * 100)} %), ${Math.round(range.slowShare * 100)} % of cycles below 80 %` : 'no record'}; ` +
        (explained.length
          ? `share of each case's spread the monitor explains (R²): median ${median(explained).toFixed(2)}, max ${Math.max(...explained).toFixed(2)}`
          : ''),
    );
  }
}
console.log('\ntargets: paired ratio spread ≤ 3 % WASM vs WASM, ≤ 5 % Web Crypto vs WASM (✓ where met)');
