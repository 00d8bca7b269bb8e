//! `@latch/wasm-walletconnect`: the WalletConnect engine (latch-walletconnect)
//! for JavaScript, a wasm module of its own beside `@latch/wasm`: a page loads
//! it only when a visitor pairs, and it repeats none of `@latch/wasm`'s
//! exports. Like latch-wasm, each export only converts values; errors are the
//! very `LatchError` class `@latch/wasm` exports.

use wasm_bindgen::prelude::*;

pub mod client;
pub mod provider;
pub mod qr;

// `raw_module`: the path is kept as written, relative to the generated
// bindings (web/); scripts/build-wasm writes that file as a re-export of
// `@latch/wasm`'s class, so `instanceof LatchError` holds across both modules.
#[wasm_bindgen(raw_module = "../latch-error.js")]
extern "C" {
    /// `LatchError extends Error` with a `code` (crates/latch-wasm/js/errors.js).
    type LatchError;

    #[wasm_bindgen(constructor)]
    fn new(message: &str, code: &str) -> LatchError;
}

/// A `LatchError` with `message` and `code`.
pub(crate) fn latch_error(message: &str, code: &str) -> JsValue {
    LatchError::new(message, code).into()
}

pub(crate) fn js_error(err: latch_core::Error) -> JsValue {
    latch_error(&err.to_string(), err.code())
}
