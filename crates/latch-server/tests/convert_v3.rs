//! `/v1/convert/*` over the devnet's Uniswap V3 pools (deployed by `devnet/`
//! from Uniswap's own npm artifacts): quotes equal QuoterV2's on-chain answer,
//! swaps built for the V3 SwapRouter execute on anvil and pay at least the
//! quoted minimum (native in, native out, two hops), approvals and allowances
//! name the V3 router when its route wins, a fee tier with no pool drops out,
//! and V2 routes keep winning where they pay more.

mod common;

use alloy_primitives::{Address, U256};
use alloy_sol_types::{sol, SolCall};
use axum::http::StatusCode;
use common::{get, post, Devnet, DevnetApp};
use latch_server::convert::settings::{SwapConfig, UniswapV3Config};
use serde_json::{json, Value};

sol! {
    function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut,
        uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate);
    function approve(address spender, uint256 amount) returns (bool);
}

const NATIVE: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

fn caip(address: impl std::fmt::Display) -> String {
    format!("eip155:31337:{address}")
}

fn quote_uri(amount: U256, from: &str, to: &str, user: &str) -> String {
    format!("/v1/convert/quotes?projectId=test&amount={amount}&from={from}&to={to}&userAddress={user}")
}

fn e18(n: u64) -> U256 {
    U256::from(n) * U256::from(10u64).pow(U256::from(18u64))
}

fn amount(value: &Value) -> U256 {
    value.as_str().unwrap().parse().unwrap()
}

/// `abi.encodePacked(token, uint24 fee, token, …)`, written out here independently of latch-core.
fn packed(tokens: &[Address], fees: &[u32]) -> Vec<u8> {
    let mut out = tokens[0].to_vec();
    for (fee, token) in fees.iter().zip(&tokens[1..]) {
        out.extend_from_slice(&fee.to_be_bytes()[1..]);
        out.extend_from_slice(token.as_slice());
    }
    out
}

/// QuoterV2's own answer for `amount` along the packed path.
async fn quoter(world: &DevnetApp, tokens: &[Address], fees: &[u32], amount: U256) -> U256 {
    let data = quoteExactInputCall {
        path: packed(tokens, fees).into(),
        amountIn: amount,
    }
    .abi_encode();
    let raw = world
        .devnet
        .eth_call(world.contract(&["uniswapV3", "quoter"]), data)
        .await;
    quoteExactInputCall::abi_decode_returns(&raw).unwrap().amountOut
}

async fn eth_balance(world: &DevnetApp, owner: Address) -> U256 {
    amount_hex(
        &world
            .devnet
            .rpc("eth_getBalance", json!([owner.to_string(), "latest"]))
            .await,
    )
}

fn contract(devnet: &Devnet, path: &[&str]) -> Address {
    devnet.contract(path).parse().unwrap()
}

fn amount_hex(value: &Value) -> U256 {
    U256::from_str_radix(value.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

/// What a mined transaction cost in gas, wei.
fn gas_cost(receipt: &Value) -> U256 {
    amount_hex(&receipt["gasUsed"]) * amount_hex(&receipt["effectiveGasPrice"])
}

#[tokio::test]
async fn v3_quotes_equal_the_quoters_and_its_swaps_execute() {
    // The devnet's own configuration (V3 with fee tiers 500, 3000, 10000).
    let world = DevnetApp::start().await;
    let router = &world.router;
    let (weth, lbt, lct, usdc) = (
        world.contract(&["weth"]),
        world.contract(&["lbt", "address"]),
        world.contract(&["lct", "address"]),
        world.contract(&["usdc", "address"]),
    );
    let v3_router = world.contract(&["uniswapV3", "router"]).to_checksum(None);
    let v2_router = world.contract(&["uniswapV2Router"]).to_checksum(None);
    let user = world.devnet.account(1);
    let user_address: Address = user.parse().unwrap();

    // ETH → LBT: only the 0.3 % V3 pool holds LBT; the quote is the quoter's, to the unit.
    let one_eth = e18(1);
    let (status, quotes) = get(router, &quote_uri(one_eth, &caip(NATIVE), &caip(lbt), &user)).await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    let quote = &quotes["quotes"][0];
    let expected = quoter(&world, &[weth, lbt], &[3000], one_eth).await;
    assert_eq!(amount(&quote["toAmount"]), expected);
    assert_eq!(quote["source"], "uniswap-v3");
    assert_eq!(quote["spender"], v3_router.as_str());
    assert_eq!(quote["path"], json!([caip(NATIVE), caip(lbt.to_checksum(None))]));
    assert_eq!(
        amount(&quote["toAmountMin"]),
        expected * U256::from(99u64) / U256::from(100u64)
    );
    // 1 ETH in 50 ETH of concentrated liquidity moves the price a little, not nothing.
    let impact = quote["priceImpact"].as_f64().unwrap();
    assert!(impact > 0.0 && impact < 1.0, "{impact}");

    // Native in: the built swap goes through the V3 router with the ETH as value, and pays ≥ the minimum.
    let build = |amount: U256, from: &str, to: &str| json!({"amount": amount.to_string(), "from": from, "to": to, "userAddress": user, "eip155": {"slippage": 1}});
    let (status, built) = post(
        router,
        "/v1/convert/build-transaction?projectId=test",
        build(one_eth, &caip(NATIVE), &caip(lbt)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(built["tx"]["to"], v3_router.as_str());
    assert_eq!(built["tx"]["amount"], one_eth.to_string());
    let before = world.devnet.token_balance(lbt, user_address).await;
    let receipt = world.execute(&built["tx"]).await;
    assert_eq!(receipt["status"], "0x1");
    let got = world.devnet.token_balance(lbt, user_address).await - before;
    assert!(got >= amount(&quote["toAmountMin"]), "{got}");
    assert_eq!(got, expected, "nothing else traded in between: exactly the quote");

    // LBT → LCT: two hops through WETH (0.3 % then 0.05 %), equal to the quoter's answer.
    let hundred = e18(100);
    let (status, quotes) = get(router, &quote_uri(hundred, &caip(lbt), &caip(lct), &user)).await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    let quote = &quotes["quotes"][0];
    let expected = quoter(&world, &[lbt, weth, lct], &[3000, 500], hundred).await;
    assert_eq!(amount(&quote["toAmount"]), expected);
    assert_eq!(quote["path"].as_array().unwrap().len(), 3);

    // Allowance and approval name the V3 router for this swap; the V2 router's stays apart.
    let allowance_uri = |to: &str, with_swap: bool| {
        let swap = if with_swap {
            format!("&to={}&amount={hundred}", caip(to))
        } else {
            String::new()
        };
        format!(
            "/v1/convert/allowance?projectId=test&tokenAddress={}&userAddress={user}{swap}",
            caip(lbt)
        )
    };
    let (status, allowance) = get(router, &allowance_uri(&lct.to_string(), true)).await;
    assert_eq!((status, allowance["allowance"].as_str()), (StatusCode::OK, Some("0")));
    let approve_uri = format!(
        "/v1/convert/build-approve?projectId=test&userAddress={user}&from={}&to={}&amount={hundred}",
        caip(lbt),
        caip(lct)
    );
    let (status, approval) = get(router, &approve_uri).await;
    assert_eq!(status, StatusCode::OK, "{approval}");
    let data = alloy_primitives::hex::decode(approval["tx"]["data"].as_str().unwrap()).unwrap();
    let call = approveCall::abi_decode(&data).unwrap();
    assert_eq!(
        (call.spender.to_checksum(None), call.amount),
        (v3_router.clone(), hundred)
    );
    assert_eq!(world.execute(&approval["tx"]).await["status"], "0x1");
    let (_, allowance) = get(router, &allowance_uri(&lct.to_string(), true)).await;
    assert_eq!(allowance["allowance"], hundred.to_string());
    let (_, v2_allowance) = get(router, &allowance_uri(&lct.to_string(), false)).await;
    assert_eq!(v2_allowance["allowance"], "0", "without the swap: the V2 router's");

    let (status, built) = post(
        router,
        "/v1/convert/build-transaction?projectId=test",
        build(hundred, &caip(lbt), &caip(lct)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{built}");
    assert_eq!(built["tx"]["to"], v3_router.as_str());
    let before = world.devnet.token_balance(lct, user_address).await;
    assert_eq!(world.execute(&built["tx"]).await["status"], "0x1");
    let got = world.devnet.token_balance(lct, user_address).await - before;
    assert!(got >= amount(&quote["toAmountMin"]), "{got}");

    // Native out: LBT → ETH swaps to the router and unwraps to the user in one multicall.
    let (_, quotes) = get(router, &quote_uri(hundred, &caip(lbt), &caip(NATIVE), &user)).await;
    let min = amount(&quotes["quotes"][0]["toAmountMin"]);
    assert_eq!(
        amount(&quotes["quotes"][0]["toAmount"]),
        quoter(&world, &[lbt, weth], &[3000], hundred).await
    );
    let (_, approval) = get(
        router,
        &format!(
            "/v1/convert/build-approve?projectId=test&userAddress={user}&from={}&to={}&amount={hundred}",
            caip(lbt),
            caip(NATIVE)
        ),
    )
    .await;
    assert_eq!(world.execute(&approval["tx"]).await["status"], "0x1");
    let (status, built) = post(
        router,
        "/v1/convert/build-transaction?projectId=test",
        build(hundred, &caip(lbt), &caip(NATIVE)),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{built}");
    let before = eth_balance(&world, user_address).await;
    let receipt = world.execute(&built["tx"]).await;
    assert_eq!(receipt["status"], "0x1");
    let got = eth_balance(&world, user_address).await + gas_cost(&receipt) - before;
    assert!(got >= min, "{got} < {min}");
    assert_eq!(
        eth_balance(&world, world.contract(&["uniswapV3", "router"])).await,
        U256::ZERO,
        "nothing left in the router"
    );
    assert_eq!(
        world
            .devnet
            .token_balance(weth, world.contract(&["uniswapV3", "router"]))
            .await,
        U256::ZERO
    );

    // A pair only V2 pools hold is still V2's, its approvals the V2 router's.
    let (_, quotes) = get(router, &quote_uri(one_eth, &caip(NATIVE), &caip(usdc), &user)).await;
    assert_eq!(
        (
            quotes["quotes"][0]["source"].as_str(),
            quotes["quotes"][0]["spender"].as_str()
        ),
        (Some("uniswap-v2"), Some(v2_router.as_str()))
    );
}

/// The devnet's V3 market with only `fee_tiers`, configured by hand.
fn only_tiers(fee_tiers: Vec<u32>) -> impl FnOnce(&Devnet, &mut latch_server::config::Config) {
    move |devnet, config| {
        config.swap.push(SwapConfig {
            chain: "eip155:31337".into(),
            uniswap_v2_factory: contract(devnet, &["uniswapV2Factory"]).to_string(),
            router: contract(devnet, &["uniswapV2Router"]).to_string(),
            wrapped_native: contract(devnet, &["weth"]).to_string(),
            base_tokens: vec![contract(devnet, &["usdc", "address"]).to_string()],
            uniswap_v3: Some(UniswapV3Config {
                factory: contract(devnet, &["uniswapV3", "factory"]).to_string(),
                quoter: contract(devnet, &["uniswapV3", "quoter"]).to_string(),
                router: contract(devnet, &["uniswapV3", "router"]).to_string(),
                fee_tiers,
                pool_init_code_hash: None,
            }),
        })
    }
}

#[tokio::test]
async fn a_fee_tier_without_a_pool_drops_out() {
    // Only the 1 % tier, where no pool exists: nothing answers for ETH → LBT.
    let world = DevnetApp::start_with(only_tiers(vec![10_000])).await;
    let lbt = world.contract(&["lbt", "address"]);
    let user = world.devnet.account(1);
    let (status, body) = get(&world.router, &quote_uri(e18(1), &caip(NATIVE), &caip(lbt), &user)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("NO_ROUTE")),
        "{body}"
    );
    drop(world);

    // With the 0.3 % tier beside it, the missing 1 % pool drops out and the 0.3 % one answers.
    let world = DevnetApp::start_with(only_tiers(vec![10_000, 3000])).await;
    let (weth, lbt) = (world.contract(&["weth"]), world.contract(&["lbt", "address"]));
    let (status, quotes) = get(&world.router, &quote_uri(e18(1), &caip(NATIVE), &caip(lbt), &user)).await;
    assert_eq!(status, StatusCode::OK, "{quotes}");
    assert_eq!(
        amount(&quotes["quotes"][0]["toAmount"]),
        quoter(&world, &[weth, lbt], &[3000], e18(1)).await
    );
}

#[tokio::test]
async fn v3_settings_are_checked_at_start() {
    let devnet = Devnet::start().await;
    for (tiers, hash) in [
        (vec![], None),
        (vec![0], None),
        (vec![1_000_000], None),
        (vec![100, 500, 3000, 10_000, 20_000], None),
        (vec![3000], Some("0x1234".to_owned())),
    ] {
        let mut config = latch_server::config::Config {
            chains: vec![latch_server::config::ChainConfig {
                id: "eip155:31337".into(),
                upstreams: vec![devnet.anvil.url.clone()],
                ..Default::default()
            }],
            ..Default::default()
        };
        only_tiers(tiers.clone())(&devnet, &mut config);
        if let Some(v3) = config.swap[0].uniswap_v3.as_mut() {
            v3.pool_init_code_hash = hash.clone();
        }
        let error = config.validated().unwrap_err().to_string();
        assert!(error.contains("uniswap_v3"), "{tiers:?} {hash:?}: {error}");
    }
}
