// @stablelib/chacha20poly1305 behind aeadbench's contract. `prepare` keeps one keyed object per
// case, as its API intends; `open` answers null for an input that is not authentic.
import { ChaCha20Poly1305 } from '@stablelib/chacha20poly1305';

export default {
  id: 'stablelib-chacha20poly1305',
  label: '@stablelib/chacha20poly1305',
  version: '2.0.1',
  url: 'https://github.com/StableLib/stablelib',
  algorithms: ['chacha20-poly1305'],
  prepare: (_alg, key) => new ChaCha20Poly1305(key),
  encrypt: (_alg, _key, nonce, aad, plaintext, aead) => aead.seal(nonce, plaintext, aad),
  decrypt(_alg, _key, nonce, aad, sealed, aead) {
    const opened = aead.open(nonce, sealed, aad);
    if (!opened) throw new Error('authentication failed');
    return opened;
  },
};
