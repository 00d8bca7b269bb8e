//! Display formatting (latch_core::format).

use latch_core::format;
use wasm_bindgen::prelude::*;

use crate::input::{decimal, millis, required_decimal};
use crate::js_error;

/// Base units (decimal or `0x` hex) to an exact decimal string.
#[wasm_bindgen(js_name = formatUnits)]
pub fn format_units(value: &str, decimals: u8) -> Result<String, JsValue> {
    format::format_units(value, decimals).map_err(js_error)
}

/// A JSON-RPC quantity from an integer, decimal or `0x`-hex: `hexQuantity("1000")` → `"0x3e8"`.
#[wasm_bindgen(js_name = hexQuantity)]
pub fn hex_quantity(value: &str) -> Result<String, JsValue> {
    format::hex_quantity(value).map_err(js_error)
}

/// Bytes as `0x`-hex (personal_sign's message as EIP-1193 wallets take it).
#[wasm_bindgen(js_name = hexData)]
pub fn hex_data(bytes: &[u8]) -> String {
    format::hex_data(bytes)
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

/// en-US with grouping and exactly `decimals` (default 2) places, rounded:
/// `formatNumber(1234.567)` → `"1,234.57"`.
#[wasm_bindgen(js_name = formatNumber)]
pub fn format_number(
    #[wasm_bindgen(unchecked_param_type = "number | string | null | undefined")] value: JsValue,
    decimals: Option<u8>,
) -> Result<String, JsValue> {
    let value = decimal(&value)?.unwrap_or_default();
    Ok(format::format_number(
        &value,
        decimals.unwrap_or(format::DEFAULT_NUMBER_DECIMALS),
    ))
}

/// A token's fiat value: en-US, 2 decimals, rounded; `0.00` when missing.
#[wasm_bindgen(js_name = formatValue)]
pub fn format_value(
    #[wasm_bindgen(unchecked_param_type = "number | string | null | undefined")] value: JsValue,
) -> Result<String, JsValue> {
    Ok(format::format_value(decimal(&value)?.as_ref()))
}

/// A transfer quantity with its sign by operation type and 3 decimals:
/// `formatQuantity("1234.5678", "receive")` → `"+1,234.568"`.
#[wasm_bindgen(js_name = formatQuantity)]
pub fn format_quantity(
    #[wasm_bindgen(unchecked_param_type = "number | string")] numeric: JsValue,
    #[wasm_bindgen(js_name = "operationType")] operation_type: &str,
) -> Result<String, JsValue> {
    format::format_quantity(&required_decimal(&numeric)?, operation_type).map_err(js_error)
}

/// How long ago, in the largest whole unit, for a UI that words it in its own
/// language: `{ unit: 'justNow' | 'minutes' | 'hours' | 'days' | 'months' | 'years', count }`.
#[wasm_bindgen(js_name = relativeTime, unchecked_return_type = "{ unit: 'justNow' | 'minutes' | 'hours' | 'days' | 'months' | 'years'; count: number }")]
pub fn relative_time(
    #[wasm_bindgen(js_name = "timestampMs")] timestamp_ms: f64,
    #[wasm_bindgen(js_name = "nowMs")] now_ms: f64,
) -> Result<JsValue, JsValue> {
    use format::RelativeUnit;
    let relative = format::relative_time(millis(timestamp_ms)?, millis(now_ms)?);
    let unit = match relative.unit {
        RelativeUnit::JustNow => "justNow",
        RelativeUnit::Minutes => "minutes",
        RelativeUnit::Hours => "hours",
        RelativeUnit::Days => "days",
        RelativeUnit::Months => "months",
        RelativeUnit::Years => "years",
    };
    let result = js_sys::Object::new();
    js_sys::Reflect::set(&result, &"unit".into(), &unit.into())?;
    // i64 counts of years or less fit a JS number exactly.
    js_sys::Reflect::set(&result, &"count".into(), &(relative.count as f64).into())?;
    Ok(result.into())
}

/// How long ago, in the largest whole unit: `just now`, `5 min`, `1 hr`,
/// `2 hrs`, `3 d`, `1 mo`, `1 yr`. Future timestamps show `just now`.
#[wasm_bindgen(js_name = formatRelativeTime)]
pub fn format_relative_time(
    #[wasm_bindgen(js_name = "timestampMs")] timestamp_ms: f64,
    #[wasm_bindgen(js_name = "nowMs")] now_ms: f64,
) -> Result<String, JsValue> {
    Ok(format::format_relative_time(millis(timestamp_ms)?, millis(now_ms)?))
}
