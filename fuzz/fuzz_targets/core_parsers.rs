//! Every latch-core parser on arbitrary text: none may panic, and whatever
//! parses must print back to what was parsed. Base64 must also read exactly
//! what the `base64` crate reads.
#![no_main]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use latch_core::{address, base64 as b64, caip, format, origin};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(id) = caip::CaipNetworkId::parse(text) {
        assert_eq!(id.to_string(), text);
    }
    if let Ok(account) = caip::CaipAddress::parse(text) {
        assert_eq!(account.to_string(), text);
    }
    let _ = caip::CaipAddress::validate(text);
    let _ = caip::CaipNetworkId::eip155(text);
    if let Ok(sum) = address::to_checksum_address(text) {
        assert_eq!(address::to_checksum_address(&sum).as_deref(), Ok(sum.as_str()));
    }
    let middle = text.char_indices().nth(text.chars().count() / 2).map_or(text.len(), |(i, _)| i);
    let (left, right) = text.split_at(middle);
    let _ = format::format_units(text, data.first().copied().unwrap_or(18));
    let _ = format::format_balance(Some(left), Some(right));
    let _ = format::truncate_address(text);
    let _ = origin::origin_matches(left, right);
    let _ = origin::is_valid_origin_pattern(text);
    let standard = b64::decode(text);
    assert_eq!(standard, STANDARD.decode(text).ok());
    if let Some(bytes) = standard {
        assert_eq!(b64::encode(&bytes), text);
    }
    let url = b64::decode_url(text);
    assert_eq!(url, URL_SAFE_NO_PAD.decode(text).ok());
    if let Some(bytes) = url {
        assert_eq!(b64::encode_url(&bytes), text);
    }
});
