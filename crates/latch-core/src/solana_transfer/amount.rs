//! Amounts as the user types them ("1.5") to a token's base units (lamports for
//! SOL), exactly: no floating point, so 0.1 SOL is 100000000 lamports, never 99999999.

use crate::{Error, Result};

const fn invalid(reason: &'static str) -> Error {
    Error::InvalidAmount { reason }
}

/// `text` (decimal digits with an optional `.` part, surrounding whitespace
/// ignored) in base units of a token with `decimals` decimals. Refused: an empty
/// or non-decimal text (no sign, exponent or separators), a negative amount,
/// zero, more significant decimal places than `decimals` (trailing zeros are
/// fine: `1.50` of a 1-decimal token is 15), and anything above `u64::MAX`
/// base units, the most an SPL or System transfer carries.
pub fn parse_amount(text: &str, decimals: u8) -> Result<u64> {
    let text = text.trim();
    if text.starts_with('-') {
        return Err(invalid("must not be negative"));
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return Err(invalid("not a decimal number"));
    }
    // Trailing zeros add no precision, so only the significant digits must fit.
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > usize::from(decimals) {
        return Err(invalid("more decimal places than the token has"));
    }
    let too_large = || invalid("too large for this token");
    let mut units: u64 = 0;
    let padding = usize::from(decimals) - fraction.len();
    let all_digits = whole
        .bytes()
        .chain(fraction.bytes())
        .chain(std::iter::repeat_n(b'0', padding));
    for digit in all_digits {
        units = units
            .checked_mul(10)
            .and_then(|u| u.checked_add(u64::from(digit - b'0')))
            .ok_or_else(too_large)?;
    }
    if units == 0 {
        return Err(invalid("must be greater than zero"));
    }
    Ok(units)
}

/// `units` base units of a token with `decimals` decimals as the shortest exact
/// decimal text (`1500000000`, 9 → `1.5`): the inverse of [`parse_amount`].
pub fn format_amount(units: u64, decimals: u8) -> String {
    let digits = units.to_string();
    let decimals = usize::from(decimals);
    let (whole, fraction) = if digits.len() > decimals {
        let (w, f) = digits.split_at(digits.len() - decimals);
        (w.to_owned(), f.to_owned())
    } else {
        ("0".to_owned(), format!("{digits:0>decimals$}"))
    };
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        whole
    } else {
        format!("{whole}.{fraction}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn exact_base_units() {
        let cases: [(&str, u8, u64); 10] = [
            ("1", 9, 1_000_000_000),
            ("0.1", 9, 100_000_000),
            ("1.5", 6, 1_500_000),
            (" 2.25 ", 2, 225),
            (".5", 1, 5),
            ("5.", 0, 5),
            ("1.50", 1, 15),
            ("0.000000001", 9, 1),
            ("007", 0, 7),
            ("18446744073.709551615", 9, u64::MAX),
        ];
        for (text, decimals, units) in cases {
            assert_eq!(parse_amount(text, decimals), Ok(units), "{text} with {decimals}");
        }
    }

    #[test]
    fn refusals_say_why() {
        let cases: [(&str, u8, &str); 13] = [
            ("", 9, "not a decimal number"),
            ("  ", 9, "not a decimal number"),
            (".", 9, "not a decimal number"),
            ("1e9", 9, "not a decimal number"),
            ("+1", 9, "not a decimal number"),
            ("1,5", 9, "not a decimal number"),
            ("1.2.3", 9, "not a decimal number"),
            ("-1", 9, "must not be negative"),
            ("0", 9, "must be greater than zero"),
            ("0.000", 2, "must be greater than zero"),
            ("0.0000000001", 9, "more decimal places than the token has"),
            ("1.5", 0, "more decimal places than the token has"),
            ("18446744073.709551616", 9, "too large for this token"),
        ];
        for (text, decimals, reason) in cases {
            assert_eq!(
                parse_amount(text, decimals),
                Err(Error::InvalidAmount { reason }),
                "{text} with {decimals}"
            );
        }
        assert_eq!(
            parse_amount("x", 9).unwrap_err().to_string(),
            "Invalid amount: not a decimal number"
        );
        // 255 decimals (the most an SPL mint has): any non-zero amount overflows, zero stays zero.
        assert_eq!(parse_amount("1", 255), Err(invalid("too large for this token")));
        assert_eq!(parse_amount("0", 255), Err(invalid("must be greater than zero")));
    }

    #[test]
    fn formats_the_shortest_text() {
        assert_eq!(format_amount(1_500_000_000, 9), "1.5");
        assert_eq!(format_amount(1, 9), "0.000000001");
        assert_eq!(format_amount(100, 2), "1");
        assert_eq!(format_amount(0, 0), "0");
        assert_eq!(format_amount(u64::MAX, 0), "18446744073709551615");
    }

    proptest! {
        #[test]
        fn never_panics(text in "\\PC*", decimals in any::<u8>()) {
            let _ = parse_amount(&text, decimals);
        }

        #[test]
        fn decimal_like_text_never_panics(text in "-?[0-9]{0,30}(\\.[0-9]{0,30})?", decimals in any::<u8>()) {
            let _ = parse_amount(&text, decimals);
        }

        #[test]
        fn round_trip(units in 1..=u64::MAX, decimals in 0u8..=19) {
            prop_assert_eq!(parse_amount(&format_amount(units, decimals), decimals), Ok(units));
        }
    }
}
