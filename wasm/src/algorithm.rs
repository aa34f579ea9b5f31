//! The algorithm table: one id per AEAD, the same kebab-case string in Rust, TypeScript, URLs,
//! JSON and the collector's database. Everything else (sizes, dispatch) derives from it.

use aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag, inout::InOutBuf};
use aes::cipher::consts::U12;
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm, aead, aes};
use aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use ascon_aead::AsconAead128;
use chacha20poly1305::{ChaCha20Poly1305, XChaCha20Poly1305};
use ocb3::Ocb3;

use crate::cbc_hmac::{self, CbcHmacSha256};
use crate::error::Error;

/// The longest tag of any id (AEGIS with a 256-bit tag); most have 16 bytes.
pub const MAX_TAG_BYTES: usize = 32;

/// A tag as the cores return it: the first [`Algorithm::tag_bytes`] bytes are the tag.
pub type TagBuf = [u8; MAX_TAG_BYTES];

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

/// Key, nonce and tag sizes of a keyed type, read from its crate's own types.
pub trait Sizes {
    const KEY: usize;
    const NONCE: usize;
    const TAG: usize;
}

impl<A: AeadCore + aead::KeySizeUser> Sizes for Aead<A> {
    const KEY: usize = <A as aead::KeySizeUser>::KeySize::USIZE;
    const NONCE: usize = <A as AeadCore>::NonceSize::USIZE;
    const TAG: usize = <A as AeadCore>::TagSize::USIZE;
}

impl<C: aes::cipher::KeySizeUser> Sizes for CbcHmacSha256<C> {
    /// The MAC key and the AES key, of the same length (RFC 7518 §5.2.2.1).
    const KEY: usize = 2 * <C as aes::cipher::KeySizeUser>::KeySize::USIZE;
    const NONCE: usize = cbc_hmac::IV_BYTES;
    const TAG: usize = cbc_hmac::TAG_BYTES;
}

/// A RustCrypto AEAD keyed from a slice.
fn aead<A: KeyInit>(key: &[u8]) -> Result<Aead<A>, Error> {
    A::new_from_slice(key)
        .map(Aead)
        .map_err(|_| Error::KeyLength {
            expected: <A as aead::KeySizeUser>::KeySize::USIZE,
            actual: key.len(),
        })
}

/// GCM over a block cipher keyed from a slice (Twofish takes 16, 24 or 32 bytes this way).
fn gcm_over<C>(key: &[u8]) -> Result<Aead<AesGcm<C, U12>>, Error>
where
    C: KeyInit
        + aes::cipher::BlockSizeUser<BlockSize = aes::cipher::consts::U16>
        + aes::cipher::BlockCipherEncrypt,
{
    C::new_from_slice(key)
        .map(|c| Aead(AesGcm::from(c)))
        .map_err(|_| Error::KeyLength {
            expected: 16,
            actual: key.len(),
        })
}

/// The table: one row per id makes the enum, its id and crate, its sizes (from the crate's
/// types, or stated where the type admits several), its state size, its key schedule, the
/// keyed variant and the dispatch. `$` is passed in so the table can define `with_keyed!`.
macro_rules! algorithm_table {
    ($d:tt $( $(#[$doc:meta])* $v:ident = $id:literal in $crate_name:literal : $keyed:ty = $new:expr $(, key $key:expr)? ; )+) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Algorithm {
            $( $(#[$doc])* $v, )+
        }

        /// A keyed instance of one algorithm. Generic code runs on it through [`with_keyed!`],
        /// which dispatches once and then runs monomorphised code, so no indirect call sits in a
        /// bench loop.
        #[derive(Debug)]
        pub enum Keyed {
            $( $v($keyed), )+
        }

        impl Algorithm {
            pub const ALL: [Algorithm; [$( stringify!($v) ),+].len()] = [$( Algorithm::$v ),+];

            pub const fn id(self) -> &'static str {
                match self { $( Algorithm::$v => $id, )+ }
            }

            /// The crate that implements it (RustCrypto's, and jedisct1's `aegis` for AEGIS).
            pub const fn crate_name(self) -> &'static str {
                match self { $( Algorithm::$v => $crate_name, )+ }
            }

            pub const fn key_bytes(self) -> usize {
                match self { $( Algorithm::$v => algorithm_table!(@key $keyed $(, $key)?), )+ }
            }

            pub const fn nonce_bytes(self) -> usize {
                match self { $( Algorithm::$v => <$keyed as Sizes>::NONCE, )+ }
            }

            pub const fn tag_bytes(self) -> usize {
                match self { $( Algorithm::$v => <$keyed as Sizes>::TAG, )+ }
            }

            /// Bytes of the keyed instance in memory (`size_of`), the figure the lightweight-iot
            /// study compares. AEGIS has no key schedule: its keyed instance is the key, and its
            /// 128-byte (AEGIS-128L) or 96-byte (AEGIS-256) state lives only during a message.
            pub const fn state_bytes(self) -> usize {
                match self { $( Algorithm::$v => core::mem::size_of::<$keyed>(), )+ }
            }

            /// Runs the key schedule once.
            pub fn key(self, key: &[u8]) -> Result<Keyed, Error> {
                let expected = self.key_bytes();
                if key.len() != expected {
                    return Err(Error::KeyLength { expected, actual: key.len() });
                }
                Ok(match self { $( Algorithm::$v => Keyed::$v(($new)(key)?), )+ })
            }
        }

        /// `with_keyed!(keyed, c => expr)` evaluates `expr` with `c: &impl Seal` bound to the variant.
        macro_rules! with_keyed {
            ($d keyed:expr, $d c:ident => $d body:expr) => {
                match $d keyed {
                    $( $crate::algorithm::Keyed::$v($d c) => $d body, )+
                }
            };
        }
        pub(crate) use with_keyed;
    };
    (@key $keyed:ty) => { <$keyed as Sizes>::KEY };
    (@key $keyed:ty, $key:expr) => { $key };
}

algorithm_table! { $
    /// NIST SP 800-38D, 128-bit key, 96-bit nonce.
    Aes128Gcm = "aes-128-gcm" in "aes-gcm": Aead<Aes128Gcm> = aead;
    /// NIST SP 800-38D, 256-bit key, 96-bit nonce.
    Aes256Gcm = "aes-256-gcm" in "aes-gcm": Aead<Aes256Gcm> = aead;
    /// RFC 8439.
    ChaCha20Poly1305 = "chacha20-poly1305" in "chacha20poly1305": Aead<ChaCha20Poly1305> = aead;
    /// draft-irtf-cfrg-xchacha: 192-bit nonce, safe to draw at random.
    XChaCha20Poly1305 = "xchacha20-poly1305" in "chacha20poly1305": Aead<XChaCha20Poly1305> = aead;
    /// NIST SP 800-232 Ascon-AEAD128.
    AsconAead128 = "ascon-aead128" in "ascon-aead": Aead<AsconAead128> = aead;
    /// RFC 7518 §5.2.3 A128CBC-HS256.
    Aes128CbcHmacSha256 = "aes-128-cbc-hmac-sha256" in "aes+cbc+hmac+sha2": CbcHmacSha256<aes::Aes128> = CbcHmacSha256::new;
    /// RFC 7518 §5.2.2.1 with AES-256 and a 32-byte HMAC-SHA-256 key (the aead-vs-etm study's AES-256 case).
    Aes256CbcHmacSha256 = "aes-256-cbc-hmac-sha256" in "aes+cbc+hmac+sha2": CbcHmacSha256<aes::Aes256> = CbcHmacSha256::new;
    /// The `aes-gcm` crate's GCM over the AES finalist Twofish (128-bit key), for the aes-candidates study.
    /// No standard: there are no test vectors, only round trips, tamper tests and the block
    /// cipher's own known answers. Twofish's type takes keys up to 32 bytes: 16 is stated.
    Twofish128Gcm = "twofish-128-gcm" in "aes-gcm+twofish": Aead<Twofish128Gcm> = gcm_over::<twofish::Twofish>, key 16;
    /// The same over Serpent (128-bit key).
    Serpent128Gcm = "serpent-128-gcm" in "aes-gcm+serpent": Aead<Serpent128Gcm> = gcm_over::<serpent::Serpent>, key 16;
    /// draft-irtf-cfrg-aegis-aead: 128-bit key, 128-bit nonce, 16-byte tag.
    Aegis128L = "aegis-128l" in "aegis": Aead<Aegis128L> = aead;
    /// draft-irtf-cfrg-aegis-aead: 256-bit key, 256-bit nonce, 16-byte tag.
    Aegis256 = "aegis-256" in "aegis": Aead<Aegis256> = aead;
    /// RFC 8452, nonce-misuse resistant, 128-bit key.
    Aes128GcmSiv = "aes-128-gcm-siv" in "aes-gcm-siv": Aead<Aes128GcmSiv> = aead;
    /// RFC 8452, 256-bit key.
    Aes256GcmSiv = "aes-256-gcm-siv" in "aes-gcm-siv": Aead<Aes256GcmSiv> = aead;
    /// RFC 7253 OCB with AES-128, 96-bit nonce, 128-bit tag.
    Aes128Ocb3 = "aes-128-ocb3" in "ocb3+aes": Aead<Aes128Ocb3> = aead;
    /// RFC 7253 OCB with AES-256.
    Aes256Ocb3 = "aes-256-ocb3" in "ocb3+aes": Aead<Aes256Ocb3> = aead;
    /// AEGIS-128L with the draft's 256-bit tag (libsodium's only AEGIS tag length).
    Aegis128LTag256 = "aegis-128l-tag256" in "aegis": Aead<Aegis128LTag256> = aead;
    /// AEGIS-256 with the 256-bit tag.
    Aegis256Tag256 = "aegis-256-tag256" in "aegis": Aead<Aegis256Tag256> = aead;
}

impl Algorithm {
    pub fn from_id(id: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|a| a.id() == id)
            .ok_or_else(|| Error::UnknownAlgorithm(id.to_owned()))
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
}

/// The two operations every AEAD here offers, buffer to buffer with a detached tag, so the
/// bench loops can keep input and output apart and never copy.
pub trait Seal {
    /// Encrypts `plaintext` into `out` (exactly `ciphertext_len` bytes); returns the tag in the
    /// first `tag_bytes` bytes.
    fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<TagBuf, Error>;
    /// Verifies `tag` and decrypts `ciphertext` into `out` (at least as long); returns the
    /// plaintext length.
    fn open(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error>;
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
    fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<TagBuf, Error> {
        let nonce = Self::nonce(nonce)?;
        let buf = InOutBuf::new(plaintext, out).map_err(|_| Error::MessageLength {
            actual: plaintext.len(),
        })?;
        let tag = self
            .0
            .encrypt_inout_detached(nonce, aad, buf)
            .map_err(|_| Error::MessageLength {
                actual: plaintext.len(),
            })?;
        let mut bytes = [0u8; MAX_TAG_BYTES];
        bytes[..tag.len()].copy_from_slice(&tag);
        Ok(bytes)
    }

    #[inline]
    fn open(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let nonce = Self::nonce(nonce)?;
        let tag = <&Tag<A>>::try_from(tag).map_err(|_| Error::Authentication)?;
        let out = out
            .get_mut(..ciphertext.len())
            .ok_or(Error::CiphertextLength {
                actual: ciphertext.len(),
            })?;
        let buf = InOutBuf::new(ciphertext, out).map_err(|_| Error::CiphertextLength {
            actual: ciphertext.len(),
        })?;
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
    fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<TagBuf, Error> {
        let tag = CbcHmacSha256::seal_detached(self, nonce, aad, plaintext, out)?;
        let mut bytes = [0u8; MAX_TAG_BYTES];
        bytes[..tag.len()].copy_from_slice(&tag);
        Ok(bytes)
    }

    #[inline]
    fn open(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        CbcHmacSha256::open_detached(self, nonce, aad, ciphertext, tag, out)
    }
}

/// One-shot encryption: returns ciphertext ‖ tag.
pub fn encrypt(
    algorithm: Algorithm,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    plaintext: &[u8],
) -> Result<Vec<u8>, Error> {
    let keyed = algorithm.key(key)?;
    let ct_len = algorithm.ciphertext_len(plaintext.len());
    let tag_len = algorithm.tag_bytes();
    let mut out = vec![0u8; ct_len + tag_len];
    let tag = with_keyed!(&keyed, c => c.seal(nonce, aad, plaintext, &mut out[..ct_len]))?;
    out[ct_len..].copy_from_slice(&tag[..tag_len]);
    Ok(out)
}

/// One-shot decryption of ciphertext ‖ tag: returns the plaintext.
pub fn decrypt(
    algorithm: Algorithm,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, Error> {
    let keyed = algorithm.key(key)?;
    let ct_len =
        sealed
            .len()
            .checked_sub(algorithm.tag_bytes())
            .ok_or(Error::CiphertextLength {
                actual: sealed.len(),
            })?;
    let (ciphertext, tag) = sealed.split_at(ct_len);
    let mut out = vec![0u8; ct_len];
    let len = with_keyed!(&keyed, c => c.open(nonce, aad, ciphertext, tag, &mut out))?;
    out.truncate(len);
    Ok(out)
}
