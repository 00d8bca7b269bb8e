//! `@latch/wasm`: latch-core for JavaScript. As thin as possible: each export
//! converts arguments, calls one core rule and converts the result. Errors
//! become JS `Error`s whose message is the spec's text and whose `code` is
//! [`latch_core::Error::code`].

use latch_core::{address, caip, format};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface CaipNetworkIdParts { namespace: string; reference: string }
export interface CaipAddressParts { namespace: string; reference: string; address: string; caipNetworkId: string }
"#;

fn js_error(err: latch_core::Error) -> JsValue {
    let error = js_sys::Error::new(&err.to_string());
    // Setting a plain data property on a fresh Error cannot fail.
    let _ = js_sys::Reflect::set(&error, &"code".into(), &err.code().into());
    error.into()
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::Error::new(&e.to_string()).into())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AddressParts<'a> {
    namespace: &'a str,
    reference: &'a str,
    address: &'a str,
    caip_network_id: String,
}

/// The version of latch-core this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// Splits `namespace:reference`; throws `Invalid CAIP-2 network id`.
#[wasm_bindgen(js_name = parseCaipNetworkId, unchecked_return_type = "CaipNetworkIdParts")]
pub fn parse_caip_network_id(id: &str) -> Result<JsValue, JsValue> {
    to_js(&caip::CaipNetworkId::parse(id).map_err(js_error)?)
}

/// The CAIP-2 id of an EVM chain id as `eth_chainId` answers it: `0x7a69` → `eip155:31337`.
#[wasm_bindgen(js_name = eip155NetworkId)]
pub fn eip155_network_id(chain_id: &str) -> Result<String, JsValue> {
    caip::CaipNetworkId::eip155(chain_id)
        .map(|id| id.to_string())
        .map_err(js_error)
}

fn address_parts(parsed: &caip::CaipAddress) -> Result<JsValue, JsValue> {
    to_js(&AddressParts {
        namespace: &parsed.network.namespace,
        reference: &parsed.network.reference,
        address: &parsed.address,
        caip_network_id: parsed.network.to_string(),
    })
}

/// Splits `namespace:reference:address`; throws `Invalid CAIP-10 address`.
#[wasm_bindgen(js_name = parseCaipAddress, unchecked_return_type = "CaipAddressParts")]
pub fn parse_caip_address(caip_address: &str) -> Result<JsValue, JsValue> {
    address_parts(&caip::CaipAddress::parse(caip_address).map_err(js_error)?)
}

/// Checks an address reported by a connector; throws `Invalid CAIP Address`.
#[wasm_bindgen(js_name = validateCaipAddress)]
pub fn validate_caip_address(caip_address: &str) -> Result<(), JsValue> {
    caip::CaipAddress::validate(caip_address).map(drop).map_err(js_error)
}

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
