//! Sign-in and project configuration, and the e-mail login cooldown (behaviour 4.2, 5.16, 6.2, 7.1).

use crate::constants::CONSTANTS;
use crate::{Error, Result};
/// Behaviour 4.2: "siweConfig and siwx cannot both be set".
pub fn check_siwx_options(has_siwe_config: bool, has_siwx: bool) -> Result<()> {
    if has_siwe_config && has_siwx {
        return Err(Error::SiwxConflict);
    }
    Ok(())
}

/// Behaviour 6.2 "A project id is required, else the alert Project ID Not Configured":
/// missing, empty or blank.
pub fn check_project_id(project_id: Option<&str>) -> Result<()> {
    match project_id {
        Some(id) if !id.trim().is_empty() => Ok(()),
        _ => Err(Error::ProjectIdNotConfigured),
    }
}

/// Behaviour 5.16 "E-mail login is blocked within 30 s of the last attempt", with behaviour 5.16's
/// message giving the whole seconds left, rounded up. No last attempt, or one
/// dated in the future (a device clock moved back; trusting it could lock the
/// user out for as long), does not block: the server enforces the real limit.
pub fn check_email_cooldown(last_attempt_ms: Option<i64>, now_ms: i64) -> Result<()> {
    let Some(last) = last_attempt_ms else { return Ok(()) };
    let elapsed = now_ms.saturating_sub(last);
    if !(0..(CONSTANTS.cooldowns.email_login_ms as i64)).contains(&elapsed) {
        return Ok(());
    }
    let remaining = (CONSTANTS.cooldowns.email_login_ms as i64) - elapsed;
    Err(Error::EmailCooldown {
        seconds: remaining.unsigned_abs().div_ceil(1_000),
    })
}

/// The behaviour 5.16 throttle message while the cooldown lasts, else `None`.
pub fn email_cooldown_message(last_attempt_ms: Option<i64>, now_ms: i64) -> Option<String> {
    check_email_cooldown(last_attempt_ms, now_ms)
        .err()
        .map(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Behaviour 4.2: "siweConfig and siwx cannot both be set… A project id is required, else the alert Project ID Not Configured."
    #[test]
    fn configuration() {
        assert!(check_siwx_options(true, false).is_ok());
        assert!(check_siwx_options(false, true).is_ok());
        assert!(check_siwx_options(false, false).is_ok());
        assert_eq!(
            check_siwx_options(true, true).unwrap_err().to_string(),
            "Cannot set both `siweConfig` and `siwx` options"
        );
        assert!(check_project_id(Some("c4f79cc8")).is_ok());
        for bad in [None, Some(""), Some("  ")] {
            assert_eq!(check_project_id(bad), Err(Error::ProjectIdNotConfigured));
        }
    }

    // Behaviour 5.16: "E-mail login is blocked within 30 s of the last attempt"; behaviour 5.16 "Please try again after {n} seconds".
    #[test]
    fn email_cooldown() {
        let now = 1_700_000_000_000;
        for (ago, message) in [
            (0, Some("Please try again after 30 seconds")),
            (1, Some("Please try again after 30 seconds")),
            (999, Some("Please try again after 30 seconds")),
            (1_000, Some("Please try again after 29 seconds")),
            (29_001, Some("Please try again after 1 seconds")),
            (30_000, None),
            (90_000, None),
            (-5_000, None),
        ] {
            assert_eq!(
                email_cooldown_message(Some(now - ago), now).as_deref(),
                message,
                "{ago} ms ago"
            );
        }
        assert_eq!(email_cooldown_message(None, now), None);
    }
}
