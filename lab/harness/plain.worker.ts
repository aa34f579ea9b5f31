/**
 * bench:modules' plain loop in a browser worker (plain-loop.mjs): a module of yours imported by
 * its URL on this site, or noble. The Node twin is lab/bench/plain-loop.worker.mjs.
 */
import { plainLoop, type PlainSpec } from './plain-loop.mjs';

self.onmessage = async (e: MessageEvent<PlainSpec>) => {
  try {
    self.postMessage(await plainLoop(e.data, async (url) => (await import(/* @vite-ignore */ url)).default));
  } catch (err) {
    self.postMessage({ error: (err as Error).message });
  }
};
