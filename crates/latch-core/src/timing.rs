//! Time-based rules: the pairing-link lifetime (behaviour 2.6 Connection status) and the
//! e-mail login cooldown (behaviour 5.15 Embedded-wallet requests, behaviour 5.16). Callers pass the
//! clock (`now_ms`, Unix milliseconds); nothing here reads it.

use crate::constants::CONSTANTS;
use crate::{Error, Result};

/// When a pairing link made at `now_ms` expires: now plus 4 minutes (behaviour 2.6).
pub fn pairing_expiry(now_ms: u64) -> u64 {
    now_ms.saturating_add(CONSTANTS.pairing.lifetime_ms)
}

/// Whether a pairing link expiring at `expiry_ms` must be regenerated: under
/// 10 s remain (behaviour 2.6). An already expired link is near expiry too.
pub fn is_pairing_near_expiry(expiry_ms: u64, now_ms: u64) -> bool {
    expiry_ms.saturating_sub(now_ms) < CONSTANTS.pairing.near_expiry_ms
}

/// Whether pairing may be retried: at least 1 s since the last attempt (behaviour 2.6).
/// A last attempt "in the future" (the clock went back) counts as just now.
pub fn can_retry_pairing(last_attempt_ms: u64, now_ms: u64) -> bool {
    now_ms.saturating_sub(last_attempt_ms) >= CONSTANTS.pairing.retry_gap_ms
}

/// A JS timestamp (a `number` of milliseconds) as whole milliseconds. It must
/// be finite, not negative and at most 2^53 (the largest exact JS integer);
/// a fraction (`performance.now()`-style) is dropped.
pub fn timestamp_from_js(value: f64) -> Result<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_992.0;
    if value.is_finite() && (0.0..=MAX_SAFE).contains(&value) {
        // In range and finite, so the cast is exact after flooring.
        Ok(value.floor() as u64)
    } else {
        Err(Error::InvalidInput {
            what: "timestamp",
            reason: "expected a finite, non-negative number of milliseconds".into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const NOW: u64 = 1_700_000_000_000;

    // Behaviour 2.6: "A new expiry is now plus 4 minutes."
    #[test]
    fn expiry_is_four_minutes_ahead() {
        assert_eq!(pairing_expiry(NOW), NOW + 240_000);
        assert_eq!(pairing_expiry(u64::MAX), u64::MAX);
    }

    // Behaviour 2.6: "A pairing expires when under 10 s remain and must then be regenerated."
    #[test]
    fn near_expiry_under_ten_seconds() {
        for (expiry, near) in [
            (NOW + 240_000, false),
            (NOW + 10_000, false),
            (NOW + 9_999, true),
            (NOW, true),
            (NOW - 1, true),
        ] {
            assert_eq!(is_pairing_near_expiry(expiry, NOW), near, "{expiry}");
        }
    }

    // Behaviour 2.6: "A retry is allowed when at least 1 s has passed."
    #[test]
    fn retry_after_one_second() {
        for (last, ok) in [
            (NOW - 1_000, true),
            (NOW - 999, false),
            (NOW, false),
            (NOW + 5, false),
            (0, true),
        ] {
            assert_eq!(can_retry_pairing(last, NOW), ok, "{last}");
        }
    }

    // Behaviour 5.16: "E-mail login is blocked within 30 s of the last attempt." behaviour 5.16: "Please try again after {n} seconds".
    #[test]
    fn js_timestamps() {
        assert_eq!(timestamp_from_js(1_700_000_000_000.7), Ok(1_700_000_000_000));
        assert_eq!(timestamp_from_js(0.0), Ok(0));
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e300] {
            assert_eq!(
                timestamp_from_js(bad).unwrap_err().to_string(),
                "Invalid timestamp: expected a finite, non-negative number of milliseconds"
            );
        }
    }

    proptest! {
        #[test]
        fn a_fresh_link_is_not_near_expiry(now in 0u64..1 << 53) {
            prop_assert!(!is_pairing_near_expiry(pairing_expiry(now), now));
        }

        #[test]
        fn never_panics(a: u64, b: u64, f: f64) {
            let _ = (pairing_expiry(a), is_pairing_near_expiry(a, b), can_retry_pairing(a, b));
            let _ = timestamp_from_js(f);
        }
    }
}
