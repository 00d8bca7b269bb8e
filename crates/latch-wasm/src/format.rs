//! Display formatting (latch_core::format).

use latch_core::format;
use wasm_bindgen::prelude::*;

use crate::js_error;

/// Base units (decimal or `0x` hex) to an exact decimal string.
#[wasm_bindgen(js_name = formatUnits)]
pub fn format_units(value: &str, decimals: u8) -> Result<String, JsValue> {
    format::format_units(value, decimals).map_err(js_error)
}

/// Floored to 3 decimals, `0.000` when missing or zero, then the symbol.
#[wasm_bindgen(js_name = formatBalance)]
pub fn format_balance(balance: Option<String>, symbol: Option<String>) -> Result<String, JsValue> {
    format::format_balance(balance.as_deref(), symbol.as_deref()).map_err(js_error)
}

/// First 4 and last 6 characters: `0x70...dc79C8`.
#[wasm_bindgen(js_name = truncateAddress)]
pub fn truncate_address(address: &str) -> String {
    format::truncate_address(address)
}
