//! The one error type of the cores: every failure is a value, never a panic or a trap.

use core::fmt;

/// Why an operation was refused. `kind()` is a stable kebab-case code for callers in JS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The algorithm id is not one of [`crate::algorithm::Algorithm::ALL`].
    UnknownAlgorithm(String),
    /// The operation id is not `encrypt`, `decrypt` or `forged-decrypt`.
    UnknownOperation(String),
    KeyLength {
        expected: usize,
        actual: usize,
    },
    NonceLength {
        expected: usize,
        actual: usize,
    },
    /// Shorter than the tag, or (CBC) not a whole number of blocks.
    CiphertextLength {
        actual: usize,
    },
    /// The tag did not verify. Deliberately says nothing more (no padding oracle).
    Authentication,
    /// A forged ciphertext was accepted: the bench loop refuses to report a time for it.
    ForgeryAccepted,
    /// The AEAD refused the message length (e.g. beyond GCM's 2^36 − 32 bytes).
    MessageLength {
        actual: usize,
    },
    /// A bench's buffers for this payload do not fit in the module's memory.
    PayloadTooLarge {
        size_bytes: usize,
    },
}

impl Error {
    pub fn kind(&self) -> &'static str {
        match self {
            Error::UnknownAlgorithm(_) => "unknown-algorithm",
            Error::UnknownOperation(_) => "unknown-operation",
            Error::KeyLength { .. } => "invalid-key-length",
            Error::NonceLength { .. } => "invalid-nonce-length",
            Error::CiphertextLength { .. } => "invalid-ciphertext-length",
            Error::Authentication => "authentication-failed",
            Error::ForgeryAccepted => "forgery-accepted",
            Error::MessageLength { .. } => "invalid-message-length",
            Error::PayloadTooLarge { .. } => "payload-too-large",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownAlgorithm(id) => write!(f, "unknown algorithm '{id}'"),
            Error::UnknownOperation(id) => write!(
                f,
                "unknown operation '{id}' (expected encrypt, decrypt or forged-decrypt)"
            ),
            Error::KeyLength { expected, actual } => {
                write!(f, "key of {actual} bytes, expected {expected}")
            }
            Error::NonceLength { expected, actual } => {
                write!(f, "nonce of {actual} bytes, expected {expected}")
            }
            Error::CiphertextLength { actual } => {
                write!(
                    f,
                    "ciphertext of {actual} bytes is malformed for this algorithm"
                )
            }
            Error::Authentication => write!(f, "authentication failed"),
            Error::ForgeryAccepted => write!(f, "a forged ciphertext was accepted"),
            Error::MessageLength { actual } => {
                write!(f, "message of {actual} bytes is refused by this algorithm")
            }
            Error::PayloadTooLarge { size_bytes } => {
                write!(
                    f,
                    "payload of {size_bytes} bytes does not fit in this module's memory (a bench holds it about three times)"
                )
            }
        }
    }
}

impl std::error::Error for Error {}
