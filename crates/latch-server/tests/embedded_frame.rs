//! The wallet frame's own origin (`embedded.vault_listen`): its pages and their
//! headers (CSP with the project's `frame-ancestors`, no caching, the opener
//! policies), its immutable assets, the embedded routes on the same origin, and
//! `GET /v1/embedded/frame-config`, the frame's parent check.

mod common;

use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;
use latch_server::embedded::frame::vault_app;
use latch_server::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

const VAULT: &str = "http://127.0.0.1:18789";

async fn get(router: &axum::Router, uri: &str, origin: Option<&str>) -> (StatusCode, HeaderMap, String) {
    let mut request = Request::get(uri);
    if let Some(origin) = origin {
        request = request.header(header::ORIGIN, origin);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        parts.status,
        parts.headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

async fn vault() -> (AppState, axum::Router, tempfile::TempDir, tempfile::TempDir) {
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("index.html"), "<!doctype html>frame").unwrap();
    std::fs::write(site.path().join("social-callback.html"), "<!doctype html>callback").unwrap();
    std::fs::create_dir(site.path().join("assets")).unwrap();
    std::fs::write(site.path().join("assets/frame-abc123.js"), "console.log('frame')").unwrap();
    let dir = site.path().to_owned();
    let (state, data) = common::state_with(vec![common::dead_upstream()], |config| {
        config.dev = true;
        config.embedded.vault_origin = Some(VAULT.into());
        config.embedded.vault_dir = Some(dir);
    })
    .await;
    let router = vault_app(state.clone(), site.path().to_owned());
    (state, router, site, data)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map_or("", |v| v.to_str().unwrap())
}

#[tokio::test]
async fn the_frame_page_may_be_embedded_only_by_the_projects_origins() {
    let (_state, router, _site, _data) = vault().await;
    let (status, headers, body) = get(&router, "/?projectId=test&chainId=eip155:1&version=1", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "<!doctype html>frame"));
    let csp = header(&headers, "content-security-policy");
    assert!(csp.contains("script-src 'self' 'wasm-unsafe-eval'"), "{csp}");
    assert!(csp.contains("connect-src 'self'"), "{csp}");
    assert!(csp.ends_with("frame-ancestors http://127.0.0.1:*"), "{csp}");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    assert_eq!(
        header(&headers, "cross-origin-opener-policy"),
        "same-origin-allow-popups"
    );
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
    assert!(header(&headers, "content-type").starts_with("text/html"));

    // No project, an unknown one, or a malformed id: nobody may embed it.
    for uri in ["/", "/?projectId=nobody", "/index.html?projectId=%20bad%3B"] {
        let (status, headers, _) = get(&router, uri, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(
            header(&headers, "content-security-policy").ends_with("frame-ancestors 'none'"),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn the_social_callback_keeps_its_opener_and_assets_are_immutable() {
    let (_state, router, _site, _data) = vault().await;
    let (status, headers, body) = get(&router, "/social/callback", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "<!doctype html>callback"));
    assert_eq!(header(&headers, "cross-origin-opener-policy"), "unsafe-none");
    assert!(header(&headers, "content-security-policy").ends_with("frame-ancestors 'none'"));
    assert_eq!(header(&headers, "cache-control"), "no-store");

    let (status, headers, body) = get(&router, "/assets/frame-abc123.js", None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "console.log('frame')"));
    assert!(header(&headers, "cache-control").contains("immutable"));
    let (status, headers, _) = get(&router, "/assets/missing.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(!header(&headers, "cache-control").contains("immutable"));
    // Nothing else is served: no fallback to a page, no other API route.
    for uri in [
        "/elsewhere",
        "/v1/supported-chains?projectId=test",
        "/getWallets?projectId=test",
    ] {
        assert_eq!(get(&router, uri, None).await.0, StatusCode::NOT_FOUND, "{uri}");
    }
}

#[tokio::test]
async fn frame_config_applies_the_projects_origin_rule() {
    let (state, router, _site, _data) = vault().await;
    // The frame asks from its own origin (same-origin GETs carry no Origin, POSTs do).
    for origin in [None, Some(VAULT)] {
        let (status, _, body) = get(
            &router,
            "/v1/embedded/frame-config?projectId=test&origin=http%3A%2F%2F127.0.0.1%3A5173",
            origin,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body,
            json!({"projectId": "test", "name": "test", "allowed": true, "socials": []})
        );
    }
    for parent in ["https://evil.example", "", VAULT, "null"] {
        let uri = format!("/v1/embedded/frame-config?projectId=test&origin={}", urlencode(parent));
        let (status, _, body) = get(&router, &uri, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{parent}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["code"], "ORIGIN_NOT_ALLOWED", "{parent}");
    }
    let (status, _, _) = get(&router, "/v1/embedded/frame-config?projectId=nobody&origin=x", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The main API answers it too, for the project's own pages only.
    let api = app(state);
    let uri = "/v1/embedded/frame-config?projectId=test&origin=http%3A%2F%2F127.0.0.1%3A5173";
    assert_eq!(get(&api, uri, Some("http://127.0.0.1:5173")).await.0, StatusCode::OK);
    assert_eq!(
        get(&api, uri, Some("https://evil.example")).await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_frame_logs_in_on_its_own_origin() {
    let (_state, router, _site, _data) = vault().await;
    let response = router
        .clone()
        .oneshot(
            Request::post("/v1/embedded/email/start?projectId=test")
                .header(header::ORIGIN, VAULT)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(
                    json!({"email": "frame@example.com", "deviceId": "device-aaaaaaaaaaaaaaaa"}).to_string(),
                ))
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(response.headers(), "cache-control"), "no-store");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap(),
        json!({"action": "VERIFY_OTP"})
    );
    // Another page's origin is refused on the frame's origin as on the API's.
    let (status, _, _) = get(
        &router,
        "/v1/embedded/user?projectId=test",
        Some("https://evil.example"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `POST /v1/embedded/rpc`: the gateway for the frame's origin (which is not the project's), with
/// the gateway's own method policy; any other origin is refused, and the public gateway does not
/// take the frame's origin.
#[tokio::test]
async fn the_frame_reads_the_chain_through_its_own_gateway_route() {
    let anvil = common::Anvil::start().await;
    let (state, _data) = common::state_with(vec![anvil.url.clone()], |config| {
        config.dev = true;
        config.embedded.vault_origin = Some(VAULT.into());
    })
    .await;
    state
        .store
        .put_project(&latch_server::store::Project {
            id: "shop".into(),
            allowed_origins: vec!["https://shop.example".into()],
            created_at: 0,
            analytics_enabled: true,
        })
        .await
        .unwrap();
    let router = app(state);
    let post = |path: &str, origin: &str, method: &str| {
        Request::post(format!("{path}?projectId=shop&chainId=eip155:31337"))
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(
                json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": []}).to_string(),
            ))
            .unwrap()
    };
    let call = |request: Request<Body>| {
        let router = router.clone();
        async move {
            let response = router.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null))
        }
    };
    let (status, body) = call(post("/v1/embedded/rpc", VAULT, "eth_chainId")).await;
    assert_eq!((status, &body["result"]), (StatusCode::OK, &json!("0x7a69")), "{body}");
    let (status, body) = call(post("/v1/embedded/rpc", VAULT, "eth_sendTransaction")).await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::FORBIDDEN, &json!("RPC_METHOD_NOT_ALLOWED")),
        "{body}"
    );
    let (status, body) = call(post("/v1/embedded/rpc", "https://evil.example", "eth_chainId")).await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::FORBIDDEN, &json!("ORIGIN_NOT_ALLOWED")),
        "{body}"
    );
    let (status, body) = call(post("/v1/", VAULT, "eth_chainId")).await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::FORBIDDEN, &json!("ORIGIN_NOT_ALLOWED")),
        "{body}"
    );
}
