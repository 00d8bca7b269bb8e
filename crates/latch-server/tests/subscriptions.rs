//! `eth_subscribe` through the gateway's WebSocket against a real anvil:
//! notifications arrive, bad messages are answered without closing, and the
//! client is told when the upstream goes away.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{next_json, state_with, Anvil, Client};
use futures_util::{SinkExt, StreamExt};
use latch_server::app;
use latch_server::config::ChainConfig;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// Serves `state` on a loopback port; its base URL.
async fn serve(state: latch_server::AppState) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
            .await
            .unwrap()
    });
    format!("127.0.0.1:{}", address.port())
}

async fn send(client: &mut Client, text: &str) {
    client.send(Message::text(text)).await.unwrap();
}

#[tokio::test]
async fn subscriptions_pass_through_to_the_chain() {
    let mut anvil = Anvil::start().await;
    let ws_url = anvil.url.replace("http://", "ws://");
    let (state, _dir) = state_with(vec![anvil.url.clone()], |config| {
        config.chains[0].ws_upstreams = vec![ws_url];
    })
    .await;
    let base = serve(state).await;

    let listed: Value = reqwest::get(format!("http://{base}/v1/supported-chains?projectId=test"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["ws"], json!(["eip155:31337"]));

    let (mut client, _) =
        tokio_tungstenite::connect_async(format!("ws://{base}/v1/?chainId=eip155:31337&projectId=test"))
            .await
            .unwrap();
    send(
        &mut client,
        r#"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}"#,
    )
    .await;
    let subscribed = next_json(&mut client).await;
    assert_eq!(subscribed["id"], 1);
    let subscription = subscribed["result"].as_str().expect("a subscription id").to_owned();

    reqwest::Client::new()
        .post(&anvil.url)
        .json(&json!({"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}))
        .send()
        .await
        .unwrap();
    let notification = next_json(&mut client).await;
    assert_eq!(notification["method"], "eth_subscription");
    assert_eq!(notification["params"]["subscription"], subscription.as_str());
    assert_eq!(notification["params"]["result"]["number"], "0x1");

    // Refused messages are answered; the connection keeps working.
    send(&mut client, "not json").await;
    let refused = next_json(&mut client).await;
    assert_eq!(refused["error"]["code"], -32700);
    send(&mut client, r#"{"jsonrpc":"1.0","id":7,"method":"eth_blockNumber"}"#).await;
    let refused = next_json(&mut client).await;
    assert_eq!(
        (refused["id"].as_i64(), refused["error"]["code"].as_i64()),
        (Some(7), Some(-32600))
    );
    send(&mut client, r#"{"jsonrpc":"2.0","id":8,"method":"eth_chainId"}"#).await;
    assert_eq!(next_json(&mut client).await["result"], "0x7a69");
    send(&mut client, r#"{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}"#).await;
    assert_eq!(next_json(&mut client).await["result"], "0x1");

    // The upstream dies: the client is told to go away (and reconnect).
    anvil.child.kill().await.unwrap();
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(message) = client.next().await {
            if let Ok(Message::Close(frame)) = message {
                return frame.map(|f| u16::from(f.code));
            }
        }
        None
    })
    .await
    .unwrap();
    assert_eq!(closed, Some(1001));
}

#[tokio::test]
async fn upgrades_are_refused_with_json_errors() {
    let (state, _dir) = state_with(vec!["http://127.0.0.1:9".into()], |config| {
        config.chains[0].ws_upstreams = vec![format!("ws://127.0.0.1:{}", common::free_port())];
        config.chains.push(ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec!["http://127.0.0.1:9".into()],
            ..ChainConfig::default()
        });
    })
    .await;
    let base = serve(state).await;
    let refused = |query: &'static str| {
        let url = format!("ws://{base}/v1/?{query}");
        async move {
            match tokio_tungstenite::connect_async(url).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                    let body: Value = serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
                    (response.status().as_u16(), body["code"].as_str().unwrap().to_owned())
                }
                other => panic!("expected an HTTP refusal, got {other:?}"),
            }
        }
    };
    assert_eq!(
        refused("chainId=eip155:31337&projectId=nope").await,
        (401, "INVALID_PROJECT_ID".into())
    );
    assert_eq!(
        refused("chainId=eip155:5&projectId=test").await,
        (400, "UNSUPPORTED_CHAIN".into())
    );
    assert_eq!(
        refused("chainId=eip155:1&projectId=test").await,
        (400, "BAD_REQUEST".into())
    );
    assert_eq!(
        refused("chainId=eip155:31337&projectId=test").await,
        (503, "UPSTREAM_UNAVAILABLE".into())
    );
    // A plain GET (no upgrade) gets the JSON error body too.
    let plain = reqwest::get(format!("http://{base}/v1/?chainId=eip155:31337&projectId=test"))
        .await
        .unwrap();
    assert_eq!(plain.status(), 400);
    assert_eq!(plain.json::<Value>().await.unwrap()["code"], "BAD_REQUEST");
}
