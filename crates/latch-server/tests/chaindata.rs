//! Balances, prices and identity against the real devnet fixture world
//! (anvil + `devnet/` deployed by its own script): exact amounts, prices from
//! the fixture's Uniswap V2 pools, and ENS names verified both ways.

mod common;

use alloy_sol_types::{sol, SolCall};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{get, state, Anvil, Devnet};
use http_body_util::BodyExt;
use latch_server::app;
use serde_json::{json, Value};
use tower::ServiceExt;

sol! {
    function transfer(address to, uint256 amount) returns (bool);
    function setName(string name) returns (bytes32);
}

fn by_symbol<'a>(balances: &'a Value, symbol: &str) -> Option<&'a Value> {
    balances["balances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["symbol"] == symbol)
}

#[tokio::test]
async fn balances_and_prices_of_the_fixture_accounts() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet.state().await;
    let router = app(state);
    let usdc = devnet.contract(&["usdc", "address"]);
    let ltk = devnet.contract(&["ltk", "address"]);
    let balance = |who: String| format!("/v1/account/{who}/balance?currency=usd&chainId=eip155:31337&projectId=test");

    // #1 was funded with exactly 10000 ETH, 10000 USDC and 10000 LTK.
    let (status, one) = get(&router, &balance(devnet.account(1))).await;
    assert_eq!(status, StatusCode::OK, "{one}");
    let eth = by_symbol(&one, "ETH").unwrap();
    assert_eq!(eth["quantity"], json!({"decimals": "18", "numeric": "10000"}));
    assert_eq!(eth["price"], 3000.0, "100 ETH : 300,000 USDC");
    assert_eq!(eth["value"], 30_000_000.0);
    assert!(eth.get("address").is_none(), "native has no token address");
    let usdc_balance = by_symbol(&one, "USDC").unwrap();
    assert_eq!(usdc_balance["address"], format!("eip155:31337:{usdc}"));
    assert_eq!(usdc_balance["quantity"], json!({"decimals": "6", "numeric": "10000"}));
    assert_eq!(
        (usdc_balance["price"].as_f64(), usdc_balance["value"].as_f64()),
        (Some(1.0), Some(10_000.0))
    );
    let ltk_balance = by_symbol(&one, "LTK").unwrap();
    assert_eq!(ltk_balance["price"], 0.5, "6000 LTK per ETH at 3000 USD");
    assert_eq!(ltk_balance["value"], 5_000.0);
    assert!(ltk_balance["iconUrl"]
        .as_str()
        .unwrap()
        .ends_with("/public/getTokenImage/LTK?projectId=test"));
    assert_eq!(ltk_balance["chainId"], "eip155:31337");

    // #0 deployed everything: its ETH is whatever anvil says, to the wei.
    let deployer = devnet.account(0);
    let wei = devnet.rpc("eth_getBalance", json!([deployer, "latest"])).await;
    let (_, zero) = get(&router, &balance(deployer.clone())).await;
    let expected = latch_core::format::format_units(wei.as_str().unwrap(), 18).unwrap();
    assert_eq!(
        by_symbol(&zero, "ETH").unwrap()["quantity"]["numeric"],
        expected.as_str()
    );
    assert_eq!(by_symbol(&zero, "USDC").unwrap()["quantity"]["numeric"], "1000000");

    // #9 holds no tokens: only the native entry.
    let (_, nine) = get(&router, &balance(devnet.account(9))).await;
    assert_eq!(nine["balances"].as_array().unwrap().len(), 1);

    // A transfer shows after forceUpdate; without it the 30 s cache answers.
    let amount = alloy_primitives::U256::from(2_500_000u64); // 2.5 USDC
    let to: alloy_primitives::Address = devnet.account(9).parse().unwrap();
    let data = format!("0x{}", hex::encode(transferCall { to, amount }.abi_encode()));
    devnet
        .send(json!({"from": devnet.account(1), "to": usdc, "data": data}))
        .await;
    let (_, cached) = get(&router, &balance(devnet.account(1))).await;
    assert_eq!(by_symbol(&cached, "USDC").unwrap()["quantity"]["numeric"], "10000");
    let forced = format!("{}&forceUpdate=eip155:31337:{usdc}", balance(devnet.account(1)));
    let (_, fresh) = get(&router, &forced).await;
    assert_eq!(by_symbol(&fresh, "USDC").unwrap()["quantity"]["numeric"], "9997.5");

    // Prices for every address asked.
    let request = Request::post("/v1/fungible/price?projectId=test")
        .body(Body::from(
            json!({"currency": "usd", "addresses": [
                "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                format!("eip155:31337:{usdc}"), format!("eip155:31337:{ltk}")]})
            .to_string(),
        ))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let prices: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    let listed: Vec<(&str, f64)> = prices["fungibles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["symbol"].as_str().unwrap(), f["price"].as_f64().unwrap()))
        .collect();
    assert_eq!(listed, [("ETH", 3000.0), ("USDC", 1.0), ("LTK", 0.5)]);

    // Bad input: clear errors.
    for (uri, field) in [
        ("/v1/account/0x12/balance?projectId=test", "address"),
        (
            "/v1/account/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/balance?currency=eur&projectId=test",
            "currency",
        ),
        (
            "/v1/account/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/balance?chainId=eip155:5&projectId=test",
            "chainId",
        ),
        (
            "/v1/account/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/balance?forceUpdate=nope&projectId=test",
            "forceUpdate",
        ),
    ] {
        let (status, body) = get(&router, uri).await;
        assert_eq!(
            (status, body["reasons"][0]["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some(field)),
            "{uri}: {body}"
        );
    }
}

#[tokio::test]
async fn identity_is_the_verified_ens_name_and_avatar() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet.state().await;
    let fixture = &devnet.fixture;
    let router = app(state);
    let identity = |who: String| format!("/v1/identity/{who}?projectId=test");

    let (status, zero) = get(&router, &identity(devnet.account(0))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(zero["name"], "latch-dev.eth");
    assert_eq!(zero["avatar"], fixture["ens"]["avatar"]);
    assert!(zero["resolvedAt"].as_u64().unwrap() > 1_700_000_000);

    let (_, one) = get(&router, &identity(devnet.account(1))).await;
    assert_eq!((one["name"].clone(), one["avatar"].clone()), (Value::Null, Value::Null));

    // #2 claims #0's name in its reverse record; the name does not point back, so it is not shown.
    let registrar = devnet.contract(&["ensReverseRegistrar"]);
    let data = format!(
        "0x{}",
        hex::encode(
            setNameCall {
                name: "latch-dev.eth".into()
            }
            .abi_encode()
        )
    );
    devnet
        .send(json!({"from": devnet.account(2), "to": registrar, "data": data}))
        .await;
    let (_, two) = get(&router, &identity(devnet.account(2))).await;
    assert_eq!(two["name"], Value::Null);

    let (_, solana) = get(
        &router,
        &identity("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d".into()),
    )
    .await;
    assert_eq!(solana["name"], Value::Null);
    let (status, _) = get(&router, &identity("0x12".into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// A send form's receiver typed as an ENS name: `/v1/profile/account/{name}` resolves it forward on
/// the configured ENS deployment when Latch did not register it.
#[tokio::test]
async fn profile_lookup_resolves_ens_names_forward() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet.state().await;
    let fixture = &devnet.fixture;
    let router = app(state);
    let lookup = |name: &str| format!("/v1/profile/account/{name}?projectId=test");

    for written in ["latch-dev.eth", "Latch-Dev.ETH"] {
        let (status, body) = get(&router, &lookup(written)).await;
        assert_eq!(status, StatusCode::OK, "{written}: {body}");
        assert_eq!(body["name"], "latch-dev.eth");
        assert_eq!(body["addresses"]["60"]["address"], fixture["ens"]["owner"]);
        assert_eq!(body["attributes"]["avatar"], fixture["ens"]["avatar"]);
    }
    for unknown in ["nobody-here.eth", "latch-dev"] {
        let (status, _) = get(&router, &lookup(unknown)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{unknown}");
    }
}

/// A chain without Multicall3 (a bare anvil: no contracts at all) still answers: the batch is
/// read call by call, and the native balance through `eth_getBalance`.
#[tokio::test]
async fn balances_on_a_chain_without_multicall3() {
    let anvil = Anvil::start().await;
    let (state, _data) = state(vec![anvil.url.clone()]).await;
    let router = app(state);
    // Anvil's default account #1, funded with 10000 ETH.
    let who = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let (status, body) = get(
        &router,
        &format!("/v1/account/{who}/balance?currency=usd&chainId=eip155:31337&projectId=test"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let eth = by_symbol(&body, "ETH").unwrap();
    assert_eq!(eth["quantity"]["numeric"], "10000", "{body}");
    assert_eq!(body["balances"].as_array().unwrap().len(), 1, "{body}");
}
