//! RFC 3339 `date-time` (section 5.6) to Unix milliseconds, without a clock.
//!
//! Small and strict on purpose: sign-in messages only need "is this a
//! date-time, and when is it", and a date crate would bring formatting and
//! time-zone machinery the core never uses.

/// Milliseconds since the Unix epoch of an RFC 3339 `date-time`, or `None` if
/// `text` is not one. `T` and `Z` may be lower case (RFC 3339 §5.6 note);
/// fractions beyond milliseconds are truncated; a leap second (`:60`) counts
/// as the first second of the next minute.
pub(crate) fn unix_ms(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    // `YYYY-MM-DDTHH:MM:SS` then fraction and offset.
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    let hour = digits(&b[11..13])?;
    let minute = digits(&b[14..16])?;
    let second = digits(&b[17..19])?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }

    let mut rest = &b[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix(b".") {
        let len = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if len == 0 {
            return None;
        }
        millis = fraction[..len]
            .iter()
            .chain(b"00")
            .take(3)
            .fold(0, |ms, d| ms * 10 + i64::from(d - b'0'));
        rest = &fraction[len..];
    }
    let offset_minutes = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (hours, minutes) = (digits(&[*h1, *h2])?, digits(&[*m1, *m2])?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = hours * 60 + minutes;
            if *sign == b'-' {
                -offset
            } else {
                offset
            }
        }
        _ => return None,
    };

    let days = days_from_civil(year, month, day);
    let minutes = (days * 24 + hour) * 60 + minute - offset_minutes;
    Some((minutes * 60 + second) * 1000 + millis)
}

fn digits(bytes: &[u8]) -> Option<i64> {
    bytes
        .iter()
        .try_fold(0, |n, &d| d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0')))
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`): count in 400-year eras starting in March, so the leap
/// day falls at the end of each year.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The proleptic Gregorian `(year, month, day)` `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`): the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Unix milliseconds as an RFC 3339 date-time in UTC, to the millisecond
/// (`2026-11-21T09:30:00.000Z`): what [`unix_ms`] reads back.
pub(crate) fn format(unix_ms: i64) -> String {
    let (days, ms) = (unix_ms.div_euclid(86_400_000), unix_ms.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formats() {
        assert_eq!(format(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(format(1_795_305_599_999), "2026-11-21T23:59:59.999Z");
        assert_eq!(format(-1), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn date_times() {
        // Expected values from JavaScript's Date.parse.
        let cases = [
            ("1970-01-01T00:00:00Z", 0),
            ("2021-09-30T16:25:24Z", 1_633_019_124_000),
            ("2024-01-01T00:00:00.000Z", 1_704_067_200_000),
            ("2024-02-29T23:59:59.999+01:00", 1_709_247_599_999),
            ("1969-12-31T23:59:59.5Z", -500),
            ("0000-01-01T00:00:00Z", -62_167_219_200_000),
            ("9999-12-31T23:59:59-23:59", 253_402_387_139_000),
            ("2000-03-01t00:00:00z", 951_868_800_000),
            ("2021-09-30T16:25:24.123456789Z", 1_633_019_124_123),
            ("2016-12-31T23:59:60Z", 1_483_228_800_000),
        ];
        for (text, ms) in cases {
            assert_eq!(unix_ms(text), Some(ms), "{text}");
        }
    }

    #[test]
    fn not_date_times() {
        for text in [
            "",
            "2021-09-30",
            "2021-09-30T16:25:24",      // no offset
            "2021-09-30 16:25:24Z",     // space instead of T
            "2021-09-30T16:25Z",        // no seconds
            "2021-09-30T16:25:24.Z",    // empty fraction
            "2021-09-30T16:25:24+0100", // offset without colon
            "2021-09-30T16:25:24+01:00:00",
            "2023-02-29T00:00:00Z", // not a leap year
            "1900-02-29T00:00:00Z", // nor is 1900
            "2021-13-01T00:00:00Z",
            "2021-00-01T00:00:00Z",
            "2021-04-31T00:00:00Z",
            "2021-09-30T24:00:00Z",
            "2021-09-30T23:60:00Z",
            "2021-09-30T23:59:61Z",
            "2021-09-30T16:25:24+24:00",
            "+2021-09-30T16:25:24Z",
            "２021-09-30T16:25:24Z",
        ] {
            assert_eq!(unix_ms(text), None, "{text}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = unix_ms(&s);
        }

        #[test]
        fn format_is_read_back(ms in 0i64..253_402_300_800_000) {
            prop_assert_eq!(unix_ms(&format(ms)), Some(ms));
        }

        #[test]
        fn each_day_is_86_400_000_ms_after_the_last(days in 0i64..3_000_000) {
            // Walk from a civil date to the next and compare.
            let (y, m, d) = civil_from_days(days - 719_468);
            let text = format!("{y:04}-{m:02}-{d:02}T00:00:00Z");
            prop_assume!((0..=9999).contains(&y));
            prop_assert_eq!(unix_ms(&text), Some((days - 719_468) * 86_400_000));
        }
    }
}
