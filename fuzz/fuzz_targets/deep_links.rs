//! The deep-link builders on arbitrary app URLs and pairing URIs: none may
//! panic, and every link built must carry the pairing URI intact (it decodes
//! back) in a `wc?uri=` query, with no whitespace or control characters.
#![no_main]

use latch_core::link;
use libfuzzer_sys::fuzz_target;

/// Reverses `encodeURIComponent`-style encoding; `None` on a malformed escape.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(text.get(i + 1..i + 3)?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The first line is the app URL, the rest the pairing URI.
    let (app_url, wc_uri) = text.split_once('\n').unwrap_or((text, "wc:a@2"));
    for built in [
        link::build_native_deep_link(app_url, wc_uri),
        link::build_universal_link(app_url, wc_uri),
    ] {
        let Ok(built) = built else { continue };
        let (base, query) = built.rsplit_once("wc?uri=").expect("a wc?uri= query");
        assert!(base.contains("://") && base.ends_with('/'), "{built}");
        assert_eq!(decode(query).as_deref(), Some(wc_uri), "{built}");
        assert!(!built.chars().any(|c| c.is_whitespace() || c.is_control()), "{built}");
    }
});
