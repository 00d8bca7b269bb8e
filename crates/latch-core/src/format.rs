//! How amounts, addresses and dates are shown (behaviour 1.16, 7.12). Exact decimal
//! string arithmetic throughout: a float would misprint large balances.
//!
//! Rounding, per use: balances are floored (a user must not see more than they
//! hold); fiat values, general numbers and transfer quantities round half away
//! from zero, as `Intl.NumberFormat` does.

mod number;
mod time;

use alloy_primitives::U256;

pub use number::{
    format_number, format_quantity, format_value, quantity_sign, Decimal, NumberInput, DEFAULT_NUMBER_DECIMALS,
    QUANTITY_DECIMALS, TOKEN_VALUE_DECIMALS,
};
pub use time::{
    format_iso_date, format_relative_time, parse_iso_date, relative_time, RelativeTime, RelativeUnit, YearMonth,
    JUST_NOW,
};

use crate::{Error, Result};

/// Decimals shown for balances (behaviour 7.12 "Balance precision 3 decimals").
pub const BALANCE_DECIMALS: usize = 3;
/// Leading characters kept when an address is truncated (behaviour 1.16).
pub const TRUNCATE_START: usize = 4;
/// Trailing characters kept when an address is truncated (behaviour 1.16).
pub const TRUNCATE_END: usize = 6;

/// Turns an integer amount in base units (decimal, or `0x` hex as JSON-RPC
/// returns it) into an exact decimal string without trailing zeros:
/// `("0x21e19e0c9bab2400000", 18)` → `"10000"`, `("1500000", 6)` → `"1.5"`.
pub fn format_units(value: &str, decimals: u8) -> Result<String> {
    let amount = parse_integer(value)?;
    let digits = amount.to_string();
    let decimals = usize::from(decimals);
    let (int, frac) = if digits.len() > decimals {
        digits.split_at(digits.len() - decimals)
    } else {
        ("0", digits.as_str())
    };
    let frac = format!("{frac:0>decimals$}");
    let frac = frac.trim_end_matches('0');
    Ok(if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    })
}

pub(crate) fn parse_integer(value: &str) -> Result<U256> {
    let (digits, radix) = match value.strip_prefix("0x") {
        Some(hex) => (hex, 16),
        None => (value, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(Error::InvalidAmount {
            reason: "expected a non-negative integer, decimal or 0x-hex",
        });
    }
    U256::from_str_radix(digits, radix as u64).map_err(|_| Error::InvalidAmount {
        reason: "larger than 2^256 - 1",
    })
}

/// A JSON-RPC quantity (EIP-1474: `0x`-hex, no leading zeros) of an integer written decimal or
/// `0x`-hex: `"1000"` → `"0x3e8"`, `"0"` → `"0x0"`.
pub fn hex_quantity(value: &str) -> Result<String> {
    Ok(format!("0x{:x}", parse_integer(value)?))
}

/// Bytes as JSON-RPC DATA (`0x` and two lowercase hex digits a byte): what EIP-1193 wallets take
/// for `personal_sign`'s message.
pub fn hex_data(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 + bytes.len() * 2);
    out.push_str("0x");
    for byte in bytes {
        out.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(byte & 0xf), 16).unwrap_or('0'));
    }
    out
}

/// A balance for display: floored (never rounded up: a user must not see more
/// than they hold) to three decimals, always with three decimals, `0.000` when
/// missing or zero, followed by the symbol when there is one:
/// `(Some("9999.99987"), Some("ETH"))` → `"9999.999 ETH"`.
pub fn format_balance(balance: Option<&str>, symbol: Option<&str>) -> Result<String> {
    let balance = balance.map(str::trim).filter(|b| !b.is_empty()).unwrap_or("0");
    let (int, frac) = balance.split_once('.').unwrap_or((balance, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
        return Err(Error::InvalidAmount {
            reason: "expected a non-negative decimal like 12.345",
        });
    }
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac: String = frac
        .chars()
        .chain(std::iter::repeat('0'))
        .take(BALANCE_DECIMALS)
        .collect();
    let number = format!("{int}.{frac}");
    Ok(match symbol.map(str::trim).filter(|s| !s.is_empty()) {
        Some(symbol) => format!("{number} {symbol}"),
        None => number,
    })
}

/// Shortens an address for display to its first 4 and last 6 characters
/// (behaviour 1.16): `0x70997970C51812dc3A010C7d01b50e0d17dc79C8` → `0x70...dc79C8`.
/// Text too short to gain from it is returned whole.
pub fn truncate_address(address: &str) -> String {
    let chars: Vec<char> = address.chars().collect();
    if chars.len() <= TRUNCATE_START + TRUNCATE_END + 3 {
        return address.to_owned();
    }
    let start: String = chars[..TRUNCATE_START].iter().collect();
    let end: String = chars[chars.len() - TRUNCATE_END..].iter().collect();
    format!("{start}...{end}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn quantities_and_data_in_hex() {
        assert_eq!(hex_quantity("1000").unwrap(), "0x3e8");
        assert_eq!(hex_quantity("0x00ff").unwrap(), "0xff");
        assert_eq!(hex_quantity("0").unwrap(), "0x0");
        assert!(hex_quantity("-1").is_err());
        assert!(hex_quantity("").is_err());
        assert!(hex_quantity("1e3").is_err());
        assert_eq!(hex_data(b""), "0x");
        assert_eq!(hex_data("hi ✓".as_bytes()), "0x686920e29c93");
    }

    proptest! {
        #[test]
        fn hex_quantity_round_trips(limbs in any::<[u64; 4]>()) {
            let value = U256::from_limbs(limbs);
            let hex = hex_quantity(&value.to_string()).unwrap();
            prop_assert_eq!(U256::from_str_radix(&hex[2..], 16).unwrap(), value);
            prop_assert!(hex == "0x0" || !hex.starts_with("0x0"));
        }

        #[test]
        fn hex_data_matches_alloy(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            prop_assert_eq!(hex_data(&bytes), alloy_primitives::hex::encode_prefixed(&bytes));
        }
    }

    #[test]
    fn units_from_hex_and_decimal() {
        assert_eq!(format_units("0x21e19e0c9bab2400000", 18).unwrap(), "10000");
        assert_eq!(format_units("1500000", 6).unwrap(), "1.5");
        assert_eq!(format_units("1", 18).unwrap(), "0.000000000000000001");
        assert_eq!(format_units("0x0", 18).unwrap(), "0");
        assert_eq!(format_units("123", 0).unwrap(), "123");
        for bad in ["", "0x", "-1", "1.5", "0xzz", "1e18", " 1"] {
            assert!(format_units(bad, 18).is_err(), "{bad:?}");
        }
        let too_big = format!("0x1{}", "0".repeat(64));
        assert!(format_units(&too_big, 18).is_err());
    }

    // Behaviour 1.16: "Balance display floored to 3 decimals ('0.000' when missing or zero)".
    #[test]
    fn balance_floors_to_three_decimals() {
        assert_eq!(format_balance(None, None).unwrap(), "0.000");
        assert_eq!(format_balance(Some(""), Some("ETH")).unwrap(), "0.000 ETH");
        assert_eq!(format_balance(Some("0"), Some("ETH")).unwrap(), "0.000 ETH");
        assert_eq!(format_balance(Some("0.0009"), None).unwrap(), "0.000");
        assert_eq!(format_balance(Some("10000"), Some("ETH")).unwrap(), "10000.000 ETH");
        assert_eq!(format_balance(Some("9999.99987"), Some("ETH")).unwrap(), "9999.999 ETH");
        assert_eq!(format_balance(Some("1.5"), None).unwrap(), "1.500");
        assert_eq!(format_balance(Some(".5"), None).unwrap(), "0.500");
        assert_eq!(format_balance(Some("007.1239"), None).unwrap(), "7.123");
        for bad in ["-1", "1.2.3", "abc", "1e3", ".", "0x10"] {
            assert!(format_balance(Some(bad), None).is_err(), "{bad:?}");
        }
    }

    // Behaviour 1.16: "Addresses display truncated to 4 start and 6 end characters."
    #[test]
    fn address_truncation() {
        assert_eq!(
            truncate_address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            "0x70...dc79C8"
        );
        assert_eq!(truncate_address("short"), "short");
        assert_eq!(truncate_address("0123456789abc"), "0123456789abc");
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", d in any::<u8>()) {
            let _ = format_units(&s, d);
            let _ = format_balance(Some(&s), Some(&s));
            let _ = truncate_address(&s);
        }

        // Formatting base units then flooring equals integer division by 10^(d-3).
        #[test]
        fn balance_is_the_floor(raw in any::<u128>(), d in 3u8..=30) {
            let shown = format_balance(Some(&format_units(&raw.to_string(), d).unwrap()), None).unwrap();
            let milli = U256::from(raw) / U256::from(10u64).pow(U256::from(d - 3));
            let expected = format!("{}.{:03}", milli / U256::from(1000u64), (milli % U256::from(1000u64)).to::<u64>());
            prop_assert_eq!(shown, expected);
        }
    }
}
