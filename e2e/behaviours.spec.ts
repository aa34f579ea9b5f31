// Every behaviour of behaviours.ts in Chromium and Firefox (and Playwright's WebKit where it is
// installed), through the Playwright side of the driver port. The WebKit suite runs the same list
// in WebKitGTK over WebDriver.
import { BEHAVIOURS, type Expect } from './behaviours.ts';
import { playwrightDriver } from './driver/playwright.ts';
import { expect, test } from './fixtures.ts';

for (const b of BEHAVIOURS) {
  test(b.name, async ({ page, browserName }) => {
    test.skip(b.skipIn?.[browserName] !== undefined, b.skipIn?.[browserName]);
    test.setTimeout(b.timeoutMs);
    const d = playwrightDriver(page, browserName);
    try {
      await b.run(d, expect as unknown as Expect);
    } finally {
      await d.dispose();
    }
  });
}
