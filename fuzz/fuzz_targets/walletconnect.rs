//! The dapp client's inputs: QR codes' text, pairing URIs (pasted or scanned),
//! envelopes from the relay, JSON text (the reader the engine and the wallet
//! frame share, `latch_core::json::Value`), the data of a wallet's session events,
//! and the records read from JSON by hand (sessions, connect params, relay
//! messages). None may panic; what parses formats back to something that
//! parses to the same value. JSON is checked against serde_json both ways: the
//! reader accepts exactly what serde_json accepts, but for the exception its
//! tests document (numbers beyond `f64`'s range, kept as text); what we write
//! serde_json reads as the value it read from the input; what serde_json writes
//! we read and write back byte for byte.
#![no_main]

use latch_core::json::{FromValue, ToValue, Value};
use latch_walletconnect::crypto::{self, Envelope, SymKey};
use latch_walletconnect::provider::{addresses_of_event, chain_id_for_events, chain_of_event};
use latch_walletconnect::relay::RelayMessage;
use latch_walletconnect::sign::{ConnectParams, Session};
use latch_walletconnect::uri::PairingUri;
use libfuzzer_sys::fuzz_target;

/// The largest magnitude of a number in `value`, as `f64`.
fn largest_number(value: &Value) -> f64 {
    match value {
        Value::Number(n) => n.as_str().parse::<f64>().map_or(f64::INFINITY, f64::abs),
        Value::Array(items) => items.iter().map(largest_number).fold(0.0, f64::max),
        Value::Object(fields) => fields.iter().map(|(_, v)| largest_number(v)).fold(0.0, f64::max),
        _ => 0.0,
    }
}

fuzz_target!(|data: &[u8]| {
    // Any bytes a QR code can hold encode; longer is refused.
    let code = latch_walletconnect::qr::encode(data);
    assert_eq!(code.is_some(), data.len() <= latch_walletconnect::qr::MAX_BYTES);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(uri) = text.parse::<PairingUri>() {
        assert_eq!(uri.to_string().parse::<PairingUri>().as_ref(), Ok(&uri));
    }
    if let Ok(envelope) = Envelope::decode(text) {
        assert_eq!(Envelope::decode(&envelope.encode()).as_ref(), Ok(&envelope));
        let _ = envelope.open(&SymKey([0; 32]));
    }
    let _ = crypto::decrypt(&SymKey([1; 32]), text);
    let reference = serde_json::from_str::<serde_json::Value>(text);
    if let (Err(ours), Ok(_)) = (Value::parse(text), &reference) {
        panic!("only we reject {text:?}: {ours}");
    }
    if let Ok(value) = Value::parse(text) {
        let written = value.to_string();
        assert_eq!(Value::parse(&written).as_ref(), Ok(&value));
        match &reference {
            Ok(reference) => {
                // Numbers go out as written, so serde_json reads the same f64s from both texts.
                let theirs = serde_json::from_str::<serde_json::Value>(&written);
                assert_eq!(theirs.ok().as_ref(), Some(reference), "serde_json reads {written:?} back");
                // The other way round compares text: serde_json's reader does not round exactly,
                // so its own shortest float forms may not read back as the same f64.
                let serde_text = reference.to_string();
                let read = Value::parse(&serde_text).unwrap_or_else(|e| panic!("we read serde_json's {serde_text:?}: {e}"));
                assert_eq!(read.to_string(), serde_text, "we write back what serde_json wrote");
            }
            Err(e) => {
                // serde_json reads numbers as f64 (its reader is not exactly
                // rounding, hence the margin below f64::MAX).
                let message = e.to_string();
                let out_of_range = message.starts_with("number out of range") && largest_number(&value) > 1e300;
                assert!(out_of_range, "only serde_json rejects {text:?}: {message}");
            }
        }
        if let Ok(session) = Session::from_value(&value) {
            let written = session.to_value();
            assert_eq!(Session::from_value(&written), Ok(session));
        }
        let _ = ConnectParams::from_value(&value);
        let _ = RelayMessage::from_value(&value);
    }
    // A session event's chain, then its data: `eip155:1\n0x7a69`.
    let (chain, data) = text.split_once('\n').unwrap_or((text, "null"));
    if let Ok(data) = Value::parse(data) {
        let _ = chain_id_for_events(&chain_of_event(chain, &data));
        let _ = addresses_of_event(chain, &data);
    }
});
