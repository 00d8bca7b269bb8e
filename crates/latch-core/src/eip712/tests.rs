use super::*;
use proptest::prelude::*;

const MAIL: &str = r#"{
  "types": {
    "EIP712Domain": [
      {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
      {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}
    ],
    "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
    "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"}, {"name": "contents", "type": "string"}]
  },
  "primaryType": "Mail",
  "domain": {"name": "Ether Mail", "version": "1", "chainId": 1, "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
  "message": {
    "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
    "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
    "contents": "Hello, Bob!"
  }
}"#;

fn reference(json: &str) -> B256 {
    let data: alloy_dyn_abi::TypedData = serde_json::from_str(json).unwrap();
    data.eip712_signing_hash().unwrap()
}

/// EIP-712's own example: encodeType and the digest printed in the EIP.
#[test]
fn eip712_mail_example() {
    let data = TypedData::parse(MAIL).unwrap();
    assert_eq!(
        encode_type(&data.types, "Mail"),
        "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
    );
    assert_eq!(
        data.signing_hash().unwrap().to_string(),
        "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
    // Without EIP712Domain in types: inferred from the domain's fields.
    let mut value = Value::parse(MAIL).unwrap();
    let types = value.as_object_mut().and_then(|o| o.get_mut("types")).unwrap();
    types.as_object_mut().unwrap().remove("EIP712Domain");
    assert_eq!(
        TypedData::from_value(value)
            .unwrap()
            .signing_hash()
            .unwrap()
            .to_string(),
        "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"
    );
}

/// Every kind of member, arrays of structs and of arrays, negative ints:
/// the same digest as alloy-dyn-abi.
#[test]
fn matches_alloy_on_every_kind() {
    let json = r#"{
      "types": {
        "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}, {"name": "salt", "type": "bytes32"}],
        "Order": [
          {"name": "maker", "type": "address"}, {"name": "amounts", "type": "uint96[]"}, {"name": "delta", "type": "int128"},
          {"name": "small", "type": "int8"}, {"name": "flag", "type": "bool"}, {"name": "blob", "type": "bytes"},
          {"name": "selector", "type": "bytes4"}, {"name": "legs", "type": "Leg[2]"}, {"name": "grid", "type": "uint8[][]"},
          {"name": "tags", "type": "string[]"}, {"name": "plain", "type": "uint"}
        ],
        "Leg": [{"name": "asset", "type": "Asset"}, {"name": "note", "type": "string"}],
        "Asset": [{"name": "token", "type": "address"}, {"name": "id", "type": "uint256"}]
      },
      "primaryType": "Order",
      "domain": {"name": "Swap", "chainId": "0x7a69", "salt": "0x1111111111111111111111111111111111111111111111111111111111111111"},
      "message": {
        "maker": "0x3535353535353535353535353535353535353535",
        "amounts": [1, "2", "0xff"],
        "delta": "-170141183460469231731687303715884105728",
        "small": -5,
        "flag": true,
        "blob": "0xdeadbeef",
        "selector": "0xa9059cbb",
        "legs": [
          {"asset": {"token": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "id": "115792089237316195423570985008687907853269984665640564039457584007913129639935"}, "note": ""},
          {"asset": {"token": "0x0000000000000000000000000000000000000000", "id": 0}, "note": "ü"}
        ],
        "grid": [[1, 2], [], [255]],
        "tags": ["a", "b"],
        "plain": "12345678901234567890123"
      }
    }"#;
    assert_eq!(signing_hash(json).unwrap(), reference(json));
}

#[test]
fn bad_requests_are_clear_errors() {
    // Edited through serde_json's `pointer_mut`, then read as the frame reads it.
    let base: serde_json::Value = serde_json::from_str(MAIL).unwrap();
    let edits: [(&str, serde_json::Value); 9] = [
        ("/primaryType", "Nope".into()),
        ("/message/from/wallet", "0x12".into()),
        ("/message/contents", 5.into()),
        ("/domain/chainId", (-1).into()),
        ("/domain/chainId", 1.5.into()),
        ("/domain/chainId", "12abc".into()),
        ("/types/Person/1/type", "uint7".into()),
        ("/types/Person/1/type", "Unknown".into()),
        ("/message/to", "Bob".into()),
    ];
    for (path, replacement) in edits {
        let mut value = base.clone();
        *value.pointer_mut(path).unwrap() = replacement;
        let value = Value::parse(&value.to_string()).unwrap();
        let error = TypedData::from_value(value)
            .and_then(|data| data.signing_hash())
            .unwrap_err();
        assert!(error.to_string().starts_with("Invalid typed data"), "{path}: {error}");
    }
    for text in ["", "[]", "{}", r#"{"types":[],"primaryType":"A"}"#] {
        assert!(signing_hash(text).is_err(), "{text}");
    }
}

/// A type that contains itself, with data nested beyond the bound: an error, no stack overflow.
#[test]
fn deep_nesting_is_refused() {
    let mut message = String::from(r#"{"next":[]}"#);
    for _ in 0..100 {
        message = format!(r#"{{"next":[{message}]}}"#);
    }
    let json = format!(
        r#"{{"types":{{"EIP712Domain":[],"Node":[{{"name":"next","type":"Node[]"}}]}},"primaryType":"Node","domain":{{}},"message":{message}}}"#
    );
    assert!(signing_hash(&json).is_err());
}

proptest! {
    #[test]
    fn integers_match_alloy(value in any::<i64>(), big in any::<[u64; 4]>(), bits in 1usize..=32) {
        let bits = bits * 8;
        let big = U256::from_limbs(big) >> (256 - bits);
        let json = format!(
            r#"{{"types":{{"EIP712Domain":[],"T":[{{"name":"a","type":"int{bits}"}},{{"name":"b","type":"uint{bits}"}},{{"name":"c","type":"int256"}}]}},"primaryType":"T","domain":{{}},"message":{{"a":"{}","b":"{big}","c":{value}}}}}"#,
            // An arithmetic shift keeps the sign and fits intN.
            value >> (64 - bits.min(64))
        );
        prop_assert_eq!(signing_hash(&json).unwrap(), reference(&json));
    }

    #[test]
    fn never_panics(text in "\\PC{0,200}") {
        let _ = signing_hash(&text);
    }
}
