//! Recovery envelopes from the server: parsing never panics, a parsed one
//! round-trips through its JSON, and opening it (passkey route: no Argon2
//! cost per input) fails cleanly.
#![no_main]

use latch_vault::{Envelope, EnvelopeKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(envelope) = Envelope::parse(text) {
        assert_eq!(Envelope::parse(&envelope.to_json()).as_ref(), Ok(&envelope));
        if matches!(envelope.kind, EnvelopeKind::Passkey { .. }) {
            let _ = envelope.open_with_passkey("fuzz-user", &[7; 32]);
        }
    }
});
