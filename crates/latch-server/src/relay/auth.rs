//! Who a relay client is: the token rules are `latch_core::relay_auth` (the
//! dapp client signs with the same code); what only the relay decides, whether
//! a token's audience names this relay, is here.

pub use latch_core::relay_auth::*;

/// Whether `aud` names this relay: one of `configured` when any are, else a
/// URL whose host (and port) is the `Host` the client connected to.
pub fn audience_ok(aud: &str, configured: &[String], host: Option<&str>) -> bool {
    let trim = |s: &str| s.trim_end_matches('/').to_owned();
    if !configured.is_empty() {
        return configured.iter().any(|c| trim(c) == trim(aud));
    }
    let Some(host) = host else { return false };
    let Some((scheme, rest)) = aud.split_once("://") else {
        return false;
    };
    if !matches!(scheme, "ws" | "wss" | "http" | "https") {
        return false;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    authority.eq_ignore_ascii_case(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audiences() {
        assert!(audience_ok("ws://127.0.0.1:8787/relay", &[], Some("127.0.0.1:8787")));
        assert!(audience_ok("wss://relay.example/", &[], Some("relay.example")));
        assert!(!audience_ok("ws://127.0.0.1:9999/relay", &[], Some("127.0.0.1:8787")));
        assert!(!audience_ok("ws://127.0.0.1:8787/relay", &[], None));
        assert!(!audience_ok("ftp://127.0.0.1:8787", &[], Some("127.0.0.1:8787")));
        let configured = vec!["wss://relay.example/".to_owned()];
        assert!(audience_ok("wss://relay.example", &configured, Some("internal:80")));
        assert!(!audience_ok("wss://other.example", &configured, Some("other.example")));
    }
}
