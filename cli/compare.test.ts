import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDocument } from '../web/core/test/fixtures.ts';
import { type ResultDocument, validateResult } from '../web/core/schema.ts';
import { compareExitCode, compareInRun, compareResults, compareTable, unknownAdvice } from './compare.ts';
import { AB_MIN_SAMPLE_MS, parseParams, presetParams, toSearch } from '../web/core/params.ts';

/** A document whose one case has the given ns/op samples (summaries are recomputed anyway). */
function doc(samples: number[]): ResultDocument {
  const d = sampleDocument() as unknown as ResultDocument;
  d.cases[0] = { ...d.cases[0]!, samples };
  return d;
}
const steady = (center: number) => Array.from({ length: 20 }, (_, i) => center * (1 + ((i % 5) - 2) * 0.002));

describe('compare', () => {
  it('reads a result@1 document beside a result@2 one', () => {
    const v1 = doc(steady(1000)) as ResultDocument & { schema: string };
    v1.schema = 'aeadbench/result@1';
    delete (v1.environment as { engine?: unknown }).engine;
    for (const c of v1.cases) (delete (c as { modes?: unknown; unstableReasons?: unknown }).modes, delete (c as { unstableReasons?: unknown }).unstableReasons);
    expect(validateResult(v1).ok).toBe(true);
    const v2 = doc(steady(800));
    expect(v2.schema).toBe('aeadbench/result@2');
    expect(compareResults(v1, v2).cases[0]!.verdict).toBe('faster');
  });

  it('equal runs are SAME, and exit 0', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(1000)));
    expect(r.cases).toEqual([expect.objectContaining({ verdict: 'same', ratio: 1 })]);
    expect(compareExitCode(r)).toBe(0);
  });

  it('a 1.5 % difference with tight intervals is SAME within the default ±3 % margin, not a slowdown', () => {
    // Two runs of identical code on a busy machine: intervals that do not overlap, 1.5 % apart.
    const r = compareResults(doc(steady(1000)), doc(steady(1015)));
    expect(r.cases[0]!.verdict).toBe('same');
    expect(compareExitCode(r)).toBe(0);
  });

  it('takes the margin it is given: 5 % slower is SLOWER at 2 %, SAME at 10 %', () => {
    expect(compareResults(doc(steady(1000)), doc(steady(1050)), { margin: 0.02 }).cases[0]!.verdict).toBe('slower');
    expect(compareResults(doc(steady(1000)), doc(steady(1050)), { margin: 0.1 }).cases[0]!.verdict).toBe('same');
  });

  it('no case in common is exit 3, not a pass', () => {
    const b = doc(steady(1000));
    b.cases = [];
    expect(compareExitCode(compareResults(doc(steady(1000)), b))).toBe(3);
  });

  it('a faster B beyond both intervals is marked faster', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(800)));
    expect(r.cases[0]!.verdict).toBe('faster');
    expect(r.cases[0]!.ratio).toBeCloseTo(1.25, 6);
  });

  it('a slower B beyond both intervals is marked slower (a regression)', () => {
    const r = compareResults(doc(steady(1000)), doc(steady(1300)));
    expect(r.cases[0]!.verdict).toBe('slower');
    expect(compareTable(r)).toContain('▼ SLOWER');
    expect(compareExitCode(r)).toBe(1);
  });

  it('a large difference with an interval across the margin is UNKNOWN, exit 2: not proven either way', () => {
    const wide = [500, 700, 900, 1000, 1100, 1300, 1500, 1700];
    const r = compareResults(doc(wide), doc(wide.map((x) => x * 1.2)));
    expect(r.cases[0]!.verdict).toBe('unknown');
    expect(compareExitCode(r)).toBe(2);
  });

  it('says on exit 2 what would decide the UNKNOWN comparisons: one session, more rounds or a wider margin; in an A/B, a longer budget', () => {
    const wide = [500, 700, 900, 1000, 1100, 1300, 1500, 1700];
    const r = compareResults(doc(wide), doc(wide.map((x) => x * 1.2)));
    const files = unknownAdvice(r, { inRun: false });
    expect(files[0]).toMatch(/^1 of 1 comparisons are UNKNOWN: their intervals reach ±\d+(\.\d)? % against a margin of ±3 %/);
    expect(files.join('\n')).toContain('aeadbench compare --base A.js --head B.js');
    expect(files.join('\n')).toContain('--rounds');
    // A margin is suggested where one that matters would hold the intervals (±15 % here: --margin 15%).
    const moderate = unknownAdvice({ ...r, cases: r.cases.map((c) => ({ ...c, low: c.ratio / 1.15, high: c.ratio * 1.15 })) }, { inRun: false });
    expect(moderate.join('\n')).toMatch(/--margin 1[45]%/);
    const ab = unknownAdvice(r, { inRun: true, budgetSeconds: 60 });
    expect(ab.join('\n')).toContain('--budget 120s');
    expect(ab.join('\n')).not.toContain('--base');
    // It says the smallest difference it could have seen, in words.
    expect(files[1]).toMatch(/^This run could not have seen a difference smaller than about \d+ % in them: the device was too busy, or the run too short/);
    expect(files[1]).toContain('Nothing here is SLOWER beyond that either.');
    // Beside a comparison that did read SLOWER, the words never say nothing is (an A/A of one file once printed both).
    const slowerToo = { ...r, cases: [...r.cases, { ...r.cases[0]!, key: 'other', ratio: 0.95, low: 0.93, high: 0.96, verdict: 'slower' as const }] };
    const mixed = unknownAdvice(slowerToo, { inRun: true, budgetSeconds: 60 }).join('\n');
    expect(mixed).toContain('1 other comparison read SLOWER (above).');
    expect(mixed).not.toContain('Nothing here is SLOWER');
    // Intervals wider than any margin that matters: no --margin of 50 % for ±116 %, a quieter machine instead.
    const tooWide = unknownAdvice({ ...r, cases: r.cases.map((c) => ({ ...c, low: c.ratio / 2.2, high: c.ratio * 2.2 })) }, { inRun: false }).join('\n');
    expect(tooWide).not.toMatch(/--margin/);
    expect(tooWide).toContain('a quieter machine');
    // An interval without bounds (too few workers to pair) is said in words, never as "Infinity %".
    const unbounded = unknownAdvice({ ...r, cases: r.cases.map((c) => ({ ...c, low: 0, high: Infinity })) }, { inRun: true, budgetSeconds: 60 }).join('\n');
    expect(unbounded).toContain('could not bound a difference of any size');
    expect(unbounded).not.toMatch(/Infinity|NaN/);
    // Nothing undecided, nothing to say.
    expect(unknownAdvice(compareResults(doc(steady(1000)), doc(steady(1000))), { inRun: false })).toEqual([]);
  });

  it('reports cases present in only one document', () => {
    const b = doc(steady(1000));
    b.cases[0] = { ...b.cases[0]!, sizeBytes: 2048 };
    const r = compareResults(doc(steady(1000)), b);
    expect(r.cases).toHaveLength(0);
    expect(r.onlyInA).toHaveLength(1);
    expect(r.onlyInB).toHaveLength(1);
  });
});

describe('aeadbench compare (the command)', () => {
  /** The commands' temporary directory (TMPDIR): what they leave there is checked. */
  let tmp = '';
  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    tmp = mkdtempSync(join(tmpdir(), 'aeadbench-compare-tmp-'));
  });
  /** `aeadbench compare ARGS`, stopped after `timeout` ms. */
  const within = async (timeout: number, ...args: string[]) => {
    const { spawnSync } = await import('node:child_process');
    return spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'compare', ...args], {
      encoding: 'utf8',
      timeout,
      env: { ...process.env, TMPDIR: tmp },
    });
  };
  /** Two result files: read and compared in a few seconds. */
  const cli = (...args: string[]) => within(60_000, ...args);
  /** What a CLI run that did not exit says: the signal that stopped it (the timeout above), else its stderr. */
  const why = (r: { error?: Error; signal: NodeJS.Signals | null; stderr: string }) =>
    r.signal ? `stopped by ${r.signal}: ${r.error?.message ?? ''}` : r.stderr;
  const files = async (a: ResultDocument, b: ResultDocument) => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-compare-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify(a));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(b));
    return [join(dir, 'a.json'), join(dir, 'b.json')] as const;
  };

  it('exits 0 on SAME, 1 on SLOWER beyond --margin, 3 on a bad margin or nothing in common', async () => {
    const [a, same] = await files(doc(steady(1000)), doc(steady(1015)));
    let r = await cli(a, same);
    expect(r.status, why(r)).toBe(0);
    const [, slower] = await files(doc(steady(1000)), doc(steady(1050)));
    r = await cli(a, slower, '--margin', '2%');
    expect(r.status, why(r)).toBe(1);
    expect(r.stdout).toContain('▼ SLOWER');
    expect(r.stdout).toContain('margin of ±2 %');
    expect((await cli(a, slower, '--margin', '10%')).status).toBe(0);
    r = await cli(a, slower, '--margin', 'lots');
    expect(r.status).toBe(3);
    expect(r.stderr).toContain("Invalid --margin: 'lots'");
    const empty = doc(steady(1000));
    empty.cases = [];
    const [, none] = await files(doc(steady(1000)), empty);
    r = await cli(a, none);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('nothing to compare');
  }, 120_000);

  it('--metric ops with --base and --head counts two modules of yours in Node: a head doing one ChaCha20 block more a message is MORE WORK, exit 1; the same file is exactly +0.000 %, exit 0; two JavaScript modules have nothing to count, exit 3', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const mod = (m: string) => `web/core/test/modules/${m}.mjs`;
    // A run in Node gates each module of yours first (every length to 2 KiB against RustCrypto),
    // which takes about 1.5 s per algorithm for noble's GCM here (7 s while it compared hex), more on a busy runner.
    const ab = (base: string, head: string, ...more: string[]) =>
      within(150_000, '--base', mod(base), '--head', mod(head), '--browser', 'node', '--metric', 'ops', '--operations', 'encrypt', ...more);
    const junit = join(mkdtempSync(join(tmpdir(), 'aeadbench-ops-')), 'ops.xml');
    let r = await ab('sodium-chacha', 'sodium-chacha-more', '--sizes', '8k', '--junit', junit);
    expect(r.status, why(r)).toBe(1);
    expect(r.stdout).toMatch(/chacha20-poly1305 · module \(custom\) · encrypt · 8 KiB +\d+ +\d+ +\+1\.\d{3} % +▲ MORE WORK/);
    expect(readFileSync(junit, 'utf8').match(/<failure/g)).toHaveLength(1);
    r = await ab('sodium-chacha', 'sodium-chacha', '--sizes', '8k', '--threshold', '0%');
    expect(r.status, why(r)).toBe(0);
    expect(r.stdout).toMatch(/8 KiB +(\d+) +\1 +\+0\.000 % += same work/);
    r = await ab('good-gcm', 'good-gcm-again', '--sizes', '1k', '--algorithms', 'aes-128-gcm');
    expect(r.status, why(r)).toBe(3);
    expect(r.stderr).toContain('nothing to compare by counts: base and head are JavaScript');
    // Each A/B bundled both modules for Node to import, and removed them when it was done.
    expect((await import('node:fs')).readdirSync(tmp).filter((f) => f.startsWith('aeadbench-'))).toEqual([]);
  }, 480_000);
});

describe('A/B in one run (compareInRun)', () => {
  /** An A/B document: base and head at one size, sampled in the same cycles; `swing` slows both alike per cycle. */
  function abDoc(baseNs: number, headNs: number, swing: number[], margin = 0.05): ResultDocument {
    const d = sampleDocument() as unknown as ResultDocument;
    const proto = d.cases[0]!;
    // Four workers (rounds) of six cycles each: the A/B interval is over workers.
    const cycles = swing.map((_, i) => Math.floor(i / 6) * 1_000_000 + i);
    const mk = (implementation: string, ns: number) =>
      ({ ...proto, implementation, variant: 'custom', samples: swing.map((s) => ns * s), cycles }) as ResultDocument['cases'][number];
    d.params = { ...d.params, ab: { base: 'base', head: 'head', margin } } as ResultDocument['params'];
    d.cases = [mk('base', baseNs), mk('head', headNs)];
    return d;
  }
  const swing = Array.from({ length: 24 }, (_, i) => 1 + 0.5 * Math.sin(i)); // the machine swings ±50 %

  it('pairs the head with the base cycle by cycle, so a machine that swings ±50 % still shows a 10 % regression', () => {
    const r = compareInRun(abDoc(1000, 1100, swing));
    expect(r.cases).toHaveLength(1);
    expect(r.cases[0]!.ratio).toBeCloseTo(1000 / 1100, 9);
    expect(r.cases[0]!.verdict).toBe('slower');
    expect(compareExitCode(r)).toBe(1);
    // Unpaired, the same samples decide nothing.
    const unpaired = compareResults(
      { ...abDoc(1000, 1000, swing), cases: [abDoc(1000, 1100, swing).cases[0]!] },
      {
        ...abDoc(1000, 1000, swing),
        cases: [{ ...abDoc(1000, 1100, swing).cases[1]!, implementation: 'base' as ResultDocument['cases'][number]['implementation'] }],
      },
    );
    expect(unpaired.cases[0]!.verdict).toBe('unknown');
  });

  it('decides nothing from fewer than three workers, however many cycles agree', () => {
    const d = abDoc(1000, 2000, swing);
    for (const c of d.cases) c.cycles = c.cycles!.map((x) => x % 1_000_000); // all in one worker
    expect(compareInRun(d).cases[0]!.verdict).toBe('unknown');
  });

  it('a ratio that moves from worker to worker is not called a difference, though every worker alone is sure', () => {
    // Same code; each worker reads the head 8 % slower or faster, alternately, cycle after cycle.
    const d = abDoc(1000, 1000, swing);
    d.cases[1]!.samples = d.cases[1]!.samples.map((x, i) => x * (Math.floor(i / 6) % 2 ? 1.08 : 1 / 1.08));
    expect(compareInRun(d).cases[0]!.verdict).not.toBe('slower');
    expect(compareInRun(d).cases[0]!.verdict).not.toBe('faster');
  });

  it('decides a session’s cases together: sixteen comparisons of one code do not call one SLOWER by chance, where one alone would', () => {
    // One pair whose four workers read the head 3.7–5.2 % slower: a 95 % interval of its own lies below 0.97.
    const one = abDoc(1000, 1000, swing, 0.03);
    one.cases[1]!.samples = one.cases[1]!.samples.map((x, i) => x * [1.045, 1.052, 1.037, 1.041][Math.floor(i / 6)]!);
    expect(compareInRun(one).cases[0]!.verdict).toBe('slower');
    expect(compareInRun(one).family).toBe(1);
    // The same pair among sixteen, at other sizes, decided together: each interval is the family's (Bonferroni).
    const many = abDoc(1000, 1000, swing, 0.03);
    many.cases = Array.from({ length: 16 }, (_, k) => one.cases.map((c) => ({ ...c, sizeBytes: 64 << k }) as ResultDocument['cases'][number])).flat();
    const r = compareInRun(many);
    expect(r.family).toBe(16);
    expect(r.cases).toHaveLength(16);
    expect(r.cases.every((c) => c.verdict !== 'slower')).toBe(true);
    expect(r.cases[0]!.high - r.cases[0]!.low).toBeGreaterThan(compareInRun(one).cases[0]!.high - compareInRun(one).cases[0]!.low);
    expect(compareTable(r)).toContain('[95 % interval, 16 together]');
    expect(compareTable(r)).toContain('the 16 intervals hold together');
  });

  it("calls the same code SAME within the run's margin, and names the cases the stop rule measures again", () => {
    const r = compareInRun(abDoc(1000, 1010, swing, 0.03));
    expect(r.margin).toBe(0.03);
    expect(r.cases[0]!.verdict).toBe('same');
    expect(r.cases[0]!.cases).toEqual([expect.stringMatching(/^base\/custom\//), expect.stringMatching(/^head\/custom\//)]);
    expect(r.cases[0]!.rounds).toBe(4); // the workers its interval is over
  });

  it('the ab parameter round-trips through the URL and names the two modules as the run', () => {
    const { params } = parseParams('preset=quick&ab=base,head,0.05&sizes=1k');
    expect(params.ab).toEqual({ base: 'base', head: 'head', margin: 0.05 });
    expect(params.implementations).toEqual(['base', 'head']);
    expect(parseParams(toSearch(params)).params).toEqual(params);
    expect(() => parseParams('ab=base,base')).toThrow(/ab.*two different module ids/);
    expect(() => parseParams('ab=base,head,0.9')).toThrow(/ab/);
  });

  it("samples an A/B run for at least AB_MIN_SAMPLE_MS unless told otherwise, from the URL and from the package's options alike", async () => {
    const { resolveParams } = await import('../web/core/options.ts');
    const quick = presetParams('quick').minSampleMs;
    expect(quick).toBeLessThan(AB_MIN_SAMPLE_MS); // else this test proves nothing
    const ab = parseParams('ab=base,head,0.05').params.ab!;
    expect(parseParams('sizes=1k').params.minSampleMs).toBe(quick);
    expect(parseParams('ab=base,head&sizes=1k').params.minSampleMs).toBe(AB_MIN_SAMPLE_MS);
    expect(parseParams('ab=base,head&minSampleMs=3').params.minSampleMs).toBe(3);
    expect(parseParams('preset=standard&ab=base,head').params.minSampleMs).toBe(Math.max(presetParams('standard').minSampleMs, AB_MIN_SAMPLE_MS));
    expect(resolveParams({ sizes: [1024] }).minSampleMs).toBe(quick);
    expect(resolveParams({ ab, sizes: [1024] }).minSampleMs).toBe(AB_MIN_SAMPLE_MS);
    expect(resolveParams({ ab, minSampleMs: 3 }).minSampleMs).toBe(3);
    // The link a run shares says what it sampled, and reads back the same.
    const { params } = parseParams('ab=base,head');
    expect(toSearch(params)).toContain(`minSampleMs=${AB_MIN_SAMPLE_MS}`);
    expect(parseParams(toSearch(params)).params).toEqual(params);
  });
});
