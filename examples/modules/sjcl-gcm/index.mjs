// The Stanford JavaScript Crypto Library's GCM (bit arrays of 32-bit words) behind aeadbench's
// contract. `prepare` expands the AES key once per case; sjcl throws `corrupt` on a bad tag.
import sjcl from 'sjcl';

// sjcl's npm build has no sjcl.codec.bytes: these are its core/codecBytes.js, on typed arrays.
const bits = (u8) => {
  const out = [];
  let tmp = 0;
  let i = 0;
  for (; i < u8.length; i++) {
    tmp = (tmp << 8) | u8[i];
    if ((i & 3) === 3) {
      out.push(tmp);
      tmp = 0;
    }
  }
  if (i & 3) out.push(sjcl.bitArray.partial(8 * (i & 3), tmp));
  return out;
};
const bytes = (arr) => {
  const out = new Uint8Array(sjcl.bitArray.bitLength(arr) / 8);
  let tmp = 0;
  for (let i = 0; i < out.length; i++) {
    if ((i & 3) === 0) tmp = arr[i / 4];
    out[i] = tmp >>> 24;
    tmp <<= 8;
  }
  return out;
};

// sjcl itself accepts a zero-length nonce (Wycheproof aes_gcm #311), which SP 800-38D forbids
// and the gate refuses; this glue checks the length first, as aeadbench's built-ins do.
const twelve = (nonce) => {
  if (nonce.length !== 12) throw new Error(`nonce of ${nonce.length} bytes, expected 12`);
  return nonce;
};

export default {
  id: 'sjcl-gcm',
  label: 'SJCL AES-GCM',
  version: '1.0.9',
  url: 'https://github.com/bitwiseshiftleft/sjcl',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  prepare: (_alg, key) => new sjcl.cipher.aes(bits(key)),
  encrypt: (_alg, _key, nonce, aad, plaintext, aes) => bytes(sjcl.mode.gcm.encrypt(aes, bits(plaintext), bits(twelve(nonce)), bits(aad), 128)),
  decrypt: (_alg, _key, nonce, aad, sealed, aes) => bytes(sjcl.mode.gcm.decrypt(aes, bits(sealed), bits(twelve(nonce)), bits(aad), 128)),
};
