import { startWebKit } from './cli/webkit.ts';
import { serveStatic } from './scripts/serve.ts';
const server = await serveStatic({ dir: 'dist', port: 0, host: '127.0.0.1' });
const port = (server.address() as any).port;
const t = performance.now();
const s = await startWebKit();
console.log('started in', performance.now() - t, 'version', s.browserVersion);
await s.driver.get(`http://127.0.0.1:${port}/?preset=quick&sizes=64&rounds=1&reruns=0&algorithms=aes-128-gcm&autorun=1`);
for (let i = 0; i < 120; i++) {
  const st = await s.driver.executeScript('return window.aeadbench && window.aeadbench.status');
  if (st === 'done' || st === 'error') { console.log('status', st); break; }
  await new Promise((r) => setTimeout(r, 500));
}
const env = await s.driver.executeScript('return window.aeadbench.result && window.aeadbench.result.environment');
console.log(JSON.stringify(env).slice(0, 600));
console.log(await s.driver.executeScript('return navigator.userAgent'));
await s.close(); server.close();
