//! `vectors/address.json` against latch-core (behaviour 2.13).

mod common;

use common::{check_file, text};
use latch_core::address;
use serde_json::json;

#[test]
fn address_vectors() {
    check_file(
        include_str!("../vectors/address.json"),
        &[
            ("toChecksumAddress", |a| {
                Ok(json!(address::to_checksum_address(text(a, 0))?))
            }),
            ("isEvmAddress", |a| Ok(json!(address::is_evm_address(text(a, 0))))),
            ("isValidAddress", |a| {
                Ok(json!(address::is_valid_address(text(a, 0), text(a, 1))))
            }),
            ("isTransactionHash", |a| {
                Ok(json!(address::is_transaction_hash(text(a, 0))))
            }),
            ("isSignedMessage", |a| Ok(json!(address::is_signed_message(text(a, 0))))),
            ("parseBitcoinAddress", |a| {
                Ok(json!(address::parse_bitcoin_address(text(a, 0))?))
            }),
            ("parseSs58Address", |a| {
                Ok(json!(address::parse_ss58_address(text(a, 0))?))
            }),
        ],
    );
}
