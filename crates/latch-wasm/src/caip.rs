//! CAIP-2 / CAIP-10 identifiers (latch_core::caip).

use latch_core::caip;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface CaipNetworkIdParts { namespace: string; reference: string }
export interface CaipAddressParts { namespace: string; reference: string; address: string; caipNetworkId: string }
"#;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AddressParts<'a> {
    namespace: &'a str,
    reference: &'a str,
    address: &'a str,
    caip_network_id: String,
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

/// The hex chain id EIP-1193 wallets take for `eip155:…` (`eip155:31337` → `0x7a69`);
/// throws `Invalid CAIP-2 network id` for anything else.
#[wasm_bindgen(js_name = eip155ChainIdHex)]
pub fn eip155_chain_id_hex(
    #[wasm_bindgen(js_name = "caipNetworkId")] caip_network_id: &str,
) -> Result<String, JsValue> {
    caip::CaipNetworkId::parse(caip_network_id)
        .and_then(|id| id.eip155_chain_id_hex())
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
