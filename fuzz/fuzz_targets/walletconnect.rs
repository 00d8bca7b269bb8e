//! The dapp client's inputs from the network: pairing URIs (pasted or scanned),
//! envelopes from the relay, the data of a wallet's session events, and the
//! records read from JSON by hand (sessions, connect params, relay messages).
//! None may panic; what parses formats back to something that parses to the same value.
#![no_main]

use latch_walletconnect::crypto::{self, Envelope, SymKey};
use latch_walletconnect::provider::{addresses_of_event, chain_id_for_events, chain_of_event};
use latch_walletconnect::json::FromValue;
use latch_walletconnect::relay::RelayMessage;
use latch_walletconnect::sign::{ConnectParams, Session};
use latch_walletconnect::uri::PairingUri;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(uri) = text.parse::<PairingUri>() {
        assert_eq!(uri.to_string().parse::<PairingUri>().as_ref(), Ok(&uri));
    }
    if let Ok(envelope) = Envelope::decode(text) {
        assert_eq!(Envelope::decode(&envelope.encode()).as_ref(), Ok(&envelope));
        let _ = envelope.open(&SymKey([0; 32]));
    }
    let _ = crypto::decrypt(&SymKey([1; 32]), text);
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        if let Ok(session) = Session::from_value(&value) {
            let written = serde_json::to_value(&session).unwrap();
            assert_eq!(Session::from_value(&written), Ok(session));
        }
        let _ = ConnectParams::from_value(&value);
        let _ = RelayMessage::from_value(&value);
    }
    // A session event's chain, then its data: `eip155:1\n0x7a69`.
    let (chain, data) = text.split_once('\n').unwrap_or((text, "null"));
    if let Ok(data) = serde_json::from_str(data) {
        let _ = chain_id_for_events(&chain_of_event(chain, &data));
        let _ = addresses_of_event(chain, &data);
    }
});
