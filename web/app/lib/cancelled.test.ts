import { describe, expect, it } from 'vitest';
import { cancelledWords } from './cancelled.ts';

describe('a cancelled run', () => {
  it('promises rows below only when some finished, in the right number', () => {
    expect(cancelledWords(0)).toBe('Run cancelled before any case finished: there is nothing to show.');
    expect(cancelledWords(0)).not.toMatch(/kept below/);
    expect(cancelledWords(1)).toBe('Run cancelled. 1 case finished before it stopped and is kept below.');
    expect(cancelledWords(7)).toBe('Run cancelled. 7 cases finished before it stopped and are kept below.');
  });
});
