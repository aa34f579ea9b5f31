// The formats CI tools read, each held against the shape its tool documents:
// - github-action-benchmark (README, "customBiggerIsBetter"): an array of objects with
//   `name` (string), `unit` (string), `value` (number), optional `range` and `extra` (strings);
// - Bencher Metric Format (bencher.dev, "BMF"): { benchmark: { measure: { value, lower_value?, upper_value? } } }
//   with numbers, lower ≤ value ≤ upper;
// - JUnit XML (the Ant/Surefire schema most CI tools read): testsuites > testsuite > testcase,
//   counts that match, <failure> for a failing case, <skipped> for one not run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareResults } from '../web/core/report/compare.ts';
import { comparisonMarkdown, toBmf, toGithubActionBenchmark, toGithubActionBenchmarkOps, toJunit } from '../web/core/report/ci-formats.ts';
import type { ResultDocument } from '../web/core/schema.ts';
import { sampleDocument } from '../web/core/test/fixtures.ts';

const steady = (center: number) => Array.from({ length: 20 }, (_, i) => center * (1 + ((i % 5) - 2) * 0.002));
/** Three cases: AES-GCM at 1 KiB, ChaCha at 1 KiB, AES-GCM at 64 B, with the given ns/op centres. */
function doc([a, b, c]: [number, number, number]): ResultDocument {
  const d = sampleDocument() as unknown as ResultDocument;
  const base = d.cases[0]!;
  d.params.sizes = [64, 1024];
  d.params.algorithms = ['aes-128-gcm', 'chacha20-poly1305'];
  d.cases = [
    { ...base, samples: steady(a) },
    { ...base, algorithm: 'chacha20-poly1305', samples: steady(b) },
    { ...base, sizeBytes: 64, samples: steady(c), unstable: true },
  ];
  return d;
}

describe('CI formats', () => {
  it('github-action-benchmark: the customBiggerIsBetter array, one entry per case, MB/s', () => {
    const out = JSON.parse(JSON.stringify(toGithubActionBenchmark(doc([1000, 500, 100]))));
    expect(Array.isArray(out)).toBe(true);
    expect(out).toHaveLength(3);
    for (const e of out) {
      expect(Object.keys(e).every((k) => ['name', 'unit', 'value', 'range', 'extra'].includes(k))).toBe(true);
      expect(e).toMatchObject({
        name: expect.any(String),
        unit: 'MB/s',
        value: expect.any(Number),
        range: expect.stringMatching(/^±[\d.]+$/),
        extra: expect.any(String),
      });
    }
    expect(new Set(out.map((e: { name: string }) => e.name)).size).toBe(3); // names key the history
    expect(out[0].value).toBeCloseTo(1024, 0); // 1 KiB in 1000 ns = 1024 MB/s
    expect(out[2].extra).toContain('not resolved');
  });

  it('github-action-benchmark-ops: the customSmallerIsBetter array, one entry per counted case, its exact operations per message', () => {
    const d = doc([1000, 500, 100]);
    d.cases = d.cases.map((c, i) => (i < 2 ? { ...c, ops: { perMessage: 100_000 + i, perByte: (100_000 + i) / c.sizeBytes, perCall: 208 } } : c));
    const out = JSON.parse(JSON.stringify(toGithubActionBenchmarkOps(d)));
    expect(out).toHaveLength(2); // the uncounted case has no entry
    for (const e of out) {
      expect(Object.keys(e).every((k) => ['name', 'unit', 'value', 'range', 'extra'].includes(k))).toBe(true);
      expect(e).toMatchObject({ name: expect.any(String), unit: 'WASM ops/message', value: expect.any(Number), extra: expect.stringContaining('exact') });
    }
    expect(out.map((e: { value: number }) => e.value)).toEqual([100_000, 100_001]);
    // The same names as the throughput chart's, so the two charts line up case by case.
    expect(out.map((e: { name: string }) => e.name)).toEqual(
      toGithubActionBenchmark(d)
        .slice(0, 2)
        .map((e) => e.name),
    );
  });

  it('Bencher Metric Format: throughput and latency per case, each value inside its bounds', () => {
    const out = toBmf(doc([1000, 500, 100]));
    expect(Object.keys(out)).toHaveLength(3);
    for (const measures of Object.values(out)) {
      expect(Object.keys(measures).sort()).toEqual(['latency', 'throughput']);
      for (const m of Object.values(measures)) {
        for (const v of Object.values(m)) expect(typeof v).toBe('number');
        expect(m.lower_value!).toBeLessThanOrEqual(m.value);
        expect(m.upper_value!).toBeGreaterThanOrEqual(m.value);
      }
    }
    expect(out['aes-128-gcm rustcrypto-wasm/simd128 encrypt 1 KiB']!.latency!.value).toBeCloseTo(1000, 0);
  });

  it('JUnit: one test case per comparison, SLOWER a failure, UNKNOWN skipped, names escaped', () => {
    const a = doc([1000, 1000, 1000]);
    const b = doc([1000, 1200, 1000]);
    b.cases[2]!.samples = Array.from({ length: 20 }, (_, i) => 1000 * (i % 2 ? 0.9 : 1.1)); // wide: undecided
    const r = compareResults(a, b);
    expect(r.cases.map((c) => c.verdict)).toEqual(['same', 'slower', 'unknown']);
    const x = toJunit(r, 'A & B <suite>');
    expect(x.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="3" failures="1" skipped="1">')).toBe(true);
    expect(x).toContain('<testsuite name="A &amp; B &lt;suite&gt;" tests="3" failures="1" errors="0" skipped="1">');
    expect(x.match(/<testcase /g)).toHaveLength(3);
    expect(x.match(/<failure message="SLOWER: [^"]*" type="slower"\/>/g)).toHaveLength(1);
    expect(x.match(/<skipped message="UNKNOWN: [^"]*"\/>/g)).toHaveLength(1);
    // Well formed: every tag that opens closes, and nothing unescaped sits in an attribute.
    expect(x.match(/<testcase\b/g)!.length).toBe(x.match(/<\/testcase>/g)!.length);
    for (const attr of x.matchAll(/="([^"]*)"/g)) expect(attr[1]).not.toMatch(/[<>]|&(?!amp;|lt;|gt;|quot;)/);
  });

  it('Markdown for the job summary puts what regressed first', () => {
    const md = comparisonMarkdown(compareResults(doc([1000, 1000, 1000]), doc([1000, 1200, 1000])));
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| case'));
    expect(rows[0]).toContain('| SLOWER |');
    expect(md).toContain('**1 slower**');
  });
});

describe('the CLI writes them', () => {
  it('compare --junit writes the XML, appends to $GITHUB_STEP_SUMMARY, and exits 1 on a slowdown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-ci-'));
    writeFileSync(join(dir, 'a.json'), JSON.stringify(doc([1000, 1000, 1000])));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(doc([1000, 1200, 1000])));
    writeFileSync(join(dir, 'summary.md'), '# earlier step\n');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'cli/main.ts', 'compare', join(dir, 'a.json'), join(dir, 'b.json'), '--junit', join(dir, 'junit.xml')],
      {
        encoding: 'utf8',
        env: { ...process.env, GITHUB_STEP_SUMMARY: join(dir, 'summary.md') },
      },
    );
    expect(r.status, r.stderr).toBe(1);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('failures="1"');
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary.startsWith('# earlier step\n### aeadbench compare')).toBe(true);
  }, 60_000);

  it('compare --metric ops: the same counts exit 0 at exactly 0 %, 1 % more work exits 1 with a JUnit failure, results without counts exit 3', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aeadbench-ops-'));
    const counted = (perMessage: number) => {
      const d = doc([1000, 1000, 1000]);
      d.cases = d.cases.map((c) => ({ ...c, ops: { perMessage, perByte: perMessage / c.sizeBytes, perCall: 208 } }));
      return JSON.stringify(d);
    };
    writeFileSync(join(dir, 'a.json'), counted(100_000));
    writeFileSync(join(dir, 'same.json'), counted(100_000));
    writeFileSync(join(dir, 'more.json'), counted(101_000));
    writeFileSync(join(dir, 'none.json'), JSON.stringify(doc([1000, 1000, 1000])));
    const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'compare', ...args], { encoding: 'utf8' });
    const same = cli(join(dir, 'a.json'), join(dir, 'same.json'), '--metric', 'ops');
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toContain('+0.000 %');
    const more = cli(join(dir, 'a.json'), join(dir, 'more.json'), '--metric', 'ops', '--junit', join(dir, 'ops.xml'));
    expect(more.status, more.stderr).toBe(1);
    expect(more.stdout).toMatch(/\+1\.000 %\s+▲ MORE WORK/);
    expect(readFileSync(join(dir, 'ops.xml'), 'utf8')).toContain('type="more-work"');
    expect(cli(join(dir, 'a.json'), join(dir, 'more.json'), '--metric', 'ops', '--threshold', '2%').status).toBe(0);
    const none = cli(join(dir, 'a.json'), join(dir, 'none.json'), '--metric', 'ops');
    expect(none.status).toBe(3);
    expect(none.stderr).toContain('nothing to compare by counts');
    const bad = cli(join(dir, 'a.json'), join(dir, 'same.json'), '--metric', 'bytes');
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain("Invalid --metric: 'bytes' (expected time or ops)");
  }, 60_000);

  it('run --format bmf prints only the JSON on stdout, and names a bad format', () => {
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'node', '--format', 'xml'], { encoding: 'utf8' });
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain("Invalid --format: 'xml' (expected table, bmf, github-action-benchmark, github-action-benchmark-ops)");
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/main.ts',
        'run',
        '--browser',
        'node',
        '--algorithms',
        'ascon-aead128',
        '--implementations',
        'rustcrypto-wasm',
        '--sizes',
        '64',
        '--rounds',
        '1',
        '--format',
        'bmf',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const bmf = JSON.parse(r.stdout);
    expect(Object.keys(bmf).length).toBeGreaterThan(0);
    for (const m of Object.values(bmf) as { throughput: { value: number } }[]) expect(m.throughput.value).toBeGreaterThan(0);
    expect(r.stderr).toContain('Verdict:');
  }, 180_000);
});

describe('a matrix of engines in one command', () => {
  it('writes each engine its document and one summary, and names an engine that could not run (exit 3)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'aeadbench-matrix-')), 'out');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'cli/main.ts',
        'run',
        '--browser',
        'node,edge',
        '--out',
        out,
        '--algorithms',
        'ascon-aead128',
        '--implementations',
        'rustcrypto-wasm',
        '--sizes',
        '64',
        '--rounds',
        '1',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(3);
    const node = JSON.parse(readFileSync(join(out, 'node.json'), 'utf8')) as ResultDocument;
    expect(node.cases.length).toBeGreaterThan(0);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toContain('| case | node |');
    // Why depends on the host (no Edge here; where vitest runs before the site is built, no
    // site either): what matters is that the engine is named, with a reason.
    expect(summary).toMatch(/\*\*edge\*\*: did not run \(.{10,}\)/);
    expect(summary).toContain('| ascon-aead128 rustcrypto-wasm/simd128 encrypt 64 B |');
  }, 180_000);

  it('refuses several engines without --out, naming what it needs', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'run', '--browser', 'chromium,firefox'], { encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('several engines need --out DIR');
  }, 60_000);
});
