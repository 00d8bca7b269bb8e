//! `@latch/wasm-vault`: latch-vault for the embedded-wallet frame. A module of
//! its own (the frame loads nothing else of Latch's wasm). Each export only
//! converts values; every rule is in latch-vault. Randomness comes from the
//! caller (`crypto.getRandomValues` in the frame). Errors are JS `Error`s
//! named `VaultError` with a `code` (latch-vault's `Error::code`).

mod solana;

use js_sys::{Object, Reflect};
use latch_vault::{Argon2Cost, Envelope, EnvelopeKind, Share, ShareKind};
use wasm_bindgen::prelude::*;

fn vault_error(err: latch_vault::Error) -> JsValue {
    let error = js_sys::Error::new(&err.to_string());
    error.set_name("VaultError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(&error, &"code".into(), &err.code().into());
    error.into()
}

fn argument(message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    error.set_name("VaultError");
    let _ = Reflect::set(&error, &"code".into(), &"INVALID_ARGUMENT".into());
    error.into()
}

fn array<const N: usize>(bytes: &[u8], what: &str) -> Result<[u8; N], JsValue> {
    bytes
        .try_into()
        .map_err(|_| argument(&format!("{what} must be {N} bytes")))
}

fn share(text: &str) -> Result<Share, JsValue> {
    Share::parse(text).map_err(vault_error)
}

fn kind(index: u8) -> Result<ShareKind, JsValue> {
    ShareKind::ALL
        .into_iter()
        .find(|kind| kind.index() == index)
        .ok_or_else(|| argument("a share index is 1, 2 or 3"))
}

fn set(object: &Object, key: &str, value: &JsValue) {
    // Plain data properties on a fresh object: cannot fail.
    let _ = Reflect::set(object, &key.into(), value);
}

/// Splits a new seed: `seed` and `coefficients` are 32 random bytes each.
/// Returns the device, auth and recovery shares' text.
#[wasm_bindgen(js_name = splitSeed)]
pub fn split_seed(seed: &[u8], coefficients: &[u8]) -> Result<Vec<String>, JsValue> {
    let seed = latch_vault::Seed::new(array(seed, "seed")?);
    // The slopes are as secret as the seed: any share plus them gives it.
    let coefficients = zeroize::Zeroizing::new(array::<32>(coefficients, "coefficients")?);
    Ok(latch_vault::split(&seed, &coefficients)
        .iter()
        .map(Share::to_text)
        .collect())
}

/// Share `index` (1 device, 2 auth, 3 recovery) from two others: a new
/// device rebuilds its device share from auth + recovery.
#[wasm_bindgen(js_name = deriveShare)]
pub fn derive_share(a: &str, b: &str, index: u8) -> Result<String, JsValue> {
    latch_vault::derive_share(&share(a)?, &share(b)?, kind(index)?)
        .map(|share| share.to_text())
        .map_err(vault_error)
}

/// The index (1, 2 or 3) of a well-formed share; throws otherwise.
#[wasm_bindgen(js_name = shareIndex)]
pub fn share_index(text: &str) -> Result<u8, JsValue> {
    Ok(share(text)?.kind().index())
}

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

/// Both accounts' keys, rebuilt from two shares. `free()` wipes them.
#[wasm_bindgen]
pub struct Wallet(latch_vault::Wallet);

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * bytes.len());
    out.push_str("0x");
    for byte in bytes {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

#[wasm_bindgen]
impl Wallet {
    /// The wallet two different shares give.
    #[wasm_bindgen(js_name = fromShares)]
    pub fn from_shares(a: &str, b: &str) -> Result<Wallet, JsValue> {
        latch_vault::Wallet::from_shares(&share(a)?, &share(b)?)
            .map(Wallet)
            .map_err(vault_error)
    }

    /// The EVM address, checksummed.
    #[wasm_bindgen(getter, js_name = evmAddress)]
    pub fn evm_address(&self) -> String {
        self.0.evm_address().to_checksum(None)
    }

    /// The Solana address, base58.
    #[wasm_bindgen(getter, js_name = solanaAddress)]
    pub fn solana_address(&self) -> String {
        self.0.solana_address()
    }

    /// `personal_sign`'s signature (`0x` + 130 hex digits) of its first
    /// parameter (`0x`-hex bytes or text).
    #[wasm_bindgen(js_name = personalSign)]
    pub fn personal_sign(&self, message: &str) -> Result<String, JsValue> {
        self.0.personal_sign(message).map(|s| hex(&s)).map_err(vault_error)
    }

    /// `eth_signTypedData_v4`'s signature of the typed data JSON.
    #[wasm_bindgen(js_name = signTypedData)]
    pub fn sign_typed_data(&self, json: &str) -> Result<String, JsValue> {
        self.0.sign_typed_data(json).map(|s| hex(&s)).map_err(vault_error)
    }

    /// The raw signed transaction (`0x`…) for `eth_sendTransaction`'s object
    /// with nonce, gas and fees filled in (JSON).
    #[wasm_bindgen(js_name = signTransaction)]
    pub fn sign_transaction(&self, json: &str) -> Result<String, JsValue> {
        self.0.sign_transaction(json).map(|raw| hex(&raw)).map_err(vault_error)
    }

    /// `solana:signMessage`: the 64-byte signature.
    #[wasm_bindgen(js_name = solanaSignMessage)]
    pub fn solana_sign_message(&self, message: &[u8]) -> Vec<u8> {
        self.0.solana_sign_message(message).to_vec()
    }

    /// `solana:signTransaction`: the wire transaction with this account's signature.
    #[wasm_bindgen(js_name = solanaSignTransaction)]
    pub fn solana_sign_transaction(&self, wire: &[u8]) -> Result<Vec<u8>, JsValue> {
        self.0.solana_sign_transaction(wire).map_err(vault_error)
    }

    /// `{ evm, solana }` private keys. The frame calls this only after the
    /// user confirms the export explicitly.
    #[wasm_bindgen(js_name = exportPrivateKeys)]
    pub fn export_private_keys(&self) -> Object {
        let keys = self.0.export();
        let out = Object::new();
        set(&out, "evm", &keys.evm.as_str().into());
        set(&out, "solana", &keys.solana.as_str().into());
        out
    }
}

/// A JSON value as the JS value `JSON.parse` would give (serde_json's writer would cost the
/// module a few kB; the values here are small).
fn to_js(value: &serde_json::Value) -> JsValue {
    use serde_json::Value;
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => JsValue::from_str(s),
        Value::Array(items) => items.iter().map(to_js).collect::<js_sys::Array>().into(),
        Value::Object(map) => {
            let object = Object::new();
            for (key, item) in map {
                set(&object, key, &to_js(item));
            }
            object.into()
        }
    }
}

/// Checks a request from the host page against latch-core's frame schemas (behaviour 5.17, 5.15) and
/// answers it normalized: `{ id, type, payload }`. Refused: an `Error` named `SchemaError`
/// whose message is `<field>: Required` or `<field>: Invalid input`.
#[wasm_bindgen(js_name = parseFrameRequest)]
pub fn parse_frame_request(json: &str) -> Result<Object, JsValue> {
    let request = latch_core::embedded::frame::parse_request_json(json).map_err(|error| {
        let js = js_sys::Error::new(&error.to_string());
        js.set_name("SchemaError");
        JsValue::from(js)
    })?;
    let object = Object::new();
    set(&object, "id", &request.id.as_str().into());
    set(&object, "type", &request.kind.into());
    set(&object, "payload", &to_js(&request.payload));
    Ok(object)
}

/// A refused request as a JS `Error` named `RequestError`. Only the variants the approval rules
/// give are spelled out: `Error`'s whole `Display` would add kilobytes to the frame's module.
fn core_error(error: latch_core::Error) -> JsValue {
    use latch_core::Error;
    let message = match error {
        Error::RpcMethodNotAllowed { .. } => "Requested RPC call is not allowed".to_owned(),
        Error::InvalidInput { what, reason } => format!("{what}: {reason}"),
        Error::InvalidEvmAddress { input } => format!("Invalid address: {input}"),
        _ => "Invalid input".to_owned(),
    };
    let js = js_sys::Error::new(&message);
    js.set_name("RequestError");
    js.into()
}

fn json_argument(text: &str, what: &str) -> Result<serde_json::Value, JsValue> {
    serde_json::from_str(text).map_err(|_| argument(&format!("{what} must be JSON")))
}

/// Behaviour 5.18: `"safe"` (straight to the gateway), `"approval"` (ApproveTransaction first)
/// or `"notAllowed"` ("Requested RPC call is not allowed").
#[wasm_bindgen(js_name = classifyRpcMethod)]
pub fn classify_rpc_method(method: &str) -> String {
    latch_core::policy::classify_rpc_method(method).as_str().to_owned()
}

/// What ApproveTransaction shows for a not-safe request and what the key signs:
/// `{ method, summary: { kind, … }, sign }` (latch-core `embedded::approval`).
#[wasm_bindgen(js_name = approvalSummary)]
pub fn approval_summary(method: &str, params_json: &str, account: &str) -> Result<JsValue, JsValue> {
    let params = json_argument(params_json, "params")?;
    let approval = latch_core::embedded::approval::summarize(method, &params, account).map_err(core_error)?;
    Ok(to_js(&approval.to_json()))
}

/// The `eth_sendTransaction` object to sign (for `signTransaction`, as JSON): `call_json` (an
/// approval's `sign`) with the nonce, gas and EIP-1559 fees read from the gateway.
#[wasm_bindgen(js_name = prepareTransaction)]
pub fn prepare_transaction(
    call_json: &str,
    chain_id: &str,
    nonce: &str,
    gas: &str,
    base_fee: &str,
    priority_fee: &str,
) -> Result<JsValue, JsValue> {
    let call = json_argument(call_json, "call")?;
    let chain = latch_core::embedded::approval::ChainState {
        chain_id,
        nonce,
        gas,
        base_fee,
        priority_fee,
    };
    latch_core::embedded::approval::prepare_transaction(&call, &chain)
        .map(|tx| to_js(&tx))
        .map_err(core_error)
}

/// `wallet_getCallsStatus`'s EIP-5792 status code for a batch of `total` calls: `receipts` one
/// per transaction sent so far (`null` not mined, `true` succeeded, `false` reverted), `finished`
/// whether the frame stopped sending (latch-core `embedded::calls::calls_status`).
#[wasm_bindgen(js_name = callsStatus)]
pub fn calls_status(total: usize, receipts: Vec<JsValue>, finished: bool) -> u16 {
    let receipts: Vec<Option<bool>> = receipts.iter().map(JsValue::as_bool).collect();
    latch_core::embedded::calls::calls_status(total, &receipts, finished)
}
