//! Buying crypto: `/v1/onramp/options`, `/v1/onramp/quote`, `/v1/generators/onrampurl`.
//! The real providers cannot be reached from here: their URLs are checked against
//! their documented formats, and their APIs (Coinbase's session token, MoonPay's
//! quote) are answered by stand-in servers on loopback that check what a real one
//! would (the JWT's signature and claims; the quote's parameters). The sandbox
//! provider runs for real on anvil: URL → checkout → funds arrive → history marks
//! the purchase; a replayed or expired checkout is refused.

mod common;

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::{get, post};
use base64::Engine;
use common::{dead_upstream, get as get_json, post as post_json, state_with, Devnet};
use http_body_util::BodyExt;
use latch_server::config::{Config, Secret};
use latch_server::indexer::Indexer;
use latch_server::onramp::config::{CoinbaseConfig, MoonPayConfig, SandboxConfig, TransakConfig};
use latch_server::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

const CHAIN: &str = "eip155:31337";
const WALLET: &str = "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae";
/// A key nobody else uses on the devnet (funded by the test with anvil_setBalance).
const SANDBOX_KEY: &str = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

async fn text(router: &axum::Router, request: Request<Body>) -> (StatusCode, String) {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// Serves `router` on a loopback port; its base URL.
async fn stand_in(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

fn moonpay(api_url: String) -> MoonPayConfig {
    MoonPayConfig {
        api_key: "pk_test_key".into(),
        secret_key: Secret("sk_test_key".into()),
        api_url,
        sandbox: true,
    }
}

#[tokio::test]
async fn options_quote_and_url_validation_and_fallbacks() {
    // MoonPay's API is a dead address here: quotes fall back to the estimate.
    let (state, _dir) = state_with(vec![dead_upstream()], |c: &mut Config| {
        c.onramp.moonpay = Some(moonpay(dead_upstream()));
        c.onramp.transak = Some(TransakConfig {
            api_key: "key-1".into(),
            sandbox: true,
        });
    })
    .await;
    let router = app(state);

    let (status, options) = get_json(&router, "/v1/onramp/options?projectId=test").await;
    assert_eq!(status, StatusCode::OK, "{options}");
    assert_eq!(options["provider"], "moonpay");
    assert_eq!(options["providers"], json!(["moonpay", "transak"]));
    assert_eq!(
        options["paymentCurrencies"][0]["payment_method_limits"][0],
        json!({"id": "CARD", "min": "10.00", "max": "7500.00"})
    );
    assert_eq!(options["paymentCurrencies"][1]["id"], "EUR");
    let (status, _) = get_json(&router, "/v1/onramp/options?projectId=test&provider=nope").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = get_json(&router, "/v1/onramp/options").await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a project is required, as on every endpoint"
    );

    // USDC has a price of 1 without any market: the estimate is exact arithmetic (2 % fee).
    let ask = json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100", "network": "base"});
    let (status, quote) = post_json(&router, "/v1/onramp/quote?projectId=test", ask).await;
    assert_eq!(status, StatusCode::OK, "{quote}");
    assert_eq!(
        quote["estimate"], true,
        "MoonPay failed, so this is the marked estimate"
    );
    assert_eq!(quote["coinbaseFee"], json!({"amount": "2.00", "currency": "USD"}));
    assert_eq!(quote["paymentSubtotal"]["amount"], "98.00");
    assert_eq!(quote["paymentTotal"]["amount"], "100.00");
    assert_eq!(quote["purchaseAmount"], json!({"amount": "98", "currency": "USDC"}));

    let refused = [
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "9.99"}),
            "AMOUNT_BELOW_MIN",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": 7500.01}),
            "AMOUNT_ABOVE_MAX",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "20000", "paymentMethod": "ACH_BANK_ACCOUNT", "network": "ethereum"}),
            "",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "GBP", "amount": "20"}),
            "UNSUPPORTED_CURRENCY",
        ),
        (
            json!({"purchaseCurrency": "DOGE", "paymentCurrency": "USD", "amount": "20"}),
            "UNSUPPORTED_ASSET",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "20", "network": "celo"}),
            "UNSUPPORTED_NETWORK",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "20.001"}),
            "INVALID_AMOUNT",
        ),
        (
            json!({"purchaseCurrency": "ETH", "paymentCurrency": "usd!", "amount": "20"}),
            "BAD_REQUEST",
        ),
    ];
    for (body, code) in refused {
        let (status, reply) = post_json(&router, "/v1/onramp/quote?projectId=test", body.clone()).await;
        if code.is_empty() {
            // ACH allows 20000 where a card would not; ETH has no price here, so the amount is unknown.
            assert_eq!(status, StatusCode::OK, "{body}: {reply}");
            assert_eq!(reply["purchaseAmount"]["amount"], "");
            continue;
        }
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {reply}");
        assert_eq!(reply["code"], code, "{body}: {reply}");
        assert_eq!(reply["status"], "FAILED");
    }
    let (status, reply) = post_json(&router, "/v1/onramp/quote?projectId=test", json!({"amount": "20"})).await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("INVALID_JSON"))
    );
    let (_, below) = post_json(
        &router,
        "/v1/onramp/quote?projectId=test",
        json!({"purchaseCurrency": "ETH", "paymentCurrency": "EUR", "amount": "5"}),
    )
    .await;
    assert_eq!(
        below["reasons"][0],
        json!({"field": "amount", "description": "the smallest amount is 10.00 EUR"})
    );

    // URLs: MoonPay signed (the documented HMAC), Transak plain, both sandbox hosts.
    let wallet = json!([{"address": WALLET, "blockchains": ["ethereum"], "assets": ["ETH"]}]);
    let (status, reply) = post_json(
        &router,
        "/v1/generators/onrampurl?projectId=test",
        json!({"destinationWallets": wallet, "defaultExperience": "buy"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(
        reply["url"],
        format!("https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress={WALLET}&baseCurrencyCode=usd\
&paymentMethod=credit_debit_card&signature={}",
            latch_core::link::encode_uri_component(&latch_core::onramp::urls::moonpay_signature(
                &format!("?apiKey=pk_test_key&currencyCode=eth&walletAddress={WALLET}&baseCurrencyCode=usd&paymentMethod=credit_debit_card"), "sk_test_key")))
    );
    let (status, reply) = post_json(&router, "/v1/generators/onrampurl?projectId=test", json!({"provider": "transak",
        "destinationWallets": [{"address": WALLET, "blockchains": ["base"], "assets": ["usdc"]}], "presetFiatAmount": 30,
        "fiatCurrency": "EUR", "partnerUserId": "u-1"})).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["url"], format!("https://global-stg.transak.com/?apiKey=key-1&productsAvailed=BUY&cryptoCurrencyCode=USDC&network=base\
&walletAddress={WALLET}&disableWalletAddressForm=true&fiatCurrency=EUR&fiatAmount=30.00&paymentMethod=credit_debit_card&partnerCustomerId=u-1"));
    let bad_urls = [
        json!({"destinationWallets": []}),
        json!({"destinationWallets": [{"address": "0x12", "blockchains": ["base"], "assets": ["ETH"]}]}),
        json!({"destinationWallets": wallet, "defaultExperience": "send"}),
        json!({"destinationWallets": wallet, "defaultNetwork": "base"}),
        json!({"destinationWallets": wallet, "presetFiatAmount": "8000"}),
        json!({"destinationWallets": wallet, "presetCryptoAmount": "-1"}),
    ];
    for body in bad_urls {
        let (status, reply) = post_json(&router, "/v1/generators/onrampurl?projectId=test", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {reply}");
    }
}

#[tokio::test]
async fn moonpay_quote_from_its_api_and_coinbase_session_token() {
    // Stand-in for MoonPay's buy-quote API: answers only the documented parameters.
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen_by_server = seen.clone();
    let moonpay_api = stand_in(axum::Router::new().route(
        "/v3/currencies/{code}/buy_quote",
        get(move |axum::extract::Path(code): axum::extract::Path<String>, uri: axum::http::Uri| {
            let seen = seen_by_server.clone();
            async move {
                seen.lock().unwrap().push(format!("{code}?{}", uri.query().unwrap_or("")));
                axum::Json(json!({"id": "mp-q-1", "baseCurrencyAmount": 96.49, "quoteCurrencyAmount": 96.49, "feeAmount": 3.01,
                    "extraFeeAmount": 0, "networkFeeAmount": 0.5, "totalAmount": 100}))
            }
        }),
    ))
    .await;
    // Stand-in for Coinbase's session token API: checks the CDP JWT as Coinbase documents it.
    let signing = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let mut secret = signing.to_bytes().to_vec();
    secret.extend_from_slice(signing.verifying_key().as_bytes());
    let verifying = signing.verifying_key();
    let session_api = stand_in(axum::Router::new().route(
        "/onramp/v1/token",
        post(
            move |headers: axum::http::HeaderMap, axum::Json(body): axum::Json<Value>| async move {
                let jwt = headers["authorization"]
                    .to_str()
                    .unwrap()
                    .strip_prefix("Bearer ")
                    .unwrap()
                    .to_owned();
                let parts: Vec<&str> = jwt.split('.').collect();
                let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
                let header: Value = serde_json::from_slice(&b64.decode(parts[0]).unwrap()).unwrap();
                let claims: Value = serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
                let signature = ed25519_dalek::Signature::from_slice(&b64.decode(parts[2]).unwrap()).unwrap();
                let signed = verifying
                    .verify_strict(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
                    .is_ok();
                let ok = signed
                    && header["alg"] == "EdDSA"
                    && header["kid"] == "key-9"
                    && claims["iss"] == "cdp"
                    && claims["sub"] == "key-9"
                    && claims["uri"].as_str().unwrap().starts_with("POST 127.0.0.1:")
                    && claims["uri"].as_str().unwrap().ends_with("/onramp/v1/token")
                    && body["addresses"][0]["address"] == WALLET
                    && body["assets"] == json!(["USDC"]);
                if ok {
                    (
                        StatusCode::OK,
                        axum::Json(json!({"token": "tok+1/=", "channel_id": ""})),
                    )
                } else {
                    (StatusCode::UNAUTHORIZED, axum::Json(json!({"error": "bad jwt"})))
                }
            },
        ),
    ))
    .await;
    let (state, _dir) = state_with(vec![dead_upstream()], |c: &mut Config| {
        c.onramp.coinbase = Some(CoinbaseConfig {
            key_name: "key-9".into(),
            key_secret: Secret(base64::engine::general_purpose::STANDARD.encode(&secret)),
            session_url: format!("{session_api}/onramp/v1/token"),
            sandbox: false,
        });
        c.onramp.moonpay = Some(moonpay(moonpay_api));
    })
    .await;
    assert!(!format!("{:?}", state.config).contains(&base64::engine::general_purpose::STANDARD.encode(&secret)));
    let router = app(state);
    let (status, quote) = post_json(
        &router,
        "/v1/onramp/quote?projectId=test",
        json!({"provider": "moonpay",
        "purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "100", "network": "base"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{quote}");
    assert_eq!(quote["estimate"], false);
    assert_eq!(quote["quoteId"], "mp-q-1");
    assert_eq!(quote["coinbaseFee"]["amount"], "3.01");
    assert_eq!(quote["networkFee"]["amount"], "0.5");
    assert_eq!(quote["purchaseAmount"], json!({"amount": "96.49", "currency": "USDC"}));
    assert_eq!(seen.lock().unwrap()[0], "usdc_base?apiKey=pk_test_key&baseCurrencyCode=usd&baseCurrencyAmount=100.00&paymentMethod=credit_debit_card&areFeesIncluded=true");

    let (status, reply) = post_json(
        &router,
        "/v1/generators/onrampurl?projectId=test",
        json!({
        "destinationWallets": [{"address": WALLET, "blockchains": ["base"], "assets": ["USDC"]}],
        "presetFiatAmount": "25", "partnerUserId": "user-1", "defaultExperience": "buy"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["provider"], "coinbase");
    assert_eq!(
        reply["url"],
        "https://pay.coinbase.com/buy/select-asset?sessionToken=tok%2B1%2F%3D&defaultNetwork=base&defaultAsset=USDC\
&presetFiatAmount=25.00&fiatCurrency=USD&defaultPaymentMethod=CARD&partnerUserId=user-1&defaultExperience=buy"
    );
}

fn balance_of(owner: &str) -> String {
    // balanceOf(address)
    format!("0x70a08231000000000000000000000000{}", owner.trim_start_matches("0x"))
}

fn quantity(value: &Value) -> u128 {
    u128::from_str_radix(value.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn form(session: &str, amount: &str) -> Request<Body> {
    Request::post("/onramp/sandbox/confirm")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(format!("session={session}&method=CARD&amount={amount}")))
        .unwrap()
}

fn session_of(url: &str) -> String {
    url.split("session=").nth(1).unwrap().to_owned()
}

#[tokio::test]
async fn sandbox_purchase_on_anvil_is_delivered_marked_and_single_use() {
    let devnet = Devnet::start().await;
    let sandbox = latch_core::address::to_checksum_address(&format!(
        "{:#x}",
        alloy_primitives::Address::from_private_key(
            &k256::ecdsa::SigningKey::from_slice(&hex::decode(&SANDBOX_KEY[2..]).unwrap()).unwrap()
        )
    ))
    .unwrap();
    devnet
        .rpc("anvil_setBalance", json!([sandbox, "0x3635c9adc5dea00000"]))
        .await; // 1000 ETH
    let usdc = devnet.fixture["contracts"]["usdc"]["address"]
        .as_str()
        .unwrap()
        .to_owned();
    // Account #0 holds the fixture USDC: give the sandbox 1000.
    devnet
        .send(json!({"from": devnet.account(0), "to": usdc,
        "data": format!("0xa9059cbb000000000000000000000000{}{:064x}", sandbox[2..].to_lowercase(), 1_000_000_000u64)}))
        .await;
    let (state, _dir) = state_with(vec![devnet.anvil.url.clone()], |c: &mut Config| {
        c.devnet_file = Some(devnet.file.clone());
        c.index_chains = vec![CHAIN.into()];
        c.onramp.sandbox = SandboxConfig {
            enabled: Some(true),
            private_key: Some(Secret(SANDBOX_KEY.into())),
            chains: vec![CHAIN.into()],
            session_ttl_secs: 2,
            fee_bps: 100,
        };
    })
    .await;
    assert!(
        !format!("{:?}", state.config).contains(&SANDBOX_KEY[2..]),
        "the key is redacted"
    );
    let indexer = Indexer::new(state.gateway.clone(), state.store.clone(), CHAIN.into(), 0, 200);
    let config = (*state.config).clone();
    let router = app(state);
    let buyer = devnet.account(5);

    let (_, options) = get_json(&router, "/v1/onramp/options?projectId=test").await;
    assert_eq!(options["provider"], "sandbox");
    let symbols: Vec<&str> = options["purchaseCurrencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["symbol"].as_str().unwrap())
        .collect();
    assert!(symbols.contains(&"ETH") && symbols.contains(&"USDC"), "{symbols:?}");
    assert_eq!(options["purchaseCurrencies"][0]["networks"][0]["name"], CHAIN);
    let (status, quote) = post_json(
        &router,
        "/v1/onramp/quote?projectId=test",
        json!({"purchaseCurrency": "USDC", "paymentCurrency": "USD", "amount": "50", "network": CHAIN}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{quote}");
    assert_eq!(
        (quote["estimate"].as_bool(), quote["purchaseAmount"]["amount"].as_str()),
        (Some(false), Some("49.5"))
    );

    // ETH: URL → page → confirm → the balance grows by exactly the quoted amount.
    let (status, reply) = post_json(&router, "/v1/generators/onrampurl?projectId=test", json!({
        "destinationWallets": [{"address": buyer, "blockchains": [CHAIN], "assets": ["ETH"]}], "presetFiatAmount": "30"})).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let url = reply["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:8787/onramp/sandbox?session="),
        "{url}"
    );
    let session = session_of(url);
    let (status, page) = text(
        &router,
        Request::get(format!("/onramp/sandbox?session={session}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("data-testid=\"sandbox-confirm\"")
            && page.contains("Test purchase")
            && page.contains("value=\"30.00\"")
    );
    assert!(page.contains(&buyer.to_lowercase()));
    let before = quantity(&devnet.rpc("eth_getBalance", json!([buyer, "latest"])).await);
    let (status, below) = text(&router, form(&session, "5")).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "below the limit is refused and the session kept"
    );
    assert!(below.contains("the smallest amount is 10.00 USD"));
    let (status, done) = text(&router, form(&session, "30")).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done.contains("data-status=\"complete\""), "{done}");
    let hash = done
        .split("data-testid=\"sandbox-hash\">")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap()
        .to_owned();
    let after = quantity(&devnet.rpc("eth_getBalance", json!([buyer, "latest"])).await);
    assert!(after > before, "the buyer received ETH");
    let (_, eth_quote) = post_json(
        &router,
        "/v1/onramp/quote?projectId=test",
        json!({"purchaseCurrency": "ETH", "paymentCurrency": "USD", "amount": "30", "network": CHAIN}),
    )
    .await;
    let expected = latch_core::send::parse_units(
        &eth_quote["purchaseAmount"]["amount"].as_str().unwrap().parse().unwrap(),
        18,
    )
    .unwrap();
    assert_eq!(alloy_primitives::U256::from(after - before), expected);

    // Replayed: refused, nothing more sent.
    let (status, replay) = text(&router, form(&session, "30")).await;
    assert_eq!(status, StatusCode::GONE, "{replay}");
    assert_eq!(
        quantity(&devnet.rpc("eth_getBalance", json!([buyer, "latest"])).await),
        after
    );

    // USDC, then the history marks both purchases.
    let (_, reply) = post_json(&router, "/v1/generators/onrampurl?projectId=test", json!({
        "destinationWallets": [{"address": buyer, "blockchains": [CHAIN], "assets": ["USDC"]}], "presetFiatAmount": 20})).await;
    let usdc_before = quantity(
        &devnet
            .rpc("eth_call", json!([{"to": usdc, "data": balance_of(&buyer)}, "latest"]))
            .await,
    );
    let (status, done) = text(&router, form(&session_of(reply["url"].as_str().unwrap()), "20")).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    let usdc_after = quantity(
        &devnet
            .rpc("eth_call", json!([{"to": usdc, "data": balance_of(&buyer)}, "latest"]))
            .await,
    );
    assert_eq!(usdc_after - usdc_before, 19_800_000, "20.00 less 1 % is 19.80 USDC");

    for _ in 0..50 {
        if indexer.step().await.unwrap().blocks == 0 {
            break;
        }
    }
    let (status, history) = get_json(
        &router,
        &format!("/v1/account/{buyer}/history?chainId={CHAIN}&projectId=test"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let entry = history["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["metadata"]["hash"] == hash.as_str())
        .expect("the purchase is in the history");
    assert_eq!(entry["metadata"]["onramp"], "sandbox");
    assert_eq!(entry["metadata"]["operationType"], "receive");
    let (_, purchases) = get_json(
        &router,
        &format!("/v1/account/{buyer}/history?chainId={CHAIN}&projectId=test&onramp=sandbox"),
    )
    .await;
    assert_eq!(purchases["data"].as_array().unwrap().len(), 2, "only the two purchases");
    // The marks are stored: a restarted server on the same data still shows them.
    let restarted = app(AppState::new(config).await.unwrap());
    let (_, again) = get_json(
        &restarted,
        &format!("/v1/account/{buyer}/history?chainId={CHAIN}&projectId=test&onramp=sandbox"),
    )
    .await;
    assert_eq!(again["data"], purchases["data"], "the marks outlive the process");
    let (_, all) = get_json(
        &router,
        &format!(
            "/v1/account/{}/history?chainId={CHAIN}&projectId=test",
            devnet.account(0)
        ),
    )
    .await;
    assert!(
        all["data"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["metadata"]["onramp"].is_null()),
        "other transfers are not marked"
    );

    // Expired: a session unused past its TTL is refused.
    let (_, reply) = post_json(
        &router,
        "/v1/generators/onrampurl?projectId=test",
        json!({
        "destinationWallets": [{"address": buyer, "blockchains": [CHAIN], "assets": ["ETH"]}]}),
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    let (status, _) = text(&router, form(&session_of(reply["url"].as_str().unwrap()), "30")).await;
    assert_eq!(status, StatusCode::GONE);
    // A bitcoin-style address or a foreign asset is refused by the sandbox.
    let (status, reply) = post_json(
        &router,
        "/v1/generators/onrampurl?projectId=test",
        json!({
        "destinationWallets": [{"address": buyer, "blockchains": [CHAIN], "assets": ["DOGE"]}]}),
    )
    .await;
    assert_eq!(
        (status, reply["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("UNSUPPORTED_ASSET"))
    );
}
