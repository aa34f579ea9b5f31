//! Bad input is a typed error naming the value, never a panic: wrong lengths, unknown ids, and
//! random byte strings of random lengths fed to decrypt.

mod support;

use aeadbench_cores::algorithm::{decrypt, encrypt};
use aeadbench_cores::bench::{Bench, Operation};
use aeadbench_cores::{Algorithm, Error};
use support::TestRng;

#[test]
fn wrong_key_and_nonce_lengths_are_typed_errors_naming_the_length() {
    for alg in Algorithm::ALL {
        let nonce = vec![0u8; alg.nonce_bytes()];
        let err = encrypt(alg, &[0u8; 5], &nonce, b"", b"x").unwrap_err();
        assert_eq!(
            err,
            Error::KeyLength {
                expected: alg.key_bytes(),
                actual: 5
            }
        );
        assert!(err.to_string().contains("key of 5 bytes"), "{err}");
        let key = vec![0u8; alg.key_bytes()];
        let err = encrypt(alg, &key, &[0u8; 3], b"", b"x").unwrap_err();
        assert_eq!(
            err,
            Error::NonceLength {
                expected: alg.nonce_bytes(),
                actual: 3
            }
        );
        assert_eq!(err.kind(), "invalid-nonce-length");
    }
}

#[test]
fn unknown_ids_are_named_in_the_error() {
    let err = Algorithm::from_id("aes-512-gcm").unwrap_err();
    assert_eq!(err.to_string(), "unknown algorithm 'aes-512-gcm'");
    let err = Operation::from_id("seal").unwrap_err();
    assert!(err.to_string().contains("'seal'"));
}

#[test]
fn a_sealed_message_shorter_than_the_tag_is_a_length_error() {
    for alg in Algorithm::ALL {
        let key = vec![0u8; alg.key_bytes()];
        let nonce = vec![0u8; alg.nonce_bytes()];
        assert_eq!(
            decrypt(alg, &key, &nonce, b"", &[0u8; 15]),
            Err(Error::CiphertextLength { actual: 15 })
        );
    }
}

#[test]
fn decrypting_random_byte_strings_never_panics_and_never_authenticates() {
    let mut rng = TestRng::new(42);
    let mut tried = 0;
    for alg in Algorithm::ALL {
        for _ in 0..2000 {
            // Mostly well-formed key and nonce lengths, so the tag check itself is exercised.
            let key = if rng.below(8) == 0 {
                rng.bytes_below(70)
            } else {
                rng.bytes(alg.key_bytes())
            };
            let nonce = if rng.below(8) == 0 {
                rng.bytes_below(30)
            } else {
                rng.bytes(alg.nonce_bytes())
            };
            let aad = rng.bytes_below(40);
            let sealed = rng.bytes_below(300);
            let result = decrypt(alg, &key, &nonce, &aad, &sealed);
            assert!(result.is_err(), "{} authenticated random bytes", alg.id());
            tried += 1;
        }
    }
    println!("fuzz: {tried} random decryptions rejected without a panic");
}

#[test]
fn bench_loops_return_checksums_and_forged_opens_always_fail() {
    for alg in Algorithm::ALL {
        for size in [0usize, 8, 1024] {
            let mut enc = Bench::new(alg, Operation::Encrypt, size, 16).unwrap();
            let a = enc.run(3).unwrap();
            let b = enc.run(3).unwrap();
            assert_eq!(a, b, "{} encrypt checksum must be deterministic", alg.id());
            let mut dec = Bench::new(alg, Operation::Decrypt, size, 16).unwrap();
            dec.run(3).unwrap();
            let mut forged = Bench::new(alg, Operation::ForgedDecrypt, size, 16).unwrap();
            assert_eq!(
                forged.run(5).unwrap(),
                5,
                "{}: every forged open must fail",
                alg.id()
            );
        }
    }
}

#[test]
fn state_sizes_are_reported_for_every_algorithm() {
    for alg in Algorithm::ALL {
        assert!(
            alg.state_bytes() >= alg.key_bytes().min(16),
            "{}: {}",
            alg.id(),
            alg.state_bytes()
        );
    }
}
