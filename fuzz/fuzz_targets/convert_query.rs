//! The convert API's query parsers (latch_core::swap::query) and the Multicall3
//! answer decoder on arbitrary input: none may panic, and a token id that
//! parses must print back to one that parses to the same token.
#![no_main]

use latch_core::swap::{abi, query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = abi::decode_aggregate3(data);
    let _ = abi::decode_u256_array(data);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(id) = query::parse_token_id("from", text) {
        assert_eq!(query::parse_token_id("from", &id.caip10()), Ok(id));
    }
    let middle = text.char_indices().nth(text.chars().count() / 2).map_or(text.len(), |(i, _)| i);
    let (left, right) = text.split_at(middle);
    if let Ok(pair) = query::parse_swap_pair(left, right) {
        assert_ne!(pair.from, pair.to);
    }
    let _ = query::parse_chain_id("chainId", text);
    let _ = query::parse_base_units("amount", text);
    let _ = query::parse_slippage_bps(text);
    let _ = query::parse_account("userAddress", text);
});
