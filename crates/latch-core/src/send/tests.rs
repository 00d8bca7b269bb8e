use super::*;
use proptest::prelude::*;
use serde_json::json;

const ANVIL_1: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn request(value: serde_json::Value) -> SendRequest {
    serde_json::from_value(value).unwrap()
}

#[test]
fn parse_units_is_exact() {
    assert_eq!(parse_units(&dec("1.5"), 6).unwrap(), U256::from(1_500_000u64));
    assert_eq!(parse_units(&dec("0.000001"), 6).unwrap(), U256::from(1u64));
    assert_eq!(
        parse_units(&dec("1"), 18).unwrap(),
        U256::from(10u64).pow(U256::from(18u64))
    );
    assert_eq!(parse_units(&dec("1e-18"), 18).unwrap(), U256::from(1u64));
    assert_eq!(parse_units(&dec("0"), 0).unwrap(), U256::ZERO);
    // 0.1 + 0.2 style amounts stay exact: no float on the way.
    assert_eq!(
        parse_units(&dec("0.3"), 18).unwrap(),
        U256::from(300_000_000_000_000_000u64)
    );
    for (amount, decimals, reason) in [
        ("1.0000001", 6, "Invalid amount: more decimal places than the token has"),
        ("0.5", 0, "Invalid amount: more decimal places than the token has"),
        ("-1", 6, "Invalid amount: expected an amount of zero or more"),
        ("1e80", 0, "Invalid amount: larger than 2^256 - 1"),
    ] {
        assert_eq!(
            parse_units(&dec(amount), decimals).unwrap_err().to_string(),
            reason,
            "{amount}"
        );
    }
}

#[test]
fn erc20_transfer_calldata() {
    let to = parse_evm_address(ANVIL_1).unwrap();
    assert_eq!(
        erc20_transfer_data(to, U256::from(1_000_000u64)),
        "0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8\
         00000000000000000000000000000000000000000000000000000000000f4240"
    );
}

#[test]
fn native_send() {
    let tx = build_send_transaction(&request(json!({
        "receiverAddress": ANVIL_1.to_lowercase(), "amount": "0.5", "decimals": 18, "balance": "10000"
    })))
    .unwrap();
    assert_eq!(
        tx,
        TransactionRequest {
            to: ANVIL_1.to_owned(),
            value: "0x6f05b59d3b20000".to_owned(),
            data: "0x".to_owned(),
        }
    );
}

#[test]
fn token_send_goes_to_the_contract() {
    for token in [USDC.to_owned(), format!("eip155:31337:{USDC}")] {
        let tx = build_send_transaction(&request(json!({
            "receiverAddress": ANVIL_1, "amount": 2.5, "decimals": 6, "tokenAddress": token
        })))
        .unwrap();
        assert_eq!(tx.to, USDC);
        assert_eq!(tx.value, "0x0");
        assert!(tx
            .data
            .ends_with("00000000000000000000000000000000000000000000000000000000002625a0"));
        assert!(tx
            .data
            .starts_with("0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"));
    }
}

#[test]
fn refused_sends() {
    let cases = [
        (
            json!({"receiverAddress": "0x123", "amount": "1", "decimals": 18}),
            "Invalid EVM address",
        ),
        (
            json!({"receiverAddress": "latch-dev.eth", "amount": "1", "decimals": 18}),
            "Invalid EVM address",
        ),
        (
            json!({"receiverAddress": ANVIL_1, "amount": "0", "decimals": 18}),
            "Invalid amount: expected an amount above zero",
        ),
        (
            json!({"receiverAddress": ANVIL_1, "amount": "abc", "decimals": 18}),
            "Invalid amount: expected a decimal number like -1234.5",
        ),
        (
            json!({"receiverAddress": ANVIL_1, "amount": "10.5", "decimals": 6, "balance": "10.4999999"}),
            "Amount exceeds balance",
        ),
        (
            json!({"receiverAddress": ANVIL_1, "amount": "1", "decimals": 6, "tokenAddress": "solana:x:y"}),
            "Invalid CAIP-10 address",
        ),
        (
            json!({"receiverAddress": ANVIL_1, "amount": "1", "decimals": 6, "tokenAddress": "0xnope"}),
            "Invalid EVM address",
        ),
    ];
    for (input, message) in cases {
        assert_eq!(
            build_send_transaction(&request(input.clone())).unwrap_err().to_string(),
            message,
            "{input}"
        );
    }
    // The whole balance is allowed.
    let all = json!({"receiverAddress": ANVIL_1, "amount": "10.5", "decimals": 6, "balance": "10.5"});
    assert!(build_send_transaction(&request(all)).is_ok());
}

fn max(value: serde_json::Value) -> Result<String> {
    max_send_amount(&serde_json::from_value(value).unwrap())
}

#[test]
fn max_keeps_the_gas_for_native_sends() {
    // 21000 gas at 2 gwei = 0.000042 ETH.
    let native =
        json!({"balance": "1", "decimals": 18, "isNative": true, "gasLimit": "21000", "gasPrice": "0x77359400"});
    assert_eq!(max(native).unwrap(), "0.999958");
    // A token's Max is its whole balance, gas or not.
    assert_eq!(
        max(json!({"balance": "12.345678", "decimals": 6, "isNative": null})).unwrap(),
        "12.345678"
    );
    // Never negative.
    let dust =
        json!({"balance": "0.00001", "decimals": 18, "isNative": true, "gasLimit": "21000", "gasPrice": "2000000000"});
    assert_eq!(max(dust).unwrap(), "0");
    // A balance given with more digits than the token has is floored.
    assert_eq!(
        max(json!({"balance": "1.23456789", "decimals": 6})).unwrap(),
        "1.234567"
    );
    assert_eq!(
        max(json!({"balance": "1", "decimals": 18, "isNative": true}))
            .unwrap_err()
            .to_string(),
        "Gas price is not available yet, please try again"
    );
    assert_eq!(
        max(json!({"balance": "1", "decimals": 18, "isNative": true, "gasLimit": "0xz", "gasPrice": "1"}))
            .unwrap_err()
            .to_string(),
        "Invalid amount: expected a non-negative integer, decimal or 0x-hex"
    );
}

#[test]
fn gas_cost_in_native_and_usd() {
    let cost = |value| gas_cost(&serde_json::from_value(value).unwrap()).unwrap();
    assert_eq!(
        cost(json!({"gasLimit": "0x5208", "gasPrice": "2000000000", "nativeDecimals": 18, "nativePriceUsd": 2500})),
        GasCost {
            fee: "0.000042".into(),
            fee_usd: "0.105".into()
        }
    );
    assert_eq!(
        cost(json!({"gasLimit": "21000", "gasPrice": "1", "nativeDecimals": 18, "nativePriceUsd": null})),
        GasCost {
            fee: "0.000000000000021".into(),
            fee_usd: "0".into()
        }
    );
    assert!(gas_cost(
        &serde_json::from_value(json!({"gasLimit": "-1", "gasPrice": "1", "nativeDecimals": 18})).unwrap()
    )
    .is_err());
    let overflow = format!("0x{}", "f".repeat(64));
    assert!(gas_fee(&overflow, "2").is_err());
}

#[test]
fn fiat_values_are_exact() {
    assert_eq!(fiat_value(&dec("10000"), &dec("2500.5")).to_string(), "25005000");
    assert_eq!(fiat_value(&dec("0.1"), &dec("0.2")).to_string(), "0.02");
    assert_eq!(fiat_value(&dec("-1.5"), &dec("2")).to_string(), "-3");
    assert_eq!(fiat_value(&dec("0"), &dec("-2")).to_string(), "0");
    assert_eq!(fiat_value(&dec("999"), &dec("999")).to_string(), "998001");
}

proptest! {
    #[test]
    fn units_round_trip(raw in any::<u128>(), decimals in 0u8..=30) {
        let text = format_units(&raw.to_string(), decimals).unwrap();
        prop_assert_eq!(parse_units(&dec(&text), decimals).unwrap(), U256::from(raw));
    }

    #[test]
    fn max_is_never_negative_nor_above_the_balance(raw in any::<u64>(), limit in any::<u32>(), price in any::<u64>()) {
        let balance = format_units(&raw.to_string(), 18).unwrap();
        let input = MaxSendInput {
            balance: NumberInput::Text(balance.clone()),
            decimals: 18,
            is_native: true,
            gas_limit: Some(limit.to_string()),
            gas_price: Some(price.to_string()),
        };
        let max = dec(&max_send_amount(&input).unwrap());
        prop_assert!(!max.is_negative());
        prop_assert!(max <= dec(&balance));
        let expected = U256::from(raw).saturating_sub(U256::from(limit) * U256::from(price));
        prop_assert_eq!(parse_units(&max, 18).unwrap(), expected);
    }

    #[test]
    fn multiplication_matches_integers(a in any::<u64>(), b in any::<u64>(), sa in 0usize..10, sb in 0usize..10) {
        let scaled = |n: u64, s: usize| format_units(&n.to_string(), s as u8).unwrap();
        let product = dec(&scaled(a, sa)).mul(&dec(&scaled(b, sb)));
        let expected = format_units(&(u128::from(a) * u128::from(b)).to_string(), (sa + sb) as u8).unwrap();
        prop_assert_eq!(product.to_string(), expected);
    }

    #[test]
    fn no_input_panics(receiver in "\\PC*", amount in "\\PC*", decimals in any::<u8>(), token in proptest::option::of("\\PC*"),
                       balance in proptest::option::of("\\PC*"), limit in "\\PC*", price in "\\PC*") {
        let _ = build_send_transaction(&SendRequest {
            receiver_address: receiver,
            amount: NumberInput::Text(amount.clone()),
            decimals,
            token_address: token,
            balance: balance.map(NumberInput::Text),
        });
        let _ = max_send_amount(&MaxSendInput {
            balance: NumberInput::Text(amount),
            decimals,
            is_native: true,
            gas_limit: Some(limit.clone()),
            gas_price: Some(price.clone()),
        });
        let _ = gas_cost(&GasCostInput { gas_limit: limit, gas_price: price, native_decimals: decimals, native_price_usd: None });
    }

    #[test]
    fn amounts_with_any_exponent_do_not_panic(mantissa in "[0-9]{1,30}(\\.[0-9]{0,30})?", exp in -400i32..400, decimals in any::<u8>()) {
        if let Ok(amount) = format!("{mantissa}e{exp}").parse::<Decimal>() {
            let _ = parse_units(&amount, decimals);
        }
    }
}
