/**
 * The engine's turn of the event loop between samples (api.ts yieldNow), on its own so that a
 * loop written apart from the engine (lab/harness/bare.worker.ts `turn`) takes the same one.
 * @module
 */

/** A macrotask yield through a MessageChannel: lets queued messages in without a 4 ms clamp. */
export function makeYield(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(0);
    });
}
