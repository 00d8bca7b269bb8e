//! SECURITY.md "Outbound fetches, shared content, secrets, request numbers":
//! NFT metadata fetches that redirect or resolve inside, an environment proxy,
//! a page of slow NFT metadata, a forged `Host` in a cached answer, upstream
//! API keys in logs and error bodies, and numbers that would overflow.

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy_sol_types::{sol, SolCall};
use latch_server::indexer::Indexer;
use latch_server::outbound;
use serde_json::json;

use crate::common::{dead_upstream, Anvil, Devnet};
use crate::harness::{client, ok_json, refused, Latch, PROJECT};

sol! {
    function mint(address to);
}

/// A loopback HTTP server answering `router`, and how many requests it got.
async fn counting_server(ip: [u8; 4], answer: axum::Router) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind((IpAddr::from(ip), 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    let counted = answer.layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            counter.fetch_add(1, Ordering::SeqCst);
            next.run(request)
        },
    ));
    tokio::spawn(async move { axum::serve(listener, counted).await.unwrap() });
    (format!("http://{addr}"), hits)
}

/// A server whose every path answers `{"ok": true}`.
fn json_ok() -> axum::Router {
    axum::Router::new().fallback(|| async { axum::Json(json!({"ok": true})) })
}

/// 127.0.0.2 stands for a public host (the rule is widened by exactly it);
/// it redirects to 127.0.0.1, which must be refused at the hop, before any
/// request reaches it.
#[tokio::test]
async fn redirect_to_loopback_is_refused_at_the_hop() {
    let (target, target_hits) = counting_server([127, 0, 0, 1], json_ok()).await;
    let to_target = format!("{target}/latest/meta-data");
    let redirector = axum::Router::new()
        .route(
            "/inside",
            axum::routing::get(move || {
                let to = to_target.clone();
                async move { axum::response::Redirect::to(&to) }
            }),
        )
        .route(
            "/fine",
            axum::routing::get(|| async { axum::Json(json!({"ok": true})) }),
        );
    let (outside, outside_hits) = counting_server([127, 0, 0, 2], redirector).await;
    fn public_or_stand_in(ip: IpAddr) -> bool {
        ip == IpAddr::from([127, 0, 0, 2]) || outbound::is_public(ip)
    }
    let guarded = outbound::guarded_client_with(public_or_stand_in, Duration::from_secs(3));

    let refused = guarded.get(format!("{outside}/inside")).send().await;
    let error = refused.expect_err("the hop to 127.0.0.1 is refused");
    assert!(error.is_redirect(), "{error}");
    assert_eq!(
        target_hits.load(Ordering::SeqCst),
        0,
        "nothing reached the loopback target"
    );
    assert_eq!(outside_hits.load(Ordering::SeqCst), 1);

    // The normal fetch from the same host right after still works.
    let fine = guarded.get(format!("{outside}/fine")).send().await.unwrap();
    assert_eq!(fine.status(), 200);
    // And the server's own rule refuses the literal loopback URL before any request.
    assert!(!outbound::may_fetch(&reqwest::Url::parse(&target).unwrap()));
    assert_eq!(target_hits.load(Ordering::SeqCst), 0);
}

/// A name resolving to a loopback address (DNS rebinding's end state) is
/// refused by the resolver: no connection is made to it.
#[tokio::test]
async fn name_resolving_inside_is_refused() {
    let (target, hits) = counting_server([127, 0, 0, 1], json_ok()).await;
    let port = target.rsplit(':').next().unwrap();
    let guarded = outbound::guarded_client(false, Duration::from_secs(3));
    let error = guarded
        .get(format!("http://localhost:{port}/metadata.json"))
        .send()
        .await
        .expect_err("localhost resolves to loopback");
    assert!(error.is_connect() || error.is_request(), "{error}");
    assert_eq!(hits.load(Ordering::SeqCst), 0, "no request reached the loopback server");
    // The `--dev` client (private hosts allowed) reaches it: the refusal was the rule's.
    let dev = outbound::guarded_client(true, Duration::from_secs(3));
    let ok = dev
        .get(format!("http://localhost:{port}/metadata.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

/// Marks the re-run of [`environment_proxy_is_not_used`] in its own process.
const PROXY_CHILD: &str = "LATCH_TEST_PROXY_CHILD";

/// `HTTP_PROXY`/`HTTPS_PROXY`/`ALL_PROXY` pointing at a recording server are
/// not used by the outbound clients. The environment is process-wide, so the
/// test re-runs itself in a child process where it is the only test.
#[tokio::test]
async fn environment_proxy_is_not_used() {
    if std::env::var_os(PROXY_CHILD).is_none() {
        let status = tokio::process::Command::new(std::env::current_exe().unwrap())
            .args(["fetch::environment_proxy_is_not_used", "--exact", "--nocapture"])
            .env(PROXY_CHILD, "1")
            .status()
            .await
            .unwrap();
        assert!(status.success(), "the child run failed");
        return;
    }
    let (proxy, proxy_hits) = counting_server([127, 0, 0, 1], json_ok()).await;
    let (target, target_hits) = counting_server([127, 0, 0, 1], json_ok()).await;
    // Only this test runs in this process (see above).
    for name in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        std::env::set_var(name, &proxy);
    }
    std::env::remove_var("NO_PROXY");
    std::env::remove_var("no_proxy");
    // Control: a default client does go through the proxy set here.
    reqwest::Client::new().get(format!("{target}/x")).send().await.unwrap();
    assert_eq!(
        proxy_hits.load(Ordering::SeqCst),
        1,
        "the environment proxy is in effect"
    );
    assert_eq!(target_hits.load(Ordering::SeqCst), 0);

    let dev = outbound::guarded_client(true, Duration::from_secs(3));
    dev.get(format!("{target}/nft.json")).send().await.unwrap();
    assert_eq!(target_hits.load(Ordering::SeqCst), 1, "fetched directly");
    // The gateway's upstream client too: a JSON-RPC call through a real latch.
    let latch = Latch::start(vec![format!("{target}/rpc")], |_| {}).await;
    let reply = client()
        .post(latch.url(&format!("/v1?chainId=eip155:31337&projectId={PROJECT}")))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(
        target_hits.load(Ordering::SeqCst),
        2,
        "the upstream was called directly"
    );
    assert_eq!(
        proxy_hits.load(Ordering::SeqCst),
        1,
        "nothing more went through the proxy"
    );
}

/// A page of NFTs whose metadata server never answers in time: the page's
/// reads stop at the budget and the answer comes within one deadline (not one
/// fetch timeout per NFT in a row).
#[tokio::test]
async fn nft_page_reads_stop_at_the_budget_within_one_deadline() {
    let slow = axum::Router::new().fallback(|| async {
        tokio::time::sleep(Duration::from_secs(30)).await;
        axum::Json(json!({"image": "https://img.example/x.png"}))
    });
    let (metadata, fetched) = counting_server([127, 0, 0, 1], slow).await;
    let devnet = Devnet::start_with(&["--nft-base-uri", &format!("{metadata}/nft/")]).await;
    let fixture = &devnet.fixture;
    let account = |i: usize| fixture["accounts"][i]["address"].as_str().unwrap().to_owned();
    let nft = fixture["contracts"]["nft"]["address"].as_str().unwrap();
    let minted = outbound_budget() + 4;
    for _ in 0..minted {
        let call = mintCall {
            to: account(4).parse().unwrap(),
        };
        devnet
            .send(json!({"from": account(0), "to": nft, "data": format!("0x{}", hex::encode(call.abi_encode()))}))
            .await;
    }
    let file = devnet.file.clone();
    let latch = Latch::start(vec![devnet.anvil.url.clone()], move |config| {
        config.devnet_file = Some(file);
        config.nft_metadata_private_hosts = true;
        // The history is the index's (the test steps its own indexer), not the node's search.
        config.index_chains = vec!["eip155:31337".into()];
    })
    .await;
    let indexer = Indexer::new(
        latch.state.gateway.clone(),
        latch.state.store.clone(),
        "eip155:31337".into(),
        0,
        200,
    );
    for _ in 0..100 {
        let step = indexer.step().await.unwrap();
        if step.blocks == 0 && step.rewound == 0 {
            break;
        }
    }

    let started = Instant::now();
    let history = client()
        .get(latch.url(&format!(
            "/v1/account/{}/history?chainId=eip155:31337&projectId={PROJECT}",
            account(4)
        )))
        .send()
        .await
        .unwrap();
    let page = ok_json(history).await;
    let took = started.elapsed();
    let nfts = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| !item["transfers"][0]["nft_info"].is_null())
        .count();
    assert!(nfts >= minted, "every mint is on the page: {page}");
    assert!(
        took < latch_server::chaindata::nft::NFT_READS_DEADLINE + Duration::from_secs(2),
        "one deadline, not one timeout per NFT: {took:?}"
    );
    let requests = fetched.load(Ordering::SeqCst);
    assert!(
        requests <= outbound_budget(),
        "{requests} metadata requests for a budget of {}",
        outbound_budget()
    );

    // A normal client right after: served, and within the deadline again.
    let again = client()
        .get(latch.url(&format!(
            "/v1/account/{}/balance?chainId=eip155:31337&projectId={PROJECT}",
            account(4)
        )))
        .send()
        .await
        .unwrap();
    ok_json(again).await;
}

fn outbound_budget() -> usize {
    latch_server::chaindata::nft::MAX_NFT_READS_PER_REQUEST
}

/// A client sending `Host: evil.example` fills the 30 s balances cache; the
/// next client gets icon URLs under the configured public URL, not the forged host.
#[tokio::test]
async fn forged_host_never_reaches_a_cached_answer() {
    let anvil = Anvil::start().await;
    let latch = Latch::start(vec![anvil.url.clone()], |config| {
        config.public_url = Some("https://latch.example.com/".into());
    })
    .await;
    let owner = "0x000000000000000000000000000000000000dEaD";
    let path = format!("/v1/account/{owner}/balance?chainId=eip155:31337&projectId={PROJECT}");
    let forged = client()
        .get(latch.url(&path))
        .header(reqwest::header::HOST, "evil.example")
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .unwrap();
    let first = ok_json(forged).await;
    let second = ok_json(client().get(latch.url(&path)).send().await.unwrap()).await;
    for answer in [&first, &second] {
        let text = answer.to_string();
        assert!(!text.contains("evil.example"), "{text}");
        let icon = answer["balances"][0]["iconUrl"].as_str().unwrap();
        assert_eq!(
            icon,
            "https://latch.example.com/public/getTokenImage/ETH?projectId=test"
        );
    }
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// An upstream URL with an API key in its path and query, unreachable: the
/// warning is logged with the host only, the error chain without the URL,
/// the client's error body without it, and the configuration's `Debug` too.
#[tokio::test]
async fn upstream_api_keys_never_logged() {
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(logs.clone())
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .finish();
    // This test's runtime is current-thread: the server's tasks log on this thread.
    let _guard = tracing::subscriber::set_default(subscriber);
    let dead = format!("{}/v2/SECRETKEY?apikey=SECRETQUERY", dead_upstream());
    let alive = Anvil::start().await;
    let latch = Latch::start(vec![dead.clone(), alive.url.clone()], |config| {
        config.chains.push(latch_server::config::ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec![dead.clone()],
            ..Default::default()
        });
    })
    .await;
    tracing::info!(config = ?latch.state.config, "starting");

    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"});
    let down = client()
        .post(latch.url(&format!("/v1?chainId=eip155:1&projectId={PROJECT}")))
        .json(&call)
        .send()
        .await
        .unwrap();
    let body = refused(down, 503, "UPSTREAM_UNAVAILABLE").await;
    // A normal call falls back past the dead upstream to the live one.
    let up = client()
        .post(latch.url(&format!("/v1?chainId=eip155:31337&projectId={PROJECT}")))
        .json(&call)
        .send()
        .await
        .unwrap();
    assert!(ok_json(up).await["result"].is_string());

    let logged = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        logged.contains("upstream unreachable"),
        "the failure is logged: {logged}"
    );
    let host = outbound::redact_url(&dead);
    assert!(logged.contains(&host), "the host is named: {logged}");
    for text in [logged.as_str(), &body.to_string()] {
        assert!(!text.contains("SECRETKEY") && !text.contains("SECRETQUERY"), "{text}");
    }
}

/// Numbers that would overflow in the query answer 400 in our body (or, where
/// the number is only a page past the end, an empty page), never a panic or a wrap.
#[tokio::test]
async fn overflowing_numbers_answer_400() {
    let latch = Latch::start(vec![dead_upstream()], |_| {}).await;
    let owner = "0x000000000000000000000000000000000000dEaD";
    for path in [
        "/getWallets?page=99999999999999999999999999&projectId=test".to_owned(),
        "/getWallets?entries=-1&projectId=test".to_owned(),
        "/getWallets?page=0&projectId=test".to_owned(),
        format!("/v1/account/{owner}/history?cursor=99999999999999999999-1&projectId=test"),
        format!("/v1/account/{owner}/history?cursor=1-99999999999999999999&projectId=test"),
    ] {
        let response = client().get(latch.url(&path)).send().await.unwrap();
        let body = refused(response, 400, "BAD_REQUEST").await;
        assert!(body["reasons"][0]["description"].is_string(), "{path}: {body}");
    }
    // The largest page number: saturating arithmetic gives an empty page.
    let last = client()
        .get(latch.url(&format!("/getWallets?page={}&entries=100&projectId=test", usize::MAX)))
        .send()
        .await
        .unwrap();
    let page = ok_json(last).await;
    assert_eq!(page["data"], json!([]));
    // A normal listing right after.
    let normal = ok_json(
        client()
            .get(latch.url("/getWallets?projectId=test"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(normal["count"].is_number());
}
