//! Benchmark loops that run entirely inside WebAssembly.
//!
//! One JS call times `iterations` operations: the key schedule, the buffers and (for opening)
//! the sealed message are prepared once in [`Bench::new`], and nothing crosses the JS↔WASM
//! boundary inside the loop. Every result is folded into a checksum that is returned, so the
//! optimiser cannot drop the work. Forged opens follow eBACS: the same sealed message with one
//! tag bit flipped, which must be rejected on every iteration.

use core::hint::black_box;

use crate::algorithm::with_keyed;
use crate::algorithm::{Algorithm, Keyed, MAX_TAG_BYTES, Seal, TagBuf};
use crate::error::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Encrypt,
    Decrypt,
    ForgedDecrypt,
}

impl Operation {
    pub const ALL: [Operation; 3] = [
        Operation::Encrypt,
        Operation::Decrypt,
        Operation::ForgedDecrypt,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            Operation::Encrypt => "encrypt",
            Operation::Decrypt => "decrypt",
            Operation::ForgedDecrypt => "forged-decrypt",
        }
    }

    pub fn from_id(id: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|op| op.id() == id)
            .ok_or_else(|| Error::UnknownOperation(id.to_owned()))
    }
}

/// Fixed, non-secret filler: a benchmark's key and data do not change a constant-time cipher's
/// speed, and a fixed pattern keeps runs reproducible.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// `len` bytes, or a typed error when the memory cannot hold them: a failed allocation in
/// WASM is an abort (`unreachable`), which would kill the worker instead of one case.
fn try_buffer(len: usize, seed: u8, payload: usize) -> Result<Vec<u8>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| Error::PayloadTooLarge {
            size_bytes: payload,
        })?;
    v.extend((0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)));
    Ok(v)
}

/// The most a bench may hold: wasm32's 4 GiB address space less room for everything else.
pub const MAX_BENCH_BYTES: usize = 3 << 30;

#[derive(Debug)]
pub struct Bench {
    algorithm: Algorithm,
    operation: Operation,
    keyed: Keyed,
    nonce: Vec<u8>,
    aad: Vec<u8>,
    /// Plaintext for `encrypt`, ciphertext (tag detached) for the opens.
    input: Vec<u8>,
    /// The valid tag, or for `forged-decrypt` the tag with its lowest bit flipped.
    tag: TagBuf,
    output: Vec<u8>,
}

impl Bench {
    pub fn new(
        algorithm: Algorithm,
        operation: Operation,
        size_bytes: usize,
        aad_bytes: usize,
    ) -> Result<Self, Error> {
        let keyed = algorithm.key(&pattern(algorithm.key_bytes(), 1))?;
        let nonce = pattern(algorithm.nonce_bytes(), 2);
        // A bench holds the payload about three times (input, output, a sealed copy): refuse
        // what cannot fit before touching memory, then allocate fallibly.
        if size_bytes
            .checked_mul(3)
            .and_then(|n| n.checked_add(aad_bytes))
            .is_none_or(|n| n > MAX_BENCH_BYTES)
        {
            return Err(Error::PayloadTooLarge { size_bytes });
        }
        let aad = try_buffer(aad_bytes, 3, size_bytes)?;
        let plaintext = try_buffer(size_bytes, 4, size_bytes)?;
        let ct_len = algorithm.ciphertext_len(size_bytes);
        let mut output = try_buffer(ct_len, 0, size_bytes)?;
        let (input, tag) = match operation {
            Operation::Encrypt => (plaintext, [0u8; MAX_TAG_BYTES]),
            Operation::Decrypt | Operation::ForgedDecrypt => {
                let tag = with_keyed!(&keyed, c => c.seal(&nonce, &aad, &plaintext, &mut output))?;
                let mut ciphertext = try_buffer(ct_len, 0, size_bytes)?;
                ciphertext.copy_from_slice(&output);
                let mut tag = tag;
                if operation == Operation::ForgedDecrypt {
                    tag[0] ^= 1;
                }
                (ciphertext, tag)
            }
        };
        Ok(Self {
            algorithm,
            operation,
            keyed,
            nonce,
            aad,
            input,
            tag,
            output,
        })
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Bytes this bench holds in linear memory (buffers, not the cipher state).
    pub fn buffer_bytes(&self) -> usize {
        self.input.len() + self.output.len() + self.aad.len() + self.nonce.len()
    }

    /// Runs `iterations` operations and returns a checksum of their results.
    pub fn run(&mut self, iterations: u32) -> Result<u32, Error> {
        let Bench {
            algorithm,
            operation,
            keyed,
            nonce,
            aad,
            input,
            tag,
            output,
        } = self;
        let tag = &tag[..algorithm.tag_bytes()];
        with_keyed!(&*keyed, c => run_loop(c, *operation, nonce, aad, input, tag, output, iterations))
    }
}

#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_loop<C: Seal>(
    cipher: &C,
    operation: Operation,
    nonce: &[u8],
    aad: &[u8],
    input: &[u8],
    tag: &[u8],
    output: &mut [u8],
    iterations: u32,
) -> Result<u32, Error> {
    let mut checksum: u32 = 0;
    match operation {
        Operation::Encrypt => {
            for _ in 0..iterations {
                let tag = cipher.seal(nonce, aad, black_box(input), output)?;
                checksum =
                    checksum.rotate_left(5) ^ u32::from_le_bytes([tag[0], tag[1], tag[2], tag[3]]);
            }
        }
        Operation::Decrypt => {
            for _ in 0..iterations {
                let len = cipher.open(nonce, aad, black_box(input), tag, output)?;
                let first = output.first().copied().unwrap_or(0);
                checksum = checksum.rotate_left(5) ^ (len as u32) ^ u32::from(first);
            }
        }
        Operation::ForgedDecrypt => {
            for _ in 0..iterations {
                match cipher.open(nonce, aad, black_box(input), tag, output) {
                    Err(Error::Authentication) => checksum = checksum.wrapping_add(1),
                    Ok(_) => return Err(Error::ForgeryAccepted),
                    Err(other) => return Err(other),
                }
            }
        }
    }
    Ok(black_box(checksum))
}

/// The raw block ciphers of the aes-candidates study, for single-block timing.
#[derive(Debug)]
pub enum BlockCipher {
    Aes128(aes::Aes128),
    Twofish128(twofish::Twofish),
    Serpent128(serpent::Serpent),
}

impl BlockCipher {
    pub const IDS: [&'static str; 3] = ["aes-128", "twofish-128", "serpent-128"];

    /// Keys one of `IDS` with a fixed 128-bit key.
    pub fn new(id: &str) -> Result<Self, Error> {
        use aes::cipher::KeyInit;
        let key = pattern(16, 1);
        let bad = |_| Error::KeyLength {
            expected: 16,
            actual: 16,
        };
        Ok(match id {
            "aes-128" => BlockCipher::Aes128(aes::Aes128::new_from_slice(&key).map_err(bad)?),
            "twofish-128" => {
                BlockCipher::Twofish128(twofish::Twofish::new_from_slice(&key).map_err(bad)?)
            }
            "serpent-128" => {
                BlockCipher::Serpent128(serpent::Serpent::new_from_slice(&key).map_err(bad)?)
            }
            other => return Err(Error::UnknownAlgorithm(other.to_owned())),
        })
    }

    pub fn state_bytes(&self) -> usize {
        match self {
            BlockCipher::Aes128(c) => core::mem::size_of_val(c),
            BlockCipher::Twofish128(c) => core::mem::size_of_val(c),
            BlockCipher::Serpent128(c) => core::mem::size_of_val(c),
        }
    }

    /// Encrypts one block `iterations` times, each output the next input: single-block calls,
    /// as a short message gets, with every result consumed. Returns a checksum.
    pub fn run(&self, iterations: u32) -> u32 {
        use aes::cipher::BlockCipherEncrypt;
        let mut block = aes::Block::default();
        for _ in 0..iterations {
            match self {
                BlockCipher::Aes128(c) => c.encrypt_block(&mut block),
                BlockCipher::Twofish128(c) => c.encrypt_block(&mut block),
                BlockCipher::Serpent128(c) => c.encrypt_block(&mut block),
            }
        }
        black_box(u32::from_le_bytes([block[0], block[1], block[2], block[3]]))
    }
}

/// Operations in the dependent chain of [`clock_chain`], per iteration.
pub const CLOCK_CHAIN_OPS: u32 = 16;

/// A dependent chain of `CLOCK_CHAIN_OPS` single-cycle integer operations per iteration, for
/// estimating the core's clock from time alone (the aead-vs-etm study reports cycles per byte).
///
/// Each link is `x = (x ^ y) + z` on 32-bit words: an xor and an add, each one cycle of latency
/// on every current x86 and ARM core, in order or out of order; the next link needs the
/// previous result, so nothing overlaps along the chain, while the loop counter runs beside it.
/// `y` and `z` are unknown to the compiler and xor-then-add has no closed form, so the chain
/// cannot be folded. 32-bit words keep it native on 32-bit ARM too.
pub fn clock_chain(iterations: u32, seed: u32) -> u32 {
    let mut x = seed;
    let y = black_box(seed.rotate_left(13) | 1);
    let z = black_box(seed.rotate_left(27) ^ 0x9E37_79B9);
    for _ in 0..iterations {
        // 8 links = 16 operations.
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
        x = (x ^ y).wrapping_add(z);
    }
    black_box(x)
}
