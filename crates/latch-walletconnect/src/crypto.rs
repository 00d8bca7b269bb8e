//! Keys, topics and envelopes, as the Sign protocol defines them:
//! - a pairing's symmetric key is 32 random bytes; a session's is
//!   HKDF-SHA256 (no salt, no info) of the X25519 shared secret;
//! - a topic is sha256 of its symmetric key, 64 lowercase hex;
//! - an envelope is ChaCha20-Poly1305 (no associated data), standard base64
//!   with padding: type 0 = `0x00 ‖ iv(12) ‖ sealed`, type 1 =
//!   `0x01 ‖ sender public key(32) ‖ iv(12) ‖ sealed` (for a receiver that
//!   does not yet know the sender's key).

use std::fmt;

use chacha20poly1305::aead::Aead;
use chacha20poly1305::{ChaCha20Poly1305, Key, KeyInit, Nonce};
use hkdf::Hkdf;
use latch_core::base64;
use sha2::{Digest, Sha256};
use x25519_dalek::{PublicKey, StaticSecret};

use crate::{Error, Result};

const IV_LEN: usize = 12;
const KEY_LEN: usize = 32;
const TAG_LEN: usize = 16;
/// Largest envelope decoded (base64 characters); relays cap messages well below.
const MAX_ENVELOPE_LEN: usize = 1 << 20;

/// `N` bytes from the platform's CSPRNG (the browser's `crypto.getRandomValues` in wasm).
pub fn random_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::getrandom(&mut bytes).map_err(|e| Error::Random(e.to_string()))?;
    Ok(bytes)
}

/// 64 hex characters (either case) as 32 bytes; `what` names the value in the error.
pub fn parse_hex32(text: &str, what: &'static str) -> Result<[u8; 32]> {
    let invalid = || Error::InvalidHex { what, len: 64 };
    if text.len() != 64 {
        return Err(invalid());
    }
    let mut bytes = [0u8; 32];
    hex::decode_to_slice(text, &mut bytes).map_err(|_| invalid())?;
    Ok(bytes)
}

/// A ChaCha20-Poly1305 key: a pairing's or a session's.
#[derive(Clone, PartialEq, Eq)]
pub struct SymKey(pub [u8; KEY_LEN]);

impl SymKey {
    /// A fresh random key (a new pairing).
    pub fn random() -> Result<Self> {
        random_bytes().map(SymKey)
    }

    /// Lowercase hex, as stored and as put in URIs.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// From 64 hex characters.
    pub fn from_hex(text: &str) -> Result<Self> {
        parse_hex32(text, "symKey").map(SymKey)
    }
}

impl fmt::Debug for SymKey {
    /// Keys never reach logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SymKey(…)")
    }
}

/// The topic of a key: sha256 of its bytes, lowercase hex.
pub fn topic_of(key: &SymKey) -> String {
    hex::encode(Sha256::digest(key.0))
}

/// sha256 of a UTF-8 string, hex: the message id clients and relays de-duplicate on.
pub fn hash_message(message: &str) -> String {
    hex::encode(Sha256::digest(message.as_bytes()))
}

/// An X25519 key pair (the dapp's per-proposal key).
#[derive(Clone)]
pub struct KeyPair {
    secret: StaticSecret,
    public: PublicKey,
}

impl KeyPair {
    /// A fresh random pair.
    pub fn generate() -> Result<Self> {
        random_bytes().map(Self::from_secret)
    }

    /// The pair of a stored private key (clamped by X25519 as usual).
    pub fn from_secret(secret: [u8; KEY_LEN]) -> Self {
        let secret = StaticSecret::from(secret);
        let public = PublicKey::from(&secret);
        KeyPair { secret, public }
    }

    /// The private key's bytes, for storage.
    pub fn secret_bytes(&self) -> [u8; KEY_LEN] {
        self.secret.to_bytes()
    }

    /// The public key's bytes.
    pub fn public_bytes(&self) -> [u8; KEY_LEN] {
        self.public.to_bytes()
    }

    /// The public key as lowercase hex (`proposer.publicKey`).
    pub fn public_hex(&self) -> String {
        hex::encode(self.public.as_bytes())
    }

    /// The session key shared with `peer`: HKDF-SHA256 of the X25519 secret.
    /// A peer key giving an all-zero secret is refused, as the JS client does.
    pub fn derive_sym_key(&self, peer: &[u8; KEY_LEN]) -> Result<SymKey> {
        let shared = self.secret.diffie_hellman(&PublicKey::from(*peer));
        if !shared.was_contributory() {
            return Err(Error::WeakKey);
        }
        let mut key = [0u8; KEY_LEN];
        Hkdf::<Sha256>::new(None, shared.as_bytes())
            .expand(&[], &mut key)
            .map_err(|_| Error::WeakKey)?;
        Ok(SymKey(key))
    }
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyPair({})", self.public_hex())
    }
}

/// A decoded envelope, still sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Envelope {
    /// Both sides know the key.
    Type0 {
        /// Nonce.
        iv: [u8; IV_LEN],
        /// Ciphertext and tag.
        sealed: Vec<u8>,
    },
    /// Carries the sender's X25519 public key, from which the receiver derives the key.
    Type1 {
        /// The sender's public key.
        sender_public_key: [u8; KEY_LEN],
        /// Nonce.
        iv: [u8; IV_LEN],
        /// Ciphertext and tag.
        sealed: Vec<u8>,
    },
}

impl Envelope {
    /// Seals `plaintext` under `key` with `iv`; type 1 when `sender_public_key` is given.
    /// Callers pass a fresh random `iv` ([`encrypt`] does); tests pass fixed ones.
    pub fn seal(key: &SymKey, plaintext: &str, iv: [u8; IV_LEN], sender_public_key: Option<[u8; KEY_LEN]>) -> Self {
        let cipher = ChaCha20Poly1305::new(&Key::from(key.0));
        // Encryption into a Vec cannot fail for inputs under 256 GiB.
        let sealed = cipher
            .encrypt(&Nonce::from(iv), plaintext.as_bytes())
            .unwrap_or_default();
        match sender_public_key {
            None => Envelope::Type0 { iv, sealed },
            Some(sender_public_key) => Envelope::Type1 {
                sender_public_key,
                iv,
                sealed,
            },
        }
    }

    /// Standard base64 with padding.
    pub fn encode(&self) -> String {
        let mut bytes = Vec::new();
        match self {
            Envelope::Type0 { iv, sealed } => {
                bytes.push(0);
                bytes.extend_from_slice(iv);
                bytes.extend_from_slice(sealed);
            }
            Envelope::Type1 {
                sender_public_key,
                iv,
                sealed,
            } => {
                bytes.push(1);
                bytes.extend_from_slice(sender_public_key);
                bytes.extend_from_slice(iv);
                bytes.extend_from_slice(sealed);
            }
        }
        base64::encode(&bytes)
    }

    /// Parses base64 into an envelope; other types (2 = unencrypted link mode) are refused.
    pub fn decode(text: &str) -> Result<Self> {
        if text.len() > MAX_ENVELOPE_LEN {
            return Err(Error::InvalidEnvelope("too long"));
        }
        let bytes = base64::decode(text).ok_or(Error::InvalidEnvelope("not base64"))?;
        let too_short = Error::InvalidEnvelope("too short");
        match bytes.split_first() {
            Some((0, rest)) if rest.len() >= IV_LEN + TAG_LEN => {
                let (iv, sealed) = rest.split_at(IV_LEN);
                Ok(Envelope::Type0 {
                    iv: iv.try_into().map_err(|_| too_short)?,
                    sealed: sealed.to_vec(),
                })
            }
            Some((1, rest)) if rest.len() >= KEY_LEN + IV_LEN + TAG_LEN => {
                let (key, rest) = rest.split_at(KEY_LEN);
                let (iv, sealed) = rest.split_at(IV_LEN);
                Ok(Envelope::Type1 {
                    sender_public_key: key.try_into().map_err(|_| too_short.clone())?,
                    iv: iv.try_into().map_err(|_| too_short)?,
                    sealed: sealed.to_vec(),
                })
            }
            Some((0 | 1, _)) | None => Err(too_short),
            Some(_) => Err(Error::InvalidEnvelope("unsupported type")),
        }
    }

    /// The sender's public key of a type 1 envelope.
    pub fn sender_public_key(&self) -> Option<[u8; KEY_LEN]> {
        match self {
            Envelope::Type0 { .. } => None,
            Envelope::Type1 { sender_public_key, .. } => Some(*sender_public_key),
        }
    }

    /// Decrypts with `key`; the plaintext must be UTF-8 (it is JSON).
    pub fn open(&self, key: &SymKey) -> Result<String> {
        let (iv, sealed) = match self {
            Envelope::Type0 { iv, sealed } | Envelope::Type1 { iv, sealed, .. } => (iv, sealed),
        };
        let plain = ChaCha20Poly1305::new(&Key::from(key.0))
            .decrypt(&Nonce::from(*iv), sealed.as_slice())
            .map_err(|_| Error::Decrypt)?;
        String::from_utf8(plain).map_err(|_| Error::InvalidEnvelope("plaintext is not UTF-8"))
    }
}

/// Seals `plaintext` with a random iv and encodes it (type 1 with `sender_public_key`).
pub fn encrypt(key: &SymKey, plaintext: &str, sender_public_key: Option<[u8; KEY_LEN]>) -> Result<String> {
    Ok(Envelope::seal(key, plaintext, random_bytes()?, sender_public_key).encode())
}

/// Decodes and opens an envelope with `key`.
pub fn decrypt(key: &SymKey, envelope: &str) -> Result<String> {
    Envelope::decode(envelope)?.open(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn both_sides_derive_the_same_key() {
        let (a, b) = (KeyPair::from_secret([1; 32]), KeyPair::from_secret([2; 32]));
        let key = a.derive_sym_key(&b.public_bytes()).unwrap();
        assert_eq!(key, b.derive_sym_key(&a.public_bytes()).unwrap());
        assert_eq!(topic_of(&key).len(), 64);
        // The identity point gives an all-zero secret.
        assert_eq!(a.derive_sym_key(&[0; 32]), Err(Error::WeakKey));
    }

    #[test]
    fn refusals() {
        let key = SymKey([7; 32]);
        assert_eq!(Envelope::decode("%%%"), Err(Error::InvalidEnvelope("not base64")));
        assert_eq!(Envelope::decode(""), Err(Error::InvalidEnvelope("too short")));
        assert_eq!(Envelope::decode("AAAA"), Err(Error::InvalidEnvelope("too short")));
        let type2 = base64::encode(&[2u8; 40]);
        assert_eq!(
            Envelope::decode(&type2),
            Err(Error::InvalidEnvelope("unsupported type"))
        );
        let sealed = encrypt(&key, "{}", None).unwrap();
        assert_eq!(decrypt(&SymKey([8; 32]), &sealed), Err(Error::Decrypt));
        assert_eq!(decrypt(&key, &sealed).unwrap(), "{}");
        assert_eq!(format!("{key:?}"), "SymKey(…)");
    }

    proptest! {
        #[test]
        fn round_trips(key in any::<[u8; 32]>(), text in ".{0,200}", iv in any::<[u8; 12]>(), sender in proptest::option::of(any::<[u8; 32]>())) {
            let key = SymKey(key);
            let envelope = Envelope::seal(&key, &text, iv, sender);
            let decoded = Envelope::decode(&envelope.encode()).unwrap();
            prop_assert_eq!(&decoded, &envelope);
            prop_assert_eq!(decoded.sender_public_key(), sender);
            prop_assert_eq!(decoded.open(&key).unwrap(), text);
        }

        #[test]
        fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..120), text in ".{0,200}") {
            let key = SymKey([3; 32]);
            let _ = decrypt(&key, &base64::encode(&bytes));
            let _ = decrypt(&key, &text);
        }

        #[test]
        fn tampering_is_detected(flip in 0usize..64, text in ".{1,40}") {
            let key = SymKey([5; 32]);
            let mut bytes = base64::decode(&encrypt(&key, &text, None).unwrap()).unwrap();
            let i = 1 + flip % (bytes.len() - 1);
            bytes[i] ^= 0x01;
            prop_assert!(decrypt(&key, &base64::encode(&bytes)).is_err());
        }
    }
}
