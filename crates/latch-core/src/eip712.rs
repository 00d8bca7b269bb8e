//! EIP-712 typed data (`eth_signTypedData_v4`): the digest a key signs.
//! Written here rather than taken from alloy-dyn-abi: that crate's resolver,
//! type parser and derived serde code cost the embedded-wallet frame's wasm
//! 45 kB gzip of an 80 kB budget (ARCHITECTURE.md, "Embedded-wallet keys");
//! this reads latch-core's own JSON [`Value`] (`crate::json`), as the rest of
//! the frame's code does (serde_json is not in the frame's modules). Tests
//! check it against EIP-712's example and against alloy-dyn-abi.

use std::collections::{BTreeMap, BTreeSet};

use alloy_primitives::{keccak256, Address, B256, U256};

use crate::json::{Object, Value};
use crate::{Error, Result};

/// Deepest nesting of structs and arrays read: a hostile request cannot
/// exhaust the stack.
const MAX_DEPTH: usize = 32;

fn invalid(reason: impl Into<String>) -> Error {
    Error::InvalidInput {
        what: "typed data",
        reason: reason.into(),
    }
}

/// One member of a struct type.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Member {
    name: String,
    kind: String,
}

type Types = BTreeMap<String, Vec<Member>>;

/// Parsed typed data: types, primary type, domain and message.
#[derive(Debug, Clone)]
pub struct TypedData {
    types: Types,
    primary_type: String,
    domain: Object,
    message: Value,
}

/// The domain members EIP-712 names, in its order, and their types: used
/// when a request leaves `EIP712Domain` out of `types`.
const DOMAIN_FIELDS: [(&str, &str); 5] = [
    ("name", "string"),
    ("version", "string"),
    ("chainId", "uint256"),
    ("verifyingContract", "address"),
    ("salt", "bytes32"),
];

impl TypedData {
    /// Reads `eth_signTypedData_v4`'s JSON (an object, or the same as a string).
    pub fn parse(json: &str) -> Result<TypedData> {
        let value = Value::parse(json).map_err(|e| invalid(e.to_string()))?;
        TypedData::from_value(value)
    }

    /// Reads the typed data from a JSON value.
    pub fn from_value(value: Value) -> Result<TypedData> {
        let Value::Object(mut object) = value else {
            return Err(invalid("typed data is an object"));
        };
        let Some(Value::Object(raw_types)) = object.remove("types") else {
            return Err(invalid("types is an object"));
        };
        let Some(Value::String(primary_type)) = object.remove("primaryType") else {
            return Err(invalid("primaryType is a string"));
        };
        let domain = match object.remove("domain") {
            Some(Value::Object(domain)) => domain,
            None => Object::new(),
            Some(_) => return Err(invalid("domain is an object")),
        };
        let message = object.remove("message").unwrap_or(Value::Object(Object::new()));
        let mut types = Types::new();
        for (name, members) in raw_types {
            check_struct_name(&name)?;
            let Value::Array(members) = members else {
                return Err(invalid(format!("types.{name} is an array")));
            };
            let mut list = Vec::with_capacity(members.len());
            for member in members {
                let (Some(Value::String(field)), Some(Value::String(kind))) = (member.get("name"), member.get("type"))
                else {
                    return Err(invalid(format!("each member of {name} has a name and a type")));
                };
                list.push(Member {
                    name: field.clone(),
                    kind: kind.clone(),
                });
            }
            types.insert(name, list);
        }
        if !types.contains_key("EIP712Domain") {
            let inferred = DOMAIN_FIELDS
                .iter()
                .filter(|(name, _)| domain.contains_key(*name))
                .map(|(name, kind)| Member {
                    name: (*name).to_owned(),
                    kind: (*kind).to_owned(),
                })
                .collect();
            types.insert("EIP712Domain".to_owned(), inferred);
        }
        for members in types.values() {
            for member in members {
                check_type(&types, &member.kind)?;
            }
        }
        if !types.contains_key(&primary_type) {
            return Err(invalid(format!("primaryType {primary_type} is not in types")));
        }
        Ok(TypedData {
            types,
            primary_type,
            domain,
            message,
        })
    }

    /// The primary type's name.
    pub fn primary_type(&self) -> &str {
        &self.primary_type
    }

    /// The domain's members, as given (what the approval view shows).
    pub fn domain(&self) -> &Object {
        &self.domain
    }

    /// The message, as given.
    pub fn message(&self) -> &Value {
        &self.message
    }

    /// `keccak256(0x1901 ‖ hashStruct(domain) ‖ hashStruct(message))`, or
    /// without the message part when the primary type is `EIP712Domain`.
    pub fn signing_hash(&self) -> Result<B256> {
        let domain = hash_struct(&self.types, "EIP712Domain", &Value::Object(self.domain.clone()), 0)?;
        let mut out = Vec::with_capacity(66);
        out.extend_from_slice(&[0x19, 0x01]);
        out.extend_from_slice(domain.as_slice());
        if self.primary_type != "EIP712Domain" {
            out.extend_from_slice(hash_struct(&self.types, &self.primary_type, &self.message, 0)?.as_slice());
        }
        Ok(keccak256(out))
    }
}

/// The EIP-712 digest of `eth_signTypedData_v4`'s JSON.
pub fn signing_hash(json: &str) -> Result<B256> {
    TypedData::parse(json)?.signing_hash()
}

fn check_struct_name(name: &str) -> Result<()> {
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ok {
        Ok(())
    } else {
        Err(invalid(format!("{name:?} is not a type name")))
    }
}

/// `T[]` or `T[n]`: the element type and the fixed length, if any.
fn split_array(kind: &str) -> Option<(&str, Option<usize>)> {
    let inner = kind.strip_suffix(']')?;
    let open = inner.rfind('[')?;
    let (element, length) = (&inner[..open], &inner[open + 1..]);
    if length.is_empty() {
        Some((element, None))
    } else {
        length.parse().ok().map(|n| (element, Some(n)))
    }
}

/// Bits of `uintN` / `intN` (`uint` is 256), if `kind` is one.
fn int_bits(kind: &str, prefix: &str) -> Option<usize> {
    let digits = kind.strip_prefix(prefix)?;
    if digits.is_empty() {
        return Some(256);
    }
    let bits: usize = digits.parse().ok()?;
    (bits % 8 == 0 && (8..=256).contains(&bits) && !digits.starts_with('0')).then_some(bits)
}

fn bytes_len(kind: &str) -> Option<usize> {
    let digits = kind.strip_prefix("bytes")?;
    let n: usize = digits.parse().ok()?;
    ((1..=32).contains(&n) && !digits.starts_with('0')).then_some(n)
}

fn check_type(types: &Types, kind: &str) -> Result<()> {
    if let Some((element, _)) = split_array(kind) {
        return check_type(types, element);
    }
    let atomic = matches!(kind, "address" | "bool" | "string" | "bytes")
        || int_bits(kind, "uint").is_some()
        || int_bits(kind, "int").is_some()
        || bytes_len(kind).is_some();
    if atomic || types.contains_key(kind) {
        Ok(())
    } else {
        Err(invalid(format!("unknown type {kind}")))
    }
}

fn base_struct<'a>(types: &Types, kind: &'a str) -> Option<&'a str> {
    let mut kind = kind;
    while let Some((element, _)) = split_array(kind) {
        kind = element;
    }
    types.contains_key(kind).then_some(kind)
}

/// `encodeType`: the primary type, then every struct it references, sorted.
fn encode_type(types: &Types, primary: &str) -> String {
    let mut found = BTreeSet::new();
    let mut stack = vec![primary.to_owned()];
    while let Some(name) = stack.pop() {
        for member in types.get(&name).map(Vec::as_slice).unwrap_or_default() {
            if let Some(dep) = base_struct(types, &member.kind) {
                if dep != primary && found.insert(dep.to_owned()) {
                    stack.push(dep.to_owned());
                }
            }
        }
    }
    let mut out = String::new();
    for name in std::iter::once(primary).chain(found.iter().map(String::as_str)) {
        out.push_str(name);
        out.push('(');
        let members = types.get(name).map(Vec::as_slice).unwrap_or_default();
        for (i, member) in members.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&member.kind);
            out.push(' ');
            out.push_str(&member.name);
        }
        out.push(')');
    }
    out
}

fn hash_struct(types: &Types, name: &str, value: &Value, depth: usize) -> Result<B256> {
    if depth > MAX_DEPTH {
        return Err(invalid("nested too deeply"));
    }
    let Value::Object(object) = value else {
        return Err(invalid(format!("a {name} is an object")));
    };
    let members = types.get(name).ok_or_else(|| invalid(format!("unknown type {name}")))?;
    let mut out = Vec::with_capacity(32 * (members.len() + 1));
    out.extend_from_slice(keccak256(encode_type(types, name)).as_slice());
    for member in members {
        let field = object
            .get(&member.name)
            .ok_or_else(|| invalid(format!("{name}.{} is missing", member.name)))?;
        out.extend_from_slice(encode_value(types, &member.kind, field, depth + 1)?.as_slice());
    }
    Ok(keccak256(out))
}

fn encode_value(types: &Types, kind: &str, value: &Value, depth: usize) -> Result<B256> {
    if depth > MAX_DEPTH {
        return Err(invalid("nested too deeply"));
    }
    if let Some((element, length)) = split_array(kind) {
        let Value::Array(items) = value else {
            return Err(invalid(format!("a {kind} is an array")));
        };
        if length.is_some_and(|n| n != items.len()) {
            return Err(invalid(format!("a {kind} has the wrong length")));
        }
        let mut out = Vec::with_capacity(32 * items.len());
        for item in items {
            out.extend_from_slice(encode_value(types, element, item, depth + 1)?.as_slice());
        }
        return Ok(keccak256(out));
    }
    if types.contains_key(kind) {
        return hash_struct(types, kind, value, depth);
    }
    match kind {
        "string" => match value {
            Value::String(text) => Ok(keccak256(text.as_bytes())),
            _ => Err(invalid("a string is a JSON string")),
        },
        "bytes" => Ok(keccak256(hex_bytes(value, kind)?)),
        "bool" => match value {
            Value::Bool(flag) => Ok(B256::with_last_byte(u8::from(*flag))),
            _ => Err(invalid("a bool is true or false")),
        },
        "address" => {
            let Value::String(text) = value else {
                return Err(invalid("an address is a string"));
            };
            let address: Address = text
                .parse()
                .map_err(|_| invalid(format!("{text:?} is not an address")))?;
            Ok(address.into_word())
        }
        _ => {
            if let Some(n) = bytes_len(kind) {
                let bytes = hex_bytes(value, kind)?;
                if bytes.len() != n {
                    return Err(invalid(format!("a {kind} is {n} bytes")));
                }
                return Ok(B256::right_padding_from(&bytes));
            }
            if let Some(bits) = int_bits(kind, "uint") {
                let (negative, magnitude) = integer(value)?;
                if negative || (bits < 256 && magnitude >> bits != U256::ZERO) {
                    return Err(invalid(format!("{kind} out of range")));
                }
                return Ok(B256::from(magnitude));
            }
            if let Some(bits) = int_bits(kind, "int") {
                let (negative, magnitude) = integer(value)?;
                let limit = U256::from(1u8) << (bits - 1);
                let in_range = if negative {
                    magnitude <= limit
                } else {
                    magnitude < limit
                };
                if !in_range {
                    return Err(invalid(format!("{kind} out of range")));
                }
                let word = if negative {
                    U256::ZERO.wrapping_sub(magnitude)
                } else {
                    magnitude
                };
                return Ok(B256::from(word));
            }
            Err(invalid(format!("unknown type {kind}")))
        }
    }
}

fn hex_bytes(value: &Value, kind: &str) -> Result<Vec<u8>> {
    let Value::String(text) = value else {
        return Err(invalid(format!("a {kind} is a 0x-hex string")));
    };
    let digits = text
        .strip_prefix("0x")
        .ok_or_else(|| invalid(format!("a {kind} is a 0x-hex string")))?;
    alloy_primitives::hex::decode(digits).map_err(|_| invalid(format!("a {kind} is a 0x-hex string")))
}

/// A JSON integer, decimal string or `0x`-hex string: sign and magnitude.
fn integer(value: &Value) -> Result<(bool, U256)> {
    match value {
        Value::Number(number) => {
            if let Some(n) = number.as_u64() {
                Ok((false, U256::from(n)))
            } else if let Some(n) = number.as_i64() {
                Ok((n < 0, U256::from(n.unsigned_abs())))
            } else {
                Err(invalid("an integer beyond 64 bits is a string"))
            }
        }
        Value::String(text) => {
            let (negative, digits) = match text.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, text.as_str()),
            };
            let parsed = match digits.strip_prefix("0x") {
                Some(hex) if !hex.is_empty() => U256::from_str_radix(hex, 16),
                None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    U256::from_str_radix(digits, 10)
                }
                _ => return Err(invalid(format!("{text:?} is not an integer"))),
            };
            let magnitude = parsed.map_err(|_| invalid(format!("{text:?} is not an integer")))?;
            Ok((negative && magnitude != U256::ZERO, magnitude))
        }
        _ => Err(invalid("an integer is a number or a string")),
    }
}

#[cfg(test)]
mod tests;
