//! The edge: rate limits that cannot be turned against a project, client
//! addresses that headers cannot forge, limits shared across nodes, and the
//! admin and metrics surfaces.

use std::net::IpAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use latch_server::config::{Config, Secret, DEV_ADMIN_TOKEN};
use latch_server::ratelimit::Limit;

use crate::common;
use crate::harness::{client, ok_json, refused, Latch, PROJECT};

/// A limit that effectively does not refill during a test.
fn limit(burst: f64) -> Limit {
    Limit {
        per_second: 0.01,
        burst,
    }
}

/// A client whose connections come from `ip` (any 127.x address is loopback on Linux).
fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .local_address(ip.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

async fn chains(http: &reqwest::Client, server: &Latch, project: &str, forwarded: Option<&str>) -> reqwest::Response {
    let mut request = http.get(server.url(&format!("/v1/supported-chains?projectId={project}")));
    if let Some(hops) = forwarded {
        request = request.header("x-forwarded-for", hops);
    }
    request.send().await.unwrap()
}

async fn status(http: &reqwest::Client, server: &Latch, project: &str, forwarded: Option<&str>) -> u16 {
    chains(http, server, project, forwarded).await.status().as_u16()
}

async fn start(adjust: impl FnOnce(&mut Config)) -> Latch {
    Latch::start(vec![common::dead_upstream()], adjust).await
}

#[tokio::test]
async fn made_up_project_ids_are_limited_per_ip_and_do_not_charge_the_project() {
    let server = start(|c| {
        c.ip_rate_limit = limit(20.0);
        c.project_rate_limit = limit(10.0);
    })
    .await;
    let attacker = client_from("127.0.0.1");
    let victim = client_from("127.0.0.2");
    let flood = async {
        let mut codes = Vec::new();
        for i in 0..60 {
            codes.push(status(&attacker, &server, &format!("made-up-{i}"), None).await);
        }
        codes
    };
    let normal = async {
        let mut codes = Vec::new();
        for _ in 0..5 {
            codes.push(status(&victim, &server, PROJECT, None).await);
        }
        codes
    };
    let (codes, normal) = tokio::join!(flood, normal);
    assert_eq!(normal, vec![200; 5], "the real client works during the flood");
    assert!(codes[..20].iter().all(|&c| c == 401), "{codes:?}");
    assert!(
        codes[20..].iter().all(|&c| c == 429),
        "per-IP limit stops made-up ids: {codes:?}"
    );
    refused(chains(&attacker, &server, "made-up-x", None).await, 429, "RATE_LIMITED").await;
    // The project's budget (10) was charged by the real client only: 5 more pass, then it is spent.
    for _ in 0..5 {
        ok_json(chains(&victim, &server, PROJECT, None).await).await;
    }
    refused(chains(&victim, &server, PROJECT, None).await, 429, "RATE_LIMITED").await;
}

#[tokio::test]
async fn an_ip_flood_does_not_spend_the_project_budget_of_other_clients() {
    let server = start(|c| {
        c.ip_rate_limit = limit(5.0);
        c.project_rate_limit = limit(20.0);
    })
    .await;
    let attacker = client_from("127.0.0.1");
    let mut codes = Vec::new();
    for _ in 0..50 {
        codes.push(status(&attacker, &server, PROJECT, None).await);
    }
    assert_eq!(codes.iter().filter(|&&c| c == 200).count(), 5, "{codes:?}");
    refused(chains(&attacker, &server, PROJECT, None).await, 429, "RATE_LIMITED").await;
    // The 46 refused requests charged nothing to the project: 15 of its 20 remain for others.
    for n in 2..=4 {
        let other = client_from(&format!("127.0.0.{n}"));
        for _ in 0..5 {
            ok_json(chains(&other, &server, PROJECT, None).await).await;
        }
    }
    refused(
        chains(&client_from("127.0.0.5"), &server, PROJECT, None).await,
        429,
        "RATE_LIMITED",
    )
    .await;
}

#[tokio::test]
async fn a_forged_forwarded_for_from_an_untrusted_peer_is_ignored() {
    let server = start(|c| c.ip_rate_limit = limit(3.0)).await;
    let http = client();
    for i in 0..3 {
        let forged = format!("198.51.100.{i}");
        assert_eq!(status(&http, &server, PROJECT, Some(&forged)).await, 200);
    }
    refused(
        chains(&http, &server, PROJECT, Some("198.51.100.99")).await,
        429,
        "RATE_LIMITED",
    )
    .await;
    // Another client, behind the same (absent) proxy, is unaffected.
    ok_json(chains(&client_from("127.0.0.2"), &server, PROJECT, None).await).await;
}

#[tokio::test]
async fn through_a_trusted_proxy_the_right_most_untrusted_hop_is_the_client() {
    let server = start(|c| {
        c.ip_rate_limit = limit(2.0);
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let proxy = client_from("127.0.0.1");
    // The client writes what it likes on the left; the proxy appends the address it saw.
    for forged in ["6.6.6.6, 198.51.100.1", "7.7.7.7, 198.51.100.1"] {
        assert_eq!(status(&proxy, &server, PROJECT, Some(forged)).await, 200);
    }
    refused(
        chains(&proxy, &server, PROJECT, Some("8.8.8.8, 198.51.100.1")).await,
        429,
        "RATE_LIMITED",
    )
    .await;
    // A trusted hop to the right is skipped; another client through the proxy has its own budget.
    assert_eq!(
        status(&proxy, &server, PROJECT, Some("198.51.100.2, 127.0.0.1")).await,
        200
    );
    // An untrusted peer's header is not read at all.
    let direct = client_from("127.0.0.2");
    for i in 0..2 {
        assert_eq!(
            status(&direct, &server, PROJECT, Some(&format!("203.0.113.{i}"))).await,
            200
        );
    }
    refused(
        chains(&direct, &server, PROJECT, Some("203.0.113.77")).await,
        429,
        "RATE_LIMITED",
    )
    .await;
}

#[tokio::test]
async fn ipv6_addresses_in_one_64_share_a_bucket() {
    let server = start(|c| {
        c.ip_rate_limit = limit(2.0);
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let proxy = client();
    for hop in ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff"] {
        assert_eq!(status(&proxy, &server, PROJECT, Some(hop)).await, 200);
    }
    refused(
        chains(&proxy, &server, PROJECT, Some("2001:db8:1:2:abcd::9")).await,
        429,
        "RATE_LIMITED",
    )
    .await;
    ok_json(chains(&proxy, &server, PROJECT, Some("2001:db8:1:3::1")).await).await;
}

const OPERATOR_TOKEN: &str = "operator-token-0123456789";

async fn projects_with(http: &reqwest::Client, server: &Latch, token: &str) -> reqwest::Response {
    http.get(server.url("/v1/analytics/projects"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_dev_admin_token_is_refused_outside_dev() {
    let error = Config {
        admin_token: Some(Secret(DEV_ADMIN_TOKEN.into())),
        ..Config::default()
    }
    .validated()
    .unwrap_err();
    assert!(error.to_string().contains("published --dev token"), "{error}");
    let server = start(|c| c.admin_token = Some(Secret(OPERATOR_TOKEN.into()))).await;
    let http = client();
    refused(
        projects_with(&http, &server, DEV_ADMIN_TOKEN).await,
        401,
        "UNAUTHORIZED",
    )
    .await;
    let listed = ok_json(projects_with(&http, &server, OPERATOR_TOKEN).await).await;
    assert_eq!(listed, serde_json::json!([PROJECT]));
    // In --dev (loopback only) it is the token.
    let dev = start(|c| c.dev = true).await;
    ok_json(projects_with(&http, &dev, DEV_ADMIN_TOKEN).await).await;
}

#[tokio::test]
async fn failed_admin_tokens_are_throttled_per_ip() {
    let server = start(|c| c.admin_token = Some(Secret(OPERATOR_TOKEN.into()))).await;
    let guesser = client_from("127.0.0.1");
    for i in 0..10 {
        refused(
            projects_with(&guesser, &server, &format!("guess-{i:020}")).await,
            401,
            "UNAUTHORIZED",
        )
        .await;
    }
    let response = projects_with(&guesser, &server, "guess-once-more-000").await;
    assert!(response.headers().contains_key("retry-after"));
    refused(response, 429, "RATE_LIMITED").await;
    // Throttled before the token is read: even the right one waits.
    refused(
        projects_with(&guesser, &server, OPERATOR_TOKEN).await,
        429,
        "RATE_LIMITED",
    )
    .await;
    // The admin on another address is not locked out.
    ok_json(projects_with(&client_from("127.0.0.2"), &server, OPERATOR_TOKEN).await).await;
}

async fn metrics(http: &reqwest::Client, url: String, token: Option<&str>) -> reqwest::Response {
    let mut request = http.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn metrics_need_a_token_or_their_own_address() {
    let http = client();
    const TOKEN: &str = "metrics-token-0123456789";
    let guarded = start(|c| c.metrics_token = Some(Secret(TOKEN.into()))).await;
    refused(metrics(&http, guarded.url("/metrics"), None).await, 401, "UNAUTHORIZED").await;
    refused(
        metrics(&http, guarded.url("/metrics"), Some("wrong-token-0123456")).await,
        401,
        "UNAUTHORIZED",
    )
    .await;
    let text = metrics(&http, guarded.url("/metrics"), Some(TOKEN))
        .await
        .text()
        .await
        .unwrap();
    assert!(text.contains("latch_http_requests_total"), "{text}");

    // Its own address: the API's port no longer serves it.
    let separate = start(|c| c.metrics_address = Some("127.0.0.1:0".parse().unwrap())).await;
    refused(metrics(&http, separate.url("/metrics"), None).await, 404, "NOT_FOUND").await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = latch_server::metrics_app::<()>(&separate.state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    ok_json(chains(&http, &separate, PROJECT, None).await).await;
    let text = metrics(&http, format!("http://{address}/metrics"), None)
        .await
        .text()
        .await
        .unwrap();
    assert!(text.contains("route=\"/v1/supported-chains\""), "{text}");

    // Listening beyond loopback with neither: not served.
    let public = start(|c| c.host = IpAddr::from([0, 0, 0, 0])).await;
    refused(metrics(&http, public.url("/metrics"), None).await, 404, "NOT_FOUND").await;
    ok_json(chains(&http, &public, PROJECT, None).await).await;
}

/// A throw-away `redis-server` on a free loopback port, stopped on drop.
struct Redis {
    child: Child,
    url: String,
}

impl Redis {
    async fn start() -> Redis {
        let port = common::free_port();
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server (scripts/setup installs it)");
        // Owned at once, so a failed start below still stops it (on drop).
        let redis = Redis {
            child,
            url: format!("redis://127.0.0.1:{port}"),
        };
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return redis;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("redis-server did not start on {port}");
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn two_nodes_sharing_redis_give_a_budget_once() {
    let redis = Redis::start().await;
    let node = |url: String| {
        start(move |c| {
            c.redis_url = Some(Secret(url));
            c.project_rate_limit = limit(10.0);
            c.ip_rate_limit = limit(6.0);
        })
    };
    let (a, b) = (node(redis.url.clone()).await, node(redis.url.clone()).await);
    // One client alternating between the nodes: its IP budget (6) once, not twice.
    let http = client_from("127.0.0.1");
    let mut passed = 0;
    for i in 0..20 {
        let server = if i % 2 == 0 { &a } else { &b };
        passed += usize::from(status(&http, server, PROJECT, None).await == 200);
    }
    assert_eq!(passed, 6, "the IP budget is shared by the nodes");
    refused(chains(&http, &b, PROJECT, None).await, 429, "RATE_LIMITED").await;
    // The project's budget (10) is shared too: 4 are left, whichever node other clients use.
    let mut others = 0;
    for n in 2..=5 {
        let other = client_from(&format!("127.0.0.{n}"));
        for server in [&a, &b] {
            others += usize::from(status(&other, server, PROJECT, None).await == 200);
        }
    }
    assert_eq!(others, 4, "the project budget is shared by the nodes");

    // Redis gone: each node limits on its own (fail-open to local buckets), it does not stop serving.
    drop(redis);
    let fresh = client_from("127.0.0.9");
    let started = std::time::Instant::now();
    ok_json(chains(&fresh, &a, PROJECT, None).await).await;
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}
