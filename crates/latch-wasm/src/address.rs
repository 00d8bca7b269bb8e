//! Chain addresses (latch_core::address).

use latch_core::address;
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface BitcoinAddressInfo {
  /** Base58 regtest addresses share testnet's version bytes, so they read as `testnet`. */
  network: 'mainnet' | 'testnet' | 'regtest';
  /** `segwit`: another witness version or program length, valid but not yet given meaning. */
  type: 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'segwit';
}
export interface Ss58AddressInfo {
  /** Network prefix: 0 Polkadot, 2 Kusama, 42 generic Substrate, … */
  prefix: number;
  /** The 32-byte account id, `0x` + 64 lower-case hex. */
  publicKeyHex: string;
}
"#;

/// Optional `0x` plus 40 hex digits.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = isEvmAddress)]
pub fn is_evm_address(value: &str) -> bool {
    address::is_evm_address(value)
}

/// The EIP-55 form; throws `Invalid EVM address` (also for a wrong mixed-case checksum).
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = toChecksumAddress)]
pub fn to_checksum_address(value: &str) -> Result<String, JsValue> {
    address::to_checksum_address(value).map_err(js_error)
}

/// Whether `address` is valid in the CAIP-2 namespace (`eip155`, `solana`,
/// `bip122`, `polkadot`); any other namespace is `false`.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = isValidAddress)]
pub fn is_valid_address(namespace: &str, address: &str) -> bool {
    address::is_valid_address(namespace, address)
}

/// `0x` plus 64 hex digits.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = isTransactionHash)]
pub fn is_transaction_hash(value: &str) -> bool {
    address::is_transaction_hash(value)
}

/// `0x` plus at least 62 hex digits.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = isSignedMessage)]
pub fn is_signed_message(value: &str) -> bool {
    address::is_signed_message(value)
}

/// Network and output type of a Bitcoin address; throws `Invalid Bitcoin address`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = parseBitcoinAddress, unchecked_return_type = "BitcoinAddressInfo")]
pub fn parse_bitcoin_address(address: &str) -> Result<JsValue, JsValue> {
    to_js(&address::parse_bitcoin_address(address).map_err(js_error)?)
}

/// Network prefix and account id of an SS58 address; throws `Invalid SS58 address`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = parseSs58Address, unchecked_return_type = "Ss58AddressInfo")]
pub fn parse_ss58_address(address: &str) -> Result<JsValue, JsValue> {
    to_js(&address::parse_ss58_address(address).map_err(js_error)?)
}
