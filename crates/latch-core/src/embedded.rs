//! Embedded-wallet sign-up and login rules (behaviour 5.15 "Embedded-wallet requests",
//! behaviour 5.17 message schemas): what an e-mail, a one-time code, a device id and the
//! stored key material must look like. The server and the frame both apply
//! these, so a value one accepts the other accepts too.
//!
//! Refusals use the behaviour 5.17 schema messages: `Required` for a missing or empty
//! value, `Invalid input` for anything else.

use serde_json::Value;

pub mod approval;
pub mod calls;
pub mod frame;
pub mod solana;

/// How long a one-time code is good for.
pub const OTP_TTL_MS: i64 = 10 * 60 * 1000;
/// Wrong guesses that burn a code.
pub const OTP_MAX_ATTEMPTS: u32 = 5;
/// Digits in a one-time code.
pub const OTP_DIGITS: usize = 6;
/// Longest e-mail address (RFC 5321's path limit less the brackets).
pub const MAX_EMAIL_BYTES: usize = 254;
/// The most recovery envelopes a wallet keeps (one password, one passkey).
pub const MAX_ENVELOPES: usize = 2;
/// Largest envelope, as compact JSON.
pub const MAX_ENVELOPE_BYTES: usize = 2 * 1024;
/// The envelope kinds: a recovery share sealed by a password (Argon2id) or a passkey (PRF).
pub const ENVELOPE_KINDS: [&str; 2] = ["password", "passkey"];

/// A value refused by a behaviour 5.17 schema: which field, and the schema's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct SchemaError {
    /// The field concerned (`email`, `otp`, …).
    pub field: &'static str,
    /// `Required` or `Invalid input`.
    pub message: &'static str,
}

/// Result of a schema check.
pub type SchemaResult<T> = std::result::Result<T, SchemaError>;

fn required(field: &'static str) -> SchemaError {
    SchemaError {
        field,
        message: "Required",
    }
}

fn invalid(field: &'static str) -> SchemaError {
    SchemaError {
        field,
        message: "Invalid input",
    }
}

/// Bytes allowed in a local part besides letters and digits (RFC 5322 atext).
const ATEXT: &[u8] = b"!#$%&'*+-/=?^_`{|}~";

fn valid_local(local: &str) -> bool {
    !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || ATEXT.contains(&b))
}

fn valid_domain(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// Behaviour 5.17 "email valid address": a dot-atom local part, `@`, and a DNS name with
/// an alphabetic top-level label (no quoted local parts, no address literals:
/// nobody types those into a login field). Answers the address trimmed, with
/// its domain lower-cased (domains are case-insensitive; local parts are kept
/// as typed for the mail, see [`email_key`] for comparisons).
pub fn validate_email(email: &str) -> SchemaResult<String> {
    let email = email.trim();
    if email.is_empty() {
        return Err(required("email"));
    }
    if email.len() > MAX_EMAIL_BYTES {
        return Err(invalid("email"));
    }
    let Some((local, domain)) = email.rsplit_once('@') else {
        return Err(invalid("email"));
    };
    if !valid_local(local) || !valid_domain(domain) {
        return Err(invalid("email"));
    }
    Ok(format!("{local}@{}", domain.to_ascii_lowercase()))
}

/// The form two addresses are compared in: lower-cased whole (every large
/// provider treats local parts case-insensitively; treating them otherwise
/// would let `Alice@` and `alice@` be two accounts of one mailbox).
pub fn email_key(valid_email: &str) -> String {
    valid_email.to_ascii_lowercase()
}

/// Behaviour 5.17 "otp string", which the server further requires to be the code's six digits.
pub fn validate_otp(field: &'static str, otp: &str) -> SchemaResult<()> {
    if otp.is_empty() {
        return Err(required(field));
    }
    if otp.len() != OTP_DIGITS || !otp.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(field));
    }
    Ok(())
}

/// A six-digit code from eight uniformly random bytes. The modulo bias is
/// 10^6 / 2^64, far below anything a guesser with five attempts could use.
pub fn otp_from_random(random: [u8; 8]) -> String {
    format!("{:06}", u64::from_le_bytes(random) % 1_000_000)
}

/// The id the frame keeps for its device: 16 to 128 characters of `A-Z a-z 0-9 - _`
/// (a UUID or a base64url random value).
pub fn validate_device_id(device_id: &str) -> SchemaResult<()> {
    if device_id.is_empty() {
        return Err(required("deviceId"));
    }
    let ok = (16..=128).contains(&device_id.len())
        && device_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(invalid("deviceId"))
    }
}

/// The auth share as the key scheme writes it: `0x02` (share index 2, the
/// server's) followed by the 32-byte share in lowercase hex.
pub fn validate_auth_share(share: &str) -> SchemaResult<()> {
    if share.is_empty() {
        return Err(required("authShare"));
    }
    let ok = share.len() == 68
        && share.starts_with("0x02")
        && share[4..].bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if ok {
        Ok(())
    } else {
        Err(invalid("authShare"))
    }
}

/// Recovery envelopes: at most [`MAX_ENVELOPES`], each a JSON object of at
/// most [`MAX_ENVELOPE_BYTES`] whose `kind` is one of [`ENVELOPE_KINDS`], no
/// two of the same kind. Their content is opaque here: only the frame, with
/// the user's password or passkey, can open them.
pub fn validate_envelopes(envelopes: &[Value]) -> SchemaResult<()> {
    if envelopes.len() > MAX_ENVELOPES {
        return Err(invalid("envelopes"));
    }
    let mut kinds = Vec::with_capacity(envelopes.len());
    for envelope in envelopes {
        let Some(object) = envelope.as_object() else {
            return Err(invalid("envelopes"));
        };
        let kind = object.get("kind").and_then(Value::as_str);
        let Some(kind) = kind.filter(|k| ENVELOPE_KINDS.contains(k)) else {
            return Err(invalid("envelopes"));
        };
        if kinds.contains(&kind) || serde_json::to_string(envelope).map_or(usize::MAX, |s| s.len()) > MAX_ENVELOPE_BYTES
        {
            return Err(invalid("envelopes"));
        }
        kinds.push(kind);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn emails() {
        assert_eq!(validate_email(" Alice@Example.COM ").unwrap(), "Alice@example.com");
        assert_eq!(email_key("Alice@example.com"), "alice@example.com");
        for ok in ["a@b.co", "first.last+tag@sub.example.org", "x_y-z@a-b.io"] {
            assert!(validate_email(ok).is_ok(), "{ok}");
        }
        assert_eq!(validate_email("").unwrap_err().message, "Required");
        assert_eq!(validate_email("   ").unwrap_err().message, "Required");
        for bad in [
            "plain",
            "@example.com",
            "a@",
            "a@localhost",
            "a@b.c",
            "a@b.c0m",
            ".a@b.co",
            "a.@b.co",
            "a..b@b.co",
            "a@-b.co",
            "a@b-.co",
            "a@b..co",
            "a b@c.co",
            "a@b.co\nx@c.co",
            "\"q\"@b.co",
            "a@[127.0.0.1]",
        ] {
            assert_eq!(validate_email(bad).unwrap_err().message, "Invalid input", "{bad:?}");
        }
        let long = format!("{}@b.co", "a".repeat(65));
        assert!(validate_email(&long).is_err());
    }

    #[test]
    fn otps_and_devices() {
        assert!(validate_otp("otp", "012345").is_ok());
        assert_eq!(validate_otp("otp", "").unwrap_err().message, "Required");
        for bad in ["12345", "1234567", "12345a", "１２３４５６"] {
            assert_eq!(validate_otp("otp", bad).unwrap_err().message, "Invalid input");
        }
        assert_eq!(otp_from_random([0; 8]), "000000");
        assert_eq!(otp_from_random(1_000_007u64.to_le_bytes()), "000007");
        assert!(validate_device_id("0123456789abcdef").is_ok());
        assert!(validate_device_id("short").is_err());
        assert!(validate_device_id("0123456789abcdef/").is_err());
        assert_eq!(validate_device_id("").unwrap_err().message, "Required");
    }

    #[test]
    fn shares_and_envelopes() {
        let share = format!("0x02{}", "ab".repeat(32));
        assert!(validate_auth_share(&share).is_ok());
        for bad in [
            format!("0x01{}", "ab".repeat(32)),
            format!("0x03{}", "ab".repeat(32)),
            format!("0x02{}", "AB".repeat(32)),
            format!("0x02{}", "ab".repeat(31)),
            format!("0x02{}", "ab".repeat(33)),
        ] {
            assert_eq!(validate_auth_share(&bad).unwrap_err().message, "Invalid input");
        }
        let password = json!({"kind": "password", "salt": "00", "box": "ff"});
        let passkey = json!({"kind": "passkey", "credentialId": "x"});
        assert!(validate_envelopes(&[]).is_ok());
        assert!(validate_envelopes(&[password.clone(), passkey.clone()]).is_ok());
        assert!(validate_envelopes(&[password.clone(), password.clone()]).is_err());
        assert!(validate_envelopes(&[password.clone(), passkey.clone(), passkey]).is_err());
        assert!(validate_envelopes(&[json!({"kind": "pin"})]).is_err());
        assert!(validate_envelopes(&[json!("password")]).is_err());
        let big = json!({"kind": "password", "box": "f".repeat(MAX_ENVELOPE_BYTES)});
        assert!(validate_envelopes(&[big]).is_err());
    }

    proptest! {
        #[test]
        fn email_never_panics_and_is_stable(input in "\\PC{0,300}") {
            if let Ok(valid) = validate_email(&input) {
                prop_assert_eq!(validate_email(&valid).unwrap(), valid.clone());
                prop_assert!(valid.len() <= MAX_EMAIL_BYTES);
            }
        }

        #[test]
        fn generated_addresses_pass(local in "[a-z0-9]{1,20}(\\.[a-z0-9+_-]{1,10}){0,2}", domain in "[a-z0-9]{1,20}\\.[a-z]{2,6}") {
            let email = format!("{local}@{domain}");
            prop_assert_eq!(validate_email(&email).unwrap(), email);
        }

        #[test]
        fn otps_are_six_digits(random in any::<[u8; 8]>()) {
            let otp = otp_from_random(random);
            prop_assert!(validate_otp("otp", &otp).is_ok());
        }

        #[test]
        fn shares_and_devices_never_panic(input in "\\PC{0,100}") {
            let _ = validate_auth_share(&input);
            let _ = validate_device_id(&input);
            let _ = validate_otp("otp", &input);
        }
    }
}
