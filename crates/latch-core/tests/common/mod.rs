//! Runs a `vectors/<area>.json` file against Rust implementations.

// Each test binary uses a subset of these helpers.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;

use latch_core::Result;
use serde_json::Value;

/// How one `@latch/wasm` function is computed in Rust, from the case's argument list.
pub type Runner = fn(&[Value]) -> Result<Value>;

/// Checks every case of `file` (the JSON text) with `runners`, which must name every key in it.
pub fn check_file(file: &str, runners: &[(&str, Runner)]) {
    let vectors: BTreeMap<String, Vec<Value>> = serde_json::from_str(file).expect("vector file is JSON");
    let runners: BTreeMap<&str, Runner> = runners.iter().copied().collect();
    for (name, cases) in &vectors {
        let run = runners
            .get(name.as_str())
            .unwrap_or_else(|| panic!("no Rust runner for vectors of {name}"));
        assert!(!cases.is_empty(), "{name} has no cases");
        for case in cases {
            let args = case["input"]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: input must be an array: {case}"));
            let got = run(args);
            match (&got, case.get("error")) {
                (Ok(value), None) => assert_eq!(value, &case["expected"], "{name}{:?}", args),
                (Err(err), Some(want)) => assert_eq!(err.to_string(), want.as_str().unwrap(), "{name}{:?}", args),
                _ => panic!("{name}{args:?}: got {got:?}, want {case}"),
            }
        }
    }
    for name in runners.keys() {
        assert!(vectors.contains_key(*name), "runner {name} has no vectors");
    }
}

/// The argument at `index` as text.
pub fn text(args: &[Value], index: usize) -> &str {
    args[index]
        .as_str()
        .unwrap_or_else(|| panic!("argument {index} must be a string: {args:?}"))
}

/// The argument at `index` as optional text (`null` → `None`).
pub fn opt_text(args: &[Value], index: usize) -> Option<&str> {
    args.get(index).and_then(Value::as_str)
}

// What `@latch/wasm` does to structured and numeric arguments, done to JSON
// values, so the runners of format, history and validate vectors see the
// same inputs the wasm functions do.

/// A caller's record beside what the core read from it.
pub struct Record<T> {
    pub json: Value,
    pub value: T,
}

impl<T> std::borrow::Borrow<T> for Record<T> {
    fn borrow(&self) -> &T {
        &self.value
    }
}

/// Every element of the array `list` read as a `T` named `what`.
pub fn records<T: serde::de::DeserializeOwned>(
    list_name: &'static str,
    what: &'static str,
    list: &Value,
) -> Result<Vec<Record<T>>> {
    let items = list.as_array().ok_or_else(|| latch_core::Error::InvalidInput {
        what: list_name,
        reason: "expected an array".to_owned(),
    })?;
    items
        .iter()
        .map(|json| {
            Ok(Record {
                value: latch_core::validate::deserialize_input(what, json.clone())?,
                json: json.clone(),
            })
        })
        .collect()
}

/// The records' own values, in order.
pub fn to_array<T>(records: Vec<Record<T>>) -> Value {
    Value::Array(records.into_iter().map(|r| r.json).collect())
}

/// A number or decimal text as an exact decimal; `null` or absent → `None`.
pub fn decimal(args: &[Value], index: usize) -> Result<Option<latch_core::format::Decimal>> {
    match args.get(index).unwrap_or(&Value::Null) {
        Value::Null => Ok(None),
        Value::String(text) => text.parse().map(Some),
        Value::Number(n) => latch_core::format::Decimal::from_f64(n.as_f64().unwrap()).map(Some),
        _ => Err(not_a_number()),
    }
}

/// [`decimal`] where nothing is not an option.
pub fn required_decimal(args: &[Value], index: usize) -> Result<latch_core::format::Decimal> {
    decimal(args, index)?.ok_or_else(not_a_number)
}

fn not_a_number() -> latch_core::Error {
    latch_core::Error::InvalidAmount {
        reason: "expected a number or decimal text",
    }
}

/// The argument at `index` as whole milliseconds.
pub fn millis(args: &[Value], index: usize) -> i64 {
    args[index]
        .as_f64()
        .unwrap_or_else(|| panic!("argument {index} must be a number: {args:?}"))
        .floor() as i64
}
