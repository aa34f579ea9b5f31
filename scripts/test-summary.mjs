// Adds up the suites' own reports into one closing line: "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const total = { passed: 0, failed: 0, skipped: 0 };
const add = (name, p, f, s) => {
  total.passed += p;
  total.failed += f;
  total.skipped += s;
  console.log(`  ${name.padEnd(8)} ${p} passed, ${f} failed, ${s} skipped`);
};
const skipReasons = new Map();
/** Every failed test by name, with its error's first line: CI keeps only the log's tail. */
const failures = [];
const failed = (suite, name, message) =>
  failures.push(
    `${suite} ${name}: ${String(message ?? '')
      .replace(/\x1b\[[0-9;]*m/g, '')
      .trim()
      .split('\n')[0]
      .slice(0, 300)}`,
  );
const skipped = (suite, why) => skipReasons.set(`${suite} ${why}`, (skipReasons.get(`${suite} ${why}`) ?? 0) + 1);
/** Vitest's JSON names a skipped test but not why: the test's own name is the reason we give. */
const vitestSkips = (suite, v) => {
  for (const file of v.testResults ?? []) {
    const where = file.name.replace(/^.*?\/(?=(web|e2e|collector|scripts|cli)\/)/, '');
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'skipped' || a.status === 'pending' || a.status === 'todo') skipped(suite, `${a.fullName ?? a.title} (${where})`);
      if (a.status === 'failed') failed(suite, `${a.fullName ?? a.title} (${where})`, a.failureMessages?.[0]);
    }
    // A file that failed to load has no tests to name.
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) failed(suite, where, file.message);
  }
};
const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null);

const statics = read('static.txt');
if (statics) {
  const lines = statics.trim().split('\n').filter(Boolean);
  for (const l of lines.filter((x) => x.startsWith('failed '))) failed('static', l.slice(7), 'see its output above');
  add('static', lines.filter((x) => x.startsWith('passed ')).length, lines.filter((x) => x.startsWith('failed ')).length, 0);
}

const cargo = read('cargo.txt');
if (cargo) {
  let p = 0,
    f = 0,
    s = 0;
  for (const m of cargo.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
    p += +m[1];
    f += +m[2];
    s += +m[3];
  }
  add('cargo', p, f, s);
}
// Vitest's runs: the unit tests (the measuring ones alone after them), WebKit over WebDriver, the benchmarks' smoke runs.
for (const [name, file] of [
  ['vitest', 'vitest.json'],
  ['webkit', 'webkit.json'],
  ['bench', 'bench.json'],
]) {
  const text = read(file);
  if (!text) continue;
  const v = JSON.parse(text);
  add(name, v.numPassedTests, v.numFailedTests, v.numPendingTests + v.numTodoTests);
  vitestSkips(name, v);
}
// Playwright's two passes: the behaviour checks, two at a time, and the @timing tests alone.
for (const [name, file] of [
  ['e2e', 'e2e.json'],
  ['e2e-time', 'e2e-timing.json'],
]) {
  const e2e = read(file);
  if (!e2e) continue;
  const report = JSON.parse(e2e);
  const s = report.stats;
  add(name, s.expected + s.flaky, s.unexpected, s.skipped);
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'skipped') {
          const note = [...(t.annotations ?? []), ...(t.results ?? []).flatMap((r) => r.annotations ?? [])].find(
            (a) => a.type === 'skip' || a.type === 'fixme',
          );
          skipped(name, `${t.projectName}: ${note?.description || 'no reason given'}`);
        } else if (t.status === 'unexpected' || t.status === 'flaky') {
          const last = (t.results ?? []).at(-1);
          failed(
            name,
            `${t.projectName} ${spec.file ?? ''} › ${spec.title}${t.status === 'flaky' ? ' (passed on retry)' : ''}`,
            last?.error?.message ?? last?.status,
          );
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
for (const f of failures) console.log(`  FAILED  ${f}`);
// No skip is silent: each one's reason, counted, under the closing line.
for (const [why, n] of skipReasons) console.log(`  skipped ${String(n).padStart(3)} × ${why}`);
