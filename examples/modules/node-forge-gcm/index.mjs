// node-forge's AES-GCM (pure JavaScript, binary strings) behind aeadbench's contract.
// The key schedule is made once per case in `prepare`, as an application that keeps a cipher
// object would; every message restarts it with its own nonce and AAD.
import forge from 'node-forge';

// forge.util.binary.raw.encode spreads its argument into String.fromCharCode, which overflows
// the stack at 1 MiB: convert in chunks instead.
const str = (u8) => {
  let s = '';
  for (let i = 0; i < u8.length; i += 8192) s += String.fromCharCode.apply(null, u8.subarray(i, i + 8192));
  return s;
};
const bytes = (s) => forge.util.binary.raw.decode(s);

// node-forge itself accepts a zero-length nonce (Wycheproof aes_gcm #311), which SP 800-38D forbids
// and the gate refuses; this glue checks the length first, as aeadbench's built-ins do.
const twelve = (nonce) => {
  if (nonce.length !== 12) throw new Error(`nonce of ${nonce.length} bytes, expected 12`);
  return nonce;
};

export default {
  id: 'node-forge-gcm',
  label: 'node-forge AES-GCM',
  version: '1.4.3',
  url: 'https://github.com/digitalbazaar/forge',
  algorithms: ['aes-128-gcm', 'aes-256-gcm'],
  prepare: (_alg, key) => ({ enc: forge.cipher.createCipher('AES-GCM', str(key)), dec: forge.cipher.createDecipher('AES-GCM', str(key)) }),
  encrypt(_alg, _key, nonce, aad, plaintext, { enc }) {
    enc.start({ iv: str(twelve(nonce)), additionalData: str(aad), tagLength: 128 });
    enc.update(forge.util.createBuffer(str(plaintext)));
    enc.finish();
    return bytes(enc.output.getBytes() + enc.mode.tag.getBytes());
  },
  decrypt(_alg, _key, nonce, aad, sealed, { dec }) {
    if (sealed.length < 16) throw new Error('shorter than a tag');
    const tag = sealed.subarray(sealed.length - 16);
    dec.start({ iv: str(twelve(nonce)), additionalData: str(aad), tagLength: 128, tag: forge.util.createBuffer(str(tag)) });
    dec.update(forge.util.createBuffer(str(sealed.subarray(0, sealed.length - 16))));
    if (!dec.finish()) throw new Error('authentication failed');
    return bytes(dec.output.getBytes());
  },
};
