//! `vectors/address.json` against latch-core (spec §5).

mod common;

use common::{check_file, text};
use latch_core::address;
use serde_json::json;

#[test]
fn address_vectors() {
    check_file(
        include_str!("../vectors/address.json"),
        &[("toChecksumAddress", |a| {
            Ok(json!(address::to_checksum_address(text(a, 0))?))
        })],
    );
}
