//! The relay's inputs from the network: client frames, connection JWTs and
//! fan-out payloads from other nodes. None may panic; an accepted frame's
//! message respects the limits it was checked against.
#![no_main]

use latch_server::relay::{auth, fanout, protocol};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let limits = protocol::Limits { min_ttl: 10, max_ttl: 86_400, max_message: 1024 };
    if let Err((_, error)) = protocol::parse(text, &limits) {
        // Every refusal renders to a JSON-RPC error body.
        let body = error.to_response(&serde_json::Value::Null);
        assert!(serde_json::from_str::<serde_json::Value>(&body).is_ok());
    }
    let _ = auth::verify(text, 1_700_000_000);
    let _ = auth::decode_did_key(text);
    let _ = fanout::decode(text);
});
