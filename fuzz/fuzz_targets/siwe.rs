//! Sign-in message parsing on arbitrary text: no panics, and every text that
//! parses builds back to itself (`build(parse(text)) == text`) in both the
//! EIP-4361 and the generic view. The signature checks run on the same input,
//! and so does ERC-6492 unwrapping (what unwraps wraps back to the same).
#![no_main]

use latch_core::siwx::{self, SiweMessage, SiwxMessage};
use latch_server::signatures::Counterfactual;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(counterfactual) = Counterfactual::unwrap(data) {
        assert_eq!(Counterfactual::unwrap(&counterfactual.wrap()), Some(counterfactual));
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(message) = SiweMessage::parse(text) {
        assert_eq!(message.build().as_deref(), Ok(text));
        let _ = message.check_times(0);
    }
    if let Ok(message) = SiwxMessage::parse(text) {
        assert_eq!(message.build().as_deref(), Ok(text));
    }
    let middle = text.char_indices().nth(text.chars().count() / 2).map_or(text.len(), |(i, _)| i);
    let (message, signature) = text.split_at(middle);
    let _ = siwx::recover_personal_sign_address(message, signature);
    let _ = siwx::verify_solana_signature(message, signature, "FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z");
});
