//! Decimal numbers for display (behaviour 1.16 "Number format en-US, 2 decimals
//! default… Quantities show 3 decimals"). Exact decimal string arithmetic: a
//! float would misprint large or long values, and JS's `Intl.NumberFormat`
//! also rounds the shortest decimal form of a number, not its binary value.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use crate::{Error, Result};

/// Decimals of [`format_number`] when the caller names none (behaviour 1.16 "2 decimals default").
pub const DEFAULT_NUMBER_DECIMALS: u8 = 2;
/// Decimals of a token's fiat value (behaviour 1.16, 7.12 "token balance 2 decimals").
pub const TOKEN_VALUE_DECIMALS: u8 = 2;
/// Decimals of a transfer quantity in the history (behaviour 1.16 "Quantities show 3 decimals").
pub const QUANTITY_DECIMALS: u8 = 3;

/// Exponents beyond this are refused: no displayable amount needs them, and
/// expanding `1e999999` into digits would let one input exhaust memory.
const MAX_EXPONENT: i64 = 400;

/// An exact signed decimal number, normalised: no leading zeros in the integer
/// part, no trailing zeros in the fraction, and zero is never negative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    negative: bool,
    int: String,
    frac: String,
}

impl Decimal {
    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        self.int == "0" && self.frac.is_empty()
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The exact product (fiat values: an amount times a unit price). Schoolbook
    /// multiplication on the digits, so no precision is lost and nothing overflows.
    pub fn mul(&self, other: &Decimal) -> Decimal {
        let a: Vec<u32> = self
            .int
            .bytes()
            .chain(self.frac.bytes())
            .map(|d| u32::from(d - b'0'))
            .collect();
        let b: Vec<u32> = other
            .int
            .bytes()
            .chain(other.frac.bytes())
            .map(|d| u32::from(d - b'0'))
            .collect();
        // Little-endian product digits, carried once per row so no cell overflows a u32.
        let mut product = vec![0u32; a.len() + b.len()];
        for (i, &x) in a.iter().rev().enumerate() {
            let mut carry = 0;
            for (j, &y) in b.iter().rev().enumerate() {
                let cell = product[i + j] + x * y + carry;
                product[i + j] = cell % 10;
                carry = cell / 10;
            }
            let mut k = i + b.len();
            while carry > 0 {
                let cell = product[k] + carry;
                product[k] = cell % 10;
                carry = cell / 10;
                k += 1;
            }
        }
        let digits: String = product.iter().rev().map(|&d| char::from(b'0' + d as u8)).collect();
        let scale = self.frac.len() + other.frac.len();
        let (int, frac) = digits.split_at(digits.len() - scale);
        Decimal::new(self.negative != other.negative, int, frac)
    }

    /// The number as a JS `number` holds it: finite only, written in its
    /// shortest round-trip form (what `String(n)` and `Intl` start from).
    pub fn from_f64(value: f64) -> Result<Self> {
        if !value.is_finite() {
            return Err(Error::InvalidAmount {
                reason: "expected a finite number",
            });
        }
        // Rust prints an f64 in its shortest round-trip digits and never in
        // exponent form, so this always parses.
        value.to_string().parse()
    }

    fn new(negative: bool, int: &str, frac: &str) -> Self {
        let int = int.trim_start_matches('0');
        let int = if int.is_empty() { "0" } else { int };
        let frac = frac.trim_end_matches('0');
        let zero = int == "0" && frac.is_empty();
        Decimal {
            negative: negative && !zero,
            int: int.to_owned(),
            frac: frac.to_owned(),
        }
    }

    /// The magnitude rounded half away from zero to `decimals` places, as
    /// integer digits and exactly `decimals` fraction digits.
    fn round_magnitude(&self, decimals: usize) -> (String, String) {
        let frac: String = self.frac.chars().chain(std::iter::repeat('0')).take(decimals).collect();
        let mut digits: Vec<u8> = format!("{}{frac}", self.int).into_bytes();
        if self.frac.as_bytes().get(decimals).is_some_and(|d| *d >= b'5') {
            increment(&mut digits);
        }
        let split = digits.len() - decimals;
        let frac = digits.split_off(split);
        // Only ASCII digits were pushed, so both halves are valid UTF-8.
        (
            String::from_utf8(digits).unwrap_or_default(),
            String::from_utf8(frac).unwrap_or_default(),
        )
    }
}

/// Adds one unit in the last place of a big-endian ASCII digit string.
fn increment(digits: &mut Vec<u8>) {
    for digit in digits.iter_mut().rev() {
        if *digit == b'9' {
            *digit = b'0';
        } else {
            *digit += 1;
            return;
        }
    }
    digits.insert(0, b'1');
}

impl Default for Decimal {
    /// Zero.
    fn default() -> Self {
        Decimal::new(false, "0", "")
    }
}

impl FromStr for Decimal {
    type Err = Error;

    /// `[+-]digits[.digits][e[+-]digits]`, as JSON numbers and API quantity
    /// strings are written: `-1234.5`, `.5`, `1.2e-7`.
    fn from_str(text: &str) -> Result<Self> {
        const SHAPE: Error = Error::InvalidAmount {
            reason: "expected a decimal number like -1234.5",
        };
        let (negative, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
            return Err(SHAPE);
        }
        let exponent: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) {
                    return Err(SHAPE);
                }
                // Long exponents are out of range whatever their digits.
                let value: i64 = digits.parse().unwrap_or(i64::MAX);
                if value > MAX_EXPONENT {
                    return Err(Error::InvalidAmount {
                        reason: "exponent out of range",
                    });
                }
                if e.starts_with('-') {
                    -value
                } else {
                    value
                }
            }
        };
        // Move the decimal point `exponent` places within int ++ frac.
        let digits = format!("{int}{frac}");
        let point = int.len() as i64 + exponent;
        let (int, frac) = if point <= 0 {
            (
                String::new(),
                format!("{}{digits}", "0".repeat(point.unsigned_abs() as usize)),
            )
        } else if point as usize >= digits.len() {
            (
                format!("{digits}{}", "0".repeat(point as usize - digits.len())),
                String::new(),
            )
        } else {
            let (i, f) = digits.split_at(point as usize);
            (i.to_owned(), f.to_owned())
        };
        Ok(Decimal::new(negative, &int, &frac))
    }
}

impl fmt::Display for Decimal {
    /// Plain notation, no grouping: `-1234.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.negative { "-" } else { "" };
        if self.frac.is_empty() {
            write!(f, "{sign}{}", self.int)
        } else {
            write!(f, "{sign}{}.{}", self.int, self.frac)
        }
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        fn magnitude(d: &Decimal) -> (usize, &str, &str) {
            (d.int.len(), &d.int, &d.frac)
        }
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            // Normalised digits compare as text once the integer lengths agree.
            (false, false) => magnitude(self).cmp(&magnitude(other)),
            (true, true) => magnitude(other).cmp(&magnitude(self)),
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A number as JS code and JSON APIs hand it over: a `number`, or decimal
/// text (token quantities and USD values arrive as either).
#[derive(Debug, Clone, PartialEq)]
pub enum NumberInput {
    /// A JS `number` / JSON number.
    Number(f64),
    /// Decimal text, kept exact.
    Text(String),
}

impl NumberInput {
    /// The exact decimal it stands for.
    pub fn to_decimal(&self) -> Result<Decimal> {
        match self {
            NumberInput::Number(n) => Decimal::from_f64(*n),
            NumberInput::Text(text) => text.parse(),
        }
    }
}

impl<'de> Deserialize<'de> for NumberInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NumberVisitor;
        impl Visitor<'_> for NumberVisitor {
            type Value = NumberInput;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number or decimal text")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<NumberInput, E> {
                Ok(NumberInput::Number(v))
            }
            // Integers go through text: a u64 beyond 2^53 would lose digits as f64.
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<NumberInput, E> {
                Ok(NumberInput::Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<NumberInput, E> {
                Ok(NumberInput::Text(v.to_string()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NumberInput, E> {
                Ok(NumberInput::Text(v.to_owned()))
            }
        }
        deserializer.deserialize_any(NumberVisitor)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        NumberInput::deserialize(deserializer)?
            .to_decimal()
            .map_err(de::Error::custom)
    }
}

/// en-US notation with thousands grouping and exactly `decimals` fraction
/// digits, rounded half away from zero like `Intl.NumberFormat`:
/// `(1234.567, 2)` → `"1,234.57"`. A result that rounds to zero carries no
/// sign (`-0.001` → `"0.00"`): a "minus nothing" reads as a debt.
pub fn format_number(value: &Decimal, decimals: u8) -> String {
    let (int, frac) = value.round_magnitude(usize::from(decimals));
    let zero = int.bytes().chain(frac.bytes()).all(|d| d == b'0');
    let sign = if value.negative && !zero { "-" } else { "" };
    let grouped = group_thousands(&int);
    if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    }
}

fn group_thousands(int: &str) -> String {
    let mut out = String::with_capacity(int.len() + int.len() / 3);
    for (i, digit) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A token's fiat value (behaviour 1.16 "token value shown with 2 decimals"): en-US,
/// rounded (a valuation, not a holding, so it is not floored like balances),
/// `0.00` when missing. The currency sign is the UI's, as it is translated.
pub fn format_value(value: Option<&Decimal>) -> String {
    format_number(value.unwrap_or(&Decimal::default()), TOKEN_VALUE_DECIMALS)
}

/// The sign a transfer quantity carries for its transaction's operation type
/// (behaviour 1.16 "+ for receive, deposit, borrow, claim; - for withdraw, repay, burn").
/// `send` also takes `-`, as the value leaves the wallet; every other type
/// (trade, mint, execute, approve…) has no fixed direction and takes none.
/// Operation types are the lower-case names the history API reports.
pub fn quantity_sign(operation_type: &str) -> &'static str {
    match operation_type {
        "receive" | "deposit" | "borrow" | "claim" => "+",
        "withdraw" | "repay" | "burn" | "send" => "-",
        _ => "",
    }
}

/// A transfer quantity for the history (behaviour 1.16): its sign by operation type, then
/// the amount in en-US notation rounded to 3 decimals: `("1234.5678",
/// "receive")` → `"+1,234.568"`. Quantities are magnitudes, so a negative
/// one is refused rather than shown with two signs.
pub fn format_quantity(numeric: &Decimal, operation_type: &str) -> Result<String> {
    if numeric.is_negative() {
        return Err(Error::InvalidAmount {
            reason: "a quantity cannot be negative",
        });
    }
    Ok(format!(
        "{}{}",
        quantity_sign(operation_type),
        format_number(numeric, QUANTITY_DECIMALS)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn parses_and_normalises() {
        for (input, shown) in [
            ("0", "0"),
            ("-0", "0"),
            ("007.500", "7.5"),
            (".5", "0.5"),
            ("5.", "5"),
            ("+3", "3"),
            ("1.2e-7", "0.00000012"),
            ("1.5E3", "1500"),
            ("-12e+2", "-1200"),
            ("123e-2", "1.23"),
        ] {
            assert_eq!(dec(input).to_string(), shown, "{input}");
        }
        for bad in [
            "",
            "-",
            ".",
            "1.2.3",
            "1e",
            "e5",
            "0x10",
            "1,000",
            " 1",
            "NaN",
            "1e401",
            "1e99999999999999999999",
        ] {
            assert!(bad.parse::<Decimal>().is_err(), "{bad:?}");
        }
        assert_eq!(Decimal::from_f64(1e-7).unwrap().to_string(), "0.0000001");
        assert_eq!(Decimal::from_f64(0.1 + 0.2).unwrap().to_string(), "0.30000000000000004");
        assert!(Decimal::from_f64(f64::NAN).is_err());
        assert!(Decimal::from_f64(f64::INFINITY).is_err());
    }

    #[test]
    fn orders_numerically() {
        let sorted = ["-10", "-9.5", "-0.01", "0", "0.005", "0.05", "0.5", "2", "10", "10.01"];
        for pair in sorted.windows(2) {
            assert!(dec(pair[0]) < dec(pair[1]), "{pair:?}");
        }
        assert_eq!(dec("1.50"), dec("1.5"));
    }

    // Behaviour 1.16: "Number format en-US, 2 decimals default."
    #[test]
    fn en_us_number_format() {
        for (value, decimals, shown) in [
            ("1234.567", 2, "1,234.57"),
            ("1234", 2, "1,234.00"),
            ("0", 2, "0.00"),
            ("999.995", 2, "1,000.00"),
            ("1.005", 2, "1.01"),
            ("1.004999", 2, "1.00"),
            ("-1234567.891", 2, "-1,234,567.89"),
            ("-0.001", 2, "0.00"),
            ("123456", 0, "123,456"),
            ("0.5", 0, "1"),
            ("12", 4, "12.0000"),
        ] {
            assert_eq!(format_number(&dec(value), decimals), shown, "{value} {decimals}");
        }
    }

    // Behaviour 1.16: "token value shown with 2 decimals".
    #[test]
    fn token_value() {
        assert_eq!(format_value(None), "0.00");
        assert_eq!(format_value(Some(&dec("1234.5"))), "1,234.50");
        assert_eq!(format_value(Some(&dec("0.004"))), "0.00");
    }

    // Behaviour 1.16: "Quantities show 3 decimals, + for receive, deposit, borrow, claim; - for withdraw, repay, burn."
    #[test]
    fn quantity_signs() {
        for (kind, shown) in [
            ("receive", "+1,234.568"),
            ("deposit", "+1,234.568"),
            ("borrow", "+1,234.568"),
            ("claim", "+1,234.568"),
            ("withdraw", "-1,234.568"),
            ("repay", "-1,234.568"),
            ("burn", "-1,234.568"),
            ("send", "-1,234.568"),
            ("trade", "1,234.568"),
            ("mint", "1,234.568"),
            ("execute", "1,234.568"),
            ("Receive", "1,234.568"),
        ] {
            assert_eq!(format_quantity(&dec("1234.5678"), kind).unwrap(), shown, "{kind}");
        }
        assert_eq!(format_quantity(&dec("0"), "receive").unwrap(), "+0.000");
        assert!(format_quantity(&dec("-1"), "send").is_err());
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", d in any::<u8>(), kind in "\\PC*") {
            if let Ok(value) = s.parse::<Decimal>() {
                let _ = format_number(&value, d);
                let _ = format_quantity(&value, &kind);
            }
        }

        // Display and parse are inverse on every normalised decimal.
        #[test]
        fn display_round_trips(neg in any::<bool>(), int in "[0-9]{1,30}", frac in "[0-9]{0,30}") {
            let value = Decimal::new(neg, &int, &frac);
            prop_assert_eq!(value.to_string().parse::<Decimal>().unwrap(), value);
        }

        // Removing the grouping commas gives back the plain rounded number.
        #[test]
        fn grouping_is_cosmetic(n in -1e15f64..1e15, d in 0u8..8) {
            let value = Decimal::from_f64(n).unwrap();
            let shown = format_number(&value, d).replace(',', "");
            let back: Decimal = shown.parse().unwrap();
            let step: Decimal = format!("1e-{d}").parse().unwrap();
            // |back - value| ≤ half a step, checked with f64 at this magnitude.
            let diff = (back.to_string().parse::<f64>().unwrap() - n).abs();
            prop_assert!(diff <= step.to_string().parse::<f64>().unwrap() / 2.0 + n.abs() * 1e-12);
        }

        #[test]
        fn order_matches_f64(a in -1e6f64..1e6, b in -1e6f64..1e6) {
            let (x, y) = (Decimal::from_f64(a).unwrap(), Decimal::from_f64(b).unwrap());
            prop_assert_eq!(x.cmp(&y), a.partial_cmp(&b).unwrap());
        }
    }
}
