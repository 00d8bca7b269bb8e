//! `/v1/convert/*` against the real devnet fixture world (anvil + `devnet/`
//! deployed by its own script): quotes equal the router's own `getAmountsOut`,
//! approvals and swaps built by the API execute on chain, and a pool moved
//! after a quote makes the API refuse with SLIPPAGE_EXCEEDED (and the stale
//! transaction revert on chain). Input validation answers with our error body.

mod common;

use alloy_primitives::{Address, U256};
use alloy_sol_types::{sol, SolCall};
use axum::http::StatusCode;
use common::{dead_upstream, get, post, state_with, Devnet, DevnetApp};
use latch_server::app;
use latch_server::convert::settings::SwapConfig;
use serde_json::{json, Value};

sol! {
    function getAmountsOut(uint256 amountIn, address[] path) returns (uint256[] amounts);
    function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts);
}

const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/// The router's own quote for `amount` along `path`.
async fn router_quote(world: &DevnetApp, amount: U256, path: Vec<Address>) -> Vec<U256> {
    let data = getAmountsOutCall { amountIn: amount, path }.abi_encode();
    let raw = world.devnet.eth_call(world.contract(&["uniswapV2Router"]), data).await;
    getAmountsOutCall::abi_decode_returns(&raw).unwrap()
}

fn caip(address: impl std::fmt::Display) -> String {
    format!("eip155:31337:{address}")
}

fn quote_uri(amount: &str, from: &str, to: &str, user: &str) -> String {
    format!("/v1/convert/quotes?projectId=test&amount={amount}&from={from}&to={to}&userAddress={user}")
}

#[tokio::test]
async fn quotes_equal_the_routers_own_and_swaps_execute() {
    let world = DevnetApp::start().await;
    let router = &world.router;
    let (weth, usdc, ltk) = (
        world.contract(&["weth"]),
        world.contract(&["usdc", "address"]),
        world.contract(&["ltk", "address"]),
    );
    let user = world.devnet.account(1);
    let user_address: Address = user.parse().unwrap();

    // The tokens list: the native coin (placeholder) first, then the devnet's listed tokens.
    let (status, tokens) = get(router, "/v1/convert/tokens?projectId=test&chainId=eip155:31337").await;
    assert_eq!(status, StatusCode::OK, "{tokens}");
    let listed: Vec<&str> = tokens["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["ETH", "USDC", "LTK"]);
    assert_eq!(tokens["tokens"][0]["address"], caip(NATIVE));

    // ETH → USDC, one pool: exactly what the router computes on chain.
    let one_eth = U256::from(10u64).pow(U256::from(18u64));
    let (status, quotes) = get(
        router,
        &quote_uri(&one_eth.to_string(), &caip(NATIVE), &caip(usdc), &user),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    let quote = &quotes["quotes"][0];
    let on_chain = router_quote(&world, one_eth, vec![weth, usdc]).await;
    assert_eq!(quote["toAmount"], on_chain[1].to_string());
    assert_eq!(quote["fromAccount"], caip(NATIVE));
    assert_eq!(quote["source"], "uniswap-v2");
    let impact = quote["priceImpact"].as_f64().unwrap();
    assert!(
        (0.9..=1.1).contains(&impact),
        "1 ETH into a 100 ETH pool moves it about 1 %: {impact}"
    );

    // USDC → LTK has no direct pool: two hops through WETH, again equal to the router's.
    let thousand_usdc = U256::from(1_000_000_000u64);
    let (status, quotes) = get(router, &quote_uri("1000000000", &caip(usdc), &caip(ltk), &user)).await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    let quote = quotes["quotes"][0].clone();
    let on_chain = router_quote(&world, thousand_usdc, vec![usdc, weth, ltk]).await;
    assert_eq!(quote["toAmount"], on_chain[2].to_string());
    assert_eq!(quote["path"].as_array().unwrap().len(), 3);
    let to_amount: U256 = quote["toAmount"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        quote["toAmountMin"],
        (to_amount * U256::from(99u64) / U256::from(100u64)).to_string()
    );

    // No allowance yet: the swap would fail, and the API says why.
    let allowance_uri = format!(
        "/v1/convert/allowance?projectId=test&tokenAddress={}&userAddress={user}",
        caip(usdc)
    );
    let (status, allowance) = get(router, &allowance_uri).await;
    assert_eq!((status, allowance["allowance"].as_str()), (StatusCode::OK, Some("0")));
    let build = json!({"projectId": "test", "amount": "1000000000", "from": caip(usdc), "to": caip(ltk),
        "userAddress": user, "eip155": {"slippage": 1}, "disableEstimate": false});
    let (status, refused) = post(router, "/v1/convert/build-transaction?projectId=test", build.clone()).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("INSUFFICIENT_ALLOWANCE")),
        "{refused}"
    );

    // Approve exactly the amount through build-approve, executed on chain.
    let approve_uri = format!(
        "/v1/convert/build-approve?projectId=test&userAddress={user}&from={}&to={}&amount=1000000000",
        caip(usdc),
        caip(ltk)
    );
    let (status, approve) = get(router, &approve_uri).await;
    assert_eq!(status, StatusCode::OK, "{approve}");
    assert_eq!(approve["tx"]["to"], usdc.to_checksum(None));
    assert_eq!(world.execute(&approve["tx"]).await["status"], "0x1");
    let (_, allowance) = get(router, &allowance_uri).await;
    assert_eq!(allowance["allowance"], "1000000000");

    // The swap built by the API executes and pays at least the quoted minimum.
    let (status, built) = post(router, "/v1/convert/build-transaction?projectId=test", build).await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(
        built["tx"]["to"],
        world.contract(&["uniswapV2Router"]).to_checksum(None)
    );
    assert!(built["tx"]["eip155"]["gas"].as_str().unwrap().parse::<u64>().unwrap() > 21_000);
    let before = world.devnet.token_balance(ltk, user_address).await;
    assert_eq!(world.execute(&built["tx"]).await["status"], "0x1");
    let received = world.devnet.token_balance(ltk, user_address).await - before;
    let minimum: U256 = quote["toAmountMin"].as_str().unwrap().parse().unwrap();
    assert!(received >= minimum, "{received} < {minimum}");

    // ETH → USDC executes too, with the input as the transaction's value.
    let build = json!({"projectId": "test", "amount": one_eth.to_string(), "from": caip(NATIVE), "to": caip(usdc),
        "userAddress": user, "eip155": {"slippage": "0.5"}});
    let (status, built) = post(router, "/v1/convert/build-transaction?projectId=test", build).await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(built["tx"]["value"], format!("0x{one_eth:x}"));
    let before = world.devnet.token_balance(usdc, user_address).await;
    assert_eq!(world.execute(&built["tx"]).await["status"], "0x1");
    assert!(world.devnet.token_balance(usdc, user_address).await > before);
}

/// 0x's API cannot be reached from here: a stand-in answers `price` and `quote` in its documented
/// shapes, and its transaction is a real swap on the devnet's router (with the stand-in's own
/// calldata), so the test sees the plug-in's transaction chosen, built and executed on chain.
#[tokio::test]
async fn a_plug_in_that_pays_more_builds_its_own_transaction() {
    use axum::routing::get as route_get;
    use std::sync::{Arc, Mutex};

    let answer: Arc<Mutex<Value>> = Arc::default();
    let shared = answer.clone();
    let stand_in = axum::Router::new().route(
        "/swap/allowance-holder/{endpoint}",
        route_get(move || {
            let answer = shared.lock().unwrap().clone();
            async move { axum::Json(answer) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, stand_in).await.unwrap() });
    let world = DevnetApp::start_with(|_, config| {
        config.swap_aggregators = vec![latch_server::convert::settings::AggregatorConfig {
            kind: latch_server::convert::settings::AggregatorKind::ZeroEx,
            url,
            api_key: latch_server::config::Secret("test-key".into()),
        }]
    })
    .await;
    let (router, weth, usdc) = (
        &world.router,
        world.contract(&["weth"]),
        world.contract(&["usdc", "address"]),
    );
    let user = world.devnet.account(1);
    let user_address: Address = user.parse().unwrap();
    let one_eth = U256::from(10u64).pow(U256::from(18u64));
    let chain_out = router_quote(&world, one_eth, vec![weth, usdc]).await[1];
    // One unit more than the pools pay, with the chain route's own 1 % minimum.
    let min = chain_out * U256::from(99u64) / U256::from(100u64);
    let data = swapExactETHForTokensCall {
        amountOutMin: min,
        path: vec![weth, usdc],
        to: user_address,
        deadline: U256::from(u64::MAX),
    }
    .abi_encode();
    let swap_router = world.contract(&["uniswapV2Router"]).to_checksum(None);
    let data = alloy_primitives::hex::encode_prefixed(data);
    *answer.lock().unwrap() = json!({"liquidityAvailable": true, "buyAmount": (chain_out + U256::from(1u64)).to_string(),
        "sellAmount": one_eth.to_string(), "minBuyAmount": min.to_string(), "issues": {"allowance": null},
        "transaction": {"to": swap_router, "data": data, "value": one_eth.to_string(), "gas": "200000", "gasPrice": "1"}});

    let (status, quotes) = get(
        router,
        &quote_uri(&one_eth.to_string(), &caip(NATIVE), &caip(usdc), &user),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    assert_eq!(
        (
            quotes["quotes"][0]["source"].as_str(),
            quotes["quotes"][0]["toAmount"].as_str()
        ),
        (Some("0x"), Some((chain_out + U256::from(1u64)).to_string().as_str()))
    );
    let build = json!({"projectId": "test", "amount": one_eth.to_string(), "from": caip(NATIVE), "to": caip(usdc),
        "userAddress": user, "eip155": {"slippage": 1}});
    let (status, built) = post(router, "/v1/convert/build-transaction?projectId=test", build.clone()).await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(
        (built["tx"]["to"].as_str(), built["tx"]["data"].as_str()),
        (Some(swap_router.as_str()), Some(data.as_str())),
        "the plug-in's transaction, not the chain route's"
    );
    // A plug-in minimum below what the visitor was shown: the chain route builds instead
    // (asked before anything executes, so the pools still pay it).
    let shown = json!({"toAmountMin": (min + U256::from(1u64)).to_string()});
    let mut stricter = build.clone();
    stricter
        .as_object_mut()
        .unwrap()
        .extend(shown.as_object().unwrap().clone());
    let (status, chain_built) = post(router, "/v1/convert/build-transaction?projectId=test", stricter).await;
    assert_eq!(status, StatusCode::OK, "{chain_built}");
    assert_ne!(chain_built["tx"]["data"].as_str(), Some(data.as_str()));

    let before = world.devnet.token_balance(usdc, user_address).await;
    assert_eq!(world.execute(&built["tx"]).await["status"], "0x1");
    assert!(world.devnet.token_balance(usdc, user_address).await - before >= min);
}

#[tokio::test]
async fn a_pool_moved_after_the_quote_is_slippage() {
    let world = DevnetApp::start().await;
    let router = &world.router;
    let usdc = world.contract(&["usdc", "address"]);
    let (user, whale) = (world.devnet.account(2), world.devnet.account(3));
    let amount = U256::from(10u64).pow(U256::from(18u64)).to_string();
    let (_, quotes) = get(router, &quote_uri(&amount, &caip(NATIVE), &caip(usdc), &user)).await;
    let quote = quotes["quotes"][0].clone();
    let build = json!({"amount": amount, "from": caip(NATIVE), "to": caip(usdc), "userAddress": user,
        "eip155": {"slippage": 1}, "toAmountMin": quote["toAmountMin"]});
    let (status, stale) = post(router, "/v1/convert/build-transaction?projectId=test", build.clone()).await;
    assert_eq!(status, StatusCode::OK, "{stale}");

    // Someone sells 20 ETH into the pool first: the price moves about 30 %.
    let big = U256::from(20u64) * U256::from(10u64).pow(U256::from(18u64));
    let whale_build = json!({"amount": big.to_string(), "from": caip(NATIVE), "to": caip(usdc), "userAddress": whale,
        "eip155": {"slippage": 50}});
    let (status, whale_tx) = post(router, "/v1/convert/build-transaction?projectId=test", whale_build).await;
    assert_eq!(status, StatusCode::OK, "{whale_tx}");
    assert_eq!(world.execute(&whale_tx["tx"]).await["status"], "0x1");

    // The transaction built before reverts on chain; building again at the shown minimum is refused.
    assert_eq!(world.execute(&stale["tx"]).await["status"], "0x0");
    let (status, refused) = post(router, "/v1/convert/build-transaction?projectId=test", build).await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("SLIPPAGE_EXCEEDED")),
        "{refused}"
    );
    assert!(refused["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .starts_with("Slippage exceeded"));
}

/// Methods seen by [`counting_proxy`], in order.
type Seen = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// A JSON-RPC stand-in in front of `upstream` that records each method it forwards.
async fn counting_proxy(upstream: String) -> (String, Seen) {
    let seen: Seen = Default::default();
    let log = seen.clone();
    let http = reqwest::Client::new();
    let app = axum::Router::new().route(
        "/",
        axum::routing::post(move |body: axum::body::Bytes| {
            let (log, http, upstream) = (log.clone(), http.clone(), upstream.clone());
            async move {
                let request: Value = serde_json::from_slice(&body).unwrap();
                let calls = request.as_array().cloned().unwrap_or_else(|| vec![request]);
                for call in calls {
                    log.lock()
                        .unwrap()
                        .push(call["method"].as_str().unwrap_or("").to_owned());
                }
                let reply = http
                    .post(upstream)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                ([("content-type", "application/json")], reply.bytes().await.unwrap())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

#[tokio::test]
async fn a_quote_or_a_build_reads_the_head_once() {
    let devnet = Devnet::start().await;
    let (proxy, seen) = counting_proxy(devnet.anvil.url.clone()).await;
    let (state, _data) = state_with(vec![proxy], |config| config.devnet_file = Some(devnet.file.clone())).await;
    let router = app(state);
    let usdc = devnet.fixture["contracts"]["usdc"]["address"]
        .as_str()
        .unwrap()
        .to_owned();
    let user = devnet.account(1);
    let heads = |seen: &Seen| {
        let mut seen = seen.lock().unwrap();
        let count = seen.iter().filter(|m| *m == "eth_getBlockByNumber").count();
        seen.clear();
        count
    };
    // The route's pools and the fee's gas price are read at the same block: one head read each.
    let one_eth = "1000000000000000000";
    let (status, quotes) = get(&router, &quote_uri(one_eth, &caip(NATIVE), &caip(&usdc), &user)).await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    assert_eq!(heads(&seen), 1, "quote");
    let build = json!({"amount": one_eth, "from": caip(NATIVE), "to": caip(&usdc), "userAddress": user,
        "disableEstimate": true});
    let (status, built) = post(&router, "/v1/convert/build-transaction?projectId=test", build).await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(heads(&seen), 1, "build");
}

#[tokio::test]
async fn bad_input_gets_our_error_body() {
    let (state, _data) = state_with(vec![dead_upstream()], |config| {
        config.swap.push(SwapConfig {
            chain: "eip155:31337".into(),
            uniswap_v2_factory: "0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e".into(),
            router: "0xA51c1fc2f0D1a1b8494Ed1FE312d7C3a78Ed91C0".into(),
            wrapped_native: "0x610178dA211FEF7D417bC0e6FeD39F05609AD788".into(),
            base_tokens: vec![],
            uniswap_v3: None,
        })
    })
    .await;
    let router = app(state);
    let user = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    let usdc = caip("0x5FbDB2315678afecb367f032d93F642f64180aa3");
    for (uri, field, code) in [
        (
            "/v1/convert/tokens?projectId=test&chainId=eip155:5".to_owned(),
            "chainId",
            "UNSUPPORTED_SWAP_NETWORK",
        ),
        (
            "/v1/convert/gas-price?projectId=test&chainId=eip155:5".to_owned(),
            "chainId",
            "UNSUPPORTED_SWAP_NETWORK",
        ),
        (
            "/v1/convert/gas-price?projectId=test".to_owned(),
            "chainId",
            "BAD_REQUEST",
        ),
        (
            "/v1/convert/tokens?projectId=test&chainId=eip155:abc".to_owned(),
            "chainId",
            "BAD_REQUEST",
        ),
        (
            quote_uri(
                "1",
                "eip155:5:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                &caip("0x5FbDB2315678afecb367f032d93F642f64180aa3").replace("31337", "5"),
                user,
            ),
            "from",
            "UNSUPPORTED_SWAP_NETWORK",
        ),
        (quote_uri("abc", &caip(NATIVE), &usdc, user), "amount", "BAD_REQUEST"),
        (quote_uri("0", &caip(NATIVE), &usdc, user), "amount", "BAD_REQUEST"),
        (
            quote_uri(&"9".repeat(300), &caip(NATIVE), &usdc, user),
            "amount",
            "BAD_REQUEST",
        ),
        (quote_uri("1", "eip155:31337:0x12", &usdc, user), "from", "BAD_REQUEST"),
        (quote_uri("1", &usdc, &usdc, user), "to", "BAD_REQUEST"),
        (
            quote_uri(
                "1",
                &caip(NATIVE),
                "eip155:1:0x5FbDB2315678afecb367f032d93F642f64180aa3",
                user,
            ),
            "to",
            "BAD_REQUEST",
        ),
        (
            quote_uri("1", &caip(NATIVE), &usdc, "nobody"),
            "userAddress",
            "BAD_REQUEST",
        ),
        (
            format!(
                "/v1/convert/quotes?projectId=test&amount=1&from={}&to={usdc}",
                caip(NATIVE)
            ),
            "userAddress",
            "BAD_REQUEST",
        ),
        (
            format!(
                "/v1/convert/build-approve?projectId=test&userAddress={user}&from={}&to={usdc}",
                caip(NATIVE)
            ),
            "from",
            "BAD_REQUEST",
        ),
        (
            format!("/v1/convert/allowance?projectId=test&userAddress={user}&tokenAddress=usdc"),
            "tokenAddress",
            "BAD_REQUEST",
        ),
    ] {
        let (status, body) = get(&router, &uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(
            (body["status"].as_str(), body["code"].as_str()),
            (Some("FAILED"), Some(code)),
            "{uri}: {body}"
        );
        assert_eq!(body["reasons"][0]["field"], field, "{uri}: {body}");
    }
    let (status, body) = get(&router, "/v1/convert/tokens?projectId=test&chainId=eip155:5").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["reasons"][0]["description"],
        "Network not supported for Gas Price or Swaps"
    );

    let (status, _) = post(
        &router,
        "/v1/convert/build-transaction?projectId=test",
        json!("not an object"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    for slippage in [json!(80), json!("abc"), json!(0), json!([1])] {
        let body = json!({"amount": "1", "from": caip(NATIVE), "to": usdc, "userAddress": user, "eip155": {"slippage": slippage}});
        let (status, answer) = post(&router, "/v1/convert/build-transaction?projectId=test", body).await;
        assert_eq!(
            (status, answer["reasons"][0]["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some("eip155.slippage")),
            "{slippage}: {answer}"
        );
    }
    // No project: refused before anything is read.
    let (status, _) = get(&router, "/v1/convert/tokens?chainId=eip155:31337").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
