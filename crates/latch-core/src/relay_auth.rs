//! Who a WalletConnect relay client is: an EdDSA JWT signed by the client's
//! Ed25519 key, whose `iss` is that key as a `did:key` (the client id). The
//! relay (latch-server) verifies these tokens and the dapp client
//! (latch-walletconnect) signs them, so both live here, once.

use crate::base64;
use ed25519_dalek::{Signature, VerifyingKey};
use serde::Deserialize;

/// Clock difference tolerated on `exp` and `iat`, in seconds.
pub const LEEWAY_SECS: i64 = 120;
/// Longest token lifetime (`exp - iat`) accepted, in seconds: the official
/// clients sign for exactly one day, and a stolen token should not live longer.
pub const MAX_LIFETIME_SECS: i64 = 86_400;
/// The multicodec prefix of an Ed25519 public key.
const ED25519_MULTICODEC: [u8; 2] = [0xed, 0x01];
/// Longest token accepted; real ones are ~400 bytes.
const MAX_TOKEN_LEN: usize = 4096;

/// Why a token was refused; the `Display` text is the close reason the client sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No `?auth=` and no `Authorization: Bearer`.
    #[error("auth: missing JWT")]
    Missing,
    /// Not three base64url parts of JSON.
    #[error("auth: malformed JWT")]
    Malformed,
    /// The header names another algorithm than EdDSA.
    #[error("auth: unsupported JWT algorithm")]
    Algorithm,
    /// `iss` is not a did:key of an Ed25519 key.
    #[error("auth: issuer is not an Ed25519 did:key")]
    Issuer,
    /// The signature does not verify.
    #[error("auth: invalid signature")]
    Signature,
    /// `exp` is past (beyond the leeway) or `iat` is in the future.
    #[error("auth: JWT expired or not yet valid")]
    Expired,
    /// No `iat` claim: without it a token's lifetime is unknown.
    #[error("auth: JWT has no iat")]
    IssuedAt,
    /// `exp - iat` is over [`MAX_LIFETIME_SECS`] (or below zero).
    #[error("auth: JWT lifetime exceeds one day")]
    Lifetime,
    /// `aud` is not this relay.
    #[error("auth: JWT audience is not this relay")]
    Audience,
}

#[derive(Deserialize)]
struct Header {
    alg: String,
}

#[derive(Deserialize)]
struct Claims {
    iss: String,
    aud: String,
    #[serde(default)]
    iat: Option<i64>,
    exp: i64,
}

/// A verified token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The client id: the `iss` did:key.
    pub client_id: String,
    /// The `aud` claim, for the caller to check.
    pub audience: String,
}

/// The Ed25519 key a `did:key:z…` names.
pub fn decode_did_key(did: &str) -> Result<VerifyingKey, AuthError> {
    let encoded = did.strip_prefix("did:key:z").ok_or(AuthError::Issuer)?;
    if encoded.len() > 64 {
        return Err(AuthError::Issuer);
    }
    let bytes = bs58::decode(encoded).into_vec().map_err(|_| AuthError::Issuer)?;
    let key = bytes
        .strip_prefix(&ED25519_MULTICODEC)
        .and_then(|k| <[u8; 32]>::try_from(k).ok())
        .ok_or(AuthError::Issuer)?;
    VerifyingKey::from_bytes(&key).map_err(|_| AuthError::Issuer)
}

/// The did:key of an Ed25519 public key.
pub fn encode_did_key(key: &VerifyingKey) -> String {
    let mut bytes = ED25519_MULTICODEC.to_vec();
    bytes.extend_from_slice(key.as_bytes());
    format!("did:key:z{}", bs58::encode(bytes).into_string())
}

/// Checks `token`'s shape, algorithm, issuer, signature and times at `now` (unix seconds).
/// The signature is checked over the bytes received, never a re-encoding.
pub fn verify(token: &str, now: i64) -> Result<Verified, AuthError> {
    if token.len() > MAX_TOKEN_LEN {
        return Err(AuthError::Malformed);
    }
    let mut parts = token.split('.');
    let (Some(header), Some(claims), Some(signature), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(AuthError::Malformed);
    };
    let decode = |part: &str| base64::decode_url(part).ok_or(AuthError::Malformed);
    let header: Header = serde_json::from_slice(&decode(header)?).map_err(|_| AuthError::Malformed)?;
    if header.alg != "EdDSA" {
        return Err(AuthError::Algorithm);
    }
    let claims_json = decode(claims)?;
    let claims: Claims = serde_json::from_slice(&claims_json).map_err(|_| AuthError::Malformed)?;
    let key = decode_did_key(&claims.iss)?;
    let signature = Signature::from_slice(&decode(signature)?).map_err(|_| AuthError::Signature)?;
    let signed = &token[..token.rfind('.').unwrap_or_default()];
    key.verify_strict(signed.as_bytes(), &signature)
        .map_err(|_| AuthError::Signature)?;
    let iat = claims.iat.ok_or(AuthError::IssuedAt)?;
    // Claims are client-chosen i64s: checked arithmetic only, so i64::MIN/MAX cannot overflow.
    let lifetime = claims.exp.checked_sub(iat).ok_or(AuthError::Lifetime)?;
    if !(0..=MAX_LIFETIME_SECS).contains(&lifetime) {
        return Err(AuthError::Lifetime);
    }
    if claims.exp.saturating_add(LEEWAY_SECS) < now || iat.saturating_sub(LEEWAY_SECS) > now {
        return Err(AuthError::Expired);
    }
    Ok(Verified {
        client_id: claims.iss,
        audience: claims.aud,
    })
}

/// Signs a token like the official clients do: `sub` is the client's random
/// id (the JS client uses 32 random bytes as hex), `aud` the relay URL as configured.
pub fn sign(key: &ed25519_dalek::SigningKey, sub: &str, aud: &str, iat: i64, exp: i64) -> String {
    use ed25519_dalek::Signer;
    let header = base64::encode_url(br#"{"alg":"EdDSA","typ":"JWT"}"#);
    // A struct, not `json!`: the official client's claim order (iss, sub, aud, iat, exp).
    #[derive(serde::Serialize)]
    struct Signed<'a> {
        iss: String,
        sub: &'a str,
        aud: &'a str,
        iat: i64,
        exp: i64,
    }
    let claims = Signed {
        iss: encode_did_key(&key.verifying_key()),
        sub,
        aud,
        iat,
        exp,
    };
    let claims = serde_json::to_string(&claims).unwrap_or_default();
    let claims = base64::encode_url(claims.as_bytes());
    let signed = format!("{header}.{claims}");
    let signature = base64::encode_url(&key.sign(signed.as_bytes()).to_bytes());
    format!("{signed}.{signature}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: i64 = 1_700_000_000;

    fn key(seed: u8) -> ed25519_dalek::SigningKey {
        ed25519_dalek::SigningKey::from_bytes(&[seed; 32])
    }

    #[test]
    fn accepts_a_client_token() {
        let token = sign(&key(1), "s", "ws://127.0.0.1:8787/relay", NOW, NOW + 86_400);
        let verified = verify(&token, NOW).unwrap();
        assert_eq!(verified.client_id, encode_did_key(&key(1).verifying_key()));
        assert!(verified.client_id.starts_with("did:key:z6Mk"), "{}", verified.client_id);
        assert_eq!(verified.audience, "ws://127.0.0.1:8787/relay");
    }

    #[test]
    fn known_did_key_decodes() {
        // did:key test vector from the did:key method spec.
        let did = "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp";
        assert_eq!(encode_did_key(&decode_did_key(did).unwrap()), did);
        assert_eq!(
            decode_did_key("did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"),
            Err(AuthError::Issuer)
        );
    }

    #[test]
    fn refusals() {
        let token = sign(&key(1), "s", "ws://h/relay", NOW, NOW + 60);
        assert_eq!(verify(&token, NOW + 60 + LEEWAY_SECS + 1), Err(AuthError::Expired));
        assert!(verify(&token, NOW + 60 + LEEWAY_SECS).is_ok(), "within the leeway");
        assert_eq!(verify(&token, NOW - LEEWAY_SECS - 1), Err(AuthError::Expired));
        // Someone else's key under the same claims: the signature fails.
        let (head, _) = token.rsplit_once('.').unwrap();
        let forged = sign(&key(2), "s", "ws://h/relay", NOW, NOW + 60);
        let (_, other_signature) = forged.rsplit_once('.').unwrap();
        assert_eq!(
            verify(&format!("{head}.{other_signature}"), NOW),
            Err(AuthError::Signature)
        );
        // A different algorithm is refused before anything else.
        let parts: Vec<&str> = token.split('.').collect();
        let hs = base64::encode_url(br#"{"alg":"HS256","typ":"JWT"}"#);
        assert_eq!(
            verify(&format!("{hs}.{}.{}", parts[1], parts[2]), NOW),
            Err(AuthError::Algorithm)
        );
        let none = base64::encode_url(br#"{"alg":"none"}"#);
        assert_eq!(verify(&format!("{none}.{}.", parts[1]), NOW), Err(AuthError::Algorithm));
        assert_eq!(verify("a.b", NOW), Err(AuthError::Malformed));
        assert_eq!(verify("", NOW), Err(AuthError::Malformed));
    }

    /// Signs arbitrary claims JSON with `key(1)`, as a hostile client would.
    fn sign_claims(claims: &str) -> String {
        use ed25519_dalek::Signer;
        let header = base64::encode_url(br#"{"alg":"EdDSA","typ":"JWT"}"#);
        let signed = format!("{header}.{}", base64::encode_url(claims.as_bytes()));
        let signature = base64::encode_url(&key(1).sign(signed.as_bytes()).to_bytes());
        format!("{signed}.{signature}")
    }

    #[test]
    fn iat_is_required_and_the_lifetime_bounded() {
        let iss = encode_did_key(&key(1).verifying_key());
        let claims = |rest: &str| sign_claims(&format!(r#"{{"iss":"{iss}","aud":"ws://h/relay",{rest}}}"#));
        assert_eq!(
            verify(&claims(&format!(r#""exp":{}"#, NOW + 60)), NOW),
            Err(AuthError::IssuedAt)
        );
        let day = sign(&key(1), "s", "ws://h/relay", NOW, NOW + MAX_LIFETIME_SECS);
        assert!(verify(&day, NOW).is_ok(), "the official clients' one day");
        let longer = sign(&key(1), "s", "ws://h/relay", NOW, NOW + MAX_LIFETIME_SECS + 1);
        assert_eq!(verify(&longer, NOW), Err(AuthError::Lifetime));
        let backwards = sign(&key(1), "s", "ws://h/relay", NOW, NOW - 1);
        assert_eq!(verify(&backwards, NOW), Err(AuthError::Lifetime));
        // Extremes: refused, no overflow.
        for (iat, exp) in [
            (i64::MIN, i64::MAX),
            (i64::MAX, i64::MIN),
            (i64::MIN, i64::MIN),
            (i64::MAX, i64::MAX),
        ] {
            let token = claims(&format!(r#""iat":{iat},"exp":{exp}"#));
            assert!(verify(&token, NOW).is_err(), "iat {iat} exp {exp}");
        }
        // Past i64: not a number the claims can hold.
        let huge = claims(r#""iat":99999999999999999999999,"exp":99999999999999999999999"#);
        assert_eq!(verify(&huge, NOW), Err(AuthError::Malformed));
    }

    proptest! {
        #[test]
        fn never_panics(token in ".{0,600}", now in any::<i64>()) {
            let _ = verify(&token, now);
        }

        #[test]
        fn claims_never_panic(iat in any::<i64>(), exp in any::<i64>(), now in any::<i64>()) {
            let token = sign(&key(1), "s", "ws://h/relay", iat, exp);
            let verified = verify(&token, now);
            let within = exp.checked_sub(iat).is_some_and(|l| (0..=MAX_LIFETIME_SECS).contains(&l));
            prop_assert_eq!(verified.is_ok(), within && exp.saturating_add(LEEWAY_SECS) >= now && iat.saturating_sub(LEEWAY_SECS) <= now);
        }

        #[test]
        fn tampered_claims_fail(seed in any::<u8>(), flip in 0usize..200) {
            let token = sign(&key(seed), "s", "ws://h/relay", NOW, NOW + 60);
            let mut bytes = token.clone().into_bytes();
            let i = flip % bytes.len();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let tampered = String::from_utf8(bytes).unwrap();
            prop_assume!(tampered != token);
            prop_assert!(verify(&tampered, NOW).is_err());
        }

        #[test]
        fn did_keys_round_trip(seed in any::<[u8; 32]>()) {
            let key = ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key();
            prop_assert_eq!(decode_did_key(&encode_did_key(&key)), Ok(key));
        }
    }
}
