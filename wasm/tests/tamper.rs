//! Flipping any single bit of ciphertext, tag, AAD or nonce must make decryption fail, for
//! every algorithm. Positions are sampled (first, last and random bits) in every region.

mod support;

use aeadbench_cores::algorithm::{decrypt, encrypt};
use aeadbench_cores::{Algorithm, Error};
use support::TestRng;

/// Bit positions to flip in a region of `len` bytes: the first and last bit and some at random.
fn positions(rng: &mut TestRng, len: usize) -> Vec<usize> {
    let bits = len * 8;
    let mut p = vec![0, bits - 1];
    p.extend((0..6).map(|_| rng.below(bits)));
    p
}

fn flip(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[bit / 8] ^= 1 << (bit % 8);
    out
}

#[test]
fn rejects_any_flipped_bit_in_ciphertext_tag_aad_or_nonce() {
    let mut rng = TestRng::new(0xAEAD);
    let mut checked = 0;
    for alg in Algorithm::ALL {
        for pt_len in [1usize, 15, 16, 17, 64, 1000] {
            let key = rng.bytes(alg.key_bytes());
            let nonce = rng.bytes(alg.nonce_bytes());
            let aad_len = 1 + rng.below(40);
            let aad = rng.bytes(aad_len);
            let pt = rng.bytes(pt_len);
            let sealed = encrypt(alg, &key, &nonce, &aad, &pt).unwrap();
            assert_eq!(decrypt(alg, &key, &nonce, &aad, &sealed).unwrap(), pt);
            let ct_len = sealed.len() - alg.tag_bytes();
            let regions: [(&str, usize, usize); 2] =
                [("ciphertext", 0, ct_len), ("tag", ct_len, alg.tag_bytes())];
            for (region, start, len) in regions {
                for bit in positions(&mut rng, len) {
                    let forged = flip(&sealed, start * 8 + bit);
                    assert_eq!(
                        decrypt(alg, &key, &nonce, &aad, &forged),
                        Err(Error::Authentication),
                        "{} accepted a flipped {region} bit {bit} (plaintext {pt_len} B)",
                        alg.id()
                    );
                    checked += 1;
                }
            }
            for bit in positions(&mut rng, aad.len()) {
                assert_eq!(
                    decrypt(alg, &key, &nonce, &flip(&aad, bit), &sealed),
                    Err(Error::Authentication),
                    "{} aad bit {bit}",
                    alg.id()
                );
                checked += 1;
            }
            for bit in positions(&mut rng, nonce.len()) {
                assert_eq!(
                    decrypt(alg, &key, &flip(&nonce, bit), &aad, &sealed),
                    Err(Error::Authentication),
                    "{} nonce bit {bit}",
                    alg.id()
                );
                checked += 1;
            }
        }
    }
    println!("tamper: {checked} single-bit forgeries rejected");
}

#[test]
fn an_empty_aad_gaining_a_byte_is_rejected() {
    for alg in Algorithm::ALL {
        let key = vec![7u8; alg.key_bytes()];
        let nonce = vec![9u8; alg.nonce_bytes()];
        let sealed = encrypt(alg, &key, &nonce, b"", b"hello").unwrap();
        assert_eq!(
            decrypt(alg, &key, &nonce, b"\0", &sealed),
            Err(Error::Authentication),
            "{}",
            alg.id()
        );
    }
}
