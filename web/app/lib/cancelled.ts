/** What a cancelled run kept, in words that never promise rows that are not there. */
export const cancelledWords = (n: number): string =>
  n === 0
    ? 'Run cancelled before any case finished: there is nothing to show.'
    : `Run cancelled. ${n} ${n === 1 ? 'case' : 'cases'} finished before it stopped and ${n === 1 ? 'is' : 'are'} kept below.`;
