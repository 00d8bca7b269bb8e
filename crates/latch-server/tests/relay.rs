//! The relay over real sockets on a real SQLite mailbox: auth refusals (close
//! 3000), publish → push → ack, no echo, idempotent publishes, the mailbox
//! across a restart, redelivery of unacknowledged pushes, the composite Sign
//! methods, errors that keep the connection, and close 1001 on shutdown.
//! (The official JS clients drive the same relay in `relay-conformance/`.)

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{close_of, next_json, relay_call as call, state_with, Client};
use ed25519_dalek::SigningKey;
use futures_util::{SinkExt, StreamExt};
use latch_server::relay::{auth, subscription_id};
use latch_server::{app, AppState};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

async fn serve(state: AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    // Tokens name the port bound (`server::serve` does the same).
    state.relay.serving_on(address.port());
    tokio::spawn(async move {
        axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
            .await
            .unwrap()
    });
    format!("127.0.0.1:{}", address.port())
}

fn now() -> i64 {
    latch_server::now_ms() / 1000
}

/// The JWT `sub` (a client's random id; the relay does not read it).
const SUB: &str = "relay-test";

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

fn did(seed: u8) -> String {
    auth::encode_did_key(&key(seed).verifying_key())
}

async fn connect(base: &str, seed: u8) -> Client {
    let aud = format!("ws://{base}/relay");
    let token = auth::sign(&key(seed), SUB, &aud, now(), now() + 86_400);
    let (client, _) =
        tokio_tungstenite::connect_async(format!("ws://{base}/relay?auth={token}&ua=test&projectId=test"))
            .await
            .unwrap();
    client
}

/// Nothing arrives for `ms` milliseconds.
async fn silent(client: &mut Client, ms: u64) {
    if let Ok(Some(Ok(Message::Text(text)))) = tokio::time::timeout(Duration::from_millis(ms), client.next()).await {
        panic!("unexpected message {text}");
    }
}

async fn ack(client: &mut Client, push: &Value) {
    let answer = json!({"id": push["id"], "jsonrpc": "2.0", "result": true});
    client.send(Message::text(answer.to_string())).await.unwrap();
}

const TOPIC: &str = "1111111111111111111111111111111111111111111111111111111111111111";

#[tokio::test]
async fn refuses_missing_and_forged_tokens_with_3000() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |_| {}).await;
    let base = serve(state).await;
    let (mut client, _) = tokio_tungstenite::connect_async(format!("ws://{base}/relay"))
        .await
        .unwrap();
    assert_eq!(
        close_of(&mut client).await,
        (CloseCode::from(3000), "auth: missing JWT".into())
    );

    let token = auth::sign(&key(1), SUB, &format!("ws://{base}/relay"), now(), now() + 60);
    let (head, _) = token.rsplit_once('.').unwrap();
    let other = auth::sign(&key(2), SUB, &format!("ws://{base}/relay"), now(), now() + 60);
    let forged = format!("{head}.{}", other.rsplit_once('.').unwrap().1);
    let (mut client, _) = tokio_tungstenite::connect_async(format!("ws://{base}/relay?auth={forged}"))
        .await
        .unwrap();
    assert_eq!(
        close_of(&mut client).await,
        (CloseCode::from(3000), "auth: invalid signature".into())
    );

    let elsewhere = auth::sign(&key(1), SUB, "wss://relay.elsewhere.example", now(), now() + 60);
    let (mut client, _) = tokio_tungstenite::connect_async(format!("ws://{base}/relay?auth={elsewhere}"))
        .await
        .unwrap();
    assert_eq!(close_of(&mut client).await.0, CloseCode::from(3000));

    // The bearer header works as well as the query.
    let mut request = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
        "ws://{base}/relay?projectId=test"
    ))
    .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut client, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let answer = call(&mut client, "1", "irn_subscribe", json!({"topic": TOPIC})).await;
    assert_eq!(answer["result"], json!(subscription_id(TOPIC, &did(1))));
}

#[tokio::test]
async fn unknown_projects_are_refused_when_required() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |c| c.relay.require_project = Some(true)).await;
    let base = serve(state).await;
    let token = auth::sign(&key(1), SUB, &format!("ws://{base}/relay"), now(), now() + 60);
    for query in [String::new(), "&projectId=nope".into()] {
        let (mut client, _) = tokio_tungstenite::connect_async(format!("ws://{base}/relay?auth={token}{query}"))
            .await
            .unwrap();
        assert_eq!(close_of(&mut client).await.0, CloseCode::from(3000));
    }
    let (mut client, _) = tokio_tungstenite::connect_async(format!("ws://{base}/relay?auth={token}&projectId=test"))
        .await
        .unwrap();
    assert_eq!(
        call(&mut client, "1", "irn_subscribe", json!({"topic": TOPIC})).await["result"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
}

#[tokio::test]
async fn publish_push_ack_without_echo_and_idempotent() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |_| {}).await;
    let metrics = state.metrics.clone();
    let base = serve(state).await;
    let mut dapp = connect(&base, 1).await;
    let mut wallet = connect(&base, 2).await;
    assert_eq!(
        call(&mut dapp, "1", "irn_subscribe", json!({"topic": TOPIC})).await["result"],
        json!(subscription_id(TOPIC, &did(1)))
    );
    call(&mut wallet, "1", "irn_subscribe", json!({"topic": TOPIC})).await;

    let publish = json!({"topic": TOPIC, "message": "aGVsbG8=", "ttl": 300, "tag": 1108, "prompt": true, "tvf": {"chainId": "eip155:1"}});
    assert_eq!(
        call(&mut wallet, "1700000000000000001", "irn_publish", publish.clone()).await["result"],
        json!(true)
    );
    let push = next_json(&mut dapp).await;
    assert_eq!(push["method"], "irn_subscription");
    assert!(push["id"].as_u64().unwrap() < 1 << 53, "server ids stay JS-safe");
    assert_eq!(push["params"]["id"], json!(subscription_id(TOPIC, &did(1))));
    assert_eq!(push["params"]["data"]["message"], "aGVsbG8=");
    assert_eq!(push["params"]["data"]["tag"], 1108);
    assert!(push["params"]["data"]["publishedAt"].as_i64().unwrap() > 1_700_000_000_000);
    ack(&mut dapp, &push).await;
    // The retry (same id, same message) is answered the same and pushes nothing new.
    assert_eq!(
        call(&mut wallet, "1700000000000000001", "irn_publish", publish).await["result"],
        json!(true)
    );
    silent(&mut dapp, 300).await;
    silent(&mut wallet, 100).await;

    let text = metrics.render();
    assert!(text.contains("latch_relay_published_total 1\n"), "{text}");
    assert!(text.contains("latch_relay_duplicates_total 1\n"));
    assert!(text.contains("latch_relay_acked_total 1\n"));
    assert!(text.contains("latch_relay_connections 2\n"));
    assert!(text.contains("latch_relay_subscriptions 2\n"));
}

#[tokio::test]
async fn unacknowledged_pushes_are_sent_again() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |c| c.relay.redeliver_after_ms = 300).await;
    let base = serve(state).await;
    let mut dapp = connect(&base, 1).await;
    let mut wallet = connect(&base, 2).await;
    call(&mut dapp, "1", "irn_subscribe", json!({"topic": TOPIC})).await;
    call(
        &mut wallet,
        "2",
        "irn_publish",
        json!({"topic": TOPIC, "message": "b25l", "ttl": 300, "tag": 1}),
    )
    .await;
    let first = next_json(&mut dapp).await;
    let again = next_json(&mut dapp).await;
    assert_eq!(first, again, "the same push, same id");
    ack(&mut dapp, &again).await;
    silent(&mut dapp, 800).await;
}

#[tokio::test]
async fn the_mailbox_survives_a_restart_until_acked() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().to_owned();
    let config = move |c: &mut latch_server::config::Config| c.data_dir = data_dir.clone();
    let (state, _unused) = state_with(vec![common::dead_upstream()], config.clone()).await;
    let base = serve(state).await;
    let mut wallet = connect(&base, 2).await;
    // Published while nobody listens.
    for (id, message) in [("1", "Zmlyc3Q="), ("2", "c2Vjb25k")] {
        call(
            &mut wallet,
            id,
            "irn_publish",
            json!({"topic": TOPIC, "message": message, "ttl": 300, "tag": 1108}),
        )
        .await;
    }
    let mut dapp = connect(&base, 1).await;
    call(&mut dapp, "1", "irn_subscribe", json!({"topic": TOPIC})).await;
    let first = next_json(&mut dapp).await;
    assert_eq!(first["params"]["data"]["message"], "Zmlyc3Q=", "oldest first");
    ack(&mut dapp, &first).await;
    let second = next_json(&mut dapp).await;
    assert_eq!(second["params"]["data"]["message"], "c2Vjb25k");
    tokio::time::sleep(Duration::from_millis(200)).await;

    // A new server on the same database: only the unacknowledged message comes back.
    let (state, _unused) = state_with(vec![common::dead_upstream()], config).await;
    let base = serve(state).await;
    let mut dapp = connect(&base, 1).await;
    assert_eq!(
        call(&mut dapp, "1", "irn_batchSubscribe", json!({"topics": [TOPIC]})).await["result"],
        json!([subscription_id(TOPIC, &did(1))])
    );
    let again = next_json(&mut dapp).await;
    assert_eq!(again["params"]["data"]["message"], "c2Vjb25k");
    ack(&mut dapp, &again).await;
    silent(&mut dapp, 300).await;
    // Fetching finds nothing left for this client, but the publisher's peer list is per client.
    let fetched = call(&mut dapp, "2", "irn_fetchMessages", json!({"topic": TOPIC})).await;
    assert_eq!(fetched["result"], json!({"messages": [], "hasMore": false}));
    let mut other = connect(&base, 3).await;
    let fetched = call(&mut other, "1", "irn_batchFetchMessages", json!({"topics": [TOPIC]})).await;
    assert_eq!(fetched["result"]["messages"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn composite_sign_methods_wait_in_the_mailbox() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |_| {}).await;
    let base = serve(state).await;
    let pairing = "2".repeat(64);
    let session = "3".repeat(64);
    let mut dapp = connect(&base, 1).await;
    let mut wallet = connect(&base, 2).await;
    let proposed = call(
        &mut dapp,
        "1",
        "wc_proposeSession",
        json!({"pairingTopic": pairing, "sessionProposal": "cHJvcG9zYWw=", "ttl": 300, "correlationId": 5}),
    )
    .await;
    assert_eq!(proposed["result"], json!(true));
    call(&mut wallet, "1", "irn_subscribe", json!({"topic": pairing})).await;
    let proposal = next_json(&mut wallet).await;
    assert_eq!(proposal["params"]["data"]["tag"], 1100);
    ack(&mut wallet, &proposal).await;
    let approved = call(
        &mut wallet,
        "2",
        "wc_approveSession",
        json!({"sessionTopic": session, "pairingTopic": pairing,
        "sessionProposalResponse": "cmVzcG9uc2U=", "sessionSettlementRequest": "c2V0dGxl", "correlationId": 5,
        "approvedChains": ["eip155:1"], "approvedMethods": ["personal_sign"], "approvedEvents": []}),
    )
    .await;
    assert_eq!(approved["result"], json!(true));
    let response = next_json(&mut dapp).await;
    assert_eq!(response["params"]["data"]["tag"], 1101);
    assert_eq!(response["params"]["id"], json!(subscription_id(&pairing, &did(1))));
    ack(&mut dapp, &response).await;
    // The dapp learns the session topic only now; the settlement waited for it.
    call(&mut dapp, "2", "irn_subscribe", json!({"topic": session})).await;
    let settle = next_json(&mut dapp).await;
    assert_eq!(settle["params"]["data"]["tag"], 1102);
    assert_eq!(settle["params"]["data"]["message"], "c2V0dGxl");
}

#[tokio::test]
async fn bad_requests_are_answered_and_the_connection_stays() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |_| {}).await;
    let base = serve(state).await;
    let mut client = connect(&base, 1).await;
    client.send(Message::text("{not json")).await.unwrap();
    assert_eq!(next_json(&mut client).await["error"]["code"], -32700);
    let code = |answer: Value| {
        (
            answer["error"]["code"].as_i64().unwrap(),
            answer["error"]["data"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(
        code(call(&mut client, "1", "irn_nothing", json!({})).await),
        (-32601, "MethodNotFound".into())
    );
    assert_eq!(
        code(call(&mut client, "2", "irn_subscribe", json!({"topic": "abc"})).await),
        (-32600, "InvalidTopic".into())
    );
    let publish = |ttl: u64, message: String| json!({"topic": TOPIC, "message": message, "ttl": ttl, "tag": 1});
    assert_eq!(
        code(call(&mut client, "3", "irn_publish", publish(0, "eA==".into())).await),
        (-32000, "TtlTooShort".into())
    );
    assert_eq!(
        code(call(&mut client, "4", "irn_publish", publish(300, "A".repeat(300 * 1024))).await),
        (-32600, "MessageTooLarge".into())
    );
    // 128 KiB of payload (as base64) is accepted.
    assert_eq!(
        call(&mut client, "5", "irn_publish", publish(300, "A".repeat(176 * 1024))).await["result"],
        json!(true)
    );
    let topics = vec![TOPIC; 501];
    assert_eq!(
        code(call(&mut client, "6", "irn_batchSubscribe", json!({"topics": topics})).await),
        (-32600, "BatchLimitExceeded".into())
    );
    assert_eq!(
        call(&mut client, "7", "irn_subscribe", json!({"topic": TOPIC, "extra": 1})).await["result"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
}

#[tokio::test]
async fn the_rate_limit_answers_3001() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |c| {
        c.relay.rate_limit.per_second = 0.001;
        c.relay.rate_limit.burst = 3.0;
    })
    .await;
    let base = serve(state).await;
    let mut client = connect(&base, 1).await;
    for id in ["1", "2", "3"] {
        assert!(call(&mut client, id, "irn_subscribe", json!({"topic": TOPIC}))
            .await
            .get("result")
            .is_some());
    }
    assert_eq!(
        call(&mut client, "4", "irn_subscribe", json!({"topic": TOPIC})).await["error"]["code"],
        3001
    );
}

#[tokio::test]
async fn shutdown_closes_with_1001() {
    let (state, _dir) = state_with(vec![common::dead_upstream()], |_| {}).await;
    let relay = state.relay.clone();
    let base = serve(state).await;
    let mut client = connect(&base, 1).await;
    call(&mut client, "1", "irn_subscribe", json!({"topic": TOPIC})).await;
    relay.shutdown();
    assert_eq!(close_of(&mut client).await.0, CloseCode::Away);
}
