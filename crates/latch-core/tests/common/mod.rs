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
