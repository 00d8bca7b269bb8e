//! EVM sends (latch_core::send): the transaction to ask the wallet for, Max, gas cost.

use latch_core::format::{Decimal, NumberInput};
use latch_core::send::{self, GasCostInput, MaxSendInput, SendRequest};
use wasm_bindgen::prelude::*;

use crate::input::from_js;
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A send as the form holds it; `tokenAddress` absent for the native coin. */
export interface SendRequest {
  receiverAddress: string;
  amount: number | string;
  decimals: number;
  /** Plain or CAIP-10 token contract. */
  tokenAddress?: string | null;
  /** Whole units held; a larger amount throws `Amount exceeds balance`. */
  balance?: number | string | null;
}
/** `eth_sendTransaction` fields, hex quantities. */
export interface TransactionRequest { to: string; value: string; data: string }
export interface MaxSendInput {
  balance: number | string;
  decimals: number;
  isNative?: boolean | null;
  gasLimit?: string | null;
  gasPrice?: string | null;
}
export interface GasCostInput {
  gasLimit: string;
  gasPrice: string;
  nativeDecimals: number;
  nativePriceUsd?: number | string | null;
}
export interface GasCost { fee: string; feeUsd: string }
"#;

/// The `{to, value, data}` of a native or ERC-20 send; throws for a bad
/// receiver, amount, token or an amount above `balance`.
#[wasm_bindgen(js_name = buildSendTransaction, unchecked_return_type = "TransactionRequest")]
pub fn build_send_transaction(
    #[wasm_bindgen(unchecked_param_type = "SendRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request: SendRequest = from_js("send request", request)?;
    to_js(&send::build_send_transaction(&request).map_err(js_error)?)
}

/// The most that can be sent, whole units: a native Max keeps the gas cost.
#[wasm_bindgen(js_name = maxSendAmount)]
pub fn max_send_amount(
    #[wasm_bindgen(unchecked_param_type = "MaxSendInput")] input: JsValue,
) -> Result<String, JsValue> {
    let input: MaxSendInput = from_js("max send input", input)?;
    send::max_send_amount(&input).map_err(js_error)
}

/// Gas limit × gas price in the native coin and in USD, exact decimals.
#[wasm_bindgen(js_name = gasCost, unchecked_return_type = "GasCost")]
pub fn gas_cost(#[wasm_bindgen(unchecked_param_type = "GasCostInput")] input: JsValue) -> Result<JsValue, JsValue> {
    let input: GasCostInput = from_js("gas cost input", input)?;
    to_js(&send::gas_cost(&input).map_err(js_error)?)
}

/// `amount × price`, exact (e.g. the native balance in USD).
#[wasm_bindgen(js_name = fiatValue)]
pub fn fiat_value(
    #[wasm_bindgen(unchecked_param_type = "number | string")] amount: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | string")] price: JsValue,
) -> Result<String, JsValue> {
    // Read as a number or text first, so a bad one throws latch-core's amount message.
    let decimal = |value: JsValue| -> Result<Decimal, JsValue> {
        from_js::<NumberInput>("amount", value)?.to_decimal().map_err(js_error)
    };
    Ok(send::fiat_value(&decimal(amount)?, &decimal(price)?).to_string())
}
