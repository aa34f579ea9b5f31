/**
 * Writes web/core/tables/t-quantiles.ts: Student's t quantiles for a family of comparisons
 * (Bonferroni: each of m at 1 − 0.05 / (2m), two-sided), for m = 1, 2, 4 … 4096 and 1–30 degrees
 * of freedom, then the normal's. From jStat, here in the lab; the product reads the table only.
 * `npx tsx lab/bench/t-table.ts` (lab/bench/t-table.test.ts fails while the table is stale).
 * @module
 */
import { writeFileSync } from 'node:fs';
import jstat from 'jstat';

const { jStat } = jstat as unknown as { jStat: { studentt: { inv(p: number, df: number): number }; normal: { inv(p: number, m: number, s: number): number } } };

export const FAMILIES = Array.from({ length: 13 }, (_, k) => 2 ** k);
export const DFS = 30;

/** Three decimals, rounded up: an interval from the table is never narrower than the exact one. */
const up = (x: number) => Math.ceil(x * 1000 - 1e-9) / 1000;

export function table(): { t: number[][]; z: number[] } {
  return {
    t: FAMILIES.map((m) => Array.from({ length: DFS }, (_, i) => up(jStat.studentt.inv(1 - 0.025 / m, i + 1)))),
    z: FAMILIES.map((m) => up(jStat.normal.inv(1 - 0.025 / m, 0, 1))),
  };
}

export function source(): string {
  const { t, z } = table();
  return [
    '// Written by `npx tsx lab/bench/t-table.ts` (jStat): do not edit.',
    '/** Families of comparisons each row is for: m = 1, 2, 4 … 4096 (a family between two rows takes the larger). */',
    `export const T_FAMILIES = ${JSON.stringify(FAMILIES)};`,
    "/** Two-sided quantiles of Student's t at 1 − 0.05 / (2m), by family (row) and degrees of freedom 1–30 (column), rounded up. */",
    `export const T_QUANTILES: readonly (readonly number[])[] = ${JSON.stringify(t)};`,
    "/** The normal's, for more than 30 degrees of freedom. */",
    `export const Z_QUANTILES = ${JSON.stringify(z)};`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync('web/core/tables/t-quantiles.ts', source());
