//! Module `recovery`: the recovery share sealed under a password or a passkey's PRF output, and
//! opened again (Argon2id, HKDF, AES-256-GCM).

use crate::{array, set, share, vault_error};
use js_sys::Object;
use latch_vault::{Argon2Cost, Envelope, EnvelopeKind};
use wasm_bindgen::prelude::*;

/// Seals the recovery share under a password (OWASP's Argon2id cost):
/// `salt` 16 and `nonce` 12 random bytes. Returns the envelope JSON.
#[wasm_bindgen(js_name = sealWithPassword)]
pub fn seal_with_password(
    recovery: &str,
    user_id: &str,
    password: &str,
    salt: &[u8],
    nonce: &[u8],
) -> Result<String, JsValue> {
    Envelope::seal_with_password(
        &share(recovery)?,
        user_id,
        password.as_bytes(),
        Argon2Cost::default(),
        array(salt, "salt")?,
        array(nonce, "nonce")?,
    )
    .map(|envelope| envelope.to_json())
    .map_err(vault_error)
}

/// Seals the recovery share under a passkey: `prf` is the authenticator's
/// PRF output for input `salt` (32 random bytes), `nonce` 12 random bytes.
#[wasm_bindgen(js_name = sealWithPasskey)]
pub fn seal_with_passkey(
    recovery: &str,
    user_id: &str,
    prf: &[u8],
    credential_id: &str,
    salt: &[u8],
    nonce: &[u8],
) -> Result<String, JsValue> {
    Envelope::seal_with_passkey(
        &share(recovery)?,
        user_id,
        &array(prf, "prf")?,
        credential_id,
        array(salt, "salt")?,
        array(nonce, "nonce")?,
    )
    .map(|envelope| envelope.to_json())
    .map_err(vault_error)
}

/// What the frame needs before opening an envelope: `{ kind: 'password' }`
/// or `{ kind: 'passkey', credentialId, salt }` (`salt` is the PRF input).
#[wasm_bindgen(js_name = envelopeInfo)]
pub fn envelope_info(envelope: &str) -> Result<Object, JsValue> {
    let envelope = Envelope::parse(envelope).map_err(vault_error)?;
    let info = Object::new();
    match &envelope.kind {
        EnvelopeKind::Password(_) => set(&info, "kind", &"password".into()),
        EnvelopeKind::Passkey { credential_id } => {
            set(&info, "kind", &"passkey".into());
            set(&info, "credentialId", &credential_id.into());
            set(&info, "salt", &js_sys::Uint8Array::from(&envelope.salt[..]).into());
        }
    }
    Ok(info)
}

/// The recovery share's text from a password envelope.
#[wasm_bindgen(js_name = openWithPassword)]
pub fn open_with_password(envelope: &str, user_id: &str, password: &str) -> Result<String, JsValue> {
    Envelope::parse(envelope)
        .and_then(|envelope| envelope.open_with_password(user_id, password.as_bytes()))
        .map(|share| share.to_text())
        .map_err(vault_error)
}

/// The recovery share's text from a passkey envelope and the PRF output.
#[wasm_bindgen(js_name = openWithPasskey)]
pub fn open_with_passkey(envelope: &str, user_id: &str, prf: &[u8]) -> Result<String, JsValue> {
    let prf = array(prf, "prf")?;
    Envelope::parse(envelope)
        .and_then(|envelope| envelope.open_with_passkey(user_id, &prf))
        .map(|share| share.to_text())
        .map_err(vault_error)
}
