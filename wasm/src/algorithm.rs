//! The algorithm table: one id per AEAD, the same kebab-case string in Rust, TypeScript, URLs,
//! JSON and the collector's database. Everything else (sizes, dispatch) derives from it.

use aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag, inout::InOutBuf};
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm, aead, aes};
use aes::cipher::consts::U12;
use aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use ascon_aead::AsconAead128;
use ocb3::Ocb3;
use chacha20poly1305::{ChaCha20Poly1305, XChaCha20Poly1305};

use crate::cbc_hmac::{self, CbcHmacSha256};
use crate::error::Error;

/// The longest tag of any id (AEGIS with a 256-bit tag); most have 16 bytes.
pub const MAX_TAG_BYTES: usize = 32;

/// A tag as the cores return it: the first [`Algorithm::tag_bytes`] bytes are the tag.
pub type TagBuf = [u8; MAX_TAG_BYTES];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// NIST SP 800-38D, 128-bit key, 96-bit nonce.
    Aes128Gcm,
    /// NIST SP 800-38D, 256-bit key, 96-bit nonce.
    Aes256Gcm,
    /// RFC 8439.
    ChaCha20Poly1305,
    /// draft-irtf-cfrg-xchacha: 192-bit nonce, safe to draw at random.
    XChaCha20Poly1305,
    /// NIST SP 800-232 Ascon-AEAD128.
    AsconAead128,
    /// RFC 7518 §5.2.3 A128CBC-HS256.
    Aes128CbcHmacSha256,
    /// RFC 7518 §5.2.2.1 with AES-256 and a 32-byte HMAC-SHA-256 key (seed 001's AES-256 case).
    Aes256CbcHmacSha256,
    /// The `aes-gcm` crate's GCM over the AES finalist Twofish (128-bit key), for seed 003.
    /// No standard: there are no test vectors, only round trips, tamper tests and the block
    /// cipher's own known answers.
    Twofish128Gcm,
    /// The same over Serpent (128-bit key).
    Serpent128Gcm,
    /// draft-irtf-cfrg-aegis-aead: 128-bit key, 128-bit nonce, 16-byte tag.
    Aegis128L,
    /// draft-irtf-cfrg-aegis-aead: 256-bit key, 256-bit nonce, 16-byte tag.
    Aegis256,
    /// RFC 8452, nonce-misuse resistant, 128-bit key.
    Aes128GcmSiv,
    /// RFC 8452, 256-bit key.
    Aes256GcmSiv,
    /// RFC 7253 OCB with AES-128, 96-bit nonce, 128-bit tag.
    Aes128Ocb3,
    /// RFC 7253 OCB with AES-256.
    Aes256Ocb3,
    /// AEGIS-128L with the draft's 256-bit tag (libsodium's only AEGIS tag length).
    Aegis128LTag256,
    /// AEGIS-256 with the 256-bit tag.
    Aegis256Tag256,
}

/// GCM as the `aes-gcm` crate builds it, over any 128-bit block cipher (NIST SP 800-38D §6).
pub type Twofish128Gcm = AesGcm<twofish::Twofish, U12>;
pub type Serpent128Gcm = AesGcm<serpent::Serpent, U12>;
/// AEGIS through the `aegis` crate's aead 0.6 adapter; 16-byte tags, as every id here.
pub type Aegis128L = aegis::compat::rustcrypto_traits_06::Aegis128L<16>;
pub type Aegis256 = aegis::compat::rustcrypto_traits_06::Aegis256<16>;
pub type Aegis128LTag256 = aegis::compat::rustcrypto_traits_06::Aegis128L<32>;
pub type Aegis256Tag256 = aegis::compat::rustcrypto_traits_06::Aegis256<32>;
/// OCB3 with RFC 7253's recommended parameters: 96-bit nonce, 128-bit tag.
pub type Aes128Ocb3 = Ocb3<aes::Aes128, U12>;
pub type Aes256Ocb3 = Ocb3<aes::Aes256, U12>;

impl Algorithm {
    pub const ALL: [Algorithm; 17] = [
        Algorithm::Aes128Gcm,
        Algorithm::Aes256Gcm,
        Algorithm::ChaCha20Poly1305,
        Algorithm::XChaCha20Poly1305,
        Algorithm::AsconAead128,
        Algorithm::Aes128CbcHmacSha256,
        Algorithm::Aes256CbcHmacSha256,
        Algorithm::Twofish128Gcm,
        Algorithm::Serpent128Gcm,
        Algorithm::Aegis128L,
        Algorithm::Aegis256,
        Algorithm::Aes128GcmSiv,
        Algorithm::Aes256GcmSiv,
        Algorithm::Aes128Ocb3,
        Algorithm::Aes256Ocb3,
        Algorithm::Aegis128LTag256,
        Algorithm::Aegis256Tag256,
    ];

    pub const fn id(self) -> &'static str {
        match self {
            Algorithm::Aes128Gcm => "aes-128-gcm",
            Algorithm::Aes256Gcm => "aes-256-gcm",
            Algorithm::ChaCha20Poly1305 => "chacha20-poly1305",
            Algorithm::XChaCha20Poly1305 => "xchacha20-poly1305",
            Algorithm::AsconAead128 => "ascon-aead128",
            Algorithm::Aes128CbcHmacSha256 => "aes-128-cbc-hmac-sha256",
            Algorithm::Aes256CbcHmacSha256 => "aes-256-cbc-hmac-sha256",
            Algorithm::Twofish128Gcm => "twofish-128-gcm",
            Algorithm::Serpent128Gcm => "serpent-128-gcm",
            Algorithm::Aegis128L => "aegis-128l",
            Algorithm::Aegis256 => "aegis-256",
            Algorithm::Aes128GcmSiv => "aes-128-gcm-siv",
            Algorithm::Aes256GcmSiv => "aes-256-gcm-siv",
            Algorithm::Aes128Ocb3 => "aes-128-ocb3",
            Algorithm::Aes256Ocb3 => "aes-256-ocb3",
            Algorithm::Aegis128LTag256 => "aegis-128l-tag256",
            Algorithm::Aegis256Tag256 => "aegis-256-tag256",
        }
    }

    pub fn from_id(id: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|a| a.id() == id)
            .ok_or_else(|| Error::UnknownAlgorithm(id.to_owned()))
    }

    /// The crate that implements it (RustCrypto's, and jedisct1's `aegis` for AEGIS).
    pub const fn crate_name(self) -> &'static str {
        match self {
            Algorithm::Aes128Gcm | Algorithm::Aes256Gcm => "aes-gcm",
            Algorithm::ChaCha20Poly1305 | Algorithm::XChaCha20Poly1305 => "chacha20poly1305",
            Algorithm::AsconAead128 => "ascon-aead",
            Algorithm::Aes128CbcHmacSha256 | Algorithm::Aes256CbcHmacSha256 => "aes+cbc+hmac+sha2",
            Algorithm::Twofish128Gcm => "aes-gcm+twofish",
            Algorithm::Serpent128Gcm => "aes-gcm+serpent",
            Algorithm::Aegis128L | Algorithm::Aegis256 | Algorithm::Aegis128LTag256 | Algorithm::Aegis256Tag256 => "aegis",
            Algorithm::Aes128GcmSiv | Algorithm::Aes256GcmSiv => "aes-gcm-siv",
            Algorithm::Aes128Ocb3 | Algorithm::Aes256Ocb3 => "ocb3+aes",
        }
    }

    pub const fn key_bytes(self) -> usize {
        match self {
            Algorithm::Aes128Gcm
            | Algorithm::AsconAead128
            | Algorithm::Twofish128Gcm
            | Algorithm::Serpent128Gcm
            | Algorithm::Aegis128L
            | Algorithm::Aegis128LTag256
            | Algorithm::Aes128GcmSiv
            | Algorithm::Aes128Ocb3 => 16,
            Algorithm::Aes256Gcm
            | Algorithm::Aegis256
            | Algorithm::Aegis256Tag256
            | Algorithm::Aes256GcmSiv
            | Algorithm::Aes256Ocb3
            | Algorithm::ChaCha20Poly1305
            | Algorithm::XChaCha20Poly1305
            | Algorithm::Aes128CbcHmacSha256 => 32,
            Algorithm::Aes256CbcHmacSha256 => 64,
        }
    }

    pub const fn nonce_bytes(self) -> usize {
        match self {
            Algorithm::Aes128Gcm
            | Algorithm::Aes256Gcm
            | Algorithm::ChaCha20Poly1305
            | Algorithm::Twofish128Gcm
            | Algorithm::Serpent128Gcm
            | Algorithm::Aes128GcmSiv
            | Algorithm::Aes256GcmSiv
            | Algorithm::Aes128Ocb3
            | Algorithm::Aes256Ocb3 => 12,
            Algorithm::XChaCha20Poly1305 => 24,
            Algorithm::AsconAead128
            | Algorithm::Aes128CbcHmacSha256
            | Algorithm::Aes256CbcHmacSha256
            | Algorithm::Aegis128L
            | Algorithm::Aegis128LTag256 => 16,
            Algorithm::Aegis256 | Algorithm::Aegis256Tag256 => 32,
        }
    }

    pub const fn tag_bytes(self) -> usize {
        match self {
            Algorithm::Aegis128LTag256 | Algorithm::Aegis256Tag256 => 32,
            _ => 16,
        }
    }

    /// Ciphertext bytes (tag excluded) for a plaintext of `plaintext_len` bytes.
    pub const fn ciphertext_len(self, plaintext_len: usize) -> usize {
        match self {
            Algorithm::Aes128CbcHmacSha256 | Algorithm::Aes256CbcHmacSha256 => {
                cbc_hmac::ciphertext_len(plaintext_len)
            }
            _ => plaintext_len,
        }
    }

    /// Bytes of the keyed instance in memory (`size_of`), the figure seed 004 compares.
    pub const fn state_bytes(self) -> usize {
        use core::mem::size_of;
        match self {
            Algorithm::Aes128Gcm => size_of::<Aes128Gcm>(),
            Algorithm::Aes256Gcm => size_of::<Aes256Gcm>(),
            Algorithm::ChaCha20Poly1305 => size_of::<ChaCha20Poly1305>(),
            Algorithm::XChaCha20Poly1305 => size_of::<XChaCha20Poly1305>(),
            Algorithm::AsconAead128 => size_of::<AsconAead128>(),
            Algorithm::Aes128CbcHmacSha256 => size_of::<CbcHmacSha256<aes::Aes128>>(),
            Algorithm::Aes256CbcHmacSha256 => size_of::<CbcHmacSha256<aes::Aes256>>(),
            Algorithm::Twofish128Gcm => size_of::<Twofish128Gcm>(),
            Algorithm::Serpent128Gcm => size_of::<Serpent128Gcm>(),
            // AEGIS has no key schedule: the keyed instance is the key; the 128-byte
            // (AEGIS-128L) or 96-byte (AEGIS-256) state lives only during a message.
            Algorithm::Aegis128L => size_of::<Aegis128L>(),
            Algorithm::Aegis256 => size_of::<Aegis256>(),
            Algorithm::Aes128GcmSiv => size_of::<Aes128GcmSiv>(),
            Algorithm::Aes256GcmSiv => size_of::<Aes256GcmSiv>(),
            Algorithm::Aes128Ocb3 => size_of::<Aes128Ocb3>(),
            Algorithm::Aes256Ocb3 => size_of::<Aes256Ocb3>(),
            Algorithm::Aegis128LTag256 => size_of::<Aegis128LTag256>(),
            Algorithm::Aegis256Tag256 => size_of::<Aegis256Tag256>(),
        }
    }

    /// Runs the key schedule once.
    pub fn key(self, key: &[u8]) -> Result<Keyed, Error> {
        let expected = self.key_bytes();
        if key.len() != expected {
            return Err(Error::KeyLength { expected, actual: key.len() });
        }
        let bad_key = |_| Error::KeyLength { expected, actual: key.len() };
        Ok(match self {
            Algorithm::Aes128Gcm => Keyed::Aes128Gcm(Aead(Aes128Gcm::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes256Gcm => Keyed::Aes256Gcm(Aead(Aes256Gcm::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::ChaCha20Poly1305 => {
                Keyed::ChaCha20Poly1305(Aead(ChaCha20Poly1305::new_from_slice(key).map_err(bad_key)?))
            }
            Algorithm::XChaCha20Poly1305 => {
                Keyed::XChaCha20Poly1305(Aead(XChaCha20Poly1305::new_from_slice(key).map_err(bad_key)?))
            }
            Algorithm::AsconAead128 => Keyed::AsconAead128(Aead(AsconAead128::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes128CbcHmacSha256 => Keyed::Aes128CbcHmacSha256(CbcHmacSha256::new(key)?),
            Algorithm::Aes256CbcHmacSha256 => Keyed::Aes256CbcHmacSha256(CbcHmacSha256::new(key)?),
            // Twofish takes 16, 24 or 32-byte keys through new_from_slice; GCM wraps the keyed cipher.
            Algorithm::Twofish128Gcm => Keyed::Twofish128Gcm(Aead(AesGcm::from(<twofish::Twofish as KeyInit>::new_from_slice(key).map_err(bad_key)?))),
            Algorithm::Serpent128Gcm => Keyed::Serpent128Gcm(Aead(AesGcm::from(<serpent::Serpent as KeyInit>::new_from_slice(key).map_err(bad_key)?))),
            Algorithm::Aegis128L => Keyed::Aegis128L(Aead(Aegis128L::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aegis256 => Keyed::Aegis256(Aead(Aegis256::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes128GcmSiv => Keyed::Aes128GcmSiv(Aead(Aes128GcmSiv::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes256GcmSiv => Keyed::Aes256GcmSiv(Aead(Aes256GcmSiv::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes128Ocb3 => Keyed::Aes128Ocb3(Aead(Aes128Ocb3::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aes256Ocb3 => Keyed::Aes256Ocb3(Aead(Aes256Ocb3::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aegis128LTag256 => Keyed::Aegis128LTag256(Aead(Aegis128LTag256::new_from_slice(key).map_err(bad_key)?)),
            Algorithm::Aegis256Tag256 => Keyed::Aegis256Tag256(Aead(Aegis256Tag256::new_from_slice(key).map_err(bad_key)?)),
        })
    }
}

/// The two operations every AEAD here offers, buffer to buffer with a detached tag, so the
/// bench loops can keep input and output apart and never copy.
pub trait Seal {
    /// Encrypts `plaintext` into `out` (exactly `ciphertext_len` bytes); returns the tag in the
    /// first `tag_bytes` bytes.
    fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<TagBuf, Error>;
    /// Verifies `tag` and decrypts `ciphertext` into `out` (at least as long); returns the
    /// plaintext length.
    fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8], tag: &[u8], out: &mut [u8]) -> Result<usize, Error>;
}

/// Adapts any RustCrypto `AeadInOut` (tags of up to [`MAX_TAG_BYTES`]).
pub struct Aead<A>(pub A);

impl<A> core::fmt::Debug for Aead<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(core::any::type_name::<A>())
    }
}

impl<A> Aead<A>
where
    A: AeadInOut,
{
    fn nonce(nonce: &[u8]) -> Result<&Nonce<A>, Error> {
        <&Nonce<A>>::try_from(nonce).map_err(|_| Error::NonceLength {
            expected: <A as AeadCore>::NonceSize::USIZE,
            actual: nonce.len(),
        })
    }
}

use aead::array::typenum::Unsigned;

impl<A> Seal for Aead<A>
where
    A: AeadInOut,
{
    #[inline]
    fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<TagBuf, Error> {
        let nonce = Self::nonce(nonce)?;
        let buf = InOutBuf::new(plaintext, out).map_err(|_| Error::MessageLength { actual: plaintext.len() })?;
        let tag = self
            .0
            .encrypt_inout_detached(nonce, aad, buf)
            .map_err(|_| Error::MessageLength { actual: plaintext.len() })?;
        let mut bytes = [0u8; MAX_TAG_BYTES];
        bytes[..tag.len()].copy_from_slice(&tag);
        Ok(bytes)
    }

    #[inline]
    fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8], tag: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        let nonce = Self::nonce(nonce)?;
        let tag = <&Tag<A>>::try_from(tag).map_err(|_| Error::Authentication)?;
        let out = out
            .get_mut(..ciphertext.len())
            .ok_or(Error::CiphertextLength { actual: ciphertext.len() })?;
        let buf = InOutBuf::new(ciphertext, out).map_err(|_| Error::CiphertextLength { actual: ciphertext.len() })?;
        self.0
            .decrypt_inout_detached(nonce, aad, buf, tag)
            .map_err(|_| Error::Authentication)?;
        Ok(ciphertext.len())
    }
}

impl<C> Seal for CbcHmacSha256<C>
where
    C: aes::cipher::BlockCipherEncrypt
        + aes::cipher::BlockCipherDecrypt
        + aes::cipher::BlockSizeUser<BlockSize = aes::cipher::consts::U16>
        + aes::cipher::KeyInit
        + Clone,
{
    #[inline]
    fn seal(&self, nonce: &[u8], aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<TagBuf, Error> {
        let tag = CbcHmacSha256::seal_detached(self, nonce, aad, plaintext, out)?;
        let mut bytes = [0u8; MAX_TAG_BYTES];
        bytes[..tag.len()].copy_from_slice(&tag);
        Ok(bytes)
    }

    #[inline]
    fn open(&self, nonce: &[u8], aad: &[u8], ciphertext: &[u8], tag: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        CbcHmacSha256::open_detached(self, nonce, aad, ciphertext, tag, out)
    }
}

/// A keyed instance of one algorithm. Generic code runs on it through [`with_keyed!`], which
/// dispatches once and then runs monomorphised code, so no indirect call sits in a bench loop.
#[derive(Debug)]
pub enum Keyed {
    Aes128Gcm(Aead<Aes128Gcm>),
    Aes256Gcm(Aead<Aes256Gcm>),
    ChaCha20Poly1305(Aead<ChaCha20Poly1305>),
    XChaCha20Poly1305(Aead<XChaCha20Poly1305>),
    AsconAead128(Aead<AsconAead128>),
    Aes128CbcHmacSha256(CbcHmacSha256<aes::Aes128>),
    Aes256CbcHmacSha256(CbcHmacSha256<aes::Aes256>),
    Twofish128Gcm(Aead<Twofish128Gcm>),
    Serpent128Gcm(Aead<Serpent128Gcm>),
    Aegis128L(Aead<Aegis128L>),
    Aegis256(Aead<Aegis256>),
    Aes128GcmSiv(Aead<Aes128GcmSiv>),
    Aes256GcmSiv(Aead<Aes256GcmSiv>),
    Aes128Ocb3(Aead<Aes128Ocb3>),
    Aes256Ocb3(Aead<Aes256Ocb3>),
    Aegis128LTag256(Aead<Aegis128LTag256>),
    Aegis256Tag256(Aead<Aegis256Tag256>),
}

/// `with_keyed!(keyed, c => expr)` evaluates `expr` with `c: &impl Seal` bound to the variant.
#[macro_export]
macro_rules! with_keyed {
    ($keyed:expr, $c:ident => $body:expr) => {
        match $keyed {
            $crate::algorithm::Keyed::Aes128Gcm($c) => $body,
            $crate::algorithm::Keyed::Aes256Gcm($c) => $body,
            $crate::algorithm::Keyed::ChaCha20Poly1305($c) => $body,
            $crate::algorithm::Keyed::XChaCha20Poly1305($c) => $body,
            $crate::algorithm::Keyed::AsconAead128($c) => $body,
            $crate::algorithm::Keyed::Aes128CbcHmacSha256($c) => $body,
            $crate::algorithm::Keyed::Aes256CbcHmacSha256($c) => $body,
            $crate::algorithm::Keyed::Twofish128Gcm($c) => $body,
            $crate::algorithm::Keyed::Serpent128Gcm($c) => $body,
            $crate::algorithm::Keyed::Aegis128L($c) => $body,
            $crate::algorithm::Keyed::Aegis256($c) => $body,
            $crate::algorithm::Keyed::Aes128GcmSiv($c) => $body,
            $crate::algorithm::Keyed::Aes256GcmSiv($c) => $body,
            $crate::algorithm::Keyed::Aes128Ocb3($c) => $body,
            $crate::algorithm::Keyed::Aes256Ocb3($c) => $body,
            $crate::algorithm::Keyed::Aegis128LTag256($c) => $body,
            $crate::algorithm::Keyed::Aegis256Tag256($c) => $body,
        }
    };
}

/// One-shot encryption: returns ciphertext ‖ tag.
pub fn encrypt(algorithm: Algorithm, key: &[u8], nonce: &[u8], aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
    let keyed = algorithm.key(key)?;
    let ct_len = algorithm.ciphertext_len(plaintext.len());
    let tag_len = algorithm.tag_bytes();
    let mut out = vec![0u8; ct_len + tag_len];
    let tag = with_keyed!(&keyed, c => c.seal(nonce, aad, plaintext, &mut out[..ct_len]))?;
    out[ct_len..].copy_from_slice(&tag[..tag_len]);
    Ok(out)
}

/// One-shot decryption of ciphertext ‖ tag: returns the plaintext.
pub fn decrypt(algorithm: Algorithm, key: &[u8], nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
    let keyed = algorithm.key(key)?;
    let ct_len = sealed
        .len()
        .checked_sub(algorithm.tag_bytes())
        .ok_or(Error::CiphertextLength { actual: sealed.len() })?;
    let (ciphertext, tag) = sealed.split_at(ct_len);
    let mut out = vec![0u8; ct_len];
    let len = with_keyed!(&keyed, c => c.open(nonce, aad, ciphertext, tag, &mut out))?;
    out.truncate(len);
    Ok(out)
}
