//! The Solana transaction reader on arbitrary bytes: the wire split, the full message decode and
//! the embedded wallet's approval summary may refuse but never panic; a message that decodes
//! serializes back to exactly its bytes (one reading per message: what is shown is what is signed).
#![no_main]

use latch_core::embedded::solana::summarize_transaction;
use latch_core::solana_transfer::{decode_message, parse_transaction};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(message) = decode_message(data) {
        assert_eq!(message.serialize(), data);
    }
    if let Ok(split) = parse_transaction(data) {
        if let Some(signer) = split.signers.first() {
            let _ = summarize_transaction(data, signer);
        }
    }
    let _ = summarize_transaction(data, &[0; 32]);
});
