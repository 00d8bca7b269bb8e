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
