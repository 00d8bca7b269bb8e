use super::*;
use crate::json;
use proptest::prelude::*;

const ACCOUNT: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const OTHER: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

fn summary(method: &str, params: Value) -> Result<Approval> {
    summarize(method, &params, ACCOUNT)
}

#[test]
fn personal_sign_shows_text_or_hex() {
    // "hello latch" as hex, the way viem sends it.
    let approval = summary("personal_sign", json!(["0x68656c6c6f206c61746368", ACCOUNT])).unwrap();
    assert_eq!(
        approval.summary,
        Summary::Message {
            text: "hello latch".into(),
            is_hex: false
        }
    );
    assert_eq!(approval.sign, json!("0x68656c6c6f206c61746368"));
    assert_eq!(
        approval.to_json(),
        json!({"method": "personal_sign", "summary": {"kind": "message", "text": "hello latch", "isHex": false}, "sign": "0x68656c6c6f206c61746368"})
    );
    let plain = summary("personal_sign", json!(["Sign in\nnonce 1"])).unwrap();
    assert_eq!(
        plain.summary,
        Summary::Message {
            text: "Sign in\nnonce 1".into(),
            is_hex: false
        }
    );
    // Not UTF-8, or with control characters that could hide text: shown as hex.
    for bytes in ["0xff00aa", "0x1b5b324a", "0x"] {
        let shown = summary("personal_sign", json!([bytes.to_uppercase().replace("0X", "0x")])).unwrap();
        assert_eq!(
            shown.summary,
            Summary::Message {
                text: bytes.into(),
                is_hex: true
            }
        );
    }
    assert!(summary("personal_sign", json!(["0x68", OTHER])).is_err());
    assert!(summary("personal_sign", json!([])).is_err());
    assert!(summary("personal_sign", json!([7])).is_err());
    assert!(summary("personal_sign", json!({"message": "x"})).is_err());
}

fn mail() -> Value {
    json!({
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "chainId", "type": "uint256"}],
            "Mail": [{"name": "contents", "type": "string"}, {"name": "amount", "type": "uint256"}, {"name": "tags", "type": "string[]"}]
        },
        "primaryType": "Mail",
        "domain": {"name": "Ether Mail", "chainId": 31337},
        "message": {"contents": "Hello, Bob!", "amount": "42", "tags": ["a", "b"]}
    })
}

#[test]
fn typed_data_shows_domain_and_fields() {
    for typed in [mail(), Value::String(mail().to_string())] {
        let approval = summary("eth_signTypedData_v4", json!([ACCOUNT.to_lowercase(), typed.clone()])).unwrap();
        let Summary::TypedData {
            primary_type,
            domain,
            fields,
        } = approval.summary.clone()
        else {
            panic!("typed data");
        };
        assert_eq!(primary_type, "Mail");
        assert_eq!(
            approval.to_json()["summary"]["domain"][1],
            json!({"name": "name", "value": "Ether Mail"})
        );
        let pairs = |list: &[Field]| {
            list.iter()
                .map(|f| (f.name.clone(), f.value.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            pairs(&domain),
            [("chainId".into(), "31337".into()), ("name".into(), "Ether Mail".into())]
        );
        assert_eq!(
            pairs(&fields),
            [
                ("amount".into(), "42".into()),
                ("contents".into(), "Hello, Bob!".into()),
                ("tags".into(), r#"["a","b"]"#.into())
            ]
        );
        // What is signed is the request's own typed data.
        assert_eq!(approval.sign, typed);
    }
    assert!(summary("eth_signTypedData_v4", json!([OTHER, mail()])).is_err());
    assert!(summary("eth_signTypedData_v4", json!([ACCOUNT, "{"])).is_err());
    assert!(summary("eth_signTypedData_v4", json!([ACCOUNT, {"types": {}}])).is_err());
    assert!(summary("eth_signTypedData_v4", json!([ACCOUNT])).is_err());
}

#[test]
fn transactions_show_value_and_decoded_transfers() {
    let native = summary(
        "eth_sendTransaction",
        json!([{"from": ACCOUNT, "to": OTHER.to_lowercase(), "value": "0xde0b6b3a7640000"}]),
    )
    .unwrap();
    assert_eq!(
        native.summary,
        Summary::Transaction {
            to: Some(OTHER.into()),
            value: "1000000000000000000".into(),
            value_ether: "1".into(),
            data: "0x".into(),
            transfer: None,
        }
    );
    assert_eq!(
        native.sign,
        json!({"from": ACCOUNT, "to": OTHER, "value": "0xde0b6b3a7640000", "data": "0x"})
    );
    let amount = U256::from(1_500_000u64);
    let data = crate::send::erc20_transfer_data(OTHER.parse().unwrap(), amount);
    let token = summary(
        "eth_sendTransaction",
        json!([{"to": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "input": data, "gas": "0x5208"}]),
    )
    .unwrap();
    let Summary::Transaction { transfer, value, .. } = &token.summary else {
        panic!("transaction");
    };
    assert_eq!(value, "0");
    assert_eq!(
        transfer.as_ref().unwrap(),
        &TokenTransfer {
            to: OTHER.into(),
            amount: "1500000".into()
        }
    );
    assert_eq!(token.sign["gas"], "0x5208");
    assert_eq!(
        token.to_json()["summary"],
        json!({"kind": "transaction", "to": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "value": "0", "valueEther": "0",
            "data": data, "transfer": {"to": OTHER, "amount": "1500000"}})
    );
    // Other calldata is not a transfer, even with its selector.
    let long = format!("{data}00");
    let call = summary("eth_sendTransaction", json!([{"to": OTHER, "data": long}])).unwrap();
    assert!(matches!(call.summary, Summary::Transaction { transfer: None, .. }));
    for bad in [
        json!([{"from": OTHER, "to": OTHER}]),
        json!([{"to": "0x12"}]),
        json!([{"to": OTHER, "value": "-1"}]),
        json!([{"to": OTHER, "value": "100"}]),
        json!([{"to": OTHER, "data": "zz"}]),
        json!([{"to": OTHER, "data": "0x01", "input": "0x02"}]),
        json!(["0x"]),
    ] {
        assert!(summary("eth_sendTransaction", bad.clone()).is_err(), "{bad}");
    }
}

#[test]
fn nested_values_read_as_compact_json() {
    let value = json!({"a": [1, -2, true, null], "b": "say \"hi\" \\"});
    assert_eq!(compact(&value), r#"{"a":[1,-2,true,null],"b":"say \"hi\" \\"}"#);
    assert_eq!(compact(&Value::parse("1.5").unwrap()), "(not an integer)");
    let back = Value::parse(&compact(&value)).unwrap();
    assert_eq!(back, value);
}

#[test]
fn other_methods_are_refused_clearly() {
    let refused = summary("eth_sign", json!([])).unwrap_err();
    assert_eq!(refused.to_string(), "Requested RPC call is not allowed");
    let later = summary("wallet_grantPermissions", json!([])).unwrap_err();
    assert!(later.to_string().contains("not supported by the embedded wallet yet"));
    for method in SIGNED_METHODS {
        assert_eq!(
            crate::policy::classify_rpc_method(method),
            crate::policy::RpcMethodClass::Approval
        );
    }
    assert!(summarize("personal_sign", &json!(["x"]), "nope").is_err());
}

fn chain<'a>() -> ChainState<'a> {
    ChainState {
        chain_id: "eip155:31337",
        nonce: "0x3",
        gas: "0x5208",
        base_fee: "0x3b9aca00",
        priority_fee: "0x1",
    }
}

#[test]
fn prepare_fills_nonce_gas_and_fees() {
    let call = json!({"from": ACCOUNT, "to": OTHER, "value": "0x1", "data": "0x"});
    let tx = prepare_transaction(&call, &chain()).unwrap();
    assert_eq!(
        tx,
        json!({"from": ACCOUNT, "to": OTHER, "value": "0x1", "data": "0x", "chainId": "0x7a69",
            "nonce": "0x3", "gas": "0x5208", "maxPriorityFeePerGas": "0x1", "maxFeePerGas": "0x77359401", "type": "0x2"})
    );
    // What the request fixed stays.
    let fixed =
        json!({"to": OTHER, "nonce": "0x9", "gas": "0x1", "maxFeePerGas": "0x10", "maxPriorityFeePerGas": "0x2"});
    let tx = prepare_transaction(&fixed, &chain()).unwrap();
    assert_eq!(
        (&tx["nonce"], &tx["gas"], &tx["maxFeePerGas"]),
        (&json!("0x9"), &json!("0x1"), &json!("0x10"))
    );
    let legacy = prepare_transaction(&json!({"to": OTHER, "gasPrice": "0x5"}), &chain()).unwrap();
    assert_eq!(legacy["type"], "0x0");
    assert!(legacy.get("maxFeePerGas").is_none());
    assert!(prepare_transaction(&json!({"to": OTHER, "chainId": "0x1"}), &chain()).is_err());
    assert!(prepare_transaction(
        &json!({"to": OTHER, "maxFeePerGas": "0x1", "maxPriorityFeePerGas": "0x2"}),
        &chain()
    )
    .is_err());
    let solana = ChainState {
        chain_id: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        ..chain()
    };
    assert!(prepare_transaction(&call, &solana).is_err());
    let broken = ChainState { nonce: "0x", ..chain() };
    assert!(prepare_transaction(&call, &broken).is_err());
    assert!(prepare_transaction(&json!([]), &chain()).is_err());
}

proptest! {
    #[test]
    fn decimal_and_ether_match_u256_and_format_units(limbs in any::<[u64; 4]>()) {
        let value = U256::from_limbs(limbs);
        prop_assert_eq!(decimal(value), value.to_string());
        prop_assert_eq!(ether(value), crate::format::format_units(&value.to_string(), 18).unwrap());
        let small = U256::from(limbs[0]);
        prop_assert_eq!(ether(small), crate::format::format_units(&small.to_string(), 18).unwrap());
    }

    #[test]
    fn summaries_never_panic(method in prop::sample::select(vec!["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction", "x"]),
                             text in "\\PC{0,60}", hexes in "0x[0-9a-f]{0,80}") {
        for params in [json!([text.clone()]), json!([hexes.clone(), ACCOUNT]), json!([ACCOUNT, text.clone()]),
                       json!([{"to": OTHER, "data": hexes.clone(), "value": text.clone()}])] {
            if let Ok(approval) = summarize(method, &params, ACCOUNT) {
                prop_assert_eq!(approval.method, method);
            }
        }
    }

    #[test]
    fn printable_hex_round_trips(text in "[a-zA-Z0-9 .,:\\n]{1,80}") {
        let hexed = hex::encode_prefixed(text.as_bytes());
        let approval = summarize("personal_sign", &json!([hexed]), ACCOUNT).unwrap();
        prop_assert_eq!(approval.summary, Summary::Message { text, is_hex: false });
    }
}
