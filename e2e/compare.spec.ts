// The Compare view: two exported result files side by side, as `aeadbench compare` reads them.
import { writeFileSync } from 'node:fs';
import { expect, finished, test } from './fixtures.ts';

const RUN = '/?preset=quick&sizes=1k,16k&rounds=1&reruns=0&algorithms=aes-128-gcm,chacha20-poly1305&implementations=rustcrypto-wasm&autorun=1';

test('two exported results compare case by case, with intervals; a bad file is named', async ({ page, browserName }, info) => {
  const files: string[] = [];
  for (const name of ['a', 'b']) {
    await page.goto(RUN);
    await finished(page);
    const path = info.outputPath(`${name}.json`);
    if (browserName === 'chromium') {
      // The Export JSON button's own file.
      const download = page.waitForEvent('download');
      await page.getByTestId('export-json').click();
      await (await download).saveAs(path);
    } else {
      // Playwright sees no downloads over Firefox's BiDi: the same document, as the export writes it.
      writeFileSync(path, await page.evaluate(() => JSON.stringify(window.aeadbench!.result, null, 2)));
    }
    files.push(path);
  }
  const cases = (await page.evaluate(() => window.aeadbench!.result!.cases.length)) as number;
  await page.getByTestId('nav-compare').click();
  await page.getByTestId('compare-file-a').setInputFiles(files[0]!);
  await page.getByTestId('compare-file-b').setInputFiles(files[1]!);
  await expect(page.getByTestId('compare-summary')).toContainText(`${cases} cases compared`);
  await expect(page.getByTestId('compare-table').locator('tbody tr')).toHaveCount(cases);
  await expect(page.getByTestId('compare-table')).toContainText(/\d\.\d\d× \[\d\.\d\d–\d\.\d\d\]/);
  // This page's own run can stand in for either side.
  await page.getByTestId('compare-current-b').click();
  await expect(page.getByTestId('compare-summary')).toContainText(`${cases} cases compared`);
  // A file that is not a result is refused, naming it.
  const bad = info.outputPath('bad.json');
  writeFileSync(bad, JSON.stringify({ schema: 'something-else' }));
  await page.getByTestId('compare-file-a').setInputFiles(bad);
  await expect(page.getByTestId('compare-error')).toContainText('bad.json is not an aeadbench result');
});
