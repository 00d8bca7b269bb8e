//! `@latch/wasm`: latch-core for JavaScript (the WalletConnect engine is a
//! module of its own, crates/latch-wasm-walletconnect). As thin as possible: each export
//! converts arguments, calls one core rule and converts the result. Errors
//! become JS `Error`s whose message is the documented text and whose `code` is
//! [`latch_core::Error::code`].
//!
//! The browser gets this crate as two wasm modules, so that showing the modal
//! does not download what only later steps need: feature `core` is what
//! `@latch/react`'s modal and connection call (`@latch/wasm`), feature `extra`
//! everything else (`@latch/wasm/extra`: sign-in messages and signatures, form
//! checks, the network catalogue, policies, Solana send transactions). Each
//! export is in exactly one of them (`#[cfg(feature = …)]` on it or its
//! module); native builds have both.
// A one-module build leaves the other module's helpers unused.
#![cfg_attr(not(all(feature = "core", feature = "extra")), allow(dead_code, unused_imports))]

use serde::Serialize;
use wasm_bindgen::prelude::*;

pub mod address;
#[cfg(feature = "core")]
pub mod caip;
pub mod constants;
#[cfg(feature = "core")]
pub mod format;
#[cfg(feature = "core")]
pub mod history;
mod input;
#[cfg(feature = "core")]
pub mod link;
pub mod network;
pub mod policy;
#[cfg(feature = "extra")]
pub mod send;
#[cfg(feature = "extra")]
pub mod siwx;
#[cfg(feature = "extra")]
pub mod solana_transfer;
#[cfg(feature = "extra")]
pub mod swap;
pub mod validate;

// Both modules import the one class from the package's errors.js (beside their
// folders web/ and extra/), so `instanceof LatchError` holds whichever threw.
#[wasm_bindgen(raw_module = "../errors.js")]
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
#[cfg(feature = "core")]
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
