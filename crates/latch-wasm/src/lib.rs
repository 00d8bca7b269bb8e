//! `@latch/wasm`: latch-core for JavaScript (the WalletConnect engine is a
//! module of its own, crates/latch-wasm-walletconnect). As thin as possible: each export
//! converts arguments, calls one core rule and converts the result. Errors
//! become JS `Error`s whose message is the spec's text and whose `code` is
//! [`latch_core::Error::code`].

use serde::Serialize;
use wasm_bindgen::prelude::*;

pub mod address;
pub mod caip;
pub mod constants;
pub mod format;
pub mod history;
mod input;
pub mod link;
pub mod network;
pub mod policy;
pub mod siwx;
pub mod validate;

#[wasm_bindgen(module = "/js/errors.js")]
extern "C" {
    /// `LatchError extends Error` with a `code` (js/errors.js).
    type LatchError;

    #[wasm_bindgen(constructor)]
    fn new(message: &str, code: &str) -> LatchError;
}

pub(crate) fn js_error(err: latch_core::Error) -> JsValue {
    LatchError::new(&err.to_string(), err.code()).into()
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()).into())
}

/// The version of latch-core this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
