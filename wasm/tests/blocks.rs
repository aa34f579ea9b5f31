//! The block ciphers under `twofish-128-gcm` and `serpent-128-gcm` match their crates' own
//! known-answer vectors (Twofish's iterated KAT from its reference; Serpent's NESSIE set), and
//! GCM over them is a different cipher from AES-GCM on the same inputs.

use aeadbench_cores::Algorithm;
use aeadbench_cores::algorithm::{decrypt, encrypt};
use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, array::Array};

// Serpent-128 NESSIE vectors (tests/data/serpent128.blb, from the serpent crate's test data).
cipher::block_cipher_test!(serpent128, serpent::Serpent);

/// Twofish 128-bit iterated test of the Twofish reference (the twofish crate's own KAT):
/// key and plaintext start at zero; each step's ciphertext becomes the next plaintext and the
/// previous plaintext the next key.
#[test]
fn twofish_128_matches_its_known_answers() {
    let expected = [
        (1, "9F589F5CF6122C32B6BFEC2F2AE8C35A"),
        (2, "D491DB16E7B1C39E86CB086B789F5419"),
        (3, "019F9809DE1711858FAAC3A3BA20FBC3"),
        (4, "6363977DE839486297E661C6C9D668EB"),
        (5, "816D5BD0FAE35342BF2A7412C246F752"),
        (48, "6B459286F3FFD28D49F15B1581B08E42"),
    ];
    let mut key = [0u8; 16];
    let mut plain: Array<u8, _> = Array::default();
    for i in 1..50 {
        let tf = twofish::Twofish::new_from_slice(&key).unwrap();
        let mut buf = plain;
        tf.encrypt_block(&mut buf);
        let ct = buf;
        tf.decrypt_block(&mut buf);
        assert_eq!(buf, plain, "decrypt undoes encrypt at step {i}");
        if let Some((_, hex)) = expected.iter().find(|(n, _)| *n == i) {
            let got: String = ct.iter().map(|b| format!("{b:02X}")).collect();
            assert_eq!(&got, hex, "step {i}");
        }
        key.copy_from_slice(&plain);
        plain = ct;
    }
}

#[test]
fn gcm_over_twofish_and_serpent_differs_from_aes_gcm_and_round_trips() {
    let key = [7u8; 16];
    let nonce = [9u8; 12];
    let pt = b"the same message, three ciphers";
    let outputs: Vec<Vec<u8>> = [
        Algorithm::Aes128Gcm,
        Algorithm::Twofish128Gcm,
        Algorithm::Serpent128Gcm,
    ]
    .into_iter()
    .map(|a| {
        let ct = encrypt(a, &key, &nonce, b"aad", pt).unwrap();
        assert_eq!(decrypt(a, &key, &nonce, b"aad", &ct).unwrap(), pt);
        ct
    })
    .collect();
    assert_ne!(outputs[0], outputs[1]);
    assert_ne!(outputs[0], outputs[2]);
    assert_ne!(outputs[1], outputs[2]);
}
