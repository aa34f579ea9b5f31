/**
 * Multi-core scaling: the same case on 1 … N workers at once. Each worker warms up and takes
 * its samples while the others run; the aggregate throughput is the sum of the workers'
 * median throughputs, and the efficiency is aggregate(k) / (k × aggregate(1)). A server scales
 * almost linearly until it runs out of cores; a phone's big.LITTLE cores, thermal limits and
 * shared caches bend the curve early.
 * @module
 */
import type { AlgorithmId, ImplementationId, Operation } from '../tables/algorithms.ts';
import { type RunParams } from '../schema.ts';
import { median } from '../stats.ts';
import { type WorkerApi, caseKey } from '../worker/api.ts';
import { connect } from '../worker/rpc.ts';
import type { WorkerHandle } from '../worker/rpc.ts';

export interface ScalingCase {
  algorithm: AlgorithmId;
  implementation: ImplementationId;
  operation: Operation;
  sizeBytes: number;
}

export interface ScalingPoint {
  workers: number;
  /** Sum over workers of size / median time per operation. */
  aggregateBytesPerSecond: number;
  perWorkerBytesPerSecond: number[];
  /** aggregate(k) / (k × aggregate(1)). */
  efficiency: number;
}

export async function measureScaling(
  c: ScalingCase,
  o: { createWorker: () => WorkerHandle; params: RunParams; maxWorkers: number; samples?: number; minSampleMs?: number; onPoint?: (p: ScalingPoint) => void },
): Promise<ScalingPoint[]> {
  const points: ScalingPoint[] = [];
  for (let k = 1; k <= o.maxWorkers; k++) {
    const handles = Array.from({ length: k }, () => o.createWorker());
    try {
      const remotes = handles.map((h) => connect<WorkerApi>(h));
      const infos = await Promise.all(remotes.map((r) => r.init({ ...o.params, implementations: [c.implementation], estimateClock: false })));
      const variant = infos[0]!.available.find((a) => a.implementation === c.implementation && a.algorithms.includes(c.algorithm))?.variant;
      if (!variant) throw new Error(`${c.implementation} does not offer ${c.algorithm} here`);
      const planned = { ...c, variant, aadBytes: 0 };
      const results = await Promise.all(
        remotes.map((r) => r.measure([{ ...planned, key: caseKey(planned) }], { samples: o.samples ?? 7, minSampleMs: o.minSampleMs ?? 20, iterations: {} })),
      );
      const perWorker = results.map((r) => (c.sizeBytes * 1e9) / median(r[0]!.samples));
      const aggregate = perWorker.reduce((a, b) => a + b, 0);
      const point = {
        workers: k,
        aggregateBytesPerSecond: aggregate,
        perWorkerBytesPerSecond: perWorker,
        efficiency: points.length ? aggregate / (k * points[0]!.aggregateBytesPerSecond) : 1,
      };
      points.push(point);
      o.onPoint?.(point);
    } finally {
      for (const h of handles) h.terminate();
    }
  }
  return points;
}
