//! Every address rule on arbitrary text: none may panic, and whatever parses
//! must print back to exactly the text it came from.
#![no_main]

use latch_core::address;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for namespace in ["eip155", "solana", "bip122", "polkadot", "cosmos"] {
        let _ = address::is_valid_address(namespace, text);
    }
    let _ = address::is_transaction_hash(text);
    let _ = address::is_signed_message(text);
    let _ = address::parse_bitcoin_address(text);
    if let Ok(key) = address::parse_solana_address(text) {
        assert_eq!(bs58::encode(key).into_string(), text);
    }
    if let Ok(parsed) = address::parse_ss58_address(text) {
        assert_eq!(address::to_ss58_address(parsed.prefix, &parsed.public_key).as_deref(), Ok(text));
    }
});
