//! Links that hand a pairing URI to a wallet app (behaviour 2.7): a native deep link
//! (`scheme://wc?uri=…`) or a universal link (`https://…/wc?uri=…`).
//!
//! App URLs come from the wallet catalogue service, so they are validated:
//! no whitespace or control characters, a well-formed scheme, a host after
//! `http(s)://`, and never a scheme that runs or reads something in the page
//! (`javascript:`, `data:`, …).

use crate::{Error, Result};

/// Schemes that would run script or read local data instead of opening an app.
const FORBIDDEN_SCHEMES: [&str; 6] = ["javascript", "data", "vbscript", "file", "blob", "about"];

/// The pairing URI percent-encoded exactly as JS `encodeURIComponent` does:
/// every UTF-8 byte except `A–Z a–z 0–9 - _ . ! ~ * ' ( )` becomes `%XX`
/// (upper-case hex).
pub fn encode_uri_component(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 0xf)] as char);
        }
    }
    out
}

fn invalid(input: &str, reason: &'static str) -> Error {
    Error::InvalidAppUrl {
        input: input.to_owned(),
        reason,
    }
}

/// Whether `url` starts with `http://` or `https://` (any letter case).
fn is_http_url(url: &str) -> bool {
    let lower = |n: usize| url.get(..n).map(str::to_ascii_lowercase);
    lower(7).as_deref() == Some("http://") || lower(8).as_deref() == Some("https://")
}

/// RFC 3986 scheme characters; a leading digit is tolerated because some
/// wallet apps register such schemes on mobile systems that accept them.
fn is_scheme(scheme: &str) -> bool {
    !scheme.is_empty()
        && scheme.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

fn check_common(app_url: &str, wc_uri: &str) -> Result<()> {
    if app_url.is_empty() {
        return Err(invalid(app_url, "empty"));
    }
    if app_url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid(app_url, "contains whitespace or control characters"));
    }
    if wc_uri.is_empty() {
        return Err(Error::InvalidInput {
            what: "pairing URI",
            reason: "empty".into(),
        });
    }
    Ok(())
}

fn with_trailing_slash(base: String) -> String {
    if base.ends_with('/') {
        base
    } else {
        base + "/"
    }
}

fn link(base: String, wc_uri: &str) -> String {
    format!("{}wc?uri={}", with_trailing_slash(base), encode_uri_component(wc_uri))
}

/// A universal link (behaviour 2.7): `app_url` (which must be `http(s)://host…`) with a
/// trailing slash, then `wc?uri=` and the encoded pairing URI.
pub fn build_universal_link(app_url: &str, wc_uri: &str) -> Result<String> {
    check_common(app_url, wc_uri)?;
    if !is_http_url(app_url) {
        return Err(invalid(app_url, "a universal link starts with http:// or https://"));
    }
    let (_, rest) = app_url.split_once("://").unwrap_or_default();
    if rest.is_empty() || rest.starts_with(['/', '?', '#']) {
        return Err(invalid(app_url, "missing host"));
    }
    Ok(link(app_url.to_owned(), wc_uri))
}

/// A native deep link (behaviour 2.7). An `http(s)` app URL is a universal link
/// ([`build_universal_link`]). Otherwise the URL is a scheme: one given without
/// `://` (`metamask:` or `metamask`) loses its `:` and `/` characters and gets
/// `://`; then a trailing slash is ensured and `wc?uri=` plus the encoded
/// pairing URI appended: `metamask://wc?uri=wc%3A…`.
pub fn build_native_deep_link(app_url: &str, wc_uri: &str) -> Result<String> {
    check_common(app_url, wc_uri)?;
    if is_http_url(app_url) {
        return build_universal_link(app_url, wc_uri);
    }
    let (scheme, base) = match app_url.split_once("://") {
        Some((scheme, _)) => (scheme.to_owned(), app_url.to_owned()),
        None => {
            let scheme: String = app_url.chars().filter(|c| !matches!(c, ':' | '/')).collect();
            let base = format!("{scheme}://");
            (scheme, base)
        }
    };
    if !is_scheme(&scheme) {
        return Err(invalid(
            app_url,
            "expected a scheme such as metamask:// or an https:// link",
        ));
    }
    if FORBIDDEN_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()) {
        return Err(invalid(app_url, "scheme not allowed"));
    }
    Ok(link(base, wc_uri))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const WC: &str = "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1700000300";
    const WC_ENCODED: &str = "wc%3A7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9%402%3Frelay-protocol%3Dirn%26symKey%3D587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303%26expiryTimestamp%3D1700000300";

    /// The inverse of [`encode_uri_component`], for round-trip checks.
    fn decode(text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    // Values from JS: encodeURIComponent(x) in Node.
    #[test]
    fn encoding_matches_encode_uri_component() {
        for (raw, encoded) in [
            (WC, WC_ENCODED),
            ("a b+c/d", "a%20b%2Bc%2Fd"),
            ("-_.!~*'()", "-_.!~*'()"),
            ("#[]$,;", "%23%5B%5D%24%2C%3B"),
            ("é€😀", "%C3%A9%E2%82%AC%F0%9F%98%80"),
            ("", ""),
        ] {
            assert_eq!(encode_uri_component(raw), encoded, "{raw}");
        }
    }

    // Behaviour 2.7: "Native deep link: an http link is a universal link; others get the scheme suffix and
    // trailing slash; the pairing uri is URL-encoded in a wc?uri= query."
    #[test]
    fn native_links() {
        for (app, expected) in [
            ("metamask://", "metamask://wc?uri="),
            ("metamask:", "metamask://wc?uri="),
            ("metamask", "metamask://wc?uri="),
            ("trust:/", "trust://wc?uri="),
            ("rainbow://app", "rainbow://app/wc?uri="),
            ("rainbow://app/", "rainbow://app/wc?uri="),
            ("https://metamask.app.link", "https://metamask.app.link/wc?uri="),
            ("HTTPS://link.example/x/", "HTTPS://link.example/x/wc?uri="),
        ] {
            assert_eq!(
                build_native_deep_link(app, WC).unwrap(),
                format!("{expected}{WC_ENCODED}"),
                "{app}"
            );
        }
    }

    #[test]
    fn universal_links() {
        assert_eq!(
            build_universal_link("https://link.trustwallet.com", WC).unwrap(),
            format!("https://link.trustwallet.com/wc?uri={WC_ENCODED}")
        );
        assert_eq!(
            build_universal_link("https://x.example/", "wc:a@2").unwrap(),
            "https://x.example/wc?uri=wc%3Aa%402"
        );
    }

    #[test]
    fn bad_app_urls() {
        for (app, reason) in [
            ("", "empty"),
            ("meta mask://", "contains whitespace or control characters"),
            ("metamask://\n", "contains whitespace or control characters"),
            ("://", "expected a scheme such as metamask:// or an https:// link"),
            ("::", "expected a scheme such as metamask:// or an https:// link"),
            ("<script>", "expected a scheme such as metamask:// or an https:// link"),
            ("javascript:", "scheme not allowed"),
            ("JavaScript://alert(1)", "scheme not allowed"),
            ("data:", "scheme not allowed"),
            ("https://", "missing host"),
            ("http:///path", "missing host"),
        ] {
            let err = build_native_deep_link(app, WC).unwrap_err();
            assert_eq!(err.to_string(), format!("Invalid app URL: {reason}"), "{app:?}");
        }
        assert_eq!(
            build_universal_link("metamask://", WC).unwrap_err().to_string(),
            "Invalid app URL: a universal link starts with http:// or https://"
        );
        assert_eq!(
            build_native_deep_link("metamask://", "").unwrap_err().to_string(),
            "Invalid pairing URI: empty"
        );
    }

    proptest! {
        #[test]
        fn encoding_round_trips_and_is_url_safe(s in "\\PC*") {
            let encoded = encode_uri_component(&s);
            prop_assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.!~*'()%".contains(&b)));
            prop_assert_eq!(decode(&encoded), s);
        }

        #[test]
        fn links_end_with_the_encoded_uri(
            app in prop_oneof!["\\PC*", "(https?://)?[a-zA-Z0-9.+-]{0,12}(:|:/|://)?[a-z/]{0,6}"],
            uri in "\\PC+",
        ) {
            let built = [build_native_deep_link(&app, &uri), build_universal_link(&app, &uri)];
            for link in built.into_iter().flatten() {
                let (base, query) = link.rsplit_once("wc?uri=").unwrap();
                prop_assert!(base.ends_with('/') && base.contains("://"));
                prop_assert_eq!(decode(query), uri.clone());
                prop_assert!(!link.chars().any(|c| c.is_whitespace() || c.is_control()));
            }
        }
    }
}
