//! The wallet frame's request parser on arbitrary text: it never panics, and a
//! request it accepts is accepted again, unchanged, in its normalized form.
#![no_main]

use latch_core::embedded::frame::{parse_request, parse_request_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(request) = parse_request_json(text) {
        let normalized = request.to_json();
        assert_eq!(parse_request(&normalized).as_ref(), Ok(&request));
    }
});
