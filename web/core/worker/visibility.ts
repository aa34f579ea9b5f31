/**
 * What the worker knows of the page's visibility: the page reports each change, samples that
 * overlap a hidden period are discarded, and measuring waits while the page is hidden.
 * @module
 */
const epochNow = () => performance.timeOrigin + performance.now();

export function createVisibility() {
  // Hidden periods in epoch ms, reported by the page.
  const hidden: [number, number][] = [];
  let hiddenNow = false;
  let visibleWaiters: (() => void)[] = [];
  return {
    /** Whether the page was hidden at any time between two worker `performance.now()` readings. */
    wasHidden(from: number, to: number): boolean {
      const [a, b] = [performance.timeOrigin + from, performance.timeOrigin + to];
      return hiddenNow || hidden.some(([h0, h1]) => h0 <= b && h1 >= a);
    },
    waitUntilVisible: (): Promise<void> => (hiddenNow ? new Promise<void>((r) => visibleWaiters.push(r)) : Promise.resolve()),
    /** The page became hidden or visible at `atEpochMs`. */
    set(isHidden: boolean, atEpochMs: number): void {
      if (isHidden && !hiddenNow) {
        hiddenNow = true;
        hidden.push([atEpochMs, Infinity]);
      } else if (!isHidden && hiddenNow) {
        hiddenNow = false;
        const last = hidden[hidden.length - 1];
        if (last) last[1] = Math.max(atEpochMs, epochNow());
        const waiters = visibleWaiters;
        visibleWaiters = [];
        for (const w of waiters) w();
      }
    },
  };
}
