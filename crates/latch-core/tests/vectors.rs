//! The shared vectors (`vectors.json`) against latch-core; the same file runs
//! against @latch/wasm in Node, so both sides of the wasm boundary agree.

use latch_core::{address, caip, format, Result};
use serde_json::{json, Value};

fn check(name: &str, run: impl Fn(&Value) -> Result<Value>) {
    let vectors: Value = serde_json::from_str(include_str!("vectors.json")).unwrap();
    let cases = vectors[name]
        .as_array()
        .unwrap_or_else(|| panic!("no vectors for {name}"));
    assert!(!cases.is_empty());
    for case in cases {
        let got = run(&case["input"]);
        match (&got, case.get("error")) {
            (Ok(value), None) => assert_eq!(value, &case["expected"], "{name} {}", case["input"]),
            (Err(err), Some(want)) => assert_eq!(err.to_string(), want.as_str().unwrap(), "{name} {}", case["input"]),
            _ => panic!("{name} {}: got {got:?}, want {case}", case["input"]),
        }
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap()
}

#[test]
fn caip() {
    check("parseCaipNetworkId", |v| {
        Ok(serde_json::to_value(caip::CaipNetworkId::parse(text(v))?).unwrap())
    });
    check("parseCaipAddress", |v| {
        let a = caip::CaipAddress::parse(text(v))?;
        Ok(
            json!({"namespace": a.network.namespace, "reference": a.network.reference, "address": a.address, "caipNetworkId": a.network.to_string()}),
        )
    });
    check("validateCaipAddress", |v| {
        caip::CaipAddress::validate(text(v)).map(|_| Value::Null)
    });
    check("eip155NetworkId", |v| {
        Ok(json!(caip::CaipNetworkId::eip155(text(v))?.to_string()))
    });
}

#[test]
fn addresses_and_formatting() {
    check("toChecksumAddress", |v| {
        Ok(json!(address::to_checksum_address(text(v))?))
    });
    check("formatUnits", |v| {
        Ok(json!(format::format_units(text(&v[0]), v[1].as_u64().unwrap() as u8)?))
    });
    check("formatBalance", |v| {
        Ok(json!(format::format_balance(v[0].as_str(), v[1].as_str())?))
    });
    check("truncateAddress", |v| Ok(json!(format::truncate_address(text(v)))));
}
