// The timing loops of a module of the contract (contract.ts): the one place its calls are made
// while the clock runs. Plain JavaScript with no imports, because contract.ts loads a fresh
// instance of this file for every code path it times (implementation, algorithm, operation:
// `import(loopUrl + '?loop=k')`), as a caller's own loop is its own code. Engines keep what
// they learn of a call site (its targets, its argument shapes, the optimised code inlining
// them) per function of a module instance; one shared copy of these loops had every case's
// calls reach every other case's call sites, in the order cases first ran (an A/B's base
// before its head). Types: loop.d.ts.

let sink = 0;

/**
 * The loop of an implementation whose calls answer synchronously: a fresh operation per
 * iteration, every result consumed, every forged open required to fail.
 */
export function syncLoop(impl, alg, { key, nonce, aad, pt }, state, operation, sealed, forged) {
  if (operation === 'encrypt')
    return (n) => {
      for (let i = 0; i < n; i++) sink ^= impl.encrypt(alg, key, nonce, aad, pt, state)[0] ?? 0;
    };
  if (operation === 'decrypt')
    return (n) => {
      for (let i = 0; i < n; i++) sink ^= impl.decrypt(alg, key, nonce, aad, sealed, state).byteLength;
    };
  return (n) => {
    for (let i = 0; i < n; i++) {
      try {
        impl.decrypt(alg, key, nonce, aad, forged, state);
      } catch {
        sink++;
        continue;
      }
      throw new Error('a forged ciphertext was accepted');
    }
  };
}

/**
 * The same for an implementation that answers with promises: each call awaited, as a caller's
 * await loop does. An answer may be an ArrayBuffer (crypto.subtle's): `[0]` reads undefined and
 * `byteLength` reads either.
 */
export function asyncLoop(impl, alg, { key, nonce, aad, pt }, state, operation, sealed, forged) {
  if (operation === 'encrypt')
    return async (n) => {
      for (let i = 0; i < n; i++) sink ^= (await impl.encrypt(alg, key, nonce, aad, pt, state))[0] ?? 0;
    };
  if (operation === 'decrypt')
    return async (n) => {
      for (let i = 0; i < n; i++) sink ^= (await impl.decrypt(alg, key, nonce, aad, sealed, state)).byteLength;
    };
  return async (n) => {
    for (let i = 0; i < n; i++) {
      try {
        await impl.decrypt(alg, key, nonce, aad, forged, state);
      } catch {
        sink++;
        continue;
      }
      throw new Error('a forged ciphertext was accepted');
    }
  };
}

/** Every result folded into one number, read once outside the timing so no engine may drop the work. */
export const folded = () => sink;
