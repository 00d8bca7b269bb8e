//! NFT token URIs and metadata documents on arbitrary input: no panics; a
//! `data:` URI's bytes come back from its base64 form.
#![no_main]

use latch_server::chaindata::nft::{locate, media_of, Location};
use libfuzzer_sys::fuzz_target;

const GATEWAY: Option<&str> = Some("https://ipfs.example");

fuzz_target!(|data: &[u8]| {
    let _ = media_of(data, GATEWAY);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(Location::Inline { bytes, .. }) = locate(text, GATEWAY) {
        use base64::Engine;
        let again = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        );
        assert!(matches!(locate(&again, GATEWAY), Some(Location::Inline { bytes: b, .. }) if b == bytes));
    }
});
