//! The providers cannot be reached from here: these are golden tests of the URL
//! formats and signatures their public documentation gives, with the expected
//! HMACs computed independently (`openssl dgst -sha256 -hmac … -binary | base64`).

use proptest::prelude::*;

use super::urls::*;
use super::*;

#[test]
fn fiat_amounts_are_exact_cents() {
    assert_eq!(parse_fiat("10"), Ok(1000));
    assert_eq!(parse_fiat("10.5"), Ok(1050));
    assert_eq!(parse_fiat("0010.05"), Ok(1005));
    assert_eq!(parse_fiat(".5"), Ok(50));
    assert_eq!(parse_fiat("7500.00"), Ok(750_000));
    for bad in [
        "",
        ".",
        "-1",
        "1e3",
        "1.001",
        "1,00",
        "abc",
        " 1 2",
        "+5",
        "10000000000000",
    ] {
        assert!(parse_fiat(bad).is_err(), "{bad}");
    }
    assert_eq!(format_fiat(1050), "10.50");
    assert_eq!(format_fiat(7), "0.07");
}

#[test]
fn codes() {
    assert!(is_fiat_code("USD") && is_fiat_code("EUR"));
    assert!(!is_fiat_code("usd") && !is_fiat_code("US") && !is_fiat_code("USDX"));
    assert!(is_asset_symbol("ETH") && is_asset_symbol("USDC") && is_asset_symbol("POL"));
    assert!(!is_asset_symbol("e") && !is_asset_symbol("ETH;") && !is_asset_symbol("eth"));
}

#[test]
fn default_options_are_the_spec_limits() {
    let options = default_options();
    let ids: Vec<_> = options.payment_currencies.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["USD", "EUR"]);
    let usd = &options.payment_currencies[0].payment_method_limits;
    assert_eq!(
        usd[0],
        MethodLimit {
            id: "CARD".into(),
            min: "10.00".into(),
            max: "7500.00".into()
        }
    );
    assert_eq!(
        usd[1],
        MethodLimit {
            id: "ACH_BANK_ACCOUNT".into(),
            min: "10.00".into(),
            max: "25000.00".into()
        }
    );
    // The JSON shape of behaviour 6.10: camelCase outside, snake_case inside.
    let json = serde_json::to_value(&options).unwrap();
    assert_eq!(json["paymentCurrencies"][0]["payment_method_limits"][0]["min"], "10.00");
    assert_eq!(
        json["purchaseCurrencies"][1]["networks"][0]["contract_address"],
        "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
    );
}

#[test]
fn limits_are_inclusive_and_per_method() {
    let o = default_options();
    assert_eq!(check_amount(&o, "USD", "CARD", "10.00"), Ok(1000));
    assert_eq!(check_amount(&o, "usd", "card", "7500"), Ok(750_000));
    assert_eq!(
        check_amount(&o, "USD", "CARD", "9.99"),
        Err(LimitError::BelowMin {
            min: "10.00".into(),
            currency: "USD".into()
        })
    );
    assert_eq!(
        check_amount(&o, "EUR", "CARD", "7500.01"),
        Err(LimitError::AboveMax {
            max: "7500.00".into(),
            currency: "EUR".into()
        })
    );
    assert_eq!(check_amount(&o, "EUR", "ACH_BANK_ACCOUNT", "25000.00"), Ok(2_500_000));
    assert_eq!(
        check_amount(&o, "GBP", "CARD", "20").unwrap_err().code(),
        "UNSUPPORTED_CURRENCY"
    );
    assert_eq!(
        check_amount(&o, "USD", "PAYPAL", "20").unwrap_err().code(),
        "UNSUPPORTED_PAYMENT_METHOD"
    );
    assert_eq!(
        check_amount(&o, "USD", "CARD", "20.001").unwrap_err().code(),
        "INVALID_AMOUNT"
    );
    assert_eq!(
        check_amount(&o, "USD", "CARD", "5").unwrap_err().to_string(),
        "the smallest amount is 10.00 USD"
    );
}

#[test]
fn quote_arithmetic() {
    // 100.00 USD at 1.5 % with a 0.25 network fee, ETH at 2000: 98.25 buys 0.049125 ETH.
    let quote = compute_quote(&QuoteInput {
        total_cents: 10_000,
        payment_currency: "USD",
        purchase_currency: "ETH",
        purchase_decimals: 18,
        price: "2000",
        fee_bps: 150,
        network_fee_cents: 25,
        quote_id: "q1",
    })
    .unwrap();
    assert_eq!(
        quote.coinbase_fee,
        Money {
            amount: "1.50".into(),
            currency: "USD".into()
        }
    );
    assert_eq!(quote.network_fee.amount, "0.25");
    assert_eq!(quote.payment_subtotal.amount, "98.25");
    assert_eq!(quote.payment_total.amount, "100.00");
    assert_eq!(
        quote.purchase_amount,
        Money {
            amount: "0.049125".into(),
            currency: "ETH".into()
        }
    );
    assert!(!quote.estimate);
    // The fee rounds up to the cent: 10.01 × 2 % = 0.2002 → 0.21; USDC at 1 keeps 6 places.
    let e = estimate(1001, "EUR", "USDC", 6, "1").unwrap();
    assert_eq!(
        (e.coinbase_fee.amount.as_str(), e.payment_subtotal.amount.as_str()),
        ("0.21", "9.80")
    );
    assert_eq!(e.purchase_amount.amount, "9.8");
    assert!(e.estimate);
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["paymentSubtotal"]["currency"], "EUR");
    assert_eq!(json["quoteId"], "estimate");
    // The purchase is cut down, never rounded up: 10 / 3 at 8 places.
    let third = estimate(1000, "USD", "ETH", 18, "3").unwrap();
    assert_eq!(third.purchase_amount.amount, "3.26666666"); // 9.80 / 3 = 3.2666…
    assert!(
        estimate(1, "USD", "ETH", 18, "2000").is_err(),
        "a cent does not cover a 2 % fee"
    );
    assert!(estimate(1000, "USD", "ETH", 18, "0").is_err());
    assert!(estimate(1000, "USD", "ETH", 18, "1.123456789").is_err());
}

#[test]
fn network_selection_falls_back_to_ethereum() {
    let o = default_options();
    let eth = &o.purchase_currencies[0];
    assert_eq!(select_network(eth, "eip155:8453").unwrap().name, "base");
    assert_eq!(select_network(eth, "eip155:1").unwrap().name, "ethereum");
    // A chain with no on-ramp name: ethereum.
    assert_eq!(select_network(eth, "eip155:31337").unwrap().name, "ethereum");
    assert_eq!(select_network(eth, "not-a-chain").unwrap().name, "ethereum");
    let none = PurchaseCurrency {
        id: "X".into(),
        name: "X".into(),
        symbol: "X".into(),
        networks: vec![],
    };
    assert!(select_network(&none, "eip155:1").is_none());
}

#[test]
fn moonpay_signature_matches_the_documented_example() {
    // MoonPay's URL-signing guide: HMAC-SHA256 over `new URL(url).search` with the
    // secret key, base64, appended URL-encoded as the last parameter.
    let q = "?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae";
    assert_eq!(
        moonpay_signature(q, "sk_test_key"),
        "o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA="
    );
    let url = moonpay_url(
        &MoonPayUrl {
            api_key: "pk_test_key",
            currency_code: "eth",
            wallet_address: "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae",
            sandbox: true,
            ..Default::default()
        },
        "sk_test_key",
    );
    assert_eq!(
        url,
        "https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae&signature=o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA%3D"
    );
}

#[test]
fn moonpay_url_with_presets() {
    let url = moonpay_url(
        &MoonPayUrl {
            api_key: "pk_test_key",
            currency_code: "eth",
            wallet_address: "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae",
            base_currency_code: "usd",
            base_currency_amount: "50.00",
            payment_method: "credit_debit_card",
            external_customer_id: "user 42",
            ..Default::default()
        },
        "sk_test_key",
    );
    assert_eq!(
        url,
        "https://buy.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae\
&baseCurrencyCode=usd&baseCurrencyAmount=50.00&paymentMethod=credit_debit_card&externalCustomerId=user%2042\
&signature=V9U8tue2dwDlX7PKmJceQO4w9avPkphJtDG9Vft6FOc%3D"
    );
}

#[test]
fn coinbase_urls() {
    // Coinbase's "Generating an Onramp URL": sessionToken plus presets;
    // sandbox testing uses `https://pay-sandbox.coinbase.com/?sessionToken=…`.
    let params = CoinbaseUrl {
        session_token: "ZWJjZGVm",
        default_network: "base",
        default_asset: "USDC",
        preset_fiat_amount: "25.00",
        fiat_currency: "USD",
        default_payment_method: "CARD",
        partner_user_id: "u1",
        ..Default::default()
    };
    assert_eq!(
        coinbase_url(&params),
        "https://pay.coinbase.com/buy/select-asset?sessionToken=ZWJjZGVm&defaultNetwork=base&defaultAsset=USDC\
&presetFiatAmount=25.00&fiatCurrency=USD&defaultPaymentMethod=CARD&partnerUserId=u1&defaultExperience=buy"
    );
    let sandbox = coinbase_url(&CoinbaseUrl {
        sandbox: true,
        session_token: "t=1",
        preset_crypto_amount: "0.1",
        ..Default::default()
    });
    assert_eq!(
        sandbox,
        "https://pay-sandbox.coinbase.com/?sessionToken=t%3D1&presetCryptoAmount=0.1&defaultExperience=buy"
    );
}

#[test]
fn transak_urls() {
    // Transak's query-parameter reference; staging is global-stg.
    let url = transak_url(&TransakUrl {
        api_key: "key-1",
        crypto_currency_code: "ETH",
        network: "arbitrum",
        wallet_address: "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae",
        fiat_currency: "EUR",
        fiat_amount: "30.00",
        payment_method: "credit_debit_card",
        sandbox: true,
        ..Default::default()
    });
    assert_eq!(
        url,
        "https://global-stg.transak.com/?apiKey=key-1&productsAvailed=BUY&cryptoCurrencyCode=ETH&network=arbitrum\
&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae&disableWalletAddressForm=true&fiatCurrency=EUR\
&fiatAmount=30.00&paymentMethod=credit_debit_card"
    );
    assert_eq!(provider_method("transak", "ACH_BANK_ACCOUNT"), "us_bank_transfer");
    assert_eq!(provider_method("moonpay", "UNKNOWN"), "");
}

proptest! {
    #[test]
    fn parse_fiat_never_panics_and_round_trips(text in ".{0,24}") {
        if let Ok(cents) = parse_fiat(&text) {
            prop_assert_eq!(parse_fiat(&format_fiat(cents)), Ok(cents));
        }
    }

    #[test]
    fn fiat_round_trip(cents in 0u64..=MAX_FIAT_CENTS) {
        prop_assert_eq!(parse_fiat(&format_fiat(cents)), Ok(cents));
    }

    #[test]
    fn quote_parts_add_up(total in 100u64..=MAX_FIAT_CENTS, bps in 0u32..=500, network in 0u64..100, price in "[1-9][0-9]{0,6}(\\.[0-9]{1,8})?") {
        if let Ok(q) = compute_quote(&QuoteInput { total_cents: total, payment_currency: "USD", purchase_currency: "ETH",
            purchase_decimals: 18, price: &price, fee_bps: bps, network_fee_cents: network, quote_id: "p" }) {
            let sum = parse_fiat(&q.coinbase_fee.amount).unwrap() + parse_fiat(&q.network_fee.amount).unwrap()
                + parse_fiat(&q.payment_subtotal.amount).unwrap();
            prop_assert_eq!(sum, total);
        }
    }

    #[test]
    fn parse_price_never_panics(text in ".{0,40}") {
        let _ = parse_price(&text);
    }
}
