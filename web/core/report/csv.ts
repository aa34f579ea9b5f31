/** CSV export of a result document's cases: one row per case, summary figures in ns/op. */
import { implementationClass } from '../tables/algorithms.ts';
import type { ResultDocument } from '../schema.ts';

const COLUMNS = [
  'algorithm',
  'implementation',
  'variant',
  'implementationClass',
  'operation',
  'sizeBytes',
  'aadBytes',
  'bytesPerSecond',
  'usPerOp',
  'nsPerByte',
  'medianNs',
  'ciLowNs',
  'ciHighNs',
  'trimmedMeanNs',
  'meanNs',
  'sdNs',
  'cv',
  'samples',
  'iterationsPerSample',
  'overheadBytes',
  'stateBytes',
  'unstable',
  'unstableReasons',
  'modes',
  'reruns',
] as const;

/** "178000ns 60% | 356000ns 40%": each mode's center (ns per op) and share, for a cell. */
export const modesCell = (modes: { center: number; share: number }[] | null | undefined): string =>
  modes ? modes.map((m) => `${m.center.toFixed(0)}ns ${Math.round(m.share * 100)}%`).join(' | ') : '';

export function toCsv(doc: ResultDocument): string {
  const rows = doc.cases.map((c) =>
    [
      c.algorithm,
      c.implementation,
      c.variant,
      implementationClass(c.implementation, c.algorithm),
      c.operation,
      c.sizeBytes,
      c.aadBytes,
      c.bytesPerSecond.toFixed(0),
      c.usPerOp.toFixed(4),
      c.nsPerByte.toFixed(4),
      c.summary.median.toFixed(2),
      c.summary.ciLow.toFixed(2),
      c.summary.ciHigh.toFixed(2),
      c.summary.trimmedMean.toFixed(2),
      c.summary.mean.toFixed(2),
      c.summary.sd.toFixed(2),
      c.summary.cv.toFixed(4),
      c.samples.length,
      c.iterationsPerSample,
      c.overheadBytes,
      c.stateBytes ?? '',
      c.unstable,
      (c.unstableReasons ?? []).join(' '),
      modesCell(c.modes),
      c.reruns,
    ].join(','),
  );
  return [COLUMNS.join(','), ...rows].join('\n') + '\n';
}
