//! `vectors/constants.json` against latch-core (behaviour 2.6, 7).

mod common;

use latch_core::constants::CONSTANTS;
use latch_core::timing;
use serde_json::{json, Value};

/// The argument at `index` as milliseconds, converted as `@latch/wasm` converts JS numbers.
fn millis(args: &[Value], index: usize) -> latch_core::Result<u64> {
    timing::timestamp_from_js(args[index].as_f64().expect("a number"))
}

#[test]
fn constants_vectors() {
    common::check_file(
        include_str!("../vectors/constants.json"),
        &[
            ("constants", |_| {
                Ok(serde_json::to_value(CONSTANTS).expect("serialisable"))
            }),
            ("pairingExpiry", |a| Ok(json!(timing::pairing_expiry(millis(a, 0)?)))),
            ("isPairingNearExpiry", |a| {
                Ok(json!(timing::is_pairing_near_expiry(millis(a, 0)?, millis(a, 1)?)))
            }),
            ("canRetryPairing", |a| {
                Ok(json!(timing::can_retry_pairing(millis(a, 0)?, millis(a, 1)?)))
            }),
        ],
    );
}
