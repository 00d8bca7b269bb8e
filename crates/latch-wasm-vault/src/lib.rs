//! `@latch/wasm-vault`: latch-vault and latch-core's frame rules for the embedded-wallet frame.
//! Each export only converts values; every rule is in latch-vault or latch-core. Randomness comes
//! from the caller (`crypto.getRandomValues` in the frame). Errors are JS `Error`s named
//! `VaultError` with a `code` (latch-vault's `Error::code`).
//!
//! The browser gets this crate as four wasm modules, so that the frame page downloads only what
//! it needs when it needs it (BENCHMARKS.md "The wallet frame"): feature `checks` (the host's
//! messages checked, RPC methods classified: loaded with the page), `login` (shares split and
//! combined, the accounts two shares give: loaded at login), `keys` (the `Wallet` that signs,
//! approval summaries: loaded at the first approval) and `recovery` (the recovery share's
//! envelopes, Argon2id and AES-GCM: loaded only when a recovery password is set or entered).
//! Each export is in exactly one of them, in the file of its group; native builds have all four.
// A one-module build leaves the other modules' helpers unused.
#![cfg_attr(
    not(all(feature = "checks", feature = "login", feature = "keys", feature = "recovery")),
    allow(dead_code, unused_imports)
)]

use js_sys::{Object, Reflect};
use latch_core::json::Value;
use latch_vault::Share;
use wasm_bindgen::prelude::*;

#[cfg(feature = "keys")]
pub mod approvals;
#[cfg(feature = "checks")]
pub mod checks;
#[cfg(feature = "keys")]
pub mod keys;
#[cfg(feature = "login")]
pub mod login;
#[cfg(feature = "recovery")]
pub mod recovery;

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

fn set(object: &Object, key: &str, value: &JsValue) {
    // Plain data properties on a fresh object: cannot fail.
    let _ = Reflect::set(object, &key.into(), value);
}

/// A JSON value as the JS value `JSON.parse` would give (a JSON writer would cost the module a
/// few kB; the values here are small).
fn to_js(value: &Value) -> JsValue {
    match value {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        // The number's text, read by JS (as `JSON.parse` would): no float code in the module.
        Value::Number(n) => JsValue::from_f64(js_sys::Number::parse_float(n.as_str())),
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

/// A JSON argument, refused as `<what> must be JSON`.
fn json_argument(text: &str, what: &str) -> Result<Value, JsValue> {
    Value::parse(text).map_err(|_| argument(&format!("{what} must be JSON")))
}
