//! The Swap form's amount checks (latch_core::swap::form).

use latch_core::swap::form::{self, SwapAmountInput};
use wasm_bindgen::prelude::*;

use crate::input::from_js;
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface SwapAmountInput {
  amount: number | string;
  decimals: number;
  /** Whole units held. */
  balance?: number | string | null;
  /** Base units the router may spend; absent for the native coin. */
  allowance?: string | null;
}
export interface SwapAmount { units: string; exceedsBalance: boolean; needsApproval: boolean }
"#;

/// The amount in base units, and whether it exceeds the balance or the allowance;
/// throws `Invalid amount: …` for zero, negative or too precise amounts.
#[wasm_bindgen(js_name = swapAmount, unchecked_return_type = "SwapAmount")]
pub fn swap_amount(
    #[wasm_bindgen(unchecked_param_type = "SwapAmountInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let input: SwapAmountInput = from_js("swap amount", input)?;
    to_js(&form::swap_amount(&input).map_err(js_error)?)
}
