//! Reading structured JS inputs for the core rules: objects through serde,
//! lists element by element so callers get their own objects back.

use std::borrow::Borrow;

use js_sys::Array;
use latch_core::format::Decimal;
use latch_core::Error;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::js_error;

/// Reads `value` as `T`; a wrong shape throws `Invalid {what}: …` naming the field.
pub(crate) fn from_js<T: DeserializeOwned>(what: &'static str, value: JsValue) -> Result<T, JsValue> {
    from_js_or(value, |reason| Error::InvalidInput { what, reason })
}

/// Reads `value` as `T`; a wrong shape throws the error `reject` makes of the
/// deserializer's message (for areas whose spec names its own error).
pub(crate) fn from_js_or<T: DeserializeOwned>(
    value: JsValue,
    reject: impl FnOnce(String) -> Error,
) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|err| {
        // The deserializer's errors are JS `Error`s; their Display would prefix "Error: ".
        let err = JsValue::from(err);
        let reason = match err.dyn_ref::<js_sys::Error>() {
            Some(err) => String::from(err.message()),
            None => format!("{err:?}"),
        };
        js_error(reject(reason))
    })
}

/// A caller's object beside what the core read from it.
pub(crate) struct Record<T> {
    js: JsValue,
    value: T,
}

impl<T> Borrow<T> for Record<T> {
    fn borrow(&self) -> &T {
        &self.value
    }
}

/// Reads every element of the array `list` as a `T` named `what`.
pub(crate) fn records<T: DeserializeOwned>(
    list_name: &'static str,
    what: &'static str,
    list: &JsValue,
) -> Result<Vec<Record<T>>, JsValue> {
    if !Array::is_array(list) {
        return Err(js_error(Error::InvalidInput {
            what: list_name,
            reason: "expected an array".to_owned(),
        }));
    }
    Array::from(list)
        .iter()
        .map(|js| {
            Ok(Record {
                value: from_js(what, js.clone())?,
                js,
            })
        })
        .collect()
}

/// The callers' own objects of `records`, in order.
pub(crate) fn to_array<T>(records: Vec<Record<T>>) -> Array {
    records.into_iter().map(|record| record.js).collect()
}

/// What a number argument of another type is told.
const NOT_A_NUMBER: Error = Error::InvalidAmount {
    reason: "expected a number or decimal text",
};

/// A number or decimal text as an exact decimal; `null` / `undefined` → `None`.
pub(crate) fn decimal(value: &JsValue) -> Result<Option<Decimal>, JsValue> {
    if value.is_null() || value.is_undefined() {
        return Ok(None);
    }
    let parsed = match (value.as_string(), value.as_f64()) {
        (Some(text), _) => text.parse(),
        (None, Some(number)) => Decimal::from_f64(number),
        (None, None) => Err(NOT_A_NUMBER),
    };
    parsed.map(Some).map_err(js_error)
}

/// [`decimal`] where nothing is not an option.
pub(crate) fn required_decimal(value: &JsValue) -> Result<Decimal, JsValue> {
    decimal(value)?.ok_or_else(|| js_error(NOT_A_NUMBER))
}

/// Largest |milliseconds| a JS `Date` holds (±100,000,000 days).
const MAX_DATE_MS: f64 = 8.64e15;

/// A JS millisecond timestamp as whole milliseconds; NaN, infinities and
/// values outside the `Date` range throw `Invalid timestamp`.
pub(crate) fn millis(value: f64) -> Result<i64, JsValue> {
    if value.is_finite() && value.abs() <= MAX_DATE_MS {
        Ok(value.floor() as i64)
    } else {
        Err(js_error(Error::InvalidTimestamp))
    }
}
