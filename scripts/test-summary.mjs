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
const read = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null);

const cargo = read('cargo.txt');
if (cargo) {
  let p = 0, f = 0, s = 0;
  for (const m of cargo.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
    p += +m[1]; f += +m[2]; s += +m[3];
  }
  add('cargo', p, f, s);
}
const vitest = read('vitest.json');
if (vitest) {
  const v = JSON.parse(vitest);
  add('vitest', v.numPassedTests, v.numFailedTests, v.numPendingTests + v.numTodoTests);
}
const webkit = read('webkit.json');
if (webkit) {
  const v = JSON.parse(webkit);
  add('webkit', v.numPassedTests, v.numFailedTests, v.numPendingTests + v.numTodoTests);
}
const e2e = read('e2e.json');
if (e2e) {
  const s = JSON.parse(e2e).stats;
  add('e2e', s.expected + s.flaky, s.unexpected, s.skipped);
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
