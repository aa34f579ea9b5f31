// A run's samples across passes (run/samples.ts): what the runner's rounds, extra rounds, live
// view and cancel read.
import { describe, expect, it } from 'vitest';
import { RunSamples } from '../run/samples.ts';
import type { MeasuredCase } from '../worker/api.ts';

const m = (key: string, samples: number[], firstCycle: number, iterations = 100): MeasuredCase => ({
  key,
  samples,
  cycles: samples.map((_, i) => firstCycle + i),
  iterations,
  interruptions: 1,
  stateBytes: null,
});

describe('RunSamples', () => {
  it("appends each pass's samples and cycles, counts the extra rounds, and keeps the largest batch a pass timed", () => {
    const s = new RunSamples();
    s.absorb([m('a', [1, 2], 0), m('b', [5], 0, 7)], false);
    s.absorb([m('a', [3], 1_000_000, 999)], true);
    expect(s.finished('a')).toMatchObject({ samples: [1, 2, 3], cycles: [0, 1, 1_000_000], interruptions: 2, reruns: 1, iterations: 999 });
    expect(s.finished('b')).toMatchObject({ samples: [5], reruns: 0 });
    expect(s.iterations).toEqual({ a: 999, b: 7 });
    // A pass that reports a smaller batch (a worker given none: a case first measured there) does not shrink it.
    s.absorb([m('a', [4], 2_000_000, 100), m('b', [6], 2_000_000, 7)], true);
    expect(s.iterations).toEqual({ a: 999, b: 7 });
    expect(s.finished('a')!.iterations).toBe(999);
  });

  it('shows a case finished in the pass under way beside the finished passes, until the pass is absorbed', () => {
    const s = new RunSamples();
    s.absorb([m('a', [1], 0)], false);
    s.finishedNow(m('a', [2], 1_000_000));
    s.finishedNow(m('c', [9], 1_000_000));
    expect(s.sofar('a')!.samples).toEqual([1, 2]);
    expect(s.sofar('c')).toMatchObject({ samples: [9], reruns: 0 });
    expect(s.finished('a')!.samples).toEqual([1]);
    expect(s.finished('c')).toBeUndefined();
    s.absorb([m('a', [2], 1_000_000)], true);
    expect(s.sofar('a')!.samples).toEqual([1, 2]); // counted once, not twice
    expect(s.sofar('c')).toBeUndefined(); // the pass that had it was absorbed without it
  });
});
