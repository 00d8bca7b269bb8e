//! The gateway proxying Solana JSON-RPC to the real local Solana devnet (litesvm behind
//! `scripts/solana-devnet`), through `app(state).oneshot`.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use latch_core::network::{network, LOCAL_SOLANA_DEVNET};
use latch_server::app;
use latch_server::config::ChainConfig;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{state_with, SolanaDevnet};

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

    // eip155 local answers do not apply: the Solana node itself says it has no such method.
    let (_, body) = call(&router, req(7, "eth_chainId", json!([]))).await;
    assert_eq!(body["error"]["code"], -32601, "{body}");
    // And its JSON-RPC errors come back as they are.
    let (_, body) = call(&router, req(8, "getBalance", json!(["not-a-key"]))).await;
    assert_eq!(body["error"]["code"], -32602, "{body}");
}
