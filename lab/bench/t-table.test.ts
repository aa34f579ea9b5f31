// The product's table of t quantiles (web/core/tables/t-quantiles.ts) is jStat's, as the lab's
// generator writes it: a table typed by hand, or left stale, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { source, table } from './t-table.ts';

describe('the t quantiles the product reads', () => {
  it('are what lab/bench/t-table.ts writes now', () => {
    expect(readFileSync('web/core/tables/t-quantiles.ts', 'utf8')).toBe(source());
  });

  it('hold the familiar values: 12.706, 2.262 and 1.960 for one comparison; wider for sixteen', () => {
    const { t, z } = table();
    expect([t[0]![0], t[0]![8], z[0]]).toEqual([12.707, 2.263, 1.96]);
    expect(t[4]![8]).toBeCloseTo(3.997, 3);
  });
});
