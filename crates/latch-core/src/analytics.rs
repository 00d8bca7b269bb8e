//! Analytics events the modal may send (behaviour 6.14 "Analytics").

/// Events the kit sends: the documented list (behaviour 6.14) plus the connection and
/// sign-in outcomes the dashboard charts. Anything else is refused, so a
/// typo cannot silently start a new series.
pub const EVENT_NAMES: [&str; 15] = [
    "INITIALIZE",
    "MODAL_OPEN",
    "MODAL_CLOSE",
    "SELECT_WALLET",
    "CONNECT_SUCCESS",
    "CONNECT_ERROR",
    "SOCIAL_LOGIN_SUCCESS",
    "SET_PREFERRED_ACCOUNT_TYPE",
    "SWITCH_NETWORK",
    "DISCONNECT_SUCCESS",
    "DISCONNECT_ERROR",
    "INTERNAL_SDK_ERROR",
    "SIWX_AUTH_SUCCESS",
    "SIWX_AUTH_ERROR",
    "CLICK_ALL_WALLETS",
];

/// `props.type` of an event: a normal event or an error report.
pub const EVENT_KINDS: [&str; 2] = ["track", "error"];

/// Never sent (behaviour 6.14: "Skipped for MODAL_CREATED").
pub const SKIPPED_EVENT: &str = "MODAL_CREATED";

/// Most events accepted in one batch.
pub const MAX_BATCH_EVENTS: usize = 500;
/// Largest serialized `props.properties` object, in bytes.
pub const MAX_PROPERTIES_BYTES: usize = 8 * 1024;
/// Longest `url`, `domain` or `eventId`.
pub const MAX_FIELD_CHARS: usize = 2048;

/// Whether `name` is an event the kit sends.
pub fn is_known_event(name: &str) -> bool {
    EVENT_NAMES.contains(&name)
}

/// Why an event was refused, for the caller; `None` when it is acceptable.
/// `kind` is `props.type`; the sizes are of the text fields as received.
pub fn event_problem(event_id: &str, url: &str, domain: &str, kind: &str, name: &str) -> Option<String> {
    if event_id.is_empty() || event_id.len() > 128 {
        return Some("eventId must be 1-128 characters".into());
    }
    if url.len() > MAX_FIELD_CHARS || domain.len() > MAX_FIELD_CHARS {
        return Some(format!("url and domain are at most {MAX_FIELD_CHARS} characters"));
    }
    if !EVENT_KINDS.contains(&kind) {
        return Some(format!("props.type must be \"track\" or \"error\", not {kind:?}"));
    }
    if name == SKIPPED_EVENT {
        return Some(format!("{SKIPPED_EVENT} is never recorded"));
    }
    if !is_known_event(name) {
        return Some(format!("unknown event {name:?}; known: {}", EVENT_NAMES.join(", ")));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Behaviour 6.14: "Analytics: INITIALIZE, CONNECT_SUCCESS, SOCIAL_LOGIN_SUCCESS, SET_PREFERRED_ACCOUNT_TYPE,
    // INTERNAL_SDK_ERROR, DISCONNECT_ERROR, MODAL_OPEN, MODAL_CLOSE, plus sign-in success and error events."
    #[test]
    fn spec_events_are_known() {
        for name in [
            "INITIALIZE",
            "CONNECT_SUCCESS",
            "SOCIAL_LOGIN_SUCCESS",
            "SET_PREFERRED_ACCOUNT_TYPE",
            "INTERNAL_SDK_ERROR",
            "DISCONNECT_ERROR",
            "MODAL_OPEN",
            "MODAL_CLOSE",
            "SIWX_AUTH_SUCCESS",
            "SIWX_AUTH_ERROR",
        ] {
            assert!(is_known_event(name), "{name}");
        }
    }

    #[test]
    fn problems() {
        assert_eq!(
            event_problem("e1", "https://a.org/x", "a.org", "track", "MODAL_OPEN"),
            None
        );
        assert!(event_problem("", "u", "d", "track", "MODAL_OPEN")
            .unwrap()
            .contains("eventId"));
        assert!(event_problem("e", "u", "d", "info", "MODAL_OPEN")
            .unwrap()
            .contains("props.type"));
        // behaviour 6.14: "Skipped for MODAL_CREATED".
        assert!(event_problem("e", "u", "d", "track", "MODAL_CREATED")
            .unwrap()
            .contains("never recorded"));
        assert!(event_problem("e", "u", "d", "track", "modal_open")
            .unwrap()
            .contains("unknown event"));
        assert!(event_problem("e", &"u".repeat(3000), "d", "track", "MODAL_OPEN").is_some());
    }

    proptest! {
        #[test]
        fn never_panics(a in "\\PC*", b in "\\PC*", c in "\\PC*") {
            let _ = event_problem(&a, &b, &c, &a, &b);
        }
    }
}
