// The clock estimate against this machine's own idea of its clock.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimateClock } from '../clock.ts';
import { loadCores } from './load-cores.ts';

/** The base clock Linux reports (in a VM: the nominal clock the hypervisor passes through). */
function cpuinfoGHz(): number {
  const m = /cpu MHz\s*:\s*([\d.]+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
  if (!m) throw new Error('/proc/cpuinfo has no "cpu MHz" line on this machine');
  return Number(m[1]) / 1000;
}

describe('clock estimate', () => {
  it('agrees with the host clock within the boost range', async () => {
    const cores = await loadCores('simd128');
    // Up to three tries: on this shared 2-core machine a parallel test file can take the core
    // away mid-estimate, and the estimate then (rightly) calls itself untrustworthy.
    let est = await estimateClock((n, seed) => cores.clockChain(n, seed), cores.clockChainOps());
    for (let i = 0; i < 2 && !est.trustworthy; i++) est = await estimateClock((n, seed) => cores.clockChain(n, seed), cores.clockChainOps());
    const base = cpuinfoGHz();
    console.log(`clock: estimated ${est.ghz.toFixed(3)} GHz (spread ${(est.spread * 100).toFixed(1)} %), /proc/cpuinfo ${base.toFixed(3)} GHz, ratio ${(est.ghz / base).toFixed(2)}`);
    // Tolerance [0.9, 1.5] × the reported clock, because /proc/cpuinfo (in this VM, always)
    // gives the base clock while a busy core runs at boost: current x86 server and desktop
    // parts boost to at most about 1.45× base (EPYC 2.6 → 3.7 GHz). Below 0.9× would mean the
    // chain takes more cycles than it should. On this machine the same chain compiled natively
    // gave 3.57 GHz against 3.53 in WASM: WASM adds about 1 % to it.
    expect(est.ghz / base).toBeGreaterThan(0.9);
    expect(est.ghz / base).toBeLessThan(1.5);
    expect(est.trustworthy).toBe(true);
  });

  it('is not fooled by one stray sample', async () => {
    let t = 0;
    let call = 0;
    // A 3 GHz core (16 operations per iteration) where every 9th run takes twice as long.
    const chain = (n: number) => ((t += ((n * 16) / 3e6) * (call++ % 9 === 8 ? 2 : 1)), 0);
    const est = await estimateClock(chain, 16, { now: () => t });
    expect(est.ghz).toBeCloseTo(3, 6);
    expect(est.trustworthy).toBe(true);
  });

  it('reports a noisy clock as untrustworthy', async () => {
    let t = 0;
    let call = 0;
    // A fake chain whose duration jumps ±30 % between calls: a throttling or shared core.
    const chain = (n: number) => ((t += (n / 1e6) * (call++ % 2 ? 1.3 : 0.7)), 0);
    const est = await estimateClock(chain, 16, { now: () => t });
    expect(est.trustworthy).toBe(false);
    expect(est.spread).toBeGreaterThan(0.05);
  });
});
