//! Which web origins may use a project (behaviour 6.2 "Invalid App Configuration":
//! an origin not on the project's allowlist is refused).
//!
//! A pattern is an origin (`https://app.example.com`) where the port may be `*`
//! (`http://127.0.0.1:*`, any port or none) and the host may start with `*.`
//! (`https://*.example.com`, any subdomain, not the bare domain). `*` alone
//! allows every origin.

/// Whether `origin` (as browsers send it in the `Origin` header) is allowed by `pattern`.
pub fn origin_matches(pattern: &str, origin: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    let (Some(p), Some(o)) = (split_origin(pattern), split_origin(origin)) else {
        return false;
    };
    if !p.scheme.eq_ignore_ascii_case(o.scheme) || o.host.contains('*') || o.port == Some("*") {
        return false;
    }
    let host_ok = match p.host.strip_prefix("*.") {
        Some(domain) => {
            let host = o.host.to_ascii_lowercase();
            let domain = domain.to_ascii_lowercase();
            host.len() > domain.len() + 1 && host.ends_with(&domain) && host[..host.len() - domain.len()].ends_with('.')
        }
        None => p.host.eq_ignore_ascii_case(o.host),
    };
    let port_ok = p.port == Some("*") || p.port == o.port;
    host_ok && port_ok
}

/// Whether any of `patterns` allows `origin`.
pub fn origin_allowed<S: AsRef<str>>(patterns: &[S], origin: &str) -> bool {
    patterns.iter().any(|p| origin_matches(p.as_ref(), origin))
}

/// Whether `pattern` is one [`origin_matches`] understands, for validating configuration.
pub fn is_valid_origin_pattern(pattern: &str) -> bool {
    pattern == "*"
        || split_origin(pattern)
            .is_some_and(|p| !p.host.is_empty() && !p.host[p.host.starts_with("*.") as usize * 2..].contains('*'))
}

struct Origin<'a> {
    scheme: &'a str,
    host: &'a str,
    port: Option<&'a str>,
}

fn split_origin(text: &str) -> Option<Origin<'_>> {
    let (scheme, rest) = text.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    {
        return None;
    }
    // Origins have no path, query, fragment or credentials.
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) {
        return None;
    }
    let (host, port) = match rest.rsplit_once(':') {
        // An IPv6 literal holds colons inside brackets.
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (rest, None),
    };
    if let Some(port) = port {
        if port != "*" && (port.is_empty() || port.len() > 5 || !port.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
    }
    (!host.is_empty()).then_some(Origin { scheme, host, port })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn patterns() {
        let dev = "http://127.0.0.1:*";
        assert!(origin_matches(dev, "http://127.0.0.1:8787"));
        assert!(origin_matches(dev, "http://127.0.0.1"));
        assert!(!origin_matches(dev, "https://127.0.0.1:8787"));
        assert!(!origin_matches(dev, "http://127.0.0.2:8787"));
        assert!(origin_matches("https://app.example.com", "https://APP.example.com"));
        assert!(!origin_matches(
            "https://app.example.com",
            "https://app.example.com:444"
        ));
        let sub = "https://*.example.com";
        assert!(origin_matches(sub, "https://a.b.example.com"));
        assert!(!origin_matches(sub, "https://example.com"));
        assert!(!origin_matches(sub, "https://evilexample.com"));
        assert!(origin_matches("*", "null"));
        assert!(!origin_matches("http://localhost:*", "null"));
        assert!(origin_matches("http://[::1]:*", "http://[::1]:3000"));
        assert!(!origin_matches("https://a.com", "https://a.com/path"));
        assert!(origin_allowed(&["https://x.org", dev], "http://127.0.0.1:5173"));
    }

    #[test]
    fn pattern_validation() {
        for ok in [
            "*",
            "http://localhost:*",
            "https://*.example.com",
            "https://a.example.com:8443",
        ] {
            assert!(is_valid_origin_pattern(ok), "{ok}");
        }
        for bad in [
            "",
            "example.com",
            "https://",
            "https://a.com/",
            "https://a.*.com",
            "https://a.com:http",
        ] {
            assert!(!is_valid_origin_pattern(bad), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(p in "\\PC*", o in "\\PC*") {
            let _ = origin_matches(&p, &o);
            let _ = is_valid_origin_pattern(&p);
        }
    }
}
