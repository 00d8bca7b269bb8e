//! `vectors/caip.json` against latch-core (behaviour 2.12).

mod common;

use common::{check_file, text};
use latch_core::caip::{CaipAddress, CaipNetworkId};
use serde_json::{json, Value};

#[test]
fn caip_vectors() {
    check_file(
        include_str!("../vectors/caip.json"),
        &[
            ("parseCaipNetworkId", |a| {
                Ok(serde_json::to_value(CaipNetworkId::parse(text(a, 0))?).unwrap())
            }),
            ("parseCaipAddress", |a| {
                let parsed = CaipAddress::parse(text(a, 0))?;
                Ok(json!({
                    "namespace": parsed.network.namespace,
                    "reference": parsed.network.reference,
                    "address": parsed.address,
                    "caipNetworkId": parsed.network.to_string(),
                }))
            }),
            ("validateCaipAddress", |a| {
                CaipAddress::validate(text(a, 0)).map(|_| Value::Null)
            }),
            ("eip155NetworkId", |a| {
                Ok(json!(CaipNetworkId::eip155(text(a, 0))?.to_string()))
            }),
        ],
    );
}
