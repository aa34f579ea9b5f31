/**
 * The cost model of the lightweight-iot study: T(n) = C_fixed + n · C_byte, fitted to measured times per
 * operation, and the payload size where two algorithms' lines cross.
 *
 * Fitted by weighted least squares with weights 1/T²: payloads span six decades, and plain
 * least squares on absolute times lets the megabyte cases decide everything, leaving C_fixed
 * to chance. Weighting by 1/T² minimises relative error, so every size counts alike.
 * @module
 */

export interface CostModel {
  /** C_fixed, ns per operation. */
  fixedNs: number;
  /** C_byte, ns per byte. */
  perByteNs: number;
  /** Coefficient of determination of the weighted fit (1 = perfect). */
  r2: number;
  n: number;
}

export function fitCostModel(points: readonly { sizeBytes: number; ns: number }[]): CostModel {
  if (points.length < 2) throw new Error(`a cost model needs at least 2 sizes, got ${points.length}`);
  if (new Set(points.map((p) => p.sizeBytes)).size < 2) throw new Error('a cost model needs at least 2 distinct sizes');
  let sw = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const { sizeBytes: x, ns: y } of points) {
    if (!(y > 0)) throw new Error(`time ${y} ns is not positive`);
    const w = 1 / (y * y);
    sw += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  const det = sw * sxx - sx * sx;
  const perByteNs = (sw * sxy - sx * sy) / det;
  const fixedNs = (sy - perByteNs * sx) / sw;
  const meanY = sy / sw;
  let ssRes = 0,
    ssTot = 0;
  for (const { sizeBytes: x, ns: y } of points) {
    const w = 1 / (y * y);
    ssRes += w * (y - (fixedNs + perByteNs * x)) ** 2;
    ssTot += w * (y - meanY) ** 2;
  }
  return { fixedNs, perByteNs, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot, n: points.length };
}

/**
 * The payload size where `a` and `b` cost the same, if it lies in [minBytes, maxBytes]:
 * C_fixed,a + n·C_byte,a = C_fixed,b + n·C_byte,b. Below it the one with the smaller fixed cost
 * wins, above it the one with the smaller per-byte cost. Null when the lines do not cross in range.
 */
export function crossoverBytes(a: CostModel, b: CostModel, minBytes: number, maxBytes: number): number | null {
  const slope = a.perByteNs - b.perByteNs;
  if (slope === 0) return null;
  const n = (b.fixedNs - a.fixedNs) / slope;
  return n >= minBytes && n <= maxBytes ? n : null;
}
