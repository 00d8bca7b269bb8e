//! The RPC gateway against a real anvil, through `app(state).oneshot` (no socket on our side).

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use latch_server::app;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{dead_upstream, state, state_with, Anvil};
use latch_server::ratelimit::Limit;

const ANVIL_1: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async fn send(router: axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or_else(|_| json!(String::from_utf8_lossy(&bytes))),
    )
}

fn rpc(query: &str, body: impl Into<Body>) -> Request<Body> {
    // text/plain, as the browser client sends it to skip a CORS preflight.
    Request::post(format!("/v1/?{query}"))
        .header("content-type", "text/plain")
        .body(body.into())
        .unwrap()
}

fn get_balance(id: u64) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"eth_getBalance","params":[ANVIL_1,"latest"]})
}

fn reason(body: &Value) -> (&str, &str) {
    (
        body["code"].as_str().unwrap(),
        body["reasons"][0]["description"].as_str().unwrap(),
    )
}

#[tokio::test]
async fn forwards_single_and_batch_requests() {
    let anvil = Anvil::start().await;
    let (state, _dir) = state(vec![anvil.url.clone()]).await;
    let router = app(state);

    let (status, body) = send(
        router.clone(),
        rpc("chainId=eip155:31337&projectId=test", get_balance(1).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body,
        json!({"jsonrpc":"2.0","id":1,"result":"0x21e19e0c9bab2400000"}),
        "anvil funds 10000 ETH"
    );

    let batch = json!([get_balance(1), {"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}]);
    let (status, body) = send(
        router.clone(),
        rpc("chainId=eip155:31337&projectId=test", batch.to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let replies = body.as_array().unwrap();
    assert_eq!(replies.len(), 2);
    assert!(replies
        .iter()
        .any(|r| r["id"] == 2 && r["result"].as_str().unwrap().starts_with("0x")));

    // The header form older SDKs use.
    let request = Request::post("/v1?chainId=eip155:31337")
        .header("x-project-id", "test")
        .body(Body::from(
            json!({"jsonrpc":"2.0","id":"c","method":"eth_chainId"}).to_string(),
        ))
        .unwrap();
    assert_eq!(
        send(router.clone(), request).await.1,
        json!({"jsonrpc":"2.0","id":"c","result":"0x7a69"})
    );

    // Notifications only: the chain answers nothing, so the gateway answers 204.
    let notifications = json!([{"jsonrpc":"2.0","method":"eth_blockNumber"}]).to_string();
    assert_eq!(
        send(router, rpc("chainId=eip155:31337&projectId=test", notifications)).await,
        (StatusCode::NO_CONTENT, json!(""))
    );
}

#[tokio::test]
async fn falls_back_past_a_dead_upstream_and_reports_all_down() {
    let anvil = Anvil::start().await;
    let (with_fallback, _dir) = state(vec![dead_upstream(), anvil.url.clone()]).await;
    let (status, body) = send(
        app(with_fallback),
        rpc("chainId=eip155:31337&projectId=test", get_balance(5).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["result"], "0x21e19e0c9bab2400000");

    let (all_down, _dir2) = state(vec![dead_upstream(), dead_upstream()]).await;
    let (status, body) = send(
        app(all_down),
        rpc("chainId=eip155:31337&projectId=test", get_balance(5).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        reason(&body),
        ("UPSTREAM_UNAVAILABLE", "all upstreams failed for eip155:31337")
    );
    assert_eq!(body["status"], "FAILED");
}

#[tokio::test]
async fn refuses_bad_input_with_clear_errors() {
    let (state, _dir) = state(vec![dead_upstream()]).await;
    let router = app(state);
    let ok = get_balance(1).to_string();
    let cases: Vec<(String, String, StatusCode, &str, &str)> = vec![
        (
            "projectId=test".into(),
            ok.clone(),
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "chainId is required",
        ),
        (
            "chainId=eip155&projectId=test".into(),
            ok.clone(),
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "Invalid CAIP-2 network id",
        ),
        (
            "chainId=eip155:1&projectId=test".into(),
            ok.clone(),
            StatusCode::BAD_REQUEST,
            "UNSUPPORTED_CHAIN",
            "chain eip155:1 is not supported",
        ),
        (
            "chainId=eip155:31337&projectId=test".into(),
            "{oops".into(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "INVALID_JSON",
            "body is not JSON",
        ),
        (
            "chainId=eip155:31337&projectId=test".into(),
            "[]".into(),
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "a batch holds 1 to 1000 requests, not 0",
        ),
        (
            "chainId=eip155:31337&projectId=test".into(),
            json!(vec![get_balance(1); 1001]).to_string(),
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "not 1001",
        ),
        (
            "chainId=eip155:31337&projectId=test".into(),
            json!([get_balance(1), {"id":2}]).to_string(),
            StatusCode::BAD_REQUEST,
            "BAD_REQUEST",
            "request 1: \"jsonrpc\" must be \"2.0\"",
        ),
        (
            "chainId=eip155:31337".into(),
            ok.clone(),
            StatusCode::UNAUTHORIZED,
            "INVALID_PROJECT_ID",
            "Invalid Project ID",
        ),
        (
            "chainId=eip155:31337&projectId=nope".into(),
            ok.clone(),
            StatusCode::UNAUTHORIZED,
            "INVALID_PROJECT_ID",
            "Invalid Project ID",
        ),
    ];
    for (query, body, want_status, want_code, want_text) in cases {
        let (status, reply) = send(router.clone(), rpc(&query, body)).await;
        assert_eq!(status, want_status, "{query}: {reply}");
        let (code, text) = reason(&reply);
        assert_eq!(code, want_code, "{query}: {reply}");
        assert!(text.contains(want_text), "{query}: {text:?} lacks {want_text:?}");
    }
}

#[tokio::test]
async fn enforces_the_origin_allowlist() {
    let anvil = Anvil::start().await;
    let (state, _dir) = state(vec![anvil.url.clone()]).await;
    let router = app(state);
    let from = |origin: &str| {
        Request::get("/v1/supported-chains?projectId=test")
            .header("origin", origin)
            .body(Body::empty())
            .unwrap()
    };
    let (status, body) = send(router.clone(), from("http://127.0.0.1:5173")).await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!({"http":["eip155:31337"],"ws":[]}))
    );
    let (status, body) = send(router.clone(), from("https://evil.example")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(reason(&body).1.starts_with("Invalid App Configuration"));
    let (status, body) = send(router, Request::get("/nope").body(Body::empty()).unwrap()).await;
    assert_eq!((status, reason(&body).0), (StatusCode::NOT_FOUND, "NOT_FOUND"));
}

#[tokio::test]
async fn rate_limits_per_project_and_per_ip_with_retry_after() {
    let tight = Limit {
        per_second: 1.0,
        burst: 2.0,
    };
    let chains = || {
        Request::get("/v1/supported-chains?projectId=test")
            .body(Body::empty())
            .unwrap()
    };

    let (by_project, _dir) = state_with(vec![dead_upstream()], |c| c.project_rate_limit = tight).await;
    let router = app(by_project);
    assert_eq!(send(router.clone(), chains()).await.0, StatusCode::OK);
    assert_eq!(send(router.clone(), chains()).await.0, StatusCode::OK);
    let response = router.oneshot(chains()).await.unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(response.headers()["retry-after"], "1");

    let (by_ip, _dir) = state_with(vec![dead_upstream()], |c| c.ip_rate_limit = tight).await;
    let router = app(by_ip);
    let from = |ip: [u8; 4]| {
        let mut request = chains();
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((ip, 40000))));
        request
    };
    for _ in 0..2 {
        assert_eq!(send(router.clone(), from([10, 0, 0, 1])).await.0, StatusCode::OK);
    }
    let (status, body) = send(router.clone(), from([10, 0, 0, 1])).await;
    assert_eq!(
        (status, reason(&body).0),
        (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED")
    );
    assert_eq!(
        send(router, from([10, 0, 0, 2])).await.0,
        StatusCode::OK,
        "another client has its own budget"
    );
}

#[tokio::test]
async fn a_fallback_upstream_takes_over_when_the_primary_dies() {
    let primary = Anvil::start().await;
    let secondary = Anvil::start().await;
    let (state, _dir) = state(vec![primary.url.clone(), secondary.url.clone()]).await;
    let router = app(state);
    let call = || rpc("chainId=eip155:31337&projectId=test", get_balance(9).to_string());
    assert_eq!(send(router.clone(), call()).await.1["result"], "0x21e19e0c9bab2400000");
    drop(primary); // kills the process
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let (status, body) = send(router.clone(), call()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["result"], "0x21e19e0c9bab2400000");
    drop(secondary);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(send(router, call()).await.0, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn counts_requests_for_prometheus_and_tags_each_with_an_id() {
    let (state, _dir) = state(vec![dead_upstream()]).await;
    let router = app(state);
    let response = router
        .clone()
        .oneshot(
            Request::get("/v1/supported-chains?projectId=test")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let id = response.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(!id.is_empty());
    let again = router
        .clone()
        .oneshot(Request::get("/v1/supported-chains").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_ne!(again.headers()["x-request-id"].to_str().unwrap(), id, "ids are unique");

    let metrics = router
        .oneshot(Request::get("/metrics").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(metrics.status(), StatusCode::OK);
    let text = String::from_utf8(metrics.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    assert!(
        text.contains("latch_http_requests_total{route=\"/v1/supported-chains\",status=\"200\"} 1\n"),
        "{text}"
    );
    assert!(
        text.contains("latch_http_requests_total{route=\"/v1/supported-chains\",status=\"401\"} 1\n"),
        "{text}"
    );
    assert!(
        text.contains("latch_http_request_duration_seconds_count{route=\"/v1/supported-chains\"} 2\n"),
        "{text}"
    );
}

#[tokio::test]
async fn ranking_moves_a_dead_primary_behind_a_live_upstream() {
    let anvil = Anvil::start().await;
    let dead = dead_upstream();
    let (state, _dir) = state_with(vec![dead.clone(), anvil.url.clone()], |c| c.chains[0].rank = true).await;
    assert_eq!(
        state.gateway.upstream_order("eip155:31337").unwrap(),
        [dead.clone(), anvil.url.clone()]
    );
    state.gateway.rank_once().await;
    assert_eq!(
        state.gateway.upstream_order("eip155:31337").unwrap(),
        [anvil.url.clone(), dead]
    );
    let (status, body) = send(
        app(state),
        rpc("chainId=eip155:31337&projectId=test", get_balance(3).to_string()),
    )
    .await;
    assert_eq!(
        (status, &body["result"]),
        (StatusCode::OK, &json!("0x21e19e0c9bab2400000"))
    );
}

#[tokio::test]
async fn cors_answers_allowed_origins_and_makes_refusals_readable() {
    let (state, _dir) = state(vec![dead_upstream()]).await;
    let router = app(state);
    let preflight = |origin: &str, query: &str| {
        Request::options(format!("/v1/?chainId=eip155:31337&{query}"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .body(Body::empty())
            .unwrap()
    };
    let allowed = router
        .clone()
        .oneshot(preflight("http://127.0.0.1:5173", "projectId=test"))
        .await
        .unwrap();
    assert_eq!(allowed.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "http://127.0.0.1:5173"
    );
    let allowed_headers = allowed.headers()["access-control-allow-headers"].to_str().unwrap();
    // `authorization`: the modal's sign-in calls carry the session as a bearer token.
    assert!(allowed_headers.contains("content-type") && allowed_headers.contains("authorization"));
    // DELETE: signing out of a sign-in session.
    assert!(allowed.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("DELETE"));
    for (origin, query) in [
        ("https://evil.example", "projectId=test"),
        ("http://127.0.0.1:5173", "projectId=nope"),
    ] {
        let refused = router.clone().oneshot(preflight(origin, query)).await.unwrap();
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
        assert!(
            !refused.headers().contains_key("access-control-allow-origin"),
            "{origin} {query}"
        );
    }

    let get = |origin: &str| {
        Request::get("/v1/supported-chains?projectId=test")
            .header("origin", origin)
            .body(Body::empty())
            .unwrap()
    };
    let ok = router.clone().oneshot(get("http://localhost:3000")).await.unwrap();
    assert_eq!(
        ok.status(),
        StatusCode::FORBIDDEN,
        "localhost is not on project test's list"
    );
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "http://localhost:3000",
        "the refusal is readable"
    );
    let ok = router.clone().oneshot(get("http://127.0.0.1:3000")).await.unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    assert_eq!(ok.headers()["access-control-allow-origin"], "http://127.0.0.1:3000");
    let no_origin = router
        .oneshot(
            Request::get("/v1/supported-chains?projectId=test")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert!(!no_origin.unwrap().headers().contains_key("access-control-allow-origin"));
}

/// A local HTTP server for `router`; its base URL.
async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{address}")
}

/// An upstream's redirect is not followed (it counts as a failed upstream, so
/// the call goes to the next one), and user info in an upstream URL travels as
/// Basic authorization, not in the request line.
#[tokio::test]
async fn upstream_redirects_are_not_followed_and_user_info_authorizes() {
    use axum::response::IntoResponse;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    let answer = |result: &'static str| {
        move |body: axum::body::Bytes| async move {
            let call: Value = serde_json::from_slice(&body).unwrap();
            axum::Json(json!({"jsonrpc": "2.0", "id": call["id"], "result": result}))
        }
    };
    let redirected_hits = Arc::new(AtomicUsize::new(0));
    let hits = Arc::clone(&redirected_hits);
    let redirected = serve(axum::Router::new().fallback(move |body: axum::body::Bytes| {
        hits.fetch_add(1, Ordering::SeqCst);
        answer("0xredirected")(body)
    }))
    .await;
    let target = format!("{redirected}/elsewhere");
    let redirecting =
        serve(axum::Router::new().fallback(move || std::future::ready(axum::response::Redirect::temporary(&target))))
            .await;
    let guarded = serve(axum::Router::new().fallback(
        move |headers: axum::http::HeaderMap, uri: axum::http::Uri, body: axum::body::Bytes| async move {
            // base64("us@er:p:ss"): the URL's user info, percent-decoded.
            let authorized =
                headers.get("authorization").and_then(|v| v.to_str().ok()) == Some("Basic dXNAZXI6cDpzcw==");
            assert_eq!(uri.path(), "/rpc", "the request line carries the path only");
            if !authorized {
                return axum::http::StatusCode::UNAUTHORIZED.into_response();
            }
            answer("0xauthorized")(body).await.into_response()
        },
    ))
    .await;

    let call = get_balance(5).to_string();
    let (only_redirect, _dir) = state(vec![redirecting.clone()]).await;
    let (status, body) = send(
        app(only_redirect),
        rpc("chainId=eip155:31337&projectId=test", call.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(
        redirected_hits.load(Ordering::SeqCst),
        0,
        "the redirect was not followed"
    );

    let with_user = guarded.replace("http://", "http://us%40er:p%3Ass@") + "/rpc";
    let (fallback, _dir2) = state(vec![redirecting, guarded.clone() + "/rpc", with_user]).await;
    let (status, body) = send(app(fallback), rpc("chainId=eip155:31337&projectId=test", call)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 5, "result": "0xauthorized"}));
    assert_eq!(redirected_hits.load(Ordering::SeqCst), 0);
}

/// An upstream whose answer runs past the reply bound (32 MiB) is a failing upstream: the call
/// moves to the next one instead of reading it all into memory.
#[tokio::test]
async fn an_oversized_upstream_reply_falls_through_to_the_next_upstream() {
    let huge = serve(axum::Router::new().fallback(|| async {
        // Streamed, never held whole: 33 chunks of 1 MiB of a JSON string's inside.
        let chunk = axum::body::Bytes::from(vec![b'a'; 1024 * 1024]);
        let stream = futures_util::stream::iter(
            std::iter::once(axum::body::Bytes::from_static(
                b"{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":\"",
            ))
            .chain(std::iter::repeat_n(chunk, 33))
            .chain(std::iter::once(axum::body::Bytes::from_static(b"\"}")))
            .map(Ok::<_, std::convert::Infallible>),
        );
        axum::body::Body::from_stream(stream)
    }))
    .await;
    let sane = serve(axum::Router::new().fallback(|body: axum::body::Bytes| async move {
        let call: Value = serde_json::from_slice(&body).unwrap();
        axum::Json(json!({"jsonrpc": "2.0", "id": call["id"], "result": "0x1"}))
    }))
    .await;
    let call = get_balance(6).to_string();
    let (only_huge, _dir) = state(vec![huge.clone()]).await;
    let (status, body) = send(app(only_huge), rpc("chainId=eip155:31337&projectId=test", call.clone())).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (both, _dir2) = state(vec![huge, sane]).await;
    let (status, body) = send(app(both), rpc("chainId=eip155:31337&projectId=test", call)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({"jsonrpc": "2.0", "id": 6, "result": "0x1"}));
}
