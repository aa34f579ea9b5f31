import { describe, expect, it } from 'vitest';
import { crossoverBytes, fitCostModel } from '../report/costmodel.ts';

const line = (fixedNs: number, perByteNs: number, sizes: number[]) => sizes.map((sizeBytes) => ({ sizeBytes, ns: fixedNs + perByteNs * sizeBytes }));
const SIZES = [8, 16, 32, 64, 1024, 16384, 1 << 20];

describe('cost model T(n) = C_fixed + n·C_byte', () => {
  it('recovers the parameters of an exact line', () => {
    const m = fitCostModel(line(200, 1.5, SIZES));
    expect(m.fixedNs).toBeCloseTo(200, 6);
    expect(m.perByteNs).toBeCloseTo(1.5, 9);
    expect(m.r2).toBeCloseTo(1, 12);
  });

  it('keeps the fixed cost right when the large sizes are noisy (relative weighting)', () => {
    // ±2 % noise, alternating, on every point: an unweighted fit would lose C_fixed entirely.
    const noisy = line(300, 2, SIZES).map((p, i) => ({ ...p, ns: p.ns * (i % 2 ? 1.02 : 0.98) }));
    const m = fitCostModel(noisy);
    expect(m.fixedNs).toBeGreaterThan(270);
    expect(m.fixedNs).toBeLessThan(330);
    expect(m.perByteNs).toBeCloseTo(2, 1);
    expect(m.r2).toBeGreaterThan(0.99);
  });

  it('finds where two lines cross, and says none when they do not in range', () => {
    const cheapStart = fitCostModel(line(100, 2, SIZES)); // small fixed cost, slow per byte
    const cheapBytes = fitCostModel(line(1000, 0.5, SIZES)); // large fixed cost, fast per byte
    expect(crossoverBytes(cheapStart, cheapBytes, 8, 1 << 20)).toBeCloseTo(600, 3); // (1000 − 100)/(2 − 0.5)
    expect(crossoverBytes(cheapStart, cheapBytes, 8, 512)).toBeNull();
    const parallel = fitCostModel(line(500, 2, SIZES));
    expect(crossoverBytes(cheapStart, parallel, 8, 1 << 20)).toBeNull();
  });

  it('refuses too little data, naming it', () => {
    expect(() => fitCostModel([{ sizeBytes: 8, ns: 10 }])).toThrow('at least 2 sizes, got 1');
  });
});
