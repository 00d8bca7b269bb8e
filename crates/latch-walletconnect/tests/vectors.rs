//! The crate against what the official JS client produces for the same keys and
//! nonces (`vectors/vectors.json`, written by `vectors/gen.mjs` from
//! @walletconnect/utils and @walletconnect/relay-auth).

use latch_core::relay_auth;
use latch_walletconnect::crypto::{self, parse_hex32, topic_of, Envelope, KeyPair, SymKey};
use latch_walletconnect::json::Value;
use latch_walletconnect::uri::PairingUri;

fn vectors() -> Value {
    Value::parse(include_str!("vectors/vectors.json")).unwrap()
}

fn bytes32(value: &Value) -> [u8; 32] {
    parse_hex32(value.as_str().unwrap(), "test").unwrap()
}

fn str(value: &Value) -> &str {
    value.as_str().unwrap()
}

#[test]
fn key_pairs_and_agreements() {
    let v = vectors();
    for pair in v["keyPairs"].as_array().unwrap() {
        assert_eq!(
            KeyPair::from_secret(bytes32(&pair["privateKey"])).public_hex(),
            str(&pair["publicKey"])
        );
    }
    let agreements = v["agreements"].as_array().unwrap();
    assert_eq!(agreements.len(), 12);
    for a in agreements {
        let key = KeyPair::from_secret(bytes32(&a["privateKey"]))
            .derive_sym_key(&bytes32(&a["peerPublicKey"]))
            .unwrap();
        assert_eq!(key.to_hex(), str(&a["symKey"]));
        assert_eq!(topic_of(&key), str(&a["topic"]));
    }
}

#[test]
fn envelopes() {
    let v = vectors();
    let envelopes = v["envelopes"].as_array().unwrap();
    assert_eq!(envelopes.len(), 6);
    for e in envelopes {
        let key = SymKey::from_hex(str(&e["symKey"])).unwrap();
        let iv: [u8; 12] = hex::decode(str(&e["iv"])).unwrap().try_into().unwrap();
        let sender = e.get("senderPublicKey").map(bytes32);
        assert_eq!(sender.is_some(), e["type"].as_u64() == Some(1));
        let sealed = Envelope::seal(&key, str(&e["message"]), iv, sender);
        assert_eq!(sealed.encode(), str(&e["encoded"]), "type {}", e["type"]);
        assert_eq!(crypto::decrypt(&key, str(&e["encoded"])).unwrap(), str(&e["message"]));
        assert_eq!(
            Envelope::decode(str(&e["encoded"])).unwrap().sender_public_key(),
            sender
        );
    }
}

#[test]
fn uris() {
    let v = vectors();
    for case in v["uris"].as_array().unwrap() {
        let (text, parsed) = (str(&case["uri"]), &case["parsed"]);
        let uri: PairingUri = text.parse().unwrap();
        assert_eq!(uri.to_string(), text, "formats back identically");
        assert_eq!(uri.topic, str(&parsed["topic"]));
        assert_eq!(uri.sym_key.to_hex(), str(&parsed["symKey"]));
        assert_eq!(latch_walletconnect::json!(uri.version), parsed["version"]);
        assert_eq!(uri.relay_protocol, str(&parsed["relay"]["protocol"]));
        assert_eq!(uri.relay_data.as_deref(), parsed["relay"]["data"].as_str());
        assert_eq!(uri.expiry_timestamp, parsed["expiryTimestamp"].as_u64());
        let methods = parsed["methods"]
            .as_array()
            .map(|m| m.iter().map(|s| str(s).to_owned()).collect::<Vec<_>>());
        assert_eq!(uri.methods, methods);
        assert_eq!(topic_of(&uri.sym_key), uri.topic);
    }
}

#[test]
fn relay_jwt_is_byte_identical() {
    let v = vectors();
    let j = &v["jwt"];
    let key = ed25519_dalek::SigningKey::from_bytes(&bytes32(&j["seed"]));
    let iat = j["iat"].as_i64().unwrap();
    let token = relay_auth::sign(
        &key,
        str(&j["sub"]),
        str(&j["aud"]),
        iat,
        iat + j["ttl"].as_i64().unwrap(),
    );
    assert_eq!(token, str(&j["token"]));
    assert!(relay_auth::verify(&token, iat).is_ok());
}
