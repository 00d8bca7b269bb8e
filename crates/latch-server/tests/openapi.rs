//! `/openapi.json` describes every JSON endpoint, with the shared error body.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use latch_server::app;
use serde_json::Value;
use tower::ServiceExt;

#[tokio::test]
async fn documents_every_json_endpoint() {
    let (state, _dir) = common::state(vec![common::dead_upstream()]).await;
    let response = app(state)
        .oneshot(Request::get("/openapi.json").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let spec: Value = serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3."));
    let paths = spec["paths"].as_object().unwrap();
    for (path, method) in [
        ("/v1/", "post"),
        ("/v1/supported-chains", "get"),
        ("/e", "post"),
        ("/batch", "post"),
        ("/getAnalyticsConfig", "get"),
        ("/v1/analytics/summary", "get"),
        ("/v1/analytics/projects", "get"),
        ("/v1/account/{address}/history", "get"),
        ("/v1/account/{address}/nfts", "get"),
        ("/v1/onramp/options", "get"),
        ("/v1/onramp/quote", "post"),
        ("/v1/generators/onrampurl", "post"),
        ("/v1/embedded/email/start", "post"),
        ("/v1/embedded/email/verify", "post"),
        ("/v1/embedded/device/approve", "get"),
        ("/v1/embedded/dev/outbox", "get"),
        ("/v1/embedded/user", "get"),
        ("/v1/embedded/signout", "post"),
        ("/v1/embedded/wallet", "get"),
        ("/v1/embedded/wallet/envelope", "post"),
        ("/v1/embedded/wallet", "put"),
        ("/v1/embedded/email/update", "post"),
        ("/v1/embedded/email/update/verify", "post"),
        ("/v1/embedded/social/{provider}/start", "get"),
        ("/v1/embedded/social/callback", "get"),
        ("/v1/embedded/social/finish", "post"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} is documented"
        );
    }
    let error = &spec["components"]["schemas"]["ErrorBody"];
    assert_eq!(error["required"], serde_json::json!(["status", "code", "reasons"]));
    assert_eq!(spec["components"]["securitySchemes"]["admin_token"]["scheme"], "bearer");
    let schemes = &spec["components"]["securitySchemes"];
    assert_eq!(
        (
            schemes["project_id"]["in"].as_str(),
            schemes["project_id"]["name"].as_str()
        ),
        (Some("query"), Some("projectId"))
    );
    assert_eq!(schemes["project_header"]["name"], "x-project-id");
    assert_eq!(
        paths["/getWallets"]["get"]["security"],
        serde_json::json!([{"project_id": []}, {"project_header": []}])
    );
    let chain_id = paths["/v1/"]["post"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "chainId")
        .unwrap();
    assert_eq!(
        chain_id["schema"]["enum"],
        serde_json::json!(["eip155:31337"]),
        "the served chains"
    );
    assert!(paths.contains_key("/getWalletImage/{id}") && paths.contains_key("/public/getTokenImage/{id}"));
}

/// Served on purpose without an entry in `/openapi.json` (method, path, why). The test below
/// fails when one of these stops being served, so the list cannot go stale either. Static
/// files (`static_dir`) are no route: they are the fallback, outside this comparison.
const UNDOCUMENTED: &[(&str, &str, &str)] = &[
    (
        "POST",
        "/v1",
        "the JSON-RPC endpoint documented as /v1/, without the slash",
    ),
    (
        "GET",
        "/v1",
        "eth_subscribe over WebSocket: an upgrade, not a JSON exchange",
    ),
    ("GET", "/v1/", "eth_subscribe over WebSocket, as GET /v1"),
    ("GET", "/relay", "the WalletConnect relay: a WebSocket upgrade"),
    ("GET", "/openapi.json", "this document itself"),
    (
        "GET",
        "/metrics",
        "Prometheus text for the operator, not the modal's API",
    ),
    ("GET", "/dashboard", "the operator's HTML page"),
    ("GET", "/onramp/sandbox", "the sandbox provider's HTML checkout page"),
    (
        "POST",
        "/onramp/sandbox/confirm",
        "the sandbox checkout page's HTML form",
    ),
];

/// The methods `app` serves at `path` (HEAD aside: axum adds it to every GET), read from the
/// `Allow` header of the 405 that a method no route has gets, so no handler runs.
async fn served_methods(app: &axum::Router, path: &str) -> Vec<String> {
    // Placeholders take any one segment; `{*rest}` any tail.
    let concrete: String = path
        .split('/')
        .map(|segment| if segment.starts_with('{') { "x" } else { segment })
        .collect::<Vec<_>>()
        .join("/");
    let probe = axum::http::Method::from_bytes(b"PROBE").unwrap();
    let response = app
        .clone()
        .oneshot(
            Request::builder()
                .method(probe)
                .uri(&concrete)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{path} is routed");
    let allow = response.headers()["allow"].to_str().unwrap().to_owned();
    allow
        .split(',')
        .map(|method| method.trim().to_owned())
        .filter(|method| method != "HEAD")
        .collect()
}

#[tokio::test]
async fn every_route_is_documented_and_every_documented_path_served() {
    // `dev` serves the dev outbox, loopback `/metrics`: every route there is.
    let (state, _dir) = common::state_with(vec![common::dead_upstream()], |config| config.dev = true).await;
    let paths = latch_server::served_paths(&state);
    let app = app(state);
    let mut served = std::collections::BTreeSet::new();
    for path in paths {
        for method in served_methods(&app, path).await {
            served.insert((method, path.to_owned()));
        }
    }
    let spec = serde_json::to_value(<latch_server::openapi::ApiDoc as utoipa::OpenApi>::openapi()).unwrap();
    let mut documented = std::collections::BTreeSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                documented.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    for (method, path, why) in UNDOCUMENTED {
        let route = (method.to_string(), path.to_string());
        assert!(
            served.remove(&route),
            "{method} {path} is listed as undocumented ({why}) but not served"
        );
        assert!(
            !documented.contains(&route),
            "{method} {path} is documented: drop it from UNDOCUMENTED"
        );
    }
    let missing: Vec<_> = served.difference(&documented).collect();
    let unserved: Vec<_> = documented.difference(&served).collect();
    assert!(missing.is_empty(), "served but not in /openapi.json: {missing:?}");
    assert!(unserved.is_empty(), "in /openapi.json but not served: {unserved:?}");
}
