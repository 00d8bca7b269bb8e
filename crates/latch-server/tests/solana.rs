//! The gateway proxying Solana JSON-RPC to the real local Solana devnet (litesvm behind
//! `scripts/solana-devnet`), through `app(state).oneshot`, and the balance
//! endpoint reading SOL and SPL Token balances through it.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use latch_core::network::{network, LOCAL_SOLANA_DEVNET};
use latch_server::app;
use latch_server::config::{ChainConfig, StaticPriceConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{get, state_with, SolanaDevnet};

async fn call(router: &axum::Router, body: Value) -> (StatusCode, Value) {
    let request = Request::post(format!("/v1/?chainId={LOCAL_SOLANA_DEVNET}&projectId=test"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn req(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test]
async fn gateway_proxies_solana_rpc_to_the_local_devnet() {
    let devnet = SolanaDevnet::start().await;
    let (state, _dir) = state_with(vec![], |config| {
        config.chains = vec![ChainConfig {
            id: LOCAL_SOLANA_DEVNET.into(),
            upstreams: vec![devnet.url.clone()],
            // The devnet's faucet, opened for this chain (the default policy refuses it).
            methods: latch_core::policy::GatewayMethodPolicy {
                allow: vec!["requestAirdrop".into()],
                deny: vec![],
            },
            ..ChainConfig::default()
        }];
    })
    .await;
    let router = app(state);

    // The catalogue's id is the node's genesis hash, cut to CAIP-2's 32 characters.
    let (status, body) = call(&router, req(1, "getGenesisHash", json!([]))).await;
    assert_eq!(status, StatusCode::OK);
    let genesis = body["result"].as_str().unwrap();
    assert_eq!(format!("solana:{}", &genesis[..32]), LOCAL_SOLANA_DEVNET);
    assert_eq!(devnet.fixture["caipNetworkId"], LOCAL_SOLANA_DEVNET);
    let listed = network(LOCAL_SOLANA_DEVNET).unwrap().expect("in the catalogue");
    assert_eq!(listed.chain_namespace, "solana");

    // Fixture balances read back exactly through the gateway.
    let account = devnet.fixture["accounts"][1]["address"].as_str().unwrap();
    let token_account = devnet.fixture["usdc"]["tokenAccounts"][1]["address"].as_str().unwrap();
    let (_, body) = call(&router, req(2, "getBalance", json!([account]))).await;
    assert_eq!(body["result"]["value"], 1_000_000_000_000u64);
    let (_, body) = call(&router, req(3, "getTokenAccountBalance", json!([token_account]))).await;
    assert_eq!(body["result"]["value"]["amount"], "10000000000");
    assert_eq!(body["result"]["value"]["decimals"], 6);

    // A state change through the gateway: an airdrop lands in a new slot.
    let (_, body) = call(&router, req(4, "requestAirdrop", json!([account, 5]))).await;
    let signature = body["result"].as_str().expect("a signature").to_owned();
    let batch = json!([
        req(5, "getBalance", json!([account])),
        req(6, "getSignatureStatuses", json!([[signature]])),
    ]);
    let (status, body) = call(&router, batch).await;
    assert_eq!(status, StatusCode::OK);
    let replies = body.as_array().unwrap();
    let by_id = |id: u64| replies.iter().find(|r| r["id"] == id).unwrap().clone();
    assert_eq!(by_id(5)["result"]["value"], 1_000_000_000_005u64);
    assert_eq!(by_id(6)["result"]["value"][0]["confirmationStatus"], "finalized");

    // eip155 methods are not a Solana chain's: the gateway's policy refuses them.
    let (status, body) = call(&router, req(7, "eth_chainId", json!([]))).await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::FORBIDDEN, &json!("RPC_METHOD_NOT_ALLOWED")),
        "{body}"
    );
    // And its JSON-RPC errors come back as they are.
    let (_, body) = call(&router, req(8, "getBalance", json!(["not-a-key"]))).await;
    assert_eq!(body["error"]["code"], -32602, "{body}");
}

#[tokio::test]
async fn solana_balances_read_back_what_the_fixture_funded() {
    let devnet = SolanaDevnet::start().await;
    // A dead first upstream: the reads take the gateway's path, so its fallback applies.
    let dead = common::dead_upstream();
    let chain = || ChainConfig {
        id: LOCAL_SOLANA_DEVNET.into(),
        upstreams: vec![dead.clone(), devnet.url.clone()],
        ..ChainConfig::default()
    };
    // The fixture file lists its USDC mint and prices it at 1 USD; SOL has no price.
    let (state, _dir) = state_with(vec![], |config| {
        config.chains = vec![chain()];
        config.solana_devnet_file = Some(devnet.file.clone());
    })
    .await;
    let router = app(state);
    let fixture = &devnet.fixture;
    let mint = fixture["usdc"]["mint"].as_str().unwrap();
    let one = fixture["accounts"][1]["address"].as_str().unwrap();
    let balance =
        |who: &str, chain: &str| format!("/v1/account/{who}/balance?currency=usd&chainId={chain}&projectId=test");

    // #1 was funded with exactly 1000 SOL and 10,000 USDC.
    let (status, body) = get(&router, &balance(one, LOCAL_SOLANA_DEVNET)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({"balances": [
            {"name": "Solana", "symbol": "SOL", "chainId": LOCAL_SOLANA_DEVNET, "price": 0.0,
             "quantity": {"decimals": "9", "numeric": "1000"},
             "iconUrl": "http://127.0.0.1:8787/public/getTokenImage/SOL?projectId=test"},
            {"name": "USD Coin", "symbol": "USDC", "chainId": LOCAL_SOLANA_DEVNET,
             "address": format!("{LOCAL_SOLANA_DEVNET}:{mint}"), "price": 1.0, "value": 10_000.0,
             "quantity": {"decimals": "6", "numeric": "10000"},
             "iconUrl": "http://127.0.0.1:8787/public/getTokenImage/USDC?projectId=test"},
        ]})
    );
    // Without a chainId a Solana address is read on every solana chain; #0 holds 1,000,000 USDC.
    let zero = fixture["accounts"][0]["address"].as_str().unwrap();
    let (_, body) = get(&router, &format!("/v1/account/{zero}/balance?projectId=test")).await;
    assert_eq!(body["balances"][1]["quantity"]["numeric"], "1000000");
    assert_eq!(body["balances"][0]["quantity"]["decimals"], "9");
    // The faucet holds SOL and no USDC: SOL only.
    let faucet = fixture["faucet"].as_str().unwrap();
    let (_, body) = get(&router, &balance(faucet, LOCAL_SOLANA_DEVNET)).await;
    let lamports = post_rpc(&router, "getBalance", json!([faucet])).await["result"]["value"].clone();
    assert_eq!(body["balances"].as_array().unwrap().len(), 1, "{body}");
    assert_eq!(
        body["balances"][0]["quantity"]["numeric"],
        latch_core::format::format_units(&lamports.to_string(), 9).unwrap()
    );

    // Not a Solana address: our JSON error, before any chain read.
    for bad in [
        "not-a-key",
        "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        "1111111111111111111111111111111O",
    ] {
        let (status, body) = get(&router, &balance(bad, LOCAL_SOLANA_DEVNET)).await;
        assert_eq!(
            (status, body["code"].as_str(), body["reasons"][0]["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some("BAD_REQUEST"), Some("address")),
            "{bad}: {body}"
        );
    }

    // A configured SOL price values SOL; the stablecoin stays at 1.
    let (state, _dir) = state_with(vec![], |config| {
        config.chains = vec![chain()];
        config.solana_devnet_file = Some(devnet.file.clone());
        config.static_prices = vec![StaticPriceConfig {
            chain: LOCAL_SOLANA_DEVNET.into(),
            native_usd: Some(150.0),
            usd_token: Some(mint.into()),
        }];
    })
    .await;
    let router = app(state);
    let (_, body) = get(&router, &balance(one, LOCAL_SOLANA_DEVNET)).await;
    assert_eq!(
        (
            body["balances"][0]["price"].as_f64(),
            body["balances"][0]["value"].as_f64()
        ),
        (Some(150.0), Some(150_000.0))
    );
    assert_eq!(body["balances"][1]["value"], 10_000.0);
}

async fn post_rpc(router: &axum::Router, method: &str, params: Value) -> Value {
    call(router, req(1, method, params)).await.1
}
