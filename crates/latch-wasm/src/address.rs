//! Chain addresses (latch_core::address).

use latch_core::address;
use wasm_bindgen::prelude::*;

use crate::js_error;

/// Optional `0x` plus 40 hex digits.
#[wasm_bindgen(js_name = isEvmAddress)]
pub fn is_evm_address(value: &str) -> bool {
    address::is_evm_address(value)
}

/// The EIP-55 form; throws `Invalid EVM address` (also for a wrong mixed-case checksum).
#[wasm_bindgen(js_name = toChecksumAddress)]
pub fn to_checksum_address(value: &str) -> Result<String, JsValue> {
    address::to_checksum_address(value).map_err(js_error)
}
