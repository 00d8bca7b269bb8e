//! Dates for display (behaviour 1.16 "Relative dates: 1 min, 2 hrs, 3 d, 1 mo,
//! 1 yr"). Calendar arithmetic on the proleptic Gregorian calendar in UTC;
//! callers shift by the user's UTC offset, as the core reads no time zone.

const SECOND_MS: i64 = 1_000;
const MINUTE_MS: i64 = 60 * SECOND_MS;
const HOUR_MS: i64 = 60 * MINUTE_MS;
const DAY_MS: i64 = 24 * HOUR_MS;
/// A display month: relative dates count whole 30-day months.
const MONTH_MS: i64 = 30 * DAY_MS;
/// A display year: relative dates count whole 365-day years.
const YEAR_MS: i64 = 365 * DAY_MS;

/// What [`format_relative_time`] shows below one minute.
pub const JUST_NOW: &str = "just now";

/// The unit a relative date is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelativeUnit {
    /// Under a minute (or in the future).
    JustNow,
    /// Whole minutes, under an hour.
    Minutes,
    /// Whole hours, under a day.
    Hours,
    /// Whole days, under a display month.
    Days,
    /// Whole 30-day months, under a display year.
    Months,
    /// Whole 365-day years.
    Years,
}

/// How long ago something was, in its largest whole unit; a UI in another
/// language words it from these two fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelativeTime {
    /// The unit counted.
    pub unit: RelativeUnit,
    /// Whole units, floored; 0 for [`RelativeUnit::JustNow`].
    pub count: i64,
}

/// How long ago `timestamp_ms` was at `now_ms`, in the largest whole unit
/// (floored). A timestamp in the future (clock skew between wallet API and
/// device) counts as just now.
pub fn relative_time(timestamp_ms: i64, now_ms: i64) -> RelativeTime {
    let elapsed = now_ms.saturating_sub(timestamp_ms).max(0);
    let (unit, size) = if elapsed < MINUTE_MS {
        (RelativeUnit::JustNow, 0)
    } else if elapsed < HOUR_MS {
        (RelativeUnit::Minutes, MINUTE_MS)
    } else if elapsed < DAY_MS {
        (RelativeUnit::Hours, HOUR_MS)
    } else if elapsed < MONTH_MS {
        (RelativeUnit::Days, DAY_MS)
    } else if elapsed < YEAR_MS {
        (RelativeUnit::Months, MONTH_MS)
    } else {
        (RelativeUnit::Years, YEAR_MS)
    };
    let count = if size == 0 { 0 } else { elapsed / size };
    RelativeTime { unit, count }
}

/// The English form (behaviour 1.16): `just now` under a minute, then `{n} min`,
/// `1 hr` / `{n} hrs`, `{n} d`, `{n} mo` (30 days), `{n} yr` (365 days). Only
/// `hr` takes a plural, as in the documented examples and the original kit's locale.
pub fn format_relative_time(timestamp_ms: i64, now_ms: i64) -> String {
    let RelativeTime { unit, count } = relative_time(timestamp_ms, now_ms);
    match unit {
        RelativeUnit::JustNow => JUST_NOW.to_owned(),
        RelativeUnit::Minutes => format!("{count} min"),
        RelativeUnit::Hours if count == 1 => "1 hr".to_owned(),
        RelativeUnit::Hours => format!("{count} hrs"),
        RelativeUnit::Days => format!("{count} d"),
        RelativeUnit::Months => format!("{count} mo"),
        RelativeUnit::Years => format!("{count} yr"),
    }
}

/// A calendar date in UTC: year and month 1–12.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct YearMonth {
    /// Proleptic Gregorian year.
    pub year: i64,
    /// 1 = January … 12 = December.
    pub month: u8,
}

impl YearMonth {
    /// The UTC month a Unix millisecond timestamp falls in.
    pub fn of_millis(ms: i64) -> Self {
        let (year, month, _) = civil_from_days(ms.div_euclid(DAY_MS));
        YearMonth { year, month }
    }
}

/// Days since 1970-01-01 → (year, month, day). H. Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month, day) → days since 1970-01-01. H. Hinnant's `days_from_civil`.
fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Unix seconds as the history API writes `minedAt`: `YYYY-MM-DDTHH:MM:SSZ` (UTC);
/// [`parse_iso_date`] reads it back.
pub fn format_iso_date(unix_seconds: i64) -> String {
    let (year, month, day) = civil_from_days(unix_seconds.div_euclid(86_400));
    let second = unix_seconds.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second / 3_600,
        second / 60 % 60,
        second % 60
    )
}

/// Unix milliseconds of an ISO 8601 date as the history API writes `minedAt`:
/// `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` and a zone `Z` or
/// `±HH:MM` (`±HHMM`). Without a zone the time is read as UTC, since the core
/// knows no local zone. `None` for anything else, including impossible dates.
pub fn parse_iso_date(text: &str) -> Option<i64> {
    let (year, month, day) = (digits_at(text, 0, 4)?, digits_at(text, 5, 2)?, digits_at(text, 8, 2)?);
    if text.as_bytes().get(4) != Some(&b'-') || text.as_bytes().get(7) != Some(&b'-') {
        return None;
    }
    let (month, day) = (u8::try_from(month).ok()?, u8::try_from(day).ok()?);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * DAY_MS;
    // Every byte before each slice point below was checked to be ASCII, so
    // each slice falls on a character boundary.
    let Some(time) = text[10..].strip_prefix(['T', 't', ' ']) else {
        return text[10..].is_empty().then_some(ms);
    };
    let (hour, minute) = (digits_at(time, 0, 2)?, digits_at(time, 3, 2)?);
    if time.as_bytes()[2] != b':' || hour > 23 || minute > 59 {
        return None;
    }
    ms += hour * HOUR_MS + minute * MINUTE_MS;
    let mut rest = &time[5..];
    if let Some(seconds) = rest.strip_prefix(':') {
        let second = digits_at(seconds, 0, 2)?;
        if second > 59 {
            return None;
        }
        ms += second * SECOND_MS;
        rest = &seconds[2..];
        if let Some(fraction) = rest.strip_prefix(['.', ',']) {
            let count = fraction.bytes().take_while(u8::is_ascii_digit).count();
            if count == 0 {
                return None;
            }
            // Milliseconds are the first three digits; finer ones are dropped, as JS does.
            let millis = digits_at(&format!("{:0<3}", &fraction[..count.min(3)]), 0, 3)?;
            ms += millis;
            rest = &fraction[count..];
        }
    }
    match rest {
        "" | "Z" | "z" => Some(ms),
        zone => {
            let sign = match zone.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let offset = &zone[1..];
            let minutes_at = match offset.len() {
                5 if offset.as_bytes()[2] == b':' => 3,
                4 => 2,
                _ => return None,
            };
            let (h, m) = (digits_at(offset, 0, 2)?, digits_at(offset, minutes_at, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            Some(ms - sign * (h * HOUR_MS + m * MINUTE_MS))
        }
    }
}

/// The `len` ASCII digits at byte `at` of `text` as a number.
fn digits_at(text: &str, at: usize, len: usize) -> Option<i64> {
    let part = text.as_bytes().get(at..at + len)?;
    part.iter()
        .all(u8::is_ascii_digit)
        .then(|| part.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_time_counts_whole_units() {
        let minute = 60_000;
        let cases = [
            (-5 * minute, RelativeUnit::JustNow, 0),
            (59_999, RelativeUnit::JustNow, 0),
            (2 * minute, RelativeUnit::Minutes, 2),
            (61 * minute, RelativeUnit::Hours, 1),
            (3 * 24 * 60 * minute, RelativeUnit::Days, 3),
            (31 * 24 * 60 * minute, RelativeUnit::Months, 1),
            (800 * 24 * 60 * minute, RelativeUnit::Years, 2),
        ];
        for (ago, unit, count) in cases {
            assert_eq!(
                relative_time(1_000_000_000_000, 1_000_000_000_000 + ago),
                RelativeTime { unit, count },
                "{ago}"
            );
        }
    }
    use proptest::prelude::*;

    const NOW: i64 = 1_700_000_000_000;

    // Behaviour 1.16: "Relative dates: 1 min, 2 hrs, 3 d, 1 mo, 1 yr."
    #[test]
    fn relative_units() {
        for (ago, shown) in [
            (0, "just now"),
            (59 * SECOND_MS, "just now"),
            (MINUTE_MS, "1 min"),
            (59 * MINUTE_MS + 59 * SECOND_MS, "59 min"),
            (HOUR_MS, "1 hr"),
            (2 * HOUR_MS, "2 hrs"),
            (23 * HOUR_MS, "23 hrs"),
            (3 * DAY_MS, "3 d"),
            (29 * DAY_MS, "29 d"),
            (30 * DAY_MS, "1 mo"),
            (364 * DAY_MS, "12 mo"),
            (365 * DAY_MS, "1 yr"),
            (3 * 365 * DAY_MS, "3 yr"),
            (-5 * MINUTE_MS, "just now"),
        ] {
            assert_eq!(format_relative_time(NOW - ago, NOW), shown, "{ago} ms ago");
        }
        assert_eq!(
            format_relative_time(i64::MIN, i64::MAX),
            format!("{} yr", i64::MAX / YEAR_MS)
        );
    }

    #[test]
    fn iso_dates() {
        for (text, ms) in [
            ("1970-01-01", 0),
            ("1970-01-01T00:00:00Z", 0),
            ("2023-11-14T22:13:20.000Z", NOW),
            ("2023-11-14T22:13:20Z", NOW),
            ("2023-11-14T22:13:20.5Z", NOW + 500),
            ("2023-11-14T22:13:20.123456Z", NOW + 123),
            ("2023-11-15T00:13:20+02:00", NOW),
            ("2023-11-14T18:13:20-0400", NOW),
            ("2023-11-14T22:13", NOW - 20 * SECOND_MS),
            ("2024-02-29T00:00:00Z", 1_709_164_800_000),
            ("1969-12-31T23:59:59Z", -SECOND_MS),
        ] {
            assert_eq!(parse_iso_date(text), Some(ms), "{text}");
        }
        for bad in [
            "",
            "2023",
            "2023-13-01",
            "2023-02-29",
            "2023-11-14T24:00:00Z",
            "2023-11-14T22:60Z",
            "2023-11-14T22:13:60Z",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20+2",
            "2023-11-14T22:13:20X",
            "2023-11-14Z",
            "11/14/2023",
            "２０２３-11-14",
        ] {
            assert_eq!(parse_iso_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn iso_dates_round_trip() {
        assert_eq!(format_iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_iso_date(1_763_770_000), "2025-11-22T00:06:40Z");
        for seconds in [-86_401, 951_782_400, 4_102_444_799] {
            assert_eq!(parse_iso_date(&format_iso_date(seconds)), Some(seconds * 1000));
        }
    }

    #[test]
    fn civil_months() {
        assert_eq!(YearMonth::of_millis(NOW), YearMonth { year: 2023, month: 11 });
        assert_eq!(YearMonth::of_millis(-1), YearMonth { year: 1969, month: 12 });
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", a in any::<i64>(), b in any::<i64>()) {
            let _ = parse_iso_date(&s);
            let _ = format_relative_time(a, b);
            let _ = YearMonth::of_millis(a / 2);
        }

        // Every day from year 0 to 9999 survives civil → days → civil.
        #[test]
        fn calendar_round_trips(days in -719_528i64..2_932_896) {
            let (y, m, d) = civil_from_days(days);
            prop_assert_eq!(days_from_civil(y, m, d), days);
            let text = format!("{y:04}-{m:02}-{d:02}T00:00:00Z");
            prop_assert_eq!(parse_iso_date(&text), Some(days * DAY_MS));
        }
    }
}
