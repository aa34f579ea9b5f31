// What a WebKit run says when an optional piece is missing: the piece and its install line,
// before any process starts.
import { expect, it, vi } from 'vitest';

vi.mock('selenium-webdriver', () => {
  throw new Error("Cannot find package 'selenium-webdriver' imported from cli/webkit.ts");
});

it('names selenium-webdriver with its install line when it is missing, before Xvfb or the driver start', async () => {
  const { startWebKit } = await import('./webkit.ts');
  await expect(startWebKit({ executable: '/nonexistent/MiniBrowser' })).rejects.toThrow('need selenium-webdriver (npm install selenium-webdriver@4)');
});
