//! The recovery envelope: the recovery share encrypted so that the server,
//! which stores it, cannot read it. AES-256-GCM under a key from either a
//! password (Argon2id) or a passkey's WebAuthn PRF output (HKDF-SHA256). The
//! associated data binds the ciphertext to the user id and the share index,
//! so the server cannot hand one user's envelope to another.
//!
//! JSON, at most [`MAX_ENVELOPE_LEN`] bytes:
//! `{"v":1,"kind":"password","m":19456,"t":2,"p":1,"salt":hex16,"nonce":hex12,"ciphertext":hex48}`
//! or `{"v":1,"kind":"passkey","credentialId":base64url,"salt":hex32,"nonce":hex12,"ciphertext":hex48}`.
//! For a passkey the frame asks the authenticator for PRF(`salt`) and passes
//! the 32-byte output here.

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use latch_core::json::{Object, Value};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::{Error, Share, ShareKind, SEED_LEN};

/// Longest envelope text accepted (the server stores it per user).
pub const MAX_ENVELOPE_LEN: usize = 2048;
/// HKDF info for the passkey route: changing it changes every key.
pub const PASSKEY_INFO: &[u8] = b"latch-vault recovery key v1";
const AAD_PREFIX: &[u8] = b"latch-vault envelope v1";

/// Argon2id cost. The defaults are OWASP's (m = 19 MiB, t = 2, p = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argon2Cost {
    /// Memory, KiB.
    pub m: u32,
    /// Passes.
    pub t: u32,
    /// Lanes.
    pub p: u32,
}

impl Default for Argon2Cost {
    fn default() -> Self {
        Argon2Cost { m: 19_456, t: 2, p: 1 }
    }
}

/// Bounds on what an envelope may ask for: the envelope comes from the
/// server, so a hostile one must not make the frame allocate gigabytes or
/// spin for minutes. 64 MiB and m·t ≤ 8× the default keep the worst case
/// to a few seconds in a browser; the floor keeps the password guessable
/// only at real cost.
pub const MIN_M: u32 = 7_168;
/// Most memory an envelope may ask for, KiB.
pub const MAX_M: u32 = 65_536;
/// Most passes.
pub const MAX_T: u32 = 10;
/// Most lanes (the browser runs them one after another anyway).
pub const MAX_P: u32 = 4;
/// Most total work, KiB × passes.
pub const MAX_WORK: u64 = 8 * 19_456 * 2;

impl Argon2Cost {
    fn check(self) -> Result<(), Error> {
        let ok = (MIN_M..=MAX_M).contains(&self.m)
            && (1..=MAX_T).contains(&self.t)
            && (1..=MAX_P).contains(&self.p)
            && u64::from(self.m) * u64::from(self.t) <= MAX_WORK
            && self.m >= 8 * self.p;
        if ok {
            Ok(())
        } else {
            Err(Error::Argon2CostOutOfBounds)
        }
    }
}

/// How the envelope's key is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvelopeKind {
    /// Argon2id of a password.
    Password(Argon2Cost),
    /// HKDF-SHA256 of a WebAuthn PRF output from this credential.
    Passkey {
        /// The credential's id, base64url as WebAuthn gives it.
        credential_id: String,
    },
}

/// An encrypted recovery share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// Password or passkey.
    pub kind: EnvelopeKind,
    /// Argon2 salt (16 bytes) or HKDF salt and PRF input (32 bytes).
    pub salt: Vec<u8>,
    /// AES-GCM nonce.
    pub nonce: [u8; 12],
    /// The share's 32 bytes and the 16-byte tag.
    pub ciphertext: Vec<u8>,
}

fn aad(user_id: &str, kind: &EnvelopeKind) -> Vec<u8> {
    let mut out = Vec::with_capacity(AAD_PREFIX.len() + user_id.len() + 16);
    out.extend_from_slice(AAD_PREFIX);
    out.push(0);
    out.extend_from_slice(match kind {
        EnvelopeKind::Password(_) => b"password",
        EnvelopeKind::Passkey { .. } => b"passkey",
    });
    out.push(0);
    out.push(ShareKind::Recovery.index());
    out.push(0);
    out.extend_from_slice(user_id.as_bytes());
    out
}

fn password_key(password: &[u8], salt: &[u8], cost: Argon2Cost) -> Result<Zeroizing<[u8; 32]>, Error> {
    cost.check()?;
    if password.is_empty() {
        return Err(Error::EmptyPassword);
    }
    let params = argon2::Params::new(cost.m, cost.t, cost.p, Some(32)).map_err(|_| Error::Argon2CostOutOfBounds)?;
    let argon = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut key = Zeroizing::new([0u8; 32]);
    argon
        .hash_password_into(password, salt, &mut key[..])
        .map_err(|_| Error::InvalidEnvelope("the salt does not suit Argon2"))?;
    Ok(key)
}

fn passkey_key(prf: &[u8; 32], salt: &[u8]) -> Zeroizing<[u8; 32]> {
    let mut key = Zeroizing::new([0u8; 32]);
    // 32 bytes is far below HKDF-SHA256's 8160-byte limit: expand cannot fail.
    if hkdf::Hkdf::<Sha256>::new(Some(salt), prf)
        .expand(PASSKEY_INFO, &mut key[..])
        .is_err()
    {
        unreachable!("32 bytes is a valid HKDF-SHA256 length");
    }
    key
}

fn seal(key: &[u8; 32], kind: EnvelopeKind, salt: Vec<u8>, nonce: [u8; 12], share: &Share, user_id: &str) -> Envelope {
    let cipher = Aes256Gcm::new(key.into());
    let aad = aad(user_id, &kind);
    // AES-GCM encryption fails only past 2^36 bytes of plaintext.
    let ciphertext = match cipher.encrypt(
        &Nonce::from(nonce),
        Payload {
            msg: share.value(),
            aad: &aad,
        },
    ) {
        Ok(ciphertext) => ciphertext,
        Err(_) => unreachable!("32 bytes is within AES-GCM's limit"),
    };
    Envelope {
        kind,
        salt,
        nonce,
        ciphertext,
    }
}

fn check_user_id(user_id: &str) -> Result<(), Error> {
    if user_id.is_empty() || user_id.len() > 256 {
        return Err(Error::InvalidUserId);
    }
    Ok(())
}

fn check_credential_id(id: &str) -> Result<(), Error> {
    let ok =
        !id.is_empty() && id.len() <= 1024 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidEnvelope(
            "credentialId is base64url, 1 to 1024 characters",
        ))
    }
}

impl Envelope {
    /// Encrypts the recovery share under a password. `salt` and `nonce` are
    /// fresh random bytes from the caller.
    pub fn seal_with_password(
        share: &Share,
        user_id: &str,
        password: &[u8],
        cost: Argon2Cost,
        salt: [u8; 16],
        nonce: [u8; 12],
    ) -> Result<Envelope, Error> {
        check_recovery(share)?;
        check_user_id(user_id)?;
        let key = password_key(password, &salt, cost)?;
        Ok(seal(
            &key,
            EnvelopeKind::Password(cost),
            salt.to_vec(),
            nonce,
            share,
            user_id,
        ))
    }

    /// Encrypts the recovery share under a passkey's PRF output for `salt`
    /// (the PRF input the frame asked the authenticator for).
    pub fn seal_with_passkey(
        share: &Share,
        user_id: &str,
        prf_output: &[u8; 32],
        credential_id: &str,
        salt: [u8; 32],
        nonce: [u8; 12],
    ) -> Result<Envelope, Error> {
        check_recovery(share)?;
        check_user_id(user_id)?;
        check_credential_id(credential_id)?;
        let key = passkey_key(prf_output, &salt);
        let kind = EnvelopeKind::Passkey {
            credential_id: credential_id.to_owned(),
        };
        Ok(seal(&key, kind, salt.to_vec(), nonce, share, user_id))
    }

    fn open(&self, key: &[u8; 32], user_id: &str) -> Result<Share, Error> {
        check_user_id(user_id)?;
        let cipher = Aes256Gcm::new(key.into());
        let plain = Zeroizing::new(
            cipher
                .decrypt(
                    &Nonce::from(self.nonce),
                    Payload {
                        msg: &self.ciphertext,
                        aad: &aad(user_id, &self.kind),
                    },
                )
                .map_err(|_| Error::DecryptionFailed)?,
        );
        let value: [u8; SEED_LEN] = plain.as_slice().try_into().map_err(|_| Error::DecryptionFailed)?;
        Ok(Share::new(ShareKind::Recovery, value))
    }

    /// Decrypts a password envelope. A wrong password, user id or tampered
    /// byte all give [`Error::DecryptionFailed`].
    pub fn open_with_password(&self, user_id: &str, password: &[u8]) -> Result<Share, Error> {
        let EnvelopeKind::Password(cost) = self.kind else {
            return Err(Error::WrongEnvelopeKind);
        };
        let key = password_key(password, &self.salt, cost)?;
        self.open(&key, user_id)
    }

    /// Decrypts a passkey envelope with the PRF output for [`Envelope::salt`].
    pub fn open_with_passkey(&self, user_id: &str, prf_output: &[u8; 32]) -> Result<Share, Error> {
        if !matches!(self.kind, EnvelopeKind::Passkey { .. }) {
            return Err(Error::WrongEnvelopeKind);
        }
        self.open(&passkey_key(prf_output, &self.salt), user_id)
    }

    /// The JSON text (written by hand: the other fields are numbers and hex).
    pub fn to_json(&self) -> String {
        let head = match &self.kind {
            EnvelopeKind::Password(cost) => {
                format!(
                    r#"{{"v":1,"kind":"password","m":{},"t":{},"p":{}"#,
                    cost.m, cost.t, cost.p
                )
            }
            EnvelopeKind::Passkey { credential_id } => {
                // Escaped: the fields are public, so an id that never went
                // through the checks must not break the JSON. By hand, since
                // the frame's modules have no general JSON writer to spare.
                let mut id = String::with_capacity(credential_id.len() + 2);
                id.push('"');
                for c in credential_id.chars() {
                    match c {
                        '"' => id.push_str("\\\""),
                        '\\' => id.push_str("\\\\"),
                        c if u32::from(c) < 0x20 => id.push_str(&format!("\\u{:04x}", u32::from(c))),
                        c => id.push(c),
                    }
                }
                id.push('"');
                format!(r#"{{"v":1,"kind":"passkey","credentialId":{id}"#)
            }
        };
        format!(
            r#"{head},"salt":"{}","nonce":"{}","ciphertext":"{}"}}"#,
            hex(&self.salt),
            hex(&self.nonce),
            hex(&self.ciphertext)
        )
    }

    /// Reads the JSON text, checking the version, every field's size and the
    /// Argon2 cost bounds before any key is derived.
    pub fn parse(text: &str) -> Result<Envelope, Error> {
        if text.len() > MAX_ENVELOPE_LEN {
            return Err(Error::InvalidEnvelope("longer than 2048 bytes"));
        }
        let Ok(Value::Object(fields)) = Value::parse(text) else {
            return Err(Error::InvalidEnvelope("not the envelope JSON"));
        };
        const KNOWN: [&str; 9] = [
            "v",
            "kind",
            "m",
            "t",
            "p",
            "credentialId",
            "salt",
            "nonce",
            "ciphertext",
        ];
        if fields.keys().any(|key| !KNOWN.contains(&key.as_str())) {
            return Err(Error::InvalidEnvelope("unknown field"));
        }
        if fields.get("v").and_then(Value::as_u64) != Some(1) {
            return Err(Error::InvalidEnvelope("unknown version"));
        }
        let salt = unhex(text_field(&fields, "salt")?)?;
        let nonce: [u8; 12] = unhex(text_field(&fields, "nonce")?)?
            .try_into()
            .map_err(|_| Error::InvalidEnvelope("the nonce is 12 bytes"))?;
        let ciphertext = unhex(text_field(&fields, "ciphertext")?)?;
        if ciphertext.len() != SEED_LEN + 16 {
            return Err(Error::InvalidEnvelope("the ciphertext is 48 bytes"));
        }
        let cost_field = |name| fields.get(name).map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()));
        let credential_id = fields.get("credentialId").map(Value::as_str);
        let kind = match (
            text_field(&fields, "kind")?,
            cost_field("m"),
            cost_field("t"),
            cost_field("p"),
            credential_id,
        ) {
            ("password", Some(Some(m)), Some(Some(t)), Some(Some(p)), None) => {
                if salt.len() != 16 {
                    return Err(Error::InvalidEnvelope("a password envelope's salt is 16 bytes"));
                }
                let cost = Argon2Cost { m, t, p };
                cost.check()?;
                EnvelopeKind::Password(cost)
            }
            ("passkey", None, None, None, Some(Some(credential_id))) => {
                if salt.len() != 32 {
                    return Err(Error::InvalidEnvelope("a passkey envelope's salt is 32 bytes"));
                }
                check_credential_id(credential_id)?;
                EnvelopeKind::Passkey {
                    credential_id: credential_id.to_owned(),
                }
            }
            ("password", Some(_), Some(_), Some(_), None) => return Err(Error::Argon2CostOutOfBounds),
            _ => {
                return Err(Error::InvalidEnvelope(
                    "kind is password (with m, t, p) or passkey (with credentialId)",
                ))
            }
        };
        Ok(Envelope {
            kind,
            salt,
            nonce,
            ciphertext,
        })
    }
}

fn check_recovery(share: &Share) -> Result<(), Error> {
    if share.kind() != ShareKind::Recovery {
        return Err(Error::WrongShare {
            expected: ShareKind::Recovery.index(),
            found: share.kind().index(),
        });
    }
    Ok(())
}

fn text_field<'a>(fields: &'a Object, name: &'static str) -> Result<&'a str, Error> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .ok_or(Error::InvalidEnvelope("salt, nonce, ciphertext and kind are strings"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Result<Vec<u8>, Error> {
    let bytes = text.as_bytes();
    if bytes.len() % 2 != 0 {
        return Err(Error::InvalidEnvelope("hex fields have an even length"));
    }
    bytes
        .chunks_exact(2)
        .map(|pair| {
            let digit = |c: u8| match c {
                b'0'..=b'9' => Ok(c - b'0'),
                b'a'..=b'f' => Ok(c - b'a' + 10),
                _ => Err(Error::InvalidEnvelope("hex fields are lowercase hex")),
            };
            Ok((digit(pair[0])? << 4) | digit(pair[1])?)
        })
        .collect()
}

#[cfg(test)]
mod tests;
