//! JSON for the code that must stay small in the browser: [`Value`] with a reader and a writer
//! of its own, typed reads ([`FromValue`]) and writes ([`ToValue`]) written by hand, and the
//! [`json!`](crate::json!) macro. The WalletConnect engine (latch-walletconnect) and the
//! embedded wallet's frame (`embedded`, `eip712`, latch-vault, latch-wasm-vault) read and write
//! JSON through it; the server and other native code keep serde_json.
//!
//! A derived `Deserialize` compiles a field visitor, a map visitor and a
//! sequence visitor into every type, and serde_json's `Value`, its generic
//! serializer and its float code came on top; for the engine's records and
//! frames that was the largest share of the browser module, and in the wallet
//! frame's modules serde_json was 17–31 kB of code each (BENCHMARKS.md).
//! Records say their JSON keys once ([`json_record!`](crate::json_record)),
//! which gives both directions ([`read_fields!`](crate::read_fields) for
//! those only read). Errors name the field, as serde's do.

mod value;

pub use value::{Number, Object, ParseError, Value, MAX_DEPTH};

use crate::map::Map;

/// `text` read as a `T` ([`FromValue`]); `Err` says what is wrong.
pub fn from_json<T: FromValue>(text: &str) -> Result<T, String> {
    T::from_value(&Value::parse(text).map_err(|e| e.to_string())?)
}

/// `value` as JSON text, through its hand-written writer ([`ToValue`]).
pub fn to_json<T: ToValue + ?Sized>(value: &T) -> String {
    value.to_value().to_string()
}

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

impl FromValue for bool {
    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_bool().ok_or_else(|| expected("a boolean", value))
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

// Loops rather than iterator chains collected into a `Result`: these are
// compiled once per item type, and the chains were several times larger.
impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        let items = value.as_array().ok_or_else(|| expected("an array", value))?;
        let mut read = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            read.push(T::from_value(item).map_err(|e| at_index(index, e))?);
        }
        Ok(read)
    }
}

impl<T: FromValue> FromValue for Map<String, T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        object(value)?.try_map_values(|key, item| T::from_value(item).map_err(|e| in_field(key, e)))
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
fn at_index(index: usize, error: String) -> String {
    format!("[{index}]: {error}")
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

/// A type written to JSON by hand.
pub trait ToValue {
    /// It as a JSON value.
    fn to_value(&self) -> Value;

    /// Puts it into `fields` under `key`; an absent [`Option`] is left out,
    /// as the protocol's optional fields are.
    fn put(&self, fields: &mut Object, key: &str) {
        fields.insert(key.to_owned(), self.to_value());
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToValue for () {
    /// `null`, as a JS promise of nothing resolves to.
    fn to_value(&self) -> Value {
        Value::Null
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

/// Integers, through `u64` or `i64`.
macro_rules! integers_to_value {
    ($($int:ty => $via:ty),*) => {$(
        impl ToValue for $int {
            fn to_value(&self) -> Value {
                Value::from(<$via>::from(*self))
            }
        }
    )*};
}
integers_to_value!(u64 => u64, u32 => u64, u16 => u64, u8 => u64, i64 => i64, i32 => i64);

impl ToValue for usize {
    fn to_value(&self) -> Value {
        // usize is at most 64 bits on every target Latch builds for.
        Value::from(*self as u64)
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        T::to_value(self)
    }
}

impl<T: ToValue> ToValue for Option<T> {
    /// `null` for `None`.
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }

    fn put(&self, fields: &mut Object, key: &str) {
        if let Some(value) = self {
            value.put(fields, key);
        }
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(T::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

impl<T: ToValue> ToValue for Map<String, T> {
    fn to_value(&self) -> Value {
        let Ok(fields) = self.try_map_values(|_, item| Ok::<_, std::convert::Infallible>(item.to_value()));
        Value::Object(fields)
    }
}

/// [`FromValue`] for a struct read field by field from a JSON object, each
/// field with [`field`], [`optional`] or [`or_default`] under its JSON key:
/// `read_fields!(Peer { public_key: field("publicKey"), metadata: field("metadata") });`
#[macro_export]
#[doc(hidden)]
macro_rules! read_fields {
    ($type:ident { $($name:ident: $how:ident($key:literal)),* $(,)? }) => {
        impl $crate::json::FromValue for $type {
            fn from_value(value: &$crate::json::Value) -> std::result::Result<Self, String> {
                let fields = $crate::json::object(value)?;
                Ok(Self { $($name: $crate::json::$how(fields, $key)?),* })
            }
        }
    };
}

/// [`read_fields!`](crate::read_fields) and the matching [`ToValue`], for a
/// struct kept as a JSON object both ways: each field is written under the
/// same key as it is, an absent `Option` left out.
#[macro_export]
#[doc(hidden)]
macro_rules! json_record {
    ($type:ident { $($name:ident: $how:ident($key:literal)),* $(,)? }) => {
        $crate::read_fields!($type { $($name: $how($key)),* });

        impl $crate::json::ToValue for $type {
            fn to_value(&self) -> $crate::json::Value {
                let mut fields = $crate::json::Object::new();
                $($crate::json::ToValue::put(&self.$name, &mut fields, $key);)*
                $crate::json::Value::Object(fields)
            }
        }
    };
}

/// A [`Value`] written as JSON, with Rust expressions (anything [`ToValue`])
/// in place of values: `json!({ "id": id, "params": [topic, null] })`.
#[macro_export]
macro_rules! json {
    (null) => { $crate::json::Value::Null };
    ([ $($items:tt)* ]) => { $crate::json::Value::Array($crate::json_items!([] $($items)*)) };
    ({ $($fields:tt)* }) => {{
        #[allow(unused_mut)]
        let mut fields = $crate::json::Object::new();
        $crate::json_fields!(fields $($fields)*);
        $crate::json::Value::Object(fields)
    }};
    ($other:expr) => { $crate::json::ToValue::to_value(&$other) };
}

/// [`json!`](crate::json!)'s array items, one at a time.
#[macro_export]
#[doc(hidden)]
macro_rules! json_items {
    ([$($done:expr),*]) => { vec![$($done),*] };
    ([$($done:expr),*] null $(, $($rest:tt)*)?) => {
        $crate::json_items!([$($done,)* $crate::json::Value::Null] $($($rest)*)?)
    };
    ([$($done:expr),*] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::json_items!([$($done,)* $crate::json!([$($inner)*])] $($($rest)*)?)
    };
    ([$($done:expr),*] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::json_items!([$($done,)* $crate::json!({$($inner)*})] $($($rest)*)?)
    };
    ([$($done:expr),*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::json_items!([$($done,)* $crate::json!($next)] $($($rest)*)?)
    };
}

/// [`json!`](crate::json!)'s object fields, one at a time, into `$fields`.
#[macro_export]
#[doc(hidden)]
macro_rules! json_fields {
    ($fields:ident) => {};
    ($fields:ident $key:tt : null $(, $($rest:tt)*)?) => {
        $fields.insert(($key).into(), $crate::json::Value::Null);
        $crate::json_fields!($fields $($($rest)*)?);
    };
    ($fields:ident $key:tt : [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $fields.insert(($key).into(), $crate::json!([$($inner)*]));
        $crate::json_fields!($fields $($($rest)*)?);
    };
    ($fields:ident $key:tt : {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $fields.insert(($key).into(), $crate::json!({$($inner)*}));
        $crate::json_fields!($fields $($($rest)*)?);
    };
    ($fields:ident $key:tt : $value:expr $(, $($rest:tt)*)?) => {
        $fields.insert(($key).into(), $crate::json!($value));
        $crate::json_fields!($fields $($($rest)*)?);
    };
}

#[cfg(test)]
mod tests {
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
