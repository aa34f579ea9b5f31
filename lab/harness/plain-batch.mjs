// One case's batch in bench:modules' plain loop taking turns (plain-loop.mjs): a file of its own
// so that each case loads a fresh instance (`import(url + '?case=k')`), as the engine's loop.js
// is loaded per code path, and as a caller's loops are each their own code. One shared batch loop
// had every case's calls reach one call site, which no caller's code and no engine run has.

let sink = 0;

/** Calls `encrypt` `n` times on the case's inputs, every result consumed. */
export function batch(encrypt, [key, nonce, aad, pt], n) {
  for (let k = 0; k < n; k++) sink ^= encrypt(key, nonce, aad, pt)[0];
  return sink;
}
