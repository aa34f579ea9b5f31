// The built .wasm (every variant) under Node: Wycheproof and RFC 7253, tamper rejection, agreement with
// node:crypto for the CBC+HMAC composition, no trap on random input, and the bench loops.
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromHex as hex, toHex } from '../implementations/validate.ts';
import { ALGORITHM_IDS } from '../tables/algorithms.ts';
import { type Cores, VARIANTS, loadCores, loadVectors } from './load-cores.ts';

const vectors = loadVectors();

/** The error the cores throw: a typed AeadError with a kind, never a WebAssembly trap. */
function errorOf(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw new Error(`trapped: ${e.message}`);
    return e as { kind: string; message: string };
  }
  throw new Error('expected an error, got a result');
}

/** RFC 7518 §5.2.2.1 composed from node:crypto (OpenSSL): the independent implementation. */
function nodeCbcHmac(keyBytes: number, key: Buffer, iv: Buffer, aad: Buffer, pt: Buffer): Buffer {
  const half = keyBytes / 2;
  const macKey = key.subarray(0, half);
  const encKey = key.subarray(half);
  const cipher = createCipheriv(half === 16 ? 'aes-128-cbc' : 'aes-256-cbc', encKey, iv);
  const ct = Buffer.concat([cipher.update(pt), cipher.final()]);
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length) * 8n);
  const tag = createHmac('sha256', macKey)
    .update(Buffer.concat([aad, iv, ct, al]))
    .digest()
    .subarray(0, 16);
  return Buffer.concat([ct, tag]);
}

describe.each(VARIANTS)('WASM cores, %s build', (variant) => {
  let cores: Cores;
  it('loads and reports its build', async () => {
    cores = await loadCores(variant);
    const info = JSON.parse(cores.buildInfo());
    expect(info.simd128).toBe(variant !== 'baseline');
    expect(info.target).toBe('wasm32');
    // Which AEGIS each build carries: the aegis crate in pure Rust, or its prebuilt libaegis.
    expect(info.backends.aegis).toBe(
      variant === 'libaegis-simd128'
        ? 'libaegis (C), prebuilt wasm32 SIMD'
        : variant === 'libaegis-relaxed-simd'
          ? 'libaegis (C), prebuilt wasm32 relaxed SIMD'
          : 'pure-rust (softaes, bitsliced)',
    );
    const table = JSON.parse(cores.algorithms()) as { id: string; stateBytes: number }[];
    expect(table.map((a) => a.id)).toEqual(ALGORITHM_IDS);
    for (const a of table) expect(a.stateBytes).toBeGreaterThan(0);
  });

  it(`passes all ${vectors.length} exported Wycheproof vectors`, () => {
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    for (const v of vectors) {
      counts[v.file] = (counts[v.file] ?? 0) + 1;
      const sealed = hex(v.ct + v.tag);
      const args = [v.algorithm, hex(v.key), hex(v.nonce), hex(v.aad)] as const;
      if (v.result === 'invalid') {
        try {
          cores.decrypt(...args, sealed);
          failures.push(`${v.file} #${v.tcId}: invalid vector accepted`);
        } catch (e) {
          if (e instanceof WebAssembly.RuntimeError) failures.push(`${v.file} #${v.tcId}: trap`);
        }
      } else {
        const pt = toHex(cores.decrypt(...args, sealed));
        if (pt !== v.msg) failures.push(`${v.file} #${v.tcId}: decrypt mismatch`);
        const ct = toHex(cores.encrypt(...args, hex(v.msg)));
        if (ct !== v.ct + v.tag) failures.push(`${v.file} #${v.tcId}: encrypt mismatch`);
      }
    }
    console.log(`[${variant}] wycheproof vectors per file:`, counts);
    expect(Object.keys(counts).sort()).toEqual([
      'a128cbc_hs256_test.json',
      'aegis128L_test.json',
      'aegis256_test.json',
      'aes_gcm_siv_test.json',
      'aes_gcm_test.json',
      'ascon_sp800_232_aead128_test.json',
      'chacha20_poly1305_test.json',
      'draft-irtf-cfrg-aegis-aead',
      'rfc7253',
      'xchacha20_poly1305_test.json',
    ]);
    expect(failures).toEqual([]);
  });

  it.each(ALGORITHM_IDS)('rejects a flipped bit in ciphertext, tag, AAD and nonce (%s)', (id) => {
    const table = JSON.parse(cores.algorithms()) as { id: string; keyBytes: number; nonceBytes: number; tagBytes: number }[];
    const a = table.find((t) => t.id === id)!;
    const key = randomBytes(a.keyBytes);
    const nonce = randomBytes(a.nonceBytes);
    const aad = randomBytes(13);
    const pt = randomBytes(100);
    const sealed = cores.encrypt(id, key, nonce, aad, pt);
    const flip = (b: Uint8Array, bit: number) => {
      const c = Uint8Array.from(b);
      c[bit >> 3]! ^= 1 << (bit & 7);
      return c;
    };
    const ctBits = (sealed.length - a.tagBytes) * 8;
    const cases: [string, () => unknown][] = [];
    for (const bit of [0, ctBits - 1, Math.floor(ctBits / 2)])
      cases.push([`ciphertext bit ${bit}`, () => cores.decrypt(id, key, nonce, aad, flip(sealed, bit))]);
    for (const bit of [0, 64, a.tagBytes * 8 - 1]) cases.push([`tag bit ${bit}`, () => cores.decrypt(id, key, nonce, aad, flip(sealed, ctBits + bit))]);
    for (const bit of [0, aad.length * 8 - 1]) cases.push([`aad bit ${bit}`, () => cores.decrypt(id, key, nonce, flip(aad, bit), sealed)]);
    for (const bit of [0, nonce.length * 8 - 1]) cases.push([`nonce bit ${bit}`, () => cores.decrypt(id, key, flip(nonce, bit), aad, sealed)]);
    for (const [what, f] of cases) expect(errorOf(f).kind, what).toBe('authentication-failed');
    expect(Buffer.from(cores.decrypt(id, key, nonce, aad, sealed))).toEqual(pt);
  });

  it.each([32, 64])('agrees with node:crypto AES-CBC + HMAC-SHA256 on random inputs (%i-byte key)', (keyBytes) => {
    const id = keyBytes === 32 ? 'aes-128-cbc-hmac-sha256' : 'aes-256-cbc-hmac-sha256';
    for (let i = 0; i < 200; i++) {
      const key = randomBytes(keyBytes);
      const iv = randomBytes(16);
      const aad = randomBytes(i % 37);
      const pt = randomBytes((i * 7919) % 1100);
      const ours = Buffer.from(cores.encrypt(id, key, iv, aad, pt));
      expect(ours.toString('hex')).toBe(nodeCbcHmac(keyBytes, key, iv, aad, pt).toString('hex'));
    }
  });

  it('never traps when decrypting random byte strings of random lengths', () => {
    const table = JSON.parse(cores.algorithms()) as { id: string; keyBytes: number; nonceBytes: number }[];
    for (let i = 0; i < 3000; i++) {
      const a = table[i % table.length]!;
      // Mostly well-formed key and nonce lengths, so the tag check itself is reached.
      const key = randomBytes(i % 5 === 0 ? i % 70 : a.keyBytes);
      const nonce = randomBytes(i % 7 === 0 ? i % 30 : a.nonceBytes);
      const e = errorOf(() => cores.decrypt(a.id, key, nonce, randomBytes(i % 40), randomBytes((i * 31) % 300)));
      expect(['authentication-failed', 'invalid-key-length', 'invalid-nonce-length', 'invalid-ciphertext-length']).toContain(e.kind);
    }
    // The module is still usable afterwards.
    expect(cores.encrypt('aes-128-gcm', new Uint8Array(16), new Uint8Array(12), new Uint8Array(), new Uint8Array(1))).toHaveLength(17);
  });

  it('names the bad value in typed errors', () => {
    expect(errorOf(() => cores.encrypt('aes-512-gcm', new Uint8Array(16), new Uint8Array(12), new Uint8Array(), new Uint8Array()))).toMatchObject({
      kind: 'unknown-algorithm',
      message: "unknown algorithm 'aes-512-gcm'",
    });
    expect(errorOf(() => cores.encrypt('aes-128-gcm', new Uint8Array(15), new Uint8Array(12), new Uint8Array(), new Uint8Array()))).toMatchObject({
      kind: 'invalid-key-length',
      message: 'key of 15 bytes, expected 16',
    });
    expect(errorOf(() => new cores.Bench('aes-128-gcm', 'seal', 64, 0))).toMatchObject({ kind: 'unknown-operation' });
  });

  it('refuses a payload the module cannot hold with a typed error naming the size, not a trap', () => {
    expect(errorOf(() => new cores.Bench('aes-128-gcm', 'encrypt', 2 ** 31, 0))).toMatchObject({
      kind: 'payload-too-large',
      message: expect.stringContaining('payload of 2147483648 bytes does not fit'),
    });
    // The module is still usable afterwards: nothing trapped.
    const b = new cores.Bench('aes-128-gcm', 'encrypt', 64, 0);
    expect(typeof b.run(3)).toBe('number');
    b.free();
  });

  it.each(ALGORITHM_IDS)('bench loops run inside WASM and every forged open fails (%s)', (id) => {
    const enc = new cores.Bench(id, 'encrypt', 1024, 16);
    expect(enc.run(10)).toBe(enc.run(10));
    const dec = new cores.Bench(id, 'decrypt', 1024, 16);
    expect(typeof dec.run(10)).toBe('number');
    const forged = new cores.Bench(id, 'forged-decrypt', 1024, 16);
    expect(forged.run(25)).toBe(25);
    expect(forged.stateBytes).toBeGreaterThan(0);
    expect(forged.bufferBytes).toBeGreaterThanOrEqual(2048);
    for (const b of [enc, dec, forged]) b.free();
  });
});
