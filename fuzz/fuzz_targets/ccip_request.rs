//! The CCIP-Read gateway's request parser (`resolve(bytes,bytes)` call data with a DNS name and
//! a resolver call inside) and the answer reader on arbitrary bytes: none may panic; a request
//! that parses encodes back to call data that parses to the same request.
#![no_main]

use alloy_primitives::Address;
use latch_core::ccip;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = ccip::decode_dns_name(data);
    let _ = ccip::verify_response(Address::ZERO, data, data);
    // Most random bytes stop at the selector: also try them behind it.
    let mut call = ccip::RESOLVE_SELECTOR.to_vec();
    call.extend_from_slice(data);
    for input in [data, &call[..]] {
        if let Ok(request) = ccip::parse_resolve_request(input) {
            let again = ccip::encode_resolve_request(&request.name, &request.query).expect("a parsed name encodes");
            assert_eq!(ccip::parse_resolve_request(&again).as_ref(), Ok(&request));
            let _ = ccip::query_result(&request.query, None);
        }
    }
});
