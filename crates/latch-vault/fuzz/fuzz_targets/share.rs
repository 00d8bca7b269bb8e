//! Share text from anyone (the server validates the auth share it is given
//! with this parser): never a panic, and what parses prints back the same.
#![no_main]

use latch_vault::Share;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(share) = Share::parse(text) {
        assert_eq!(share.to_text(), text);
    }
});
