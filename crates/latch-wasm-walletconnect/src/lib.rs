//! `@latch/wasm-walletconnect`: the WalletConnect engine (latch-walletconnect)
//! for JavaScript, a wasm module of its own beside `@latch/wasm`: a page loads
//! it only when a visitor pairs, and it repeats none of `@latch/wasm`'s
//! exports. Like latch-wasm, each export only converts values; errors are the
//! very `LatchError` class `@latch/wasm` exports.

use std::future::Future;
use std::pin::Pin;

use js_sys::Promise;
use wasm_bindgen::prelude::*;

pub mod client;
mod listeners;
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

// The futures go to wasm-bindgen-futures boxed: its promise and task
// machinery is then compiled once, not once per exported method.
type Task<T> = Pin<Box<dyn Future<Output = T>>>;

/// `future` as a JS `Promise`.
pub(crate) fn to_promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    wasm_bindgen_futures::future_to_promise(Box::pin(future) as Task<_>)
}

/// Runs `future` on the browser's event loop.
pub(crate) fn spawn(future: impl Future<Output = ()> + 'static) {
    wasm_bindgen_futures::spawn_local(Box::pin(future) as Task<()>)
}
