// The dense preset (eBACS-style): every length from 1 to 2,048 bytes, algorithms interleaved,
// one warm-up per algorithm; drawn as time per operation against length, where the block
// staircases show. Run in Chromium only: it is the longest run of the suite. Its wall time is
// printed, not asserted: how long it takes is a property of the host, not of the code.
import type { CaseResult } from '../web/core/schema.ts';
import { expect, finished, test } from './fixtures.ts';

test.skip(({ browserName }) => browserName !== 'chromium', 'the dense preset runs once, in Chromium (the longest run of the suite)');

/** Mean over the first k blocks of time(n·B + 1) / time(n·B): crossing a block boundary, and time(n·B) / time(n·B − 1) inside one. */
function steps(cases: CaseResult[], algorithm: string, block: number, k = 8): { across: number; within: number } {
  const t = new Map(cases.filter((c) => c.algorithm === algorithm).map((c) => [c.sizeBytes, c.summary.median]));
  let across = 0;
  let within = 0;
  for (let n = 1; n <= k; n++) {
    across += t.get(n * block + 1)! / t.get(n * block)!;
    within += t.get(n * block)! / t.get(n * block - 1)!;
  }
  return { across: across / k, within: within / k };
}

test('a dense run measures every length to 2 KiB and shows the block staircases', async ({ page }) => {
  test.setTimeout(420_000);
  await page.goto('/?preset=dense&autorun=1');
  const state = await finished(page, 360_000);
  expect(state.status).toBe('done');
  const doc = state.result!;
  expect(doc.cases).toHaveLength(4 * 2048);
  console.log(`dense preset: ${doc.cases.length} cases in ${(doc.durationMs / 1000).toFixed(1)} s`);
  // ChaCha20's 64-byte blocks and AES's 16-byte ones: one byte past a block costs a block more.
  const chacha = steps(doc.cases, 'chacha20-poly1305', 64);
  expect(chacha.across, JSON.stringify(chacha)).toBeGreaterThan(chacha.within + 0.05);
  const aes = steps(doc.cases, 'aes-128-gcm', 16);
  expect(aes.across, JSON.stringify(aes)).toBeGreaterThan(aes.within + 0.1);
  // The page opens on the staircase, and offers no submission (the crowd collects the presets it compares).
  await expect(page.getByRole('tab', { name: 'Staircase' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('results').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('results-table').locator('tbody tr')).toHaveCount(300);
  await expect(page.getByTestId('show-all')).toContainText('Show all 8192 cases');
  await expect(page.getByTestId('submit-panel')).toHaveCount(0);
});
