//! Every applicable Wycheproof vector, and RFC 7253's OCB samples: valid ones decrypt and
//! re-encrypt exactly, invalid ones are rejected. Counts per file are printed (`cargo test --
//! --nocapture` shows them).

mod support;

use aeadbench_cores::Algorithm;
use aeadbench_cores::algorithm::{decrypt, encrypt};
use support::{rfc7253_iterated, rfc7253_iterated_input, sources};

#[test]
fn every_applicable_wycheproof_vector_behaves() {
    let mut failures = Vec::new();
    let mut total = 0;
    for loaded in sources() {
        let file = loaded.file;
        let (mut valid, mut invalid) = (0, 0);
        for v in &loaded.vectors {
            let mut sealed = v.ct.clone();
            sealed.extend_from_slice(&v.tag);
            let opened = decrypt(v.algorithm, &v.key, &v.nonce, &v.aad, &sealed);
            if v.must_fail {
                invalid += 1;
                if opened.is_ok() {
                    failures.push(format!(
                        "{file} tc {}: invalid vector accepted ({})",
                        v.tc_id, v.comment
                    ));
                }
            } else {
                valid += 1;
                match opened {
                    Ok(pt) if pt == v.msg => {}
                    other => {
                        failures.push(format!("{file} tc {}: decrypt gave {other:?}", v.tc_id))
                    }
                }
                match encrypt(v.algorithm, &v.key, &v.nonce, &v.aad, &v.msg) {
                    Ok(ct) if ct == sealed => {}
                    other => {
                        failures.push(format!("{file} tc {}: encrypt gave {other:?}", v.tc_id))
                    }
                }
            }
        }
        println!(
            "{file}: {valid} valid and {invalid} invalid vectors checked, {} not applicable",
            loaded.not_applicable
        );
        assert!(
            valid > 0 && invalid > 0,
            "{file}: expected both valid and invalid vectors"
        );
        total += valid + invalid;
    }
    println!("{total} vectors checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// RFC 7253 Appendix A's iterated test: 384 encryptions of growing zero strings under
/// K = zeros with the tag length in its last byte, authenticated by one final OCB tag.
#[test]
fn rfc7253_iterated_test_for_each_ocb3_id() {
    for algorithm in [Algorithm::Aes128Ocb3, Algorithm::Aes256Ocb3] {
        let (key, nonce, c) = rfc7253_iterated_input(algorithm);
        assert_eq!(c.len(), 22_400);
        let out = encrypt(algorithm, &key, &nonce, &c, &[]).unwrap();
        assert_eq!(out, rfc7253_iterated(algorithm), "{}", algorithm.id());
    }
}
