// The closing lines of `npm test`: CI keeps only a log's tail, so every failed test is named there.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const summary = (reports: Record<string, unknown>) => {
  const dir = mkdtempSync(join(tmpdir(), 'aeadbench-summary-'));
  for (const [file, body] of Object.entries(reports)) writeFileSync(join(dir, file), JSON.stringify(body));
  return execFileSync('node', ['scripts/test-summary.mjs', dir], { encoding: 'utf8' });
};

describe('test-summary', () => {
  it('names each failed test with the first line of its error: a vitest assertion, a file that did not load, an e2e test', () => {
    const out = summary({
      'vitest.json': {
        numPassedTests: 1,
        numFailedTests: 1,
        numPendingTests: 0,
        numTodoTests: 0,
        testResults: [
          {
            name: '/x/web/core/test/a.test.ts',
            status: 'failed',
            assertionResults: [
              { status: 'passed', fullName: 'fine' },
              { status: 'failed', fullName: 'a b', failureMessages: ['AssertionError: expected 1 to be 2\n    at here'] },
            ],
          },
          { name: '/x/web/core/test/b.test.ts', status: 'failed', message: 'SyntaxError: bad\nmore', assertionResults: [] },
        ],
      },
      'e2e.json': {
        stats: { expected: 1, flaky: 0, unexpected: 1, skipped: 0 },
        suites: [
          {
            title: 'run.spec.ts',
            specs: [
              {
                title: 'verdict in view',
                file: 'run.spec.ts',
                tests: [
                  {
                    projectName: 'chromium',
                    status: 'unexpected',
                    results: [{ status: 'failed', error: { message: '\u001b[31mError: toBeInViewport failed\u001b[39m\nCall log' } }],
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(out).toContain('tests: 2 passed, 2 failed, 0 skipped'); // the counts are the reports' own
    expect(out).toContain('  FAILED  vitest a b (web/core/test/a.test.ts): AssertionError: expected 1 to be 2\n');
    expect(out).toContain('  FAILED  vitest web/core/test/b.test.ts: SyntaxError: bad\n');
    expect(out).toContain('  FAILED  e2e chromium run.spec.ts › verdict in view: Error: toBeInViewport failed\n');
    expect(out).not.toContain('FAILED  vitest fine');
  });

  it("counts Playwright's second pass, the @timing tests run alone, and names its failures", () => {
    const spec = (status: string) => ({
      title: 'dense.spec.ts',
      specs: [{ title: 'staircases', file: 'dense.spec.ts', tests: [{ projectName: 'chromium', status, results: [{ error: { message: 'Error: flat' } }] }] }],
    });
    const out = summary({
      'e2e.json': { stats: { expected: 3, flaky: 0, unexpected: 0, skipped: 1 }, suites: [] },
      'e2e-timing.json': { stats: { expected: 0, flaky: 0, unexpected: 1, skipped: 2 }, suites: [spec('unexpected')] },
    });
    expect(out).toContain('tests: 3 passed, 1 failed, 3 skipped');
    expect(out).toContain('  e2e-time 0 passed, 1 failed, 2 skipped');
    expect(out).toContain('  FAILED  e2e-time chromium dense.spec.ts › staircases: Error: flat\n');
  });

  it('names no failure when every test passed', () => {
    const out = summary({
      'vitest.json': {
        numPassedTests: 2,
        numFailedTests: 0,
        numPendingTests: 0,
        numTodoTests: 0,
        testResults: [{ name: '/x/web/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed', fullName: 'x' }] }],
      },
    });
    expect(out).toContain('tests: 2 passed, 0 failed, 0 skipped');
    expect(out).not.toContain('FAILED');
  });
});
