// A result is only worth submitting if our own collector stores it: a Node run with default
// implementations and algorithms (node:crypto included) goes through submissionBody, as the CLI
// sends it, into a fresh collector on both stores. The browsers' runs are submitted the same way
// in e2e/crowd.spec.ts (Chromium, Firefox) and e2e/webkit (WebKit), with their default sets.
import { describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS } from '../../web/core/tables/algorithms.ts';
import { runBenchmark } from '../../web/core/node.ts';
import type { ResultDocument } from '../../web/core/schema.ts';
import { submissionBody } from '../../web/core/submit.ts';
import { BACKENDS, post, useBackend } from './helpers.ts';

let nodeRun: Promise<ResultDocument> | undefined;
/** One real run for both stores: the default implementations and algorithms at one small size. */
const defaultNodeRun = () => (nodeRun ??= runBenchmark({ preset: 'quick', sizes: [64], rounds: 1, samplesPerRound: 3, minSampleMs: 2, maxReruns: 0 }));

describe.each(BACKENDS)('a result from every runtime is accepted (%s)', (kind) => {
  let app!: Parameters<typeof post>[0];
  useBackend(kind, (_, a) => (app = a));

  it('stores a Node run with default implementations, node:crypto included', async () => {
    const doc = await defaultNodeRun();
    const implementations = new Set(doc.cases.map((c) => c.implementation));
    expect(implementations).toContain('node-crypto');
    expect(implementations).toContain('rustcrypto-wasm');
    // Every variant the run reports is one its table row lists; a library's version is in the environment.
    for (const c of doc.cases) expect(IMPLEMENTATIONS.find((i) => i.id === c.implementation)!.variants as readonly string[]).toContain(c.variant);
    expect(doc.environment.libraries?.openssl).toBe(process.versions.openssl);
    const r = await post(app, submissionBody(doc, { deviceClass: 'server' }));
    expect(r.status, await r.clone().text()).toBe(201);
  }, 180_000);
});
