//! Every applicable Wycheproof vector: valid ones decrypt and re-encrypt exactly, invalid ones
//! are rejected. Counts per file are printed (`cargo test -- --nocapture` shows them).

mod support;

use aeadbench_cores::algorithm::{decrypt, encrypt};
use support::{FILES, load};

#[test]
fn every_applicable_wycheproof_vector_behaves() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, file) in FILES {
        let loaded = load(name, file);
        let (mut valid, mut invalid) = (0, 0);
        for v in &loaded.vectors {
            let mut sealed = v.ct.clone();
            sealed.extend_from_slice(&v.tag);
            let opened = decrypt(v.algorithm, &v.key, &v.nonce, &v.aad, &sealed);
            if v.must_fail {
                invalid += 1;
                if opened.is_ok() {
                    failures.push(format!("{file} tc {}: invalid vector accepted ({})", v.tc_id, v.comment));
                }
            } else {
                valid += 1;
                match opened {
                    Ok(pt) if pt == v.msg => {}
                    other => failures.push(format!("{file} tc {}: decrypt gave {other:?}", v.tc_id)),
                }
                match encrypt(v.algorithm, &v.key, &v.nonce, &v.aad, &v.msg) {
                    Ok(ct) if ct == sealed => {}
                    other => failures.push(format!("{file} tc {}: encrypt gave {other:?}", v.tc_id)),
                }
            }
        }
        println!(
            "wycheproof {file}: {valid} valid and {invalid} invalid vectors checked, {} not applicable",
            loaded.not_applicable
        );
        assert!(valid > 0 && invalid > 0, "{file}: expected both valid and invalid vectors");
        total += valid + invalid;
    }
    println!("wycheproof: {total} vectors checked");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
