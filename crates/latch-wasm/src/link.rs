//! Wallet deep links (latch_core::link).

use latch_core::link;
use wasm_bindgen::prelude::*;

use crate::js_error;

/// `metamask://wc?uri=…` (an `http(s)` app URL gives a universal link instead);
/// throws `Invalid app URL: …` for an unusable app URL.
#[wasm_bindgen(js_name = buildNativeDeepLink)]
pub fn build_native_deep_link(app_url: &str, wc_uri: &str) -> Result<String, JsValue> {
    link::build_native_deep_link(app_url, wc_uri).map_err(js_error)
}

/// `https://app.example/wc?uri=…`; throws `Invalid app URL: …` unless the app URL is `http(s)://host…`.
#[wasm_bindgen(js_name = buildUniversalLink)]
pub fn build_universal_link(app_url: &str, wc_uri: &str) -> Result<String, JsValue> {
    link::build_universal_link(app_url, wc_uri).map_err(js_error)
}
