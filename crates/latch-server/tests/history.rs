//! The history indexer against the real devnet: scripted native, ERC-20 and
//! NFT transfers, a reorganisation produced with anvil's snapshot/revert,
//! and paging through `/v1/account/{address}/history`.

mod common;

use alloy_sol_types::{sol, SolCall};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{state_with, Devnet};
use http_body_util::BodyExt;
use latch_server::app;
use latch_server::indexer::Indexer;
use serde_json::{json, Value};
use tower::ServiceExt;

sol! {
    function transfer(address to, uint256 amount) returns (bool);
    function transferFrom(address from, address to, uint256 tokenId);
}

const CHAIN: &str = "eip155:31337";

/// The configuration of a server whose history of [`CHAIN`] is the index's
/// (the tests step their own indexer).
fn indexed(config: &mut latch_server::config::Config) {
    config.index_chains = vec![CHAIN.into()];
}

/// Steps until the indexer has caught up.
async fn catch_up(indexer: &Indexer) {
    for _ in 0..100 {
        let step = indexer.step().await.unwrap();
        if step.blocks == 0 && step.rewound == 0 {
            return;
        }
    }
    panic!("the indexer did not catch up");
}

async fn history(router: &axum::Router, who: &str, cursor: Option<&str>) -> Value {
    let mut uri = format!("/v1/account/{who}/history?chainId={CHAIN}&projectId=test");
    if let Some(cursor) = cursor {
        uri.push_str(&format!("&cursor={cursor}"));
    }
    get_json(router, uri).await
}

/// A GET that must answer 200, as JSON.
async fn get_json(router: &axum::Router, uri: String) -> Value {
    let response = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap()
}

fn hashes(page: &Value) -> Vec<String> {
    page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["metadata"]["hash"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn history_follows_transfers_survives_a_reorg_and_pages() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet
        .state_with(|config| config.index_chains = vec![CHAIN.into()])
        .await;
    let fixture = &devnet.fixture;
    let indexer = Indexer::new(state.gateway.clone(), state.store.clone(), CHAIN.into(), 0, 200);
    let router = app(state);
    let account = |i: usize| devnet.account(i);
    let usdc = fixture["contracts"]["usdc"]["address"].as_str().unwrap();
    let nft = fixture["contracts"]["nft"]["address"].as_str().unwrap();
    catch_up(&indexer).await;

    // #1 received its USDC and LTK mints during deployment.
    let minted = history(&router, &account(1), None).await;
    let kinds: Vec<&str> = minted["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["metadata"]["operationType"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["receive", "receive"], "{minted}");
    let first = &minted["data"][0]["transfers"][0];
    assert_eq!(first["fungible_info"]["symbol"], "LTK");
    assert_eq!(
        (first["direction"].as_str(), first["quantity"]["numeric"].as_str()),
        (Some("in"), Some("10000"))
    );

    // Scripted transfers: native, ERC-20, NFT.
    let native = devnet
        .send(json!({"from": account(1), "to": account(2), "value": "0xde0b6b3a7640000"}))
        .await; // 1 ETH
    let to: alloy_primitives::Address = account(3).parse().unwrap();
    let amount = alloy_primitives::U256::from(1_500_000u64); // 1.5 USDC
    let erc20 = devnet.send(json!({"from": account(1), "to": usdc, "data": format!("0x{}", hex::encode(transferCall { to, amount }.abi_encode()))})).await;
    let (from, to) = (account(0).parse().unwrap(), account(4).parse().unwrap());
    let call = transferFromCall {
        from,
        to,
        tokenId: alloy_primitives::U256::ZERO,
    };
    let erc721 = devnet
        .send(json!({"from": account(0), "to": nft, "data": format!("0x{}", hex::encode(call.abi_encode()))}))
        .await;
    catch_up(&indexer).await;

    let one = history(&router, &account(1), None).await;
    assert_eq!(hashes(&one)[..2], [erc20.clone(), native.clone()], "newest first");
    let sent = &one["data"][0];
    assert_eq!(sent["metadata"]["operationType"], "send");
    assert_eq!(sent["metadata"]["status"], "confirmed");
    assert_eq!(sent["metadata"]["chain"], CHAIN);
    assert!(sent["metadata"]["minedAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(sent["transfers"][0]["quantity"]["numeric"], "1.5");
    assert_eq!(sent["transfers"][0]["value"], 1.5, "USDC at 1 USD");
    let eth = &one["data"][1]["transfers"][0];
    assert_eq!(
        (eth["fungible_info"]["symbol"].as_str(), eth["direction"].as_str()),
        (Some("ETH"), Some("out"))
    );
    assert_eq!(
        (eth["quantity"]["numeric"].as_str(), eth["price"].as_f64()),
        (Some("1"), Some(3000.0))
    );
    let three = history(&router, &account(3), None).await;
    assert_eq!(three["data"][0]["transfers"][0]["direction"], "in");
    let four = history(&router, &account(4), None).await;
    assert_eq!(hashes(&four), [erc721]);
    let item = &four["data"][0]["transfers"][0];
    assert_eq!(item["nft_info"]["name"], "Latch Punks #0");
    assert_eq!(item["nft_info"]["flags"]["is_spam"], true, "received without asking");

    // A reorganisation: a transfer that is mined, indexed, then reverted away and replaced.
    let snapshot = devnet.rpc("evm_snapshot", json!([])).await;
    let doomed = devnet
        .send(json!({"from": account(5), "to": account(6), "value": "0x1"}))
        .await;
    catch_up(&indexer).await;
    assert_eq!(hashes(&history(&router, &account(5), None).await), [doomed]);
    assert_eq!(devnet.rpc("evm_revert", json!([snapshot])).await, true);
    let replacement = devnet
        .send(json!({"from": account(5), "to": account(7), "value": "0x2"}))
        .await;
    catch_up(&indexer).await;
    assert_eq!(
        hashes(&history(&router, &account(5), None).await),
        [replacement],
        "the reverted transfer is gone"
    );
    assert!(hashes(&history(&router, &account(6), None).await).is_empty());

    // Paging: 60 payments to #8, 50 per page.
    let mut sent = Vec::new();
    for _ in 0..60 {
        sent.push(
            devnet
                .send(json!({"from": account(0), "to": account(8), "value": "0x1"}))
                .await,
        );
    }
    catch_up(&indexer).await;
    let page1 = history(&router, &account(8), None).await;
    assert_eq!(page1["data"].as_array().unwrap().len(), 50);
    let cursor = page1["next"].as_str().expect("a next cursor").to_owned();
    let page2 = history(&router, &account(8), Some(&cursor)).await;
    assert_eq!(page2["next"], Value::Null);
    let all: Vec<String> = hashes(&page1).into_iter().chain(hashes(&page2)).collect();
    sent.reverse();
    assert_eq!(all, sent, "every payment once, newest first");

    let response = router
        .clone()
        .oneshot(
            Request::get(format!("/v1/account/{}/history?cursor=nope&projectId=test", account(8)))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

/// Unless told where to start, an empty index begins at the chain's head: a
/// long chain is never read from block 0.
#[tokio::test]
async fn an_empty_index_starts_at_the_head_unless_told() {
    let devnet = Devnet::start().await;
    let (state, _data) = state_with(vec![devnet.anvil.url.clone()], indexed).await;
    let account = |i: usize| devnet.account(i);
    let before = devnet
        .send(json!({"from": account(1), "to": account(2), "value": "0x1"}))
        .await;
    let head = devnet.rpc("eth_blockNumber", json!([])).await;
    let head = u64::from_str_radix(head.as_str().unwrap().trim_start_matches("0x"), 16).unwrap();
    let indexer = Indexer::new(state.gateway.clone(), state.store.clone(), CHAIN.into(), 0, 200).starting_at(None);
    catch_up(&indexer).await;
    assert_eq!(
        state.store.indexed_hash(CHAIN, 0).await.unwrap(),
        None,
        "block 0 is not read"
    );
    assert!(state.store.indexed_hash(CHAIN, head as i64).await.unwrap().is_some());
    let after = devnet
        .send(json!({"from": account(1), "to": account(3), "value": "0x2"}))
        .await;
    catch_up(&indexer).await;
    let router = app(state);
    // The deployment's mints to #1 (blocks before the head) are not there; the
    // head's block (the payment just made) and what followed are.
    assert_eq!(hashes(&history(&router, &account(1), None).await), [after, before]);
}

/// A chain the indexer does not follow is read from its node's Otterscan API
/// (anvil serves it): the same answer shape, paged by block.
#[tokio::test]
async fn an_unindexed_chain_is_read_through_otterscan() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet.state().await;
    let fixture = &devnet.fixture;
    let account = |i: usize| devnet.account(i);
    let usdc = fixture["contracts"]["usdc"]["address"].as_str().unwrap();
    let native = devnet
        .send(json!({"from": account(1), "to": account(2), "value": "0xde0b6b3a7640000"}))
        .await;
    let to: alloy_primitives::Address = account(3).parse().unwrap();
    let amount = alloy_primitives::U256::from(1_500_000u64);
    let erc20 = devnet.send(json!({"from": account(1), "to": usdc, "data": format!("0x{}", hex::encode(transferCall { to, amount }.abi_encode()))})).await;
    let router = app(state);
    let page = history(&router, &account(1), None).await;
    assert_eq!(page["partial"], false, "{page}");
    assert_eq!(hashes(&page)[..2], [erc20.clone(), native.clone()], "newest first");
    let sent = &page["data"][0];
    assert_eq!(sent["metadata"]["operationType"], "send");
    assert_eq!(sent["transfers"][0]["fungible_info"]["symbol"], "USDC");
    assert_eq!(sent["transfers"][0]["quantity"]["numeric"], "1.5");
    assert_eq!(page["data"][1]["transfers"][0]["quantity"]["numeric"], "1");

    // Paging by block: 60 payments from #4, at least 50 a page, each once.
    let mut paid = Vec::new();
    for _ in 0..60 {
        paid.push(
            devnet
                .send(json!({"from": account(4), "to": account(5), "value": "0x1"}))
                .await,
        );
    }
    let first = history(&router, &account(4), None).await;
    let cursor = first["next"].as_str().expect("a next cursor").to_owned();
    let second = history(&router, &account(4), Some(&cursor)).await;
    assert_eq!(second["next"], Value::Null, "{second}");
    let all: Vec<String> = hashes(&first).into_iter().chain(hashes(&second)).collect();
    paid.reverse();
    assert_eq!(all, paid, "every payment once, newest first");
}

/// Without the index or a node that can search, the page is empty and says so.
#[tokio::test]
async fn history_without_a_source_says_it_is_partial() {
    let (state, _data) = common::state(vec![common::dead_upstream()]).await;
    let page = history(&app(state), "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", None).await;
    assert_eq!(
        (page["data"].clone(), page["partial"].clone()),
        (json!([]), json!(true))
    );
}

async fn nfts(router: &axum::Router, who: &str) -> Value {
    get_json(router, format!("/v1/account/{who}/nfts?chainId={CHAIN}&projectId=test")).await
}

/// What an address holds comes from every transfer the index has, not from
/// the Activity pages a client happened to load.
#[tokio::test]
async fn nft_holdings_follow_the_index() {
    let devnet = Devnet::start().await;
    let (state, _data) = devnet.state_with(indexed).await;
    let account = |i: usize| devnet.account(i);
    let nft = devnet.fixture["contracts"]["nft"]["address"]
        .as_str()
        .unwrap()
        .to_lowercase();
    let indexer = Indexer::new(state.gateway.clone(), state.store.clone(), CHAIN.into(), 0, 200);
    let router = app(state);
    catch_up(&indexer).await;
    let held = nfts(&router, &account(0)).await;
    assert_eq!(held["partial"], false);
    assert_eq!(held["data"].as_array().unwrap().len(), 1, "{held}");
    let token = &held["data"][0];
    assert_eq!(
        (
            &token["contract"],
            &token["tokenId"],
            &token["kind"],
            &token["amount"],
            &token["name"]
        ),
        (
            &json!(nft),
            &json!("0"),
            &json!("erc721"),
            &json!("1"),
            &json!("Latch Punks #0")
        )
    );

    let (from, to) = (account(0).parse().unwrap(), account(4).parse().unwrap());
    let call = transferFromCall {
        from,
        to,
        tokenId: alloy_primitives::U256::ZERO,
    };
    devnet
        .send(json!({"from": account(0), "to": nft, "data": format!("0x{}", hex::encode(call.abi_encode()))}))
        .await;
    catch_up(&indexer).await;
    assert_eq!(nfts(&router, &account(0)).await["data"], json!([]));
    let gift = &nfts(&router, &account(4)).await["data"][0];
    assert_eq!(
        (&gift["tokenId"], &gift["isSpam"]),
        (&json!("0"), &json!(true)),
        "sent by someone else: unsolicited"
    );
}

/// What the indexer logs, captured.
#[derive(Clone, Default)]
struct Logs(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Logs {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for Logs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Logs {
    type Writer = Logs;
    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

/// A devnet started over from genesis (another chain behind the same id) is
/// indexed afresh: its old record goes at once, not block by block.
#[tokio::test]
async fn a_chain_started_over_is_indexed_afresh() {
    let (first, second) = (Devnet::start().await, Devnet::start().await);
    let (old, _old_data) = state_with(vec![first.anvil.url.clone()], indexed).await;
    let (new, _new_data) = state_with(vec![second.anvil.url.clone()], indexed).await;
    let account = |i: usize| first.account(i);
    let paid = first
        .send(json!({"from": account(1), "to": account(2), "value": "0x1"}))
        .await;
    let indexer = Indexer::new(old.gateway.clone(), old.store.clone(), CHAIN.into(), 0, 200);
    catch_up(&indexer).await;
    let (old_tip, _) = old.store.index_tip(CHAIN).await.unwrap().unwrap();

    // The same store, now reading the second chain (as after `scripts/devnet` restarts).
    let restarted = Indexer::new(new.gateway.clone(), old.store.clone(), CHAIN.into(), 0, 200);
    let logs = Logs::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(logs.clone())
        .with_ansi(false)
        .finish();
    let step = {
        // The test runs on one thread, so the subscriber sees the whole step.
        let _guard = tracing::subscriber::set_default(subscriber);
        restarted.step().await.unwrap()
    };
    assert_eq!(step.rewound, old_tip as u64 + 1, "the whole old record, in one step");
    let logged = logs.text();
    assert!(logged.contains("started over from a new genesis"), "{logged}");
    assert!(!logged.contains("reorganised") && !logged.contains("WARN"), "{logged}");
    catch_up(&restarted).await;
    let genesis = new
        .gateway
        .call_internal(
            CHAIN,
            axum::body::Bytes::from(
                json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber", "params": ["0x0", false]})
                    .to_string(),
            ),
        )
        .await
        .unwrap();
    let genesis: Value = serde_json::from_slice(&genesis.0).unwrap();
    assert_eq!(
        old.store.indexed_hash(CHAIN, 0).await.unwrap().as_deref(),
        genesis["result"]["hash"].as_str()
    );
    let router = app(old);
    assert!(
        !hashes(&history(&router, &account(1), None).await).contains(&paid),
        "the first chain's payment is forgotten"
    );
}

/// An NFT's image comes from its token URI, read from the contract, and the
/// metadata document at that URI — here served over real HTTP on loopback, which
/// only `nft_metadata_private_hosts` (`--dev`) allows.
#[tokio::test]
async fn nft_media_from_the_token_uri_and_its_metadata() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/nft/", listener.local_addr().unwrap());
    let fetched = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = fetched.clone();
    let metadata = axum::Router::new().route(
        "/nft/0",
        axum::routing::get(move || {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            async { axum::Json(json!({"name": "Latch Punk #0", "image": "https://img.example/punk-0.png"})) }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, metadata).await.unwrap() });

    let devnet = Devnet::start_with(&["--nft-base-uri", &base]).await;
    let fixture = &devnet.fixture;
    let account = |i: usize| devnet.account(i);
    let nft = fixture["contracts"]["nft"]["address"].as_str().unwrap();
    let call = transferFromCall {
        from: account(0).parse().unwrap(),
        to: account(4).parse().unwrap(),
        tokenId: alloy_primitives::U256::ZERO,
    };
    devnet
        .send(json!({"from": account(0), "to": nft, "data": format!("0x{}", hex::encode(call.abi_encode()))}))
        .await;

    for private_hosts in [true, false] {
        let (state, _data) = devnet
            .state_with(|config| {
                config.nft_metadata_private_hosts = private_hosts;
                indexed(config);
            })
            .await;
        let indexer = Indexer::new(state.gateway.clone(), state.store.clone(), CHAIN.into(), 0, 200);
        let router = app(state);
        catch_up(&indexer).await;
        let before = fetched.load(std::sync::atomic::Ordering::SeqCst);
        let page = history(&router, &account(4), None).await;
        let content = &page["data"][0]["transfers"][0]["nft_info"]["content"];
        if private_hosts {
            assert_eq!(
                content,
                &json!({"preview": {"url": "https://img.example/punk-0.png", "content_type": "image/png"}}),
                "{page}"
            );
            assert_eq!(fetched.load(std::sync::atomic::Ordering::SeqCst), before + 1);
            // Cached: a second read fetches nothing.
            history(&router, &account(4), None).await;
            assert_eq!(fetched.load(std::sync::atomic::Ordering::SeqCst), before + 1);
        } else {
            assert_eq!(
                content,
                &Value::Null,
                "a loopback URI is not fetched by default: {page}"
            );
            assert_eq!(fetched.load(std::sync::atomic::Ordering::SeqCst), before);
        }
    }
}
