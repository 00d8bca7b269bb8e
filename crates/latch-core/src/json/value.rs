//! [`Value`]: a JSON value, its reader ([`Value::parse`]) and its writer
//! (`Display`), written for size.
//!
//! serde and serde_json were the largest part of the WalletConnect module after
//! the engine's own code (BENCHMARKS.md, issue 5), and of the wallet frame's
//! modules (issue 28): every derived `Serialize`, the generic `Value`
//! serializer, float parsing and printing. Both only move JSON-RPC frames,
//! requests and a few records, so a value type of its own is enough. Numbers keep the text they were read as (checked against the JSON
//! grammar): the engine reads integers out of them and passes everything else
//! through unchanged, so no float code is needed and no precision is lost.
//! Objects are [`Map`]s, in key order, written as serde_json wrote its
//! (B-tree) objects, so stored state and frames look as before.

use std::fmt::{self, Write as _};

use crate::map::Map;

/// A JSON object's fields, in key order.
pub type Object = Map<String, Value>;

/// How deep arrays and objects may nest when read (serde_json's limit): the
/// reader recurses, and input must not be able to exhaust the stack.
pub const MAX_DEPTH: usize = 127;

/// A JSON value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Object),
}

/// A JSON number, kept as its text (valid JSON number syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number(String);

impl Number {
    /// Its value when it is written as an integer in `u64`'s range.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// Its value when it is written as an integer in `i64`'s range.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// Its text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why text is not JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} at byte {at}")]
pub struct ParseError {
    /// What was wrong.
    pub what: &'static str,
    /// The byte offset where it was found.
    pub at: usize,
}

static NULL: Value = Value::Null;

impl Value {
    /// Reads JSON text: one value, whitespace around it allowed.
    pub fn parse(text: &str) -> Result<Value, ParseError> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value(0)?;
        reader.skip_space();
        match reader.at == reader.bytes.len() {
            true => Ok(value),
            false => Err(reader.error("trailing characters")),
        }
    }

    /// The string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, when it is one in `u64`'s range.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The integer, when it is one in `i64`'s range.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    /// The boolean, when it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The items, when it is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The fields, when it is an object.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(fields) => Some(fields),
            _ => None,
        }
    }

    /// Whether it is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether it is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// The fields, to change, when it is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Value::Object(fields) => Some(fields),
            _ => None,
        }
    }

    /// Field `key`, when it is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }
}

impl std::ops::Index<&str> for Value {
    type Output = Value;
    /// Field `key`; `null` when it is not an object or has no such field.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;
    /// Item `index`; `null` when it is not an array or is shorter.
    fn index(&self, index: usize) -> &Value {
        self.as_array().and_then(|items| items.get(index)).unwrap_or(&NULL)
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl fmt::Display for Value {
    /// Compact JSON, as serde_json writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            Value::Number(n) => f.write_str(&n.0),
            Value::String(s) => write_string(f, s),
            Value::Array(items) => {
                f.write_char('[')?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    item.fmt(f)?;
                }
                f.write_char(']')
            }
            Value::Object(fields) => {
                f.write_char('{')?;
                for (i, (key, item)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write_string(f, key)?;
                    f.write_char(':')?;
                    item.fmt(f)?;
                }
                f.write_char('}')
            }
        }
    }
}

/// `s` as a JSON string, escaped as serde_json escapes: the short forms where
/// JSON has them, `\u00XX` for other control characters, nothing else.
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_char('"')?;
    let mut plain = 0;
    for (i, byte) in s.bytes().enumerate() {
        let short = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'\n' => 'n',
            b'\r' => 'r',
            b'\t' => 't',
            0x08 => 'b',
            0x0c => 'f',
            0x00..=0x1f => 'u',
            _ => continue,
        };
        f.write_str(&s[plain..i])?;
        plain = i + 1;
        f.write_char('\\')?;
        f.write_char(short)?;
        if short == 'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            f.write_str("00")?;
            f.write_char(HEX[usize::from(byte >> 4)].into())?;
            f.write_char(HEX[usize::from(byte & 0xf)].into())?;
        }
    }
    f.write_str(&s[plain..])?;
    f.write_char('"')
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Number(Number(n.to_string()))
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Number(Number(n.to_string()))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::Array(items)
    }
}

impl From<Object> for Value {
    fn from(fields: Object) -> Self {
        Value::Object(fields)
    }
}

/// A recursive-descent reader over UTF-8 text (valid, as it comes from a `&str`).
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    #[cold]
    fn error(&self, what: &'static str) -> ParseError {
        ParseError { what, at: self.at }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Consumes `byte` after optional whitespace, or fails with `what`.
    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), ParseError> {
        self.skip_space();
        match self.peek() == Some(byte) {
            true => {
                self.at += 1;
                Ok(())
            }
            false => Err(self.error(what)),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.skip_space();
        let Some(first) = self.peek() else {
            return Err(self.error("expected a value"));
        };
        match first {
            b'n' => self.word("null", Value::Null),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'"' => self.string().map(Value::String),
            b'-' | b'0'..=b'9' => self.number(),
            b'[' | b'{' if depth >= MAX_DEPTH => Err(self.error("nested too deeply")),
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if !self.close(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.close(b']') {
                            break;
                        }
                        self.expect(b',', "expected `,` or `]`")?;
                    }
                }
                Ok(Value::Array(items))
            }
            b'{' => {
                self.at += 1;
                // Gathered, then ordered once: objects from the network may be
                // large and in any order.
                let mut fields = Vec::new();
                if !self.close(b'}') {
                    loop {
                        self.skip_space();
                        if self.peek() != Some(b'"') {
                            return Err(self.error("expected a string key"));
                        }
                        let key = self.string()?;
                        self.expect(b':', "expected `:`")?;
                        fields.push((key, self.value(depth + 1)?));
                        if self.close(b'}') {
                            break;
                        }
                        self.expect(b',', "expected `,` or `}`")?;
                    }
                }
                Ok(Value::Object(Object::from_entries(fields)))
            }
            _ => Err(self.error("expected a value")),
        }
    }

    /// Consumes `byte` after optional whitespace when it is next.
    fn close(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.peek() == Some(byte);
        self.at += usize::from(found);
        found
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        match self.bytes[self.at..].starts_with(word.as_bytes()) {
            true => {
                self.at += word.len();
                Ok(value)
            }
            false => Err(self.error("expected a value")),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.at;
        self.at += usize::from(self.peek() == Some(b'-'));
        let leading_zero = self.peek() == Some(b'0');
        match self.digits() {
            0 => return Err(self.error("expected a digit")),
            1 => {}
            _ if leading_zero => return Err(self.error("leading zero in a number")),
            _ => {}
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("expected a digit"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("expected a digit"));
            }
        }
        Ok(Value::Number(Number(self.text(start).to_owned())))
    }

    /// A string; the reader is at its opening quote.
    fn string(&mut self) -> Result<String, ParseError> {
        self.at += 1;
        let mut out = String::new();
        let mut plain = self.at;
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("unterminated string"));
            };
            match byte {
                b'"' => {
                    out.push_str(self.text(plain));
                    self.at += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(self.text(plain));
                    self.at += 1;
                    out.push(self.escape()?);
                    plain = self.at;
                }
                0x00..=0x1f => return Err(self.error("control character in a string")),
                _ => self.at += 1,
            }
        }
    }

    /// The text from `start` to the reader: whole characters, since the
    /// reader stops only at ASCII bytes (so the `unwrap_or_default` never
    /// applies).
    fn text(&self, start: usize) -> &str {
        std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default()
    }

    /// One escape; the reader is after its backslash.
    fn escape(&mut self) -> Result<char, ParseError> {
        let Some(byte) = self.peek() else {
            return Err(self.error("unterminated string"));
        };
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                let code = match first {
                    0xd800..=0xdbff => {
                        if !self.bytes[self.at..].starts_with(b"\\u") {
                            return Err(self.error("lone surrogate in a string"));
                        }
                        self.at += 2;
                        let second = self.hex4()?;
                        if !(0xdc00..=0xdfff).contains(&second) {
                            return Err(self.error("lone surrogate in a string"));
                        }
                        0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
                    }
                    0xdc00..=0xdfff => return Err(self.error("lone surrogate in a string")),
                    code => code,
                };
                char::from_u32(code).ok_or_else(|| self.error("invalid escape"))?
            }
            _ => return Err(self.error("invalid escape")),
        })
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| char::from(b).to_digit(16));
            let Some(digit) = digit else {
                return Err(self.error("expected 4 hex digits"));
            };
            code = code * 16 + digit;
            self.at += 1;
        }
        Ok(code)
    }
}

#[cfg(test)]
mod tests {
    //! serde_json is the reference: what it writes we read and write back byte
    //! for byte, and what it reads we read. One documented exception, where
    //! we accept and serde_json does not (see [`serde_json_rejects_only`]):
    //! a number beyond `f64`'s range (`1e400`: serde_json reads numbers as
    //! `f64` and refuses infinity; we keep the text).

    use proptest::prelude::*;

    use super::*;

    /// Arbitrary JSON without floats: every string and key is any Unicode
    /// text (control characters, quotes and backslashes included).
    fn any_json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            any::<String>().prop_map(serde_json::Value::from),
        ];
        let key = prop_oneof![any::<String>(), "[a-c\"\\\\]{0,2}"];
        leaf.prop_recursive(6, 64, 8, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(key.clone(), inner, 0..8)
                    .prop_map(|fields| serde_json::Value::Object(fields.into_iter().collect())),
            ]
        })
    }

    /// serde_json's value as ours, built directly (not through text).
    fn from_serde(value: &serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(Number(n.to_string())),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => Value::Array(items.iter().map(from_serde).collect()),
            serde_json::Value::Object(fields) => {
                Value::Object(fields.iter().map(|(k, v)| (k.clone(), from_serde(v))).collect())
            }
        }
    }

    /// Whether ours and serde_json's readings of the same text agree: equal
    /// strings, keys and structure; integers as serde_json reads them; other
    /// numbers as close as serde_json's (not exactly rounding) float reader gets.
    fn same(ours: &Value, theirs: &serde_json::Value) -> bool {
        match (ours, theirs) {
            (Value::Null, serde_json::Value::Null) => true,
            (Value::Bool(a), serde_json::Value::Bool(b)) => a == b,
            (Value::String(a), serde_json::Value::String(b)) => a == b,
            (Value::Number(a), serde_json::Value::Number(b)) => match (b.as_u64(), b.as_i64(), b.as_f64()) {
                (Some(b), _, _) => a.as_u64() == Some(b),
                (_, Some(b), _) => a.as_i64() == Some(b),
                (_, _, Some(b)) => {
                    let a: f64 = a.as_str().parse().unwrap();
                    a == b || (a - b).abs() <= 1e-14 * a.abs().max(b.abs())
                }
                _ => false,
            },
            (Value::Array(a), serde_json::Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
            }
            (Value::Object(a), serde_json::Value::Object(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|((ka, a), (kb, b))| ka == kb && same(a, b))
            }
            _ => false,
        }
    }

    /// How deep arrays and objects nest in `value` (0 for a scalar).
    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(fields) => 1 + fields.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// The largest magnitude of a number in `value`, as `f64`.
    fn largest_number(value: &Value) -> f64 {
        match value {
            Value::Number(n) => n.as_str().parse::<f64>().unwrap().abs(),
            Value::Array(items) => items.iter().map(largest_number).fold(0.0, f64::max),
            Value::Object(fields) => fields.iter().map(|(_, v)| largest_number(v)).fold(0.0, f64::max),
            _ => 0.0,
        }
    }

    /// Why serde_json may reject what we read: the documented exception.
    fn serde_json_rejects_only(ours: &Value, error: &serde_json::Error) -> bool {
        // serde_json's float reader is not exactly rounding, hence the margin
        // below `f64::MAX` (about 1.8e308).
        error.to_string().starts_with("number out of range") && largest_number(ours) > 1e300
    }

    /// Reads `text` with both readers and checks they agree, and that what we
    /// read, written, reads back the same.
    fn agrees_with_serde_json(text: &str) -> Result<(), TestCaseError> {
        let theirs = serde_json::from_str::<serde_json::Value>(text);
        match Value::parse(text) {
            Ok(ours) => {
                let written = ours.to_string();
                prop_assert_eq!(Value::parse(&written), Ok(ours.clone()), "rewritten as {:?}", written);
                match &theirs {
                    Ok(theirs) => prop_assert!(same(&ours, theirs), "{:?} vs serde_json's {:?}", ours, theirs),
                    Err(e) => prop_assert!(serde_json_rejects_only(&ours, e), "only serde_json rejects it: {}", e),
                }
            }
            Err(e) => {
                prop_assert!(theirs.is_err(), "only we reject it: {} (serde_json: {:?})", e, theirs);
                prop_assert!(e.at <= text.len() && !e.what.is_empty());
            }
        }
        Ok(())
    }

    /// Text made of JSON's tokens and pieces of them, mostly not JSON.
    fn jsonish() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "[", "]", "{", "}", "\"", ":", ",", "0", "1", "9", ".", "e", "E", "+", "-", "\\", "n", "t", "f", "u", "r",
            "l", "s", "a", "d", "8", " ", "\n", "\t", "\r", "\u{1}", "\u{7f}", "é", "😀", "null", "true", "false",
            "\\u", "\\ud83d", "\\ude00", "\\u0000", "\\n", "\"a\":", "1e400", "-0", "0.5e-3", "[[[[", "]]]]", "\u{c}",
            "\u{a0}", "\u{feff}", "[]", "{}", "\"\"", "\"a\"", "[1,", "{\"a\":1",
        ];
        prop::collection::vec(prop::sample::select(PIECES), 0..24).prop_map(|pieces| pieces.concat())
    }

    /// serde_json's text of an arbitrary value with a few characters
    /// deleted, inserted or replaced: mostly almost JSON.
    fn mutated() -> impl Strategy<Value = String> {
        let edit = (
            any::<prop::sample::Index>(),
            0..3u8,
            prop::sample::select(&['"', '\\', ',', ':', '[', '}', '0', 'e', '-', ' ', '\u{0}', 'u'][..]),
        );
        (any_json(), prop::collection::vec(edit, 1..4)).prop_map(|(value, edits)| {
            let mut chars: Vec<char> = serde_json::to_string(&value).unwrap().chars().collect();
            for (at, kind, c) in edits {
                let at = at.index(chars.len() + 1);
                match kind {
                    0 if at < chars.len() => drop(chars.remove(at)),
                    1 if at < chars.len() => chars[at] = c,
                    _ => chars.insert(at, c),
                }
            }
            chars.into_iter().collect()
        })
    }

    /// A float literal of JSON's grammar, built from its parts.
    fn float_literal() -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            "0|[1-9][0-9]{0,24}",
            prop::option::of("[0-9]{1,24}"),
            prop::option::of(("[eE]", "[+-]?", "[0-9]{1,4}")),
        )
            .prop_map(|(negative, int, frac, exp)| {
                let mut text = String::new();
                if negative {
                    text.push('-');
                }
                text.push_str(&int);
                if let Some(frac) = frac {
                    text.push('.');
                    text.push_str(&frac);
                }
                if let Some((e, sign, digits)) = exp {
                    text.push_str(&e);
                    text.push_str(&sign);
                    text.push_str(&digits);
                }
                text
            })
    }

    proptest! {
        /// What serde_json writes we read, and write back byte for byte; its
        /// pretty text reads the same.
        #[test]
        fn writes_what_serde_json_writes(value in any_json()) {
            let text = serde_json::to_string(&value).unwrap();
            let ours = Value::parse(&text).map_err(|e| TestCaseError::fail(format!("{e} in {text:?}")))?;
            prop_assert_eq!(&ours, &from_serde(&value));
            prop_assert_eq!(ours.to_string(), text);
            prop_assert_eq!(Value::parse(&serde_json::to_string_pretty(&value).unwrap()), Ok(ours));
        }

        /// Any text: no panic; we accept what serde_json accepts and (but
        /// for the documented exception) only that, reading the same value;
        /// what we read, written, reads back the same.
        #[test]
        fn reads_what_serde_json_reads(text in any::<String>()) {
            agrees_with_serde_json(&text)?;
        }

        #[test]
        fn reads_jsonish_text_as_serde_json_does(text in jsonish()) {
            agrees_with_serde_json(&text)?;
        }

        #[test]
        fn reads_almost_json_as_serde_json_does(text in mutated()) {
            agrees_with_serde_json(&text)?;
        }

        /// Integers as serde_json writes them read back as themselves.
        #[test]
        fn integers_read_back(signed in any::<i64>(), unsigned in any::<u64>()) {
            let value = Value::parse(&serde_json::to_string(&signed).unwrap()).unwrap();
            prop_assert_eq!(value.as_i64(), Some(signed));
            prop_assert_eq!(value.as_u64(), u64::try_from(signed).ok());
            let value = Value::parse(&serde_json::to_string(&unsigned).unwrap()).unwrap();
            prop_assert_eq!(value.as_u64(), Some(unsigned));
            prop_assert_eq!(value.as_i64(), i64::try_from(unsigned).ok());
        }

        /// Other numbers keep their text, whatever their size or precision.
        #[test]
        fn numbers_keep_their_text(text in float_literal()) {
            let value = Value::parse(&text).map_err(|e| TestCaseError::fail(format!("{e} in {text:?}")))?;
            prop_assert!(matches!(&value, Value::Number(n) if n.as_str() == text));
            prop_assert_eq!(value.to_string(), text.clone());
            prop_assert_eq!(Value::parse(&format!("[ {text} ]")).unwrap()[0].clone(), value);
            agrees_with_serde_json(&text)?;
        }
    }

    fn rejects(text: &str) -> ParseError {
        let error = Value::parse(text).expect_err(text);
        assert!(
            serde_json::from_str::<serde_json::Value>(text).is_err(),
            "serde_json reads {text:?}"
        );
        assert!(
            !error.what.is_empty() && error.to_string().contains(" at byte "),
            "{error}"
        );
        error
    }

    #[test]
    fn surrogate_pairs_make_one_character() {
        for text in [r#""\ud83d\ude00""#, r#""\uD83D\uDE00""#] {
            let value = Value::parse(text).unwrap();
            assert_eq!(value, "😀");
            assert_eq!(value.to_string(), "\"😀\"");
            assert_eq!(value.to_string(), serde_json::to_string("😀").unwrap());
        }
    }

    #[test]
    fn lone_surrogates_are_rejected() {
        for text in [
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\udfff""#,
            r#""\ud800\u0041""#,
            r#""\ud800\ud800""#,
            r#""\ud800\n""#,
            r#""\ud800x""#,
            r#""\ude00\ud83d""#,
        ] {
            assert_eq!(rejects(text).what, "lone surrogate in a string", "{text}");
        }
        assert_eq!(rejects(r#""\ud800\u00""#).what, "expected 4 hex digits");
    }

    #[test]
    fn control_characters_in_strings_are_rejected() {
        for c in (0..0x20u8).map(char::from) {
            let error = rejects(&format!("\"a{c}b\""));
            assert_eq!((error.what, error.at), ("control character in a string", 2));
        }
        assert_eq!(Value::parse("\"\u{7f}\"").unwrap(), "\u{7f}");
    }

    #[test]
    fn escapes_are_written_as_serde_json_writes_them() {
        let value = Value::parse(r#""\u0000""#).unwrap();
        assert_eq!(value, "\0");
        assert_eq!(value.to_string(), r#""\u0000""#);
        let all: String = (0..0x80u8).map(char::from).chain("é😀\u{2028}".chars()).collect();
        let written = Value::String(all.clone()).to_string();
        assert_eq!(written, serde_json::to_string(&all).unwrap());
        assert_eq!(Value::parse(&written).unwrap(), all.as_str());
        assert_eq!(
            Value::parse(r#""\/\b\f\n\r\t\"\\\u00e9""#).unwrap(),
            "/\u{8}\u{c}\n\r\t\"\\é"
        );
        assert_eq!(rejects(r#""\x""#).what, "invalid escape");
        assert_eq!(rejects(r#""\"#).what, "unterminated string");
        assert_eq!(rejects(r#""abc"#).what, "unterminated string");
    }

    #[test]
    fn numbers_follow_the_grammar() {
        for text in ["01", "-01", "00", "[01]", "-00.5"] {
            assert_eq!(rejects(text).what, "leading zero in a number", "{text}");
        }
        // Found after the integer part's digits.
        assert_eq!(rejects("[0123]").at, 5);
        for text in ["-", "1.", "1e", "1e+", "1E-", "1.e5", "-a", "[-]", "{\"a\":1.}"] {
            assert_eq!(rejects(text).what, "expected a digit", "{text}");
        }
        for text in [".5", "+1", "Infinity", "NaN", "-Infinity"] {
            rejects(text);
        }
        for text in [
            "0",
            "-0",
            "0.0",
            "0e0",
            "-0.0E+00",
            "1E5",
            "123.456e-7",
            "100000000000000000000000000",
        ] {
            assert_eq!(Value::parse(text).unwrap().to_string(), text);
            assert!(serde_json::from_str::<serde_json::Value>(text).is_ok());
        }
        assert_eq!(Value::parse("-9223372036854775808").unwrap().as_i64(), Some(i64::MIN));
        assert_eq!(Value::parse("-9223372036854775809").unwrap().as_i64(), None);
        assert_eq!(Value::parse("18446744073709551616").unwrap().as_u64(), None);
        assert_eq!(Value::parse("1e2").unwrap().as_u64(), None);
        assert_eq!(Value::parse("1.0").unwrap().as_i64(), None);
        // Unlike serde_json, which reads `-0` as the float -0.0.
        assert_eq!(Value::parse("-0").unwrap().as_i64(), Some(0));
        assert_eq!(serde_json::from_str::<serde_json::Value>("-0").unwrap().as_i64(), None);
    }

    /// The first documented exception: serde_json reads numbers as `f64` and
    /// refuses those beyond its range; we keep their text.
    #[test]
    fn numbers_beyond_f64_are_kept() {
        for text in ["1e400", "-1e309", "[1.8e308]", "{\"a\":123456789e999999999999}"] {
            let value = Value::parse(text).unwrap();
            assert_eq!(value.to_string(), text);
            let error = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            assert!(serde_json_rejects_only(&value, &error), "{error}");
        }
        // Below the range both read it (as 0 for serde_json).
        for text in ["1e-400", "0e400"] {
            assert_eq!(Value::parse(text).unwrap().to_string(), text);
            assert!(serde_json::from_str::<serde_json::Value>(text).is_ok());
        }
    }

    #[test]
    fn trailing_characters_are_rejected_where_they_start() {
        for (text, at) in [
            ("1 x", 2),
            ("{} {}", 3),
            ("nullx", 4),
            ("\"a\"b", 3),
            ("[1]]", 3),
            ("0 1", 2),
        ] {
            let error = Value::parse(text).unwrap_err();
            assert_eq!(error.at, at, "{text}");
            assert!(serde_json::from_str::<serde_json::Value>(text).is_err());
        }
        assert_eq!(rejects("1 x").what, "trailing characters");
        assert_eq!(
            rejects("[1 2]"),
            ParseError {
                what: "expected `,` or `]`",
                at: 3
            }
        );
        assert_eq!(
            rejects("{\"a\" 1}"),
            ParseError {
                what: "expected `:`",
                at: 5
            }
        );
        assert_eq!(
            rejects("{\"a\":1 \"b\":2}"),
            ParseError {
                what: "expected `,` or `}`",
                at: 7
            }
        );
        assert_eq!(
            rejects("{a:1}"),
            ParseError {
                what: "expected a string key",
                at: 1
            }
        );
        assert_eq!(
            rejects("[1,]"),
            ParseError {
                what: "expected a value",
                at: 3
            }
        );
        assert_eq!(
            rejects("{\"a\":1,}"),
            ParseError {
                what: "expected a string key",
                at: 7
            }
        );
    }

    #[test]
    fn whitespace_is_json_s_four() {
        let value = Value::parse(" \t\n\r[ 1 ,\n2 ] \r\n").unwrap();
        assert_eq!(value.to_string(), "[1,2]");
        for text in ["", " ", "\u{c}1", "1\u{a0}", "\u{feff}1", "\u{b}[]"] {
            rejects(text);
        }
    }

    fn nested(depth: usize) -> String {
        "[".repeat(depth) + &"]".repeat(depth)
    }

    #[test]
    fn nesting_is_limited() {
        assert_eq!(depth(&Value::parse(&nested(MAX_DEPTH)).unwrap()), MAX_DEPTH);
        let half = MAX_DEPTH / 2;
        let objects = "{\"a\":".repeat(half) + &nested(MAX_DEPTH - half) + &"}".repeat(half);
        assert_eq!(depth(&Value::parse(&objects).unwrap()), MAX_DEPTH);
        assert_eq!(
            Value::parse(&nested(MAX_DEPTH + 1)).unwrap_err(),
            ParseError {
                what: "nested too deeply",
                at: MAX_DEPTH
            }
        );
        assert_eq!(
            Value::parse(&format!("[{{\"a\":{}}}]", nested(MAX_DEPTH - 1)))
                .unwrap_err()
                .what,
            "nested too deeply"
        );
        // Deep input fails at the limit, not by exhausting the stack.
        let deep = "[".repeat(100_000);
        assert_eq!(
            Value::parse(&deep).unwrap_err(),
            ParseError {
                what: "nested too deeply",
                at: MAX_DEPTH
            }
        );
        assert_eq!(Value::parse(&nested(100_000)).unwrap_err().at, MAX_DEPTH);
        assert_eq!(
            Value::parse(&"{\"\":".repeat(100_000)).unwrap_err().what,
            "nested too deeply"
        );
    }

    /// The limit is serde_json's: both read `MAX_DEPTH` levels and refuse one more.
    #[test]
    fn nesting_limit_is_serde_json_s() {
        for depth in [MAX_DEPTH, MAX_DEPTH + 1] {
            let text = nested(depth);
            assert_eq!(
                Value::parse(&text).is_ok(),
                serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                "{depth} levels"
            );
        }
        assert!(Value::parse(&nested(MAX_DEPTH)).is_ok());
    }

    /// A large object in reverse order (read by sorting once, not by an
    /// insert per key, which was quadratic) comes out in key order, the last
    /// of a repeated key kept.
    #[test]
    fn a_large_object_out_of_order_reads_in_key_order() {
        let n = 50_000;
        let fields: Vec<String> = (0..n).rev().map(|i| format!("\"k{i:06}\":{i}")).collect();
        let text = format!("{{{},\"k000000\":\"last\"}}", fields.join(","));
        let value = Value::parse(&text).unwrap();
        let object = value.as_object().unwrap();
        assert_eq!(object.len(), n);
        assert!(object.keys().zip(object.keys().skip(1)).all(|(a, b)| a < b));
        assert_eq!(value["k000000"], "last");
        assert_eq!(value["k049999"].as_u64(), Some(49_999));
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value() {
        let text = r#"{"b":1,"a":2,"b":{"c":3},"a":[4]}"#;
        let value = Value::parse(text).unwrap();
        assert_eq!(value.to_string(), r#"{"a":[4],"b":{"c":3}}"#);
        let theirs = serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(value.to_string(), theirs.to_string());
    }

    #[test]
    fn indexing_gives_null_when_missing() {
        let value = Value::parse(r#"{"a":{"b":[1,"x"]},"n":null}"#).unwrap();
        assert_eq!(value["a"]["b"][1], "x");
        assert_eq!(value["a"]["b"][0].as_u64(), Some(1));
        assert!(value["missing"].is_null());
        assert!(value["a"]["b"][2].is_null());
        assert!(value["a"]["b"]["key"].is_null());
        assert!(value["a"][0].is_null());
        assert!(value["n"]["x"][3].is_null());
        assert!(value[0].is_null());
        assert_eq!(value.get("n"), Some(&Value::Null));
        assert_eq!(value.get("missing"), None);
        assert_eq!(Value::parse("[true]").unwrap()[0].as_bool(), Some(true));
    }

    #[test]
    fn errors_say_what_and_where() {
        for text in [
            "",
            "[",
            "{",
            "\"",
            "tru",
            "nul",
            "[1,",
            "{\"a\"",
            "{\"a\":",
            "x",
            "-",
            "\"\\u12\"",
        ] {
            let error = rejects(text);
            assert!(error.at <= text.len(), "{text}: {error}");
            assert!(error.to_string().ends_with(&format!(" at byte {}", error.at)));
        }
    }

    #[test]
    fn the_macro_writes_what_serde_json_s_does() {
        fn f(a: i64, b: i64) -> i64 {
            a * 10 + b
        }
        const K: &str = "k";
        let x = String::from("x");
        let some: Option<u64> = Some(7);
        let none: Option<&str> = None;
        // The same tokens through both macros.
        macro_rules! both {
            ($($json:tt)+) => {
                (crate::json!($($json)+), serde_json::json!($($json)+))
            };
        }
        let (ours, theirs) = both!({
            "a": f(1, 2),
            "b": [x.clone(), null, {"c": true}, [], {}, [[1, [2,]], {"d": [null,],},],],
            K: -5,
            (format!("{K}{}", 2)): u64::MAX,
            "e": {"f": {"g": "h"}, "i": i64::MIN},
            "n": null,
            "o": [some, none],
            "s": "str\n\"",
            "t": false,
        });
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(ours, from_serde(&theirs));
        assert_eq!(crate::json!(null), Value::Null);
        assert_eq!(crate::json!([]).to_string(), "[]");
        assert_eq!(crate::json!({}).to_string(), "{}");
        assert_eq!(crate::json!([1, "a", x, null,]).to_string(), r#"[1,"a","x",null]"#);
        assert_eq!(crate::json!(f(3, 4)).to_string(), "34");
    }
}
