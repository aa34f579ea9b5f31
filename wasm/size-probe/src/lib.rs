//! How many bytes of WebAssembly one algorithm adds: `AEADBENCH_PROBE=<id>` at build time
//! keeps that algorithm's one-shot seal and open alive and nothing else; without it, the
//! module holds only what every probe shares (allocator, vectors, panic path). Built and
//! compared by `scripts/code-size.ts`, with the release profile the shipped modules use.

use aeadbench_cores::algorithm::{Algorithm, decrypt, encrypt};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The algorithm named at build time, resolved at compile time so that the optimiser can drop
/// every other arm of the cores' dispatch.
const PROBED: Option<Algorithm> = match option_env!("AEADBENCH_PROBE") {
    None => None,
    Some(id) => {
        let mut i = 0;
        loop {
            if i == Algorithm::ALL.len() {
                panic!("AEADBENCH_PROBE names no algorithm of the table");
            }
            if same(Algorithm::ALL[i].id(), id) {
                break Some(Algorithm::ALL[i]);
            }
            i += 1;
        }
    }
};

/// Seals and opens `len` bytes (a use the optimiser cannot remove); returns a length.
#[unsafe(no_mangle)]
pub extern "C" fn probe(len: usize) -> usize {
    let buf = vec![7u8; len.max(64)];
    match PROBED {
        None => buf.iter().map(|&b| b as usize).sum(),
        Some(a) => {
            let (key, nonce) = (&buf[..a.key_bytes()], &buf[..a.nonce_bytes()]);
            let sealed = encrypt(a, key, nonce, &buf[..len], &buf[..len]).unwrap_or_default();
            sealed.len() + decrypt(a, key, nonce, &buf[..len], &sealed).map_or(0, |p| p.len())
        }
    }
}
