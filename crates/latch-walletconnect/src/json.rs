//! Typed reads from a [`Value`], written by hand.
//!
//! A derived `Deserialize` compiles a field visitor, a map visitor and a
//! sequence visitor into every type; for the engine's records and frames that
//! was a large share of the browser module (BENCHMARKS.md). These types read
//! their fields from a `Value` instead ([`FromValue`], [`read_fields!`](crate::read_fields),
//! [`crate::from_json`] for text). Writes stay derived: a hand-written writer
//! measured larger than serde's (BENCHMARKS.md). Errors name the field, as
//! serde's do.

use serde_json::Value;

use crate::map::Map;

/// A JSON object's fields.
pub type Object = serde_json::Map<String, Value>;

/// A type read from JSON by hand.
pub trait FromValue: Sized {
    /// Reads `value`; `Err` says what is wrong with it.
    fn from_value(value: &Value) -> Result<Self, String>;
}

impl FromValue for String {
    fn from_value(value: &Value) -> Result<Self, String> {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| expected("a string", value))
    }
}

impl FromValue for u64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_u64().ok_or_else(|| expected("an unsigned integer", value))
    }
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_i64().ok_or_else(|| expected("an integer", value))
    }
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    /// `None` for `null`.
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            value => T::from_value(value).map(Some),
        }
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        let items = value.as_array().ok_or_else(|| expected("an array", value))?;
        items
            .iter()
            .enumerate()
            .map(|(index, item)| T::from_value(item).map_err(|e| format!("[{index}]: {e}")))
            .collect()
    }
}

impl<T: FromValue> FromValue for Map<String, T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        object(value)?
            .iter()
            .map(|(key, item)| Ok((key.clone(), T::from_value(item).map_err(|e| format!("{key}: {e}"))?)))
            .collect()
    }
}

/// `value`'s fields, when it is an object.
pub fn object(value: &Value) -> Result<&Object, String> {
    value.as_object().ok_or_else(|| expected("an object", value))
}

/// Field `key`, which must be there.
pub fn field<T: FromValue>(fields: &Object, key: &str) -> Result<T, String> {
    match fields.get(key) {
        Some(value) => T::from_value(value).map_err(|e| in_field(key, e)),
        None => Err(missing(key)),
    }
}

/// Field `key`, `None` when absent or null.
pub fn optional<T: FromValue>(fields: &Object, key: &str) -> Result<Option<T>, String> {
    match fields.get(key) {
        None => Ok(None),
        Some(value) => Option::<T>::from_value(value).map_err(|e| in_field(key, e)),
    }
}

// The messages are built out of line: inlined, `format!` was copied into every
// instance of `field` and `optional` (one per field type) in the wasm module.
#[cold]
#[inline(never)]
fn in_field(key: &str, error: String) -> String {
    format!("{key}: {error}")
}

#[cold]
#[inline(never)]
fn missing(key: &str) -> String {
    format!("missing field `{key}`")
}

/// Field `key`, its default when absent or null.
pub fn or_default<T: FromValue + Default>(fields: &Object, key: &str) -> Result<T, String> {
    optional(fields, key).map(Option::unwrap_or_default)
}

fn expected(what: &str, value: &Value) -> String {
    let found = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("expected {what}, found {found}")
}

/// [`FromValue`] for a struct read field by field from a JSON object, each
/// field with [`field`], [`optional`] or [`or_default`] under its JSON key:
/// `read_fields!(Peer { public_key: field("publicKey"), metadata: field("metadata") });`
#[macro_export]
#[doc(hidden)]
macro_rules! read_fields {
    ($type:ident { $($name:ident: $how:ident($key:literal)),* $(,)? }) => {
        impl $crate::json::FromValue for $type {
            fn from_value(value: &serde_json::Value) -> std::result::Result<Self, String> {
                let fields = $crate::json::object(value)?;
                Ok(Self { $($name: $crate::json::$how(fields, $key)?),* })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn errors_name_the_field() {
        let fields = json!({"a": 1, "b": ["x", 2], "c": null});
        let fields = object(&fields).unwrap();
        assert_eq!(field::<u64>(fields, "a"), Ok(1));
        assert_eq!(
            field::<Vec<String>>(fields, "b"),
            Err("b: [1]: expected a string, found a number".into())
        );
        assert_eq!(field::<u64>(fields, "z"), Err("missing field `z`".into()));
        assert_eq!(optional::<u64>(fields, "c"), Ok(None));
        assert_eq!(or_default::<Vec<String>>(fields, "z"), Ok(vec![]));
        assert_eq!(object(&json!([1])).unwrap_err(), "expected an object, found an array");
        assert_eq!(
            u64::from_value(&json!(-1)).unwrap_err(),
            "expected an unsigned integer, found a number"
        );
    }
}
