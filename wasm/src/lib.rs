//! # aeadbench-cores
//!
//! RustCrypto AEADs behind one small wasm-bindgen surface, for measuring them in browsers and
//! Node. This file is the surface only; the algorithm table is in [`algorithm`], the
//! Encrypt-then-MAC composition in [`cbc_hmac`] and the in-WASM loops in [`bench`].
//!
//! No cipher is implemented here: every primitive comes from a RustCrypto crate.
#![doc = include_str!("../README.md")]

pub mod algorithm;
pub mod bench;
pub mod cbc_hmac;
pub mod error;
// The WASM builds' allocator (wasm/heap): an arena, so that a run never grows the memory.
#[cfg(feature = "js")]
use aeadbench_heap as _;

// The JS surface is a feature (on by default) so that a build without it (the per-algorithm
// code-size probes in `size-probe/`) keeps nothing but what one algorithm needs.
#[cfg(feature = "js")]
use wasm_bindgen::prelude::*;

pub use algorithm::Algorithm;
pub use bench::Operation;
pub use error::Error;

/// The error thrown to JS: `kind` is a stable code (`authentication-failed`,
/// `invalid-key-length`, …), `message` says what was wrong and with which value.
#[cfg_attr(feature = "js", wasm_bindgen)]
#[derive(Debug)]
pub struct AeadError {
    kind: &'static str,
    message: String,
}

#[cfg_attr(feature = "js", wasm_bindgen)]
impl AeadError {
    #[cfg_attr(feature = "js", wasm_bindgen(getter))]
    pub fn kind(&self) -> String {
        self.kind.to_owned()
    }

    #[cfg_attr(feature = "js", wasm_bindgen(getter))]
    pub fn message(&self) -> String {
        self.message.clone()
    }

    #[cfg_attr(feature = "js", wasm_bindgen(js_name = toString))]
    pub fn to_js_string(&self) -> String {
        format!("AeadError({}): {}", self.kind, self.message)
    }
}

impl From<Error> for AeadError {
    fn from(e: Error) -> Self {
        AeadError {
            kind: e.kind(),
            message: e.to_string(),
        }
    }
}

/// Encrypts and returns ciphertext ‖ tag.
#[cfg_attr(feature = "js", wasm_bindgen)]
pub fn encrypt(
    algorithm: &str,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    plaintext: &[u8],
) -> Result<Vec<u8>, AeadError> {
    Ok(algorithm::encrypt(
        Algorithm::from_id(algorithm)?,
        key,
        nonce,
        aad,
        plaintext,
    )?)
}

/// Verifies and decrypts ciphertext ‖ tag; returns the plaintext.
#[cfg_attr(feature = "js", wasm_bindgen)]
pub fn decrypt(
    algorithm: &str,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, AeadError> {
    Ok(algorithm::decrypt(
        Algorithm::from_id(algorithm)?,
        key,
        nonce,
        aad,
        sealed,
    )?)
}

/// The algorithm table as JSON: id, crate, key/nonce/tag bytes, keyed state bytes.
#[cfg_attr(feature = "js", wasm_bindgen)]
pub fn algorithms() -> String {
    let rows: Vec<String> = Algorithm::ALL
        .iter()
        .map(|a| {
            format!(
                r#"{{"id":"{}","crate":"{}","keyBytes":{},"nonceBytes":{},"tagBytes":{},"stateBytes":{},"paddingBlockBytes":{}}}"#,
                a.id(),
                a.crate_name(),
                a.key_bytes(),
                a.nonce_bytes(),
                a.tag_bytes(),
                a.state_bytes(),
                if a.ciphertext_len(0) == 0 { 0 } else { 16 },
            )
        })
        .collect();
    format!("[{}]", rows.join(","))
}

/// How this module was compiled: target features and the backend each crate selected, derived
/// from the same cfgs the crates read (see each crate's backend selection).
#[cfg_attr(feature = "js", wasm_bindgen(js_name = buildInfo))]
pub fn build_info() -> String {
    let simd128 = cfg!(target_feature = "simd128");
    let wasm = cfg!(target_arch = "wasm32");
    let aes = if cfg!(aes_backend = "soft") || wasm {
        if cfg!(aes_backend_soft = "compact") {
            "soft-compact"
        } else if cfg!(cpubits = "32") {
            "soft-fixslice32"
        } else {
            "soft-fixslice64"
        }
    } else {
        "cpu-detected (AES-NI/VAES or ARMv8 AES, soft fallback)"
    };
    let polyval = if cfg!(polyval_backend = "soft") || wasm {
        if cfg!(cpubits = "32") {
            "soft-mul32"
        } else {
            "soft-mul64"
        }
    } else {
        "cpu-detected (CLMUL/PMULL, soft fallback)"
    };
    let chacha20 = if cfg!(chacha20_backend = "soft") || wasm {
        "soft"
    } else {
        "cpu-detected (SSE2/AVX2/NEON)"
    };
    let poly1305 = if cfg!(poly1305_backend = "soft") || wasm {
        "soft"
    } else {
        "cpu-detected (AVX2, soft fallback)"
    };
    let sha2 = if cfg!(sha2_backend = "soft") {
        "soft"
    } else if wasm && simd128 {
        "wasm32-simd128"
    } else if wasm {
        "soft"
    } else {
        "cpu-detected (SHA-NI/ARMv8 SHA2, soft fallback)"
    };
    // The aegis crate's own switch (its build.rs): pure Rust (AES-NI/ARMv8 when compiled for
    // them, else softaes's constant-time bitsliced round), or libaegis in C, prebuilt for wasm32
    // (a vector-permute AES round in SIMD) or built by cc.
    let aegis = if cfg!(feature = "aegis-pure-rust") {
        if cfg!(any(
            all(target_arch = "x86_64", target_feature = "aes"),
            all(target_arch = "aarch64", target_feature = "aes")
        )) {
            "pure-rust (AES instructions)"
        } else {
            "pure-rust (softaes, bitsliced)"
        }
    } else if wasm && cfg!(feature = "aegis-relaxed-simd") {
        "libaegis (C), prebuilt wasm32 relaxed SIMD"
    } else if wasm {
        "libaegis (C), prebuilt wasm32 SIMD"
    } else {
        "libaegis (C), built by cc, CPU-detected"
    };
    format!(
        r#"{{"crate":"{}","version":"{}","target":"{}","simd128":{},"backends":{{"aes":"{}","polyval":"{}","chacha20":"{}","poly1305":"{}","sha2":"{}","ascon":"portable","aegis":"{}"}}}}"#,
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
        if wasm {
            "wasm32"
        } else {
            std::env::consts::ARCH
        },
        simd128,
        aes,
        polyval,
        chacha20,
        poly1305,
        sha2,
        aegis,
    )
}

/// A prepared benchmark case whose `run` times operations inside WASM.
#[cfg_attr(feature = "js", wasm_bindgen(js_name = Bench))]
#[derive(Debug)]
pub struct WasmBench(bench::Bench);

#[cfg_attr(feature = "js", wasm_bindgen(js_class = Bench))]
impl WasmBench {
    /// Keys the cipher and fills the buffers once: `operation` is `encrypt`, `decrypt` or
    /// `forged-decrypt`.
    #[cfg_attr(feature = "js", wasm_bindgen(constructor))]
    pub fn new(
        algorithm: &str,
        operation: &str,
        size_bytes: u32,
        aad_bytes: u32,
    ) -> Result<WasmBench, AeadError> {
        let algorithm = Algorithm::from_id(algorithm)?;
        let operation = Operation::from_id(operation)?;
        Ok(WasmBench(bench::Bench::new(
            algorithm,
            operation,
            size_bytes as usize,
            aad_bytes as usize,
        )?))
    }

    /// Runs `iterations` operations; returns a checksum of their results.
    pub fn run(&mut self, iterations: u32) -> Result<u32, AeadError> {
        Ok(self.0.run(iterations)?)
    }

    #[cfg_attr(feature = "js", wasm_bindgen(getter, js_name = bufferBytes))]
    pub fn buffer_bytes(&self) -> u32 {
        self.0.buffer_bytes() as u32
    }

    #[cfg_attr(feature = "js", wasm_bindgen(getter, js_name = stateBytes))]
    pub fn state_bytes(&self) -> u32 {
        self.0.algorithm().state_bytes() as u32
    }
}

/// A raw block cipher (`aes-128`, `twofish-128`, `serpent-128`) timed one block per call.
#[cfg_attr(feature = "js", wasm_bindgen(js_name = BlockBench))]
#[derive(Debug)]
pub struct WasmBlockBench(bench::BlockCipher);

#[cfg_attr(feature = "js", wasm_bindgen(js_class = BlockBench))]
impl WasmBlockBench {
    #[cfg_attr(feature = "js", wasm_bindgen(constructor))]
    pub fn new(cipher: &str) -> Result<WasmBlockBench, AeadError> {
        Ok(WasmBlockBench(bench::BlockCipher::new(cipher)?))
    }

    /// Encrypts `iterations` single blocks; returns a checksum.
    pub fn run(&self, iterations: u32) -> u32 {
        self.0.run(iterations)
    }

    #[cfg_attr(feature = "js", wasm_bindgen(getter, js_name = stateBytes))]
    pub fn state_bytes(&self) -> u32 {
        self.0.state_bytes() as u32
    }
}

/// Runs `iterations` × `CLOCK_CHAIN_OPS` dependent single-cycle operations (see
/// `bench::clock_chain`); time it to estimate the clock. Returns a value to consume.
#[cfg_attr(feature = "js", wasm_bindgen(js_name = clockChain))]
pub fn clock_chain(iterations: u32, seed: u32) -> u32 {
    bench::clock_chain(iterations, seed)
}

/// Bytes the allocator's arena holds (wasm/heap): cases whose buffers fit in it never grow the
/// memory. The engine reads it to tell, before a run, whether the run will outgrow it.
#[cfg(feature = "js")]
#[wasm_bindgen(js_name = arenaBytes)]
pub fn arena_bytes() -> usize {
    aeadbench_heap::ARENA_BYTES
}

/// Dependent single-cycle operations per iteration of `clockChain`.
#[cfg_attr(feature = "js", wasm_bindgen(js_name = clockChainOps))]
pub fn clock_chain_ops() -> u32 {
    bench::CLOCK_CHAIN_OPS
}
