//! Analytics ingestion through `app(state).oneshot`, stored in a real SQLite file.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use latch_server::app;
use latch_server::store::Project;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{dead_upstream, state};

async fn send(router: axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn post(path: &str, body: Value) -> Request<Body> {
    // sendBeacon sends text/plain; the body is JSON all the same.
    Request::post(path)
        .header("content-type", "text/plain")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn event(id: &str, name: &str) -> Value {
    json!({
        "eventId": id, "url": "http://127.0.0.1:8787/", "domain": "127.0.0.1", "timestamp": 1_763_770_000_000_i64,
        "props": {"type": "track", "event": name, "address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                  "properties": {"name": "Latch Test Wallet", "connectorType": "ANNOUNCED"}}
    })
}

#[tokio::test]
async fn stores_events_once_and_refuses_bad_ones_whole() {
    let (state, _dir) = state(vec![dead_upstream()]).await;
    let store = state.store.clone();
    let router = app(state);

    let (status, body) = send(router.clone(), post("/e?projectId=test", event("a", "MODAL_OPEN"))).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::OK,
            json!({"accepted": 1, "stored": 1, "analyticsEnabled": true})
        )
    );
    let (_, body) = send(router.clone(), post("/e?projectId=test", event("a", "MODAL_OPEN"))).await;
    assert_eq!(body["stored"], 0, "a resent event is stored once");

    let batch = json!([event("b", "SELECT_WALLET"), event("c", "CONNECT_SUCCESS")]);
    let (status, body) = send(router.clone(), post("/batch?projectId=test", batch)).await;
    assert_eq!((status, &body["stored"]), (StatusCode::OK, &json!(2)));

    let half_bad = json!([event("d", "MODAL_CLOSE"), event("e", "MODAL_CREATED")]);
    let (status, body) = send(router.clone(), post("/batch?projectId=test", half_bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["reasons"][0]["description"],
        "event 1: MODAL_CREATED is never recorded"
    );

    let (status, body) = send(router.clone(), post("/e?projectId=test", event("f", "NOT_AN_EVENT"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .starts_with("unknown event \"NOT_AN_EVENT\""));
    let (status, _) = send(router.clone(), post("/e?projectId=test", json!({"eventId": "g"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = send(router.clone(), post("/batch?projectId=test", json!([]))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = send(router.clone(), post("/e?projectId=nope", event("h", "MODAL_OPEN"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // A timestamp written as a double is read when it is whole, refused otherwise.
    let mut double = event("i", "MODAL_OPEN");
    double["timestamp"] = json!(1.76377e12);
    let (status, _) = send(router.clone(), post("/e?projectId=test", double)).await;
    assert_eq!(status, StatusCode::OK);
    let mut fraction = event("j", "MODAL_OPEN");
    fraction["timestamp"] = json!(1.5);
    let (status, body) = send(router, post("/e?projectId=test", fraction)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .starts_with("timestamp must be a whole number of milliseconds, not 1.5"));

    let stored = store.events("test", 0, 100).await.unwrap();
    let ids: Vec<&str> = stored.iter().map(|e| e.event_id.as_str()).collect();
    assert_eq!(ids, ["a", "b", "c", "i"], "nothing of a refused batch is stored");
    assert_eq!(stored[3].occurred_at, 1_763_770_000_000);
    assert_eq!(stored[2].event, "CONNECT_SUCCESS");
    assert_eq!(
        stored[2].properties.as_deref(),
        Some(r#"{"connectorType":"ANNOUNCED","name":"Latch Test Wallet"}"#)
    );
}

#[tokio::test]
async fn a_project_with_analytics_off_stores_nothing_and_says_so() {
    let (state, _dir) = state(vec![dead_upstream()]).await;
    let quiet = Project {
        id: "quiet".into(),
        allowed_origins: vec![],
        created_at: 0,
        analytics_enabled: false,
    };
    state.store.put_project(&quiet).await.unwrap();
    let store = state.store.clone();
    let router = app(state);
    let config = |project: &str| {
        Request::get(format!("/getAnalyticsConfig?projectId={project}"))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(
        send(router.clone(), config("test")).await.1,
        json!({"isAnalyticsEnabled": true})
    );
    assert_eq!(
        send(router.clone(), config("quiet")).await.1,
        json!({"isAnalyticsEnabled": false})
    );
    let (status, body) = send(router, post("/e?projectId=quiet", event("a", "MODAL_OPEN"))).await;
    assert_eq!(
        (status, body),
        (
            StatusCode::OK,
            json!({"accepted": 0, "stored": 0, "analyticsEnabled": false})
        )
    );
    assert!(store.events("quiet", 0, 10).await.unwrap().is_empty());
}

#[tokio::test]
async fn the_dashboard_api_needs_the_admin_token_and_summarises_events() {
    let (closed, _dir) = state(vec![dead_upstream()]).await;
    let summary = |token: &str| {
        Request::get("/v1/analytics/summary?project=test&days=7")
            .header("authorization", format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap()
    };
    assert_eq!(
        send(app(closed), summary("anything-long-enough")).await.0,
        StatusCode::NOT_FOUND,
        "no token configured"
    );

    let token = "a-long-admin-token";
    let (state, _dir) = common::state_with(vec![dead_upstream()], |c| {
        c.admin_token = Some(latch_server::config::Secret(token.into()))
    })
    .await;
    let router = app(state);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let at = |mut e: Value| {
        e["timestamp"] = json!(now);
        e
    };
    let events = json!([
        at(event("o1", "MODAL_OPEN")),
        at(event("o2", "MODAL_OPEN")),
        at(event("c1", "CONNECT_SUCCESS"))
    ]);
    assert_eq!(
        send(router.clone(), post("/batch?projectId=test", events)).await.0,
        StatusCode::OK
    );

    assert_eq!(
        send(router.clone(), summary("wrong-token-here")).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, body) = send(router.clone(), summary(token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((body["opens"].as_u64(), body["connects"].as_u64()), (Some(2), Some(1)));
    assert_eq!(body["conversion"], 0.5);
    assert_eq!(body["connectsByWallet"], json!({"Latch Test Wallet": 1}));
    assert_eq!(body["connectsByConnector"], json!({"ANNOUNCED": 1}));
    assert_eq!(body["days"].as_array().unwrap().len(), 7);

    let page = router
        .oneshot(Request::get("/dashboard").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = String::from_utf8(page.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
    assert!(html.contains("<title>Latch analytics</title>"));
}
