//! AES-CBC + HMAC-SHA-256 Encrypt-then-MAC, composed exactly as RFC 7518 §5.2.2.1 composes
//! AES_CBC_HMAC_SHA2, from the RustCrypto `aes`, `cbc`, `hmac` and `sha2` crates.
//!
//! - `aes-128-cbc-hmac-sha256` is RFC 7518 §5.2.3 A128CBC-HS256: a 32-byte key whose first half
//!   is the MAC key and second half the AES-128 key.
//! - `aes-256-cbc-hmac-sha256` is the same construction with AES-256 and a 32-byte MAC key
//!   (64-byte key), keeping SHA-256 and the 16-byte tag. It is not RFC 7518's A256CBC-HS512; it is
//!   the AES-256 case measured by the aead-vs-etm study.
//!
//! Ciphertext = AES-CBC(ENC_KEY, IV, PKCS#7(P)); tag = first 16 bytes of
//! HMAC-SHA-256(MAC_KEY, AAD ‖ IV ‖ C ‖ AL), AL being the AAD length in bits as a 64-bit
//! big-endian integer. The tag is checked, in constant time, before anything is decrypted.

use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser,
    InnerIvInit, KeyInit as CipherKeyInit, block_padding::Pkcs7, consts::U16,
};
use hmac::{Hmac, KeyInit as MacKeyInit, Mac};
use sha2::Sha256;

use crate::error::Error;

pub const IV_BYTES: usize = 16;
pub const TAG_BYTES: usize = 16;
const BLOCK_BYTES: usize = 16;

/// A keyed Encrypt-then-MAC instance: the AES key schedule and the HMAC inner/outer pads are
/// computed once here, and each message clones them.
#[derive(Clone)]
pub struct CbcHmacSha256<C> {
    mac: Hmac<Sha256>,
    cipher: C,
}

impl<C> core::fmt::Debug for CbcHmacSha256<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("CbcHmacSha256 { .. }")
    }
}

/// Length of the padded ciphertext: PKCS#7 always adds 1..=16 bytes.
pub const fn ciphertext_len(plaintext_len: usize) -> usize {
    (plaintext_len / BLOCK_BYTES + 1) * BLOCK_BYTES
}

impl<C> CbcHmacSha256<C>
where
    C: BlockCipherEncrypt
        + BlockCipherDecrypt
        + BlockSizeUser<BlockSize = U16>
        + CipherKeyInit
        + Clone,
{
    /// Bytes of the whole key: MAC key and AES key of the same length (RFC 7518 §5.2.2.1).
    pub fn key_bytes() -> usize {
        2 * <C as aes::cipher::KeySizeUser>::key_size()
    }

    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let expected = Self::key_bytes();
        if key.len() != expected {
            return Err(Error::KeyLength {
                expected,
                actual: key.len(),
            });
        }
        let (mac_key, enc_key) = key.split_at(expected / 2);
        let mac = <Hmac<Sha256> as MacKeyInit>::new_from_slice(mac_key).map_err(|_| {
            Error::KeyLength {
                expected,
                actual: key.len(),
            }
        })?;
        let cipher =
            <C as CipherKeyInit>::new_from_slice(enc_key).map_err(|_| Error::KeyLength {
                expected,
                actual: key.len(),
            })?;
        Ok(Self { mac, cipher })
    }

    fn mac(&self, aad: &[u8], iv: &[u8], ciphertext: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.mac.clone();
        mac.update(aad);
        mac.update(iv);
        mac.update(ciphertext);
        mac.update(&((aad.len() as u64) * 8).to_be_bytes());
        mac
    }

    fn check_iv(iv: &[u8]) -> Result<&aes::Block, Error> {
        <&aes::Block>::try_from(iv).map_err(|_| Error::NonceLength {
            expected: IV_BYTES,
            actual: iv.len(),
        })
    }

    /// Encrypts `plaintext` into `out` (exactly [`ciphertext_len`] bytes) and returns the tag.
    pub fn seal_detached(
        &self,
        iv: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<[u8; TAG_BYTES], Error> {
        let iv_block = Self::check_iv(iv)?;
        let ct = cbc::Encryptor::<C>::inner_iv_init(self.cipher.clone(), iv_block)
            .encrypt_padded_b2b::<Pkcs7>(plaintext, out)
            .map_err(|_| Error::MessageLength {
                actual: plaintext.len(),
            })?;
        let full = self.mac(aad, iv, ct).finalize().into_bytes();
        let mut tag = [0u8; TAG_BYTES];
        tag.copy_from_slice(&full[..TAG_BYTES]);
        Ok(tag)
    }

    /// Verifies the tag, then decrypts `ciphertext` into `out` (at least as long) and returns
    /// the plaintext length.
    pub fn open_detached(
        &self,
        iv: &[u8],
        aad: &[u8],
        ciphertext: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let iv_block = Self::check_iv(iv)?;
        if ciphertext.is_empty()
            || ciphertext.len() % BLOCK_BYTES != 0
            || out.len() < ciphertext.len()
        {
            return Err(Error::CiphertextLength {
                actual: ciphertext.len() + tag.len(),
            });
        }
        if tag.len() != TAG_BYTES {
            return Err(Error::Authentication);
        }
        self.mac(aad, iv, ciphertext)
            .verify_truncated_left(tag)
            .map_err(|_| Error::Authentication)?;
        // The tag verified, so bad padding means a wrong key pair, not an attacker; it is
        // still reported as an authentication failure so no padding oracle can exist.
        let pt = cbc::Decryptor::<C>::inner_iv_init(self.cipher.clone(), iv_block)
            .decrypt_padded_b2b::<Pkcs7>(ciphertext, out)
            .map_err(|_| Error::Authentication)?;
        Ok(pt.len())
    }
}
