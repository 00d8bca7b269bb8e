//! The RPC gateway forwards only what it should (SECURITY.md "Gateway"):
//! node-admin, test-node and wallet-only methods refused over HTTP (single and
//! batch) and over the `/v1` WebSocket, the chain really unchanged; batches
//! charged per call; oversized bodies refused per route in our JSON body; the
//! WebSocket's message size, rate, subscription cap, idle timeout and
//! sockets-per-IP cap. A normal client keeps working alongside each attack.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::common::{next_json, Anvil, Client};
use crate::harness::{client, ok_json, refused, Latch, PROJECT};

/// Where the attacks try to plant code.
const TARGET: &str = "0x00000000000000000000000000000000000000aa";
/// What a node-admin method would do to the chain, one attack each.
fn attacks() -> Vec<(&'static str, Value)> {
    vec![
        ("anvil_setCode", json!([TARGET, "0x6080"])),
        ("evm_mine", json!([])),
        ("debug_traceTransaction", json!(["0x00"])),
        ("personal_sign", json!(["0x68656c6c6f", TARGET])),
        (
            "eth_sendTransaction",
            json!([{"from": TARGET, "to": TARGET, "value": "0x1"}]),
        ),
        ("eth_sign", json!([TARGET, "0x68656c6c6f"])),
    ]
}

fn call(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn rpc_path() -> String {
    format!("/v1/?chainId=eip155:31337&projectId={PROJECT}")
}

async fn post(latch: &Latch, body: &Value) -> reqwest::Response {
    client().post(latch.url(&rpc_path())).json(body).send().await.unwrap()
}

/// The chain is as the attacks found it: no code at the target, no block mined.
async fn assert_chain_untouched(anvil: &Anvil) {
    assert_eq!(anvil.rpc("eth_getCode", json!([TARGET, "latest"])).await, "0x");
    assert_eq!(anvil.rpc("eth_blockNumber", json!([])).await, "0x0");
}

async fn ws(latch: &Latch, forwarded_for: Option<&str>) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
    let mut request = latch.ws_url(&rpc_path()).into_client_request().unwrap();
    if let Some(ip) = forwarded_for {
        request.headers_mut().insert("x-forwarded-for", ip.parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

/// The close code the server ends `socket` with (within 10 s).
async fn close_code(socket: &mut Client) -> Option<u16> {
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(message) = socket.next().await {
            match message {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("closed within 10 s")
}

/// Reads `socket` for `span`, as a live client does (answering the server's pings).
async fn listen(socket: &mut Client, span: Duration) {
    let _ = tokio::time::timeout(span, async {
        while let Some(message) = socket.next().await {
            assert!(
                matches!(message, Ok(Message::Ping(_) | Message::Pong(_))),
                "{message:?}"
            );
        }
    })
    .await;
}

async fn ws_with_anvil(adjust: impl FnOnce(&mut latch_server::config::Config)) -> (Anvil, Latch) {
    let anvil = Anvil::start().await;
    let ws_url = anvil.url.replace("http://", "ws://");
    let latch = Latch::start(vec![anvil.url.clone()], |config| {
        config.chains[0].ws_upstreams = vec![ws_url];
        adjust(config);
    })
    .await;
    (anvil, latch)
}

#[tokio::test]
async fn http_gateway_refuses_admin_test_and_wallet_methods() {
    let anvil = Anvil::start().await;
    let latch = Latch::start(vec![anvil.url.clone()], |_| {}).await;

    // Single calls: our JSON error body, 403 RPC_METHOD_NOT_ALLOWED, while a
    // normal client's reads go through in between.
    for (index, (method, params)) in attacks().into_iter().enumerate() {
        let body = refused(
            post(&latch, &call(1, method, params)).await,
            403,
            "RPC_METHOD_NOT_ALLOWED",
        )
        .await;
        assert!(
            body["reasons"][0]["description"].as_str().unwrap().contains(method),
            "{body}"
        );
        let normal = ok_json(post(&latch, &call(index as u64, "eth_blockNumber", json!([]))).await).await;
        assert_eq!(normal["result"], "0x0");
    }
    // eth_accounts: the node's accounts are not the caller's.
    let accounts = ok_json(post(&latch, &call(9, "eth_accounts", json!([]))).await).await;
    assert_eq!(accounts["result"], json!([]));

    // In a batch each refused call gets its JSON-RPC error; the allowed ones are answered.
    let mut batch: Vec<Value> = attacks()
        .into_iter()
        .enumerate()
        .map(|(i, (method, params))| call(i as u64 + 1, method, params))
        .collect();
    batch.push(call(100, "eth_getCode", json!([TARGET, "latest"])));
    batch.push(call(101, "eth_accounts", json!([])));
    batch.push(call(102, "eth_chainId", json!([])));
    batch.push(json!({"jsonrpc": "2.0", "method": "evm_mine", "params": []}));
    let replies = ok_json(post(&latch, &Value::Array(batch)).await).await;
    let replies = replies.as_array().unwrap();
    assert_eq!(replies.len(), 9, "the refused notification gets no answer: {replies:?}");
    let by_id = |id: u64| {
        replies
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no answer {id}"))
    };
    for (i, (method, _)) in attacks().into_iter().enumerate() {
        let reply = by_id(i as u64 + 1);
        assert_eq!(reply["error"]["code"], -32601, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap().contains(method));
    }
    assert_eq!(by_id(100)["result"], "0x");
    assert_eq!(by_id(101)["result"], json!([]));
    assert_eq!(by_id(102)["result"], "0x7a69");

    assert_chain_untouched(&anvil).await;
}

#[tokio::test]
async fn each_call_of_a_batch_counts_against_the_rate_limit() {
    let anvil = Anvil::start().await;
    let latch = Latch::start(vec![anvil.url.clone()], |config| {
        config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        config.ip_rate_limit.per_second = 0.01;
        config.ip_rate_limit.burst = 10.0;
    })
    .await;
    let from = |ip: &'static str, body: Value| {
        client()
            .post(latch.url(&rpc_path()))
            .header("x-forwarded-for", ip)
            .json(&body)
            .send()
    };
    let batch = Value::Array((0..10).map(|i| call(i, "eth_blockNumber", json!([]))).collect());
    let replies = ok_json(from("10.0.0.1", batch.clone()).await.unwrap()).await;
    assert_eq!(replies.as_array().unwrap().len(), 10);
    // Ten calls spent the budget of ten: one more call is refused.
    refused(
        from("10.0.0.1", call(1, "eth_blockNumber", json!([]))).await.unwrap(),
        429,
        "RATE_LIMITED",
    )
    .await;
    // A batch larger than the burst is charged in full: the next client spends its
    // whole budget in one go and then waits.
    let large = Value::Array((0..50).map(|i| call(i, "eth_chainId", json!([]))).collect());
    ok_json(from("10.0.0.3", large).await.unwrap()).await;
    refused(
        from("10.0.0.3", call(1, "eth_chainId", json!([]))).await.unwrap(),
        429,
        "RATE_LIMITED",
    )
    .await;
    // Another client is unaffected.
    let normal = ok_json(from("10.0.0.2", batch).await.unwrap()).await;
    assert_eq!(normal[0]["result"], "0x0");
}

#[tokio::test]
async fn oversized_bodies_are_refused_per_route_in_our_body() {
    let anvil = Anvil::start().await;
    let latch = Latch::start(vec![anvil.url.clone()], |_| {}).await;
    let limits = latch.state.config.body_limits;
    for (path, limit) in [
        (rpc_path(), limits.rpc),
        (format!("/e?projectId={PROJECT}"), limits.event),
        (format!("/batch?projectId={PROJECT}"), limits.event_batch),
        (format!("/v1/siwx/verify?projectId={PROJECT}"), limits.sign_in),
    ] {
        let body = format!("\"{}\"", "a".repeat(limit));
        let response = client().post(latch.url(&path)).body(body).send().await.unwrap();
        refused(response, 413, "PAYLOAD_TOO_LARGE").await;
    }
    // A batch just under the RPC limit is still read and answered.
    let one = call(1, "eth_blockNumber", json!([])).to_string();
    let count = (limits.rpc / (one.len() + 1)).min(1000);
    let batch = format!("[{}]", vec![one.as_str(); count].join(","));
    assert!(batch.len() <= limits.rpc);
    let replies = ok_json(client().post(latch.url(&rpc_path())).body(batch).send().await.unwrap()).await;
    assert_eq!(replies.as_array().unwrap().len(), count);
}

#[tokio::test]
async fn websocket_refuses_methods_and_caps_subscriptions() {
    let (anvil, latch) = ws_with_anvil(|config| {
        config.rpc_ws.max_subscriptions = 5;
        config.rpc_ws.rate_limit.per_second = 0.0;
    })
    .await;
    let mut socket = ws(&latch, None).await.unwrap();
    for (method, params) in attacks() {
        socket
            .send(Message::text(call(3, method, params).to_string()))
            .await
            .unwrap();
        let reply = next_json(&mut socket).await;
        assert_eq!(
            (reply["id"].as_u64(), reply["error"]["code"].as_i64()),
            (Some(3), Some(-32601)),
            "{reply}"
        );
    }
    socket
        .send(Message::text(call(4, "eth_accounts", json!([])).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut socket).await["result"], json!([]));

    // 100 000 subscriptions: five open, the rest refused with -32005.
    const FLOOD: u64 = 100_000;
    let (mut sink, mut stream) = socket.split();
    let writer = tokio::spawn(async move {
        for id in 0..FLOOD {
            let text = call(10 + id, "eth_subscribe", json!(["newHeads"])).to_string();
            sink.feed(Message::text(text)).await.unwrap();
        }
        sink.flush().await.unwrap();
        sink
    });
    let (mut opened, mut capped) = (0, 0);
    while opened + capped < FLOOD {
        let message = tokio::time::timeout(Duration::from_secs(30), stream.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(text) = message else { continue };
        let reply: Value = serde_json::from_str(&text).unwrap();
        if reply["result"].is_string() {
            opened += 1;
        } else {
            assert_eq!(reply["error"]["code"], -32005, "{reply}");
            capped += 1;
        }
    }
    assert_eq!((opened, capped), (5, FLOOD - 5));
    let mut socket = writer.await.unwrap().reunite(stream).unwrap();
    // Still usable, and a normal client alongside too.
    socket
        .send(Message::text(call(1, "eth_blockNumber", json!([])).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut socket).await["result"], "0x0");
    let mut normal = ws(&latch, None).await.unwrap();
    normal
        .send(Message::text(call(1, "eth_subscribe", json!(["newHeads"])).to_string()))
        .await
        .unwrap();
    assert!(next_json(&mut normal).await["result"].is_string());

    assert_chain_untouched(&anvil).await;
}

#[tokio::test]
async fn websocket_message_size_and_rate_are_bounded() {
    let (_anvil, latch) = ws_with_anvil(|config| {
        config.rpc_ws.max_message_bytes = 64 * 1024;
        config.rpc_ws.rate_limit.per_second = 1.0;
        config.rpc_ws.rate_limit.burst = 5.0;
    })
    .await;
    // A message above the cap closes its socket with 1009.
    let mut big = ws(&latch, None).await.unwrap();
    let padding = "a".repeat(64 * 1024);
    let text = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": [padding]}).to_string();
    let _ = big.send(Message::text(text)).await;
    assert_eq!(close_code(&mut big).await, Some(1009));

    // A flood: past the burst each request is answered -32005, the socket stays.
    let mut flood = ws(&latch, None).await.unwrap();
    for id in 0..20 {
        flood
            .send(Message::text(call(id, "eth_blockNumber", json!([])).to_string()))
            .await
            .unwrap();
    }
    let mut limited = 0;
    for _ in 0..20 {
        let reply = next_json(&mut flood).await;
        if reply["error"]["code"] == -32005 {
            limited += 1;
        } else {
            assert_eq!(reply["result"], "0x0", "{reply}");
        }
    }
    assert_eq!(limited, 15);
    // A normal client alongside is unaffected.
    let mut normal = ws(&latch, None).await.unwrap();
    normal
        .send(Message::text(call(1, "eth_blockNumber", json!([])).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut normal).await["result"], "0x0");
    // The flooder gets a token back within a second.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    flood
        .send(Message::text(call(99, "eth_blockNumber", json!([])).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut flood).await["result"], "0x0");
}

#[tokio::test]
async fn websocket_idle_sockets_close_and_sockets_per_ip_are_capped() {
    let (_anvil, latch) = ws_with_anvil(|config| {
        config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        config.rpc_ws.max_sockets_per_ip = 3;
        config.rpc_ws.idle_timeout_secs = 2;
    })
    .await;
    // An idle socket (reading and answering pings, as a live client does, but sending no request
    // and holding no subscription) is closed with 1000 once the idle timeout has passed.
    let mut idle = ws(&latch, Some("10.0.0.9")).await.unwrap();
    let opened = std::time::Instant::now();
    assert_eq!(close_code(&mut idle).await, Some(1000));
    assert!(
        opened.elapsed() >= Duration::from_secs(2),
        "closed after {:?}",
        opened.elapsed()
    );

    // One address: three sockets, the fourth refused before any upstream is dialled.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(ws(&latch, Some("10.0.0.1")).await.unwrap());
    }
    match ws(&latch, Some("10.0.0.1")).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 429);
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
            assert_eq!(
                (body["status"].as_str(), body["code"].as_str()),
                (Some("FAILED"), Some("TOO_MANY_SOCKETS"))
            );
        }
        other => panic!("expected 429, got {other:?}"),
    }
    // Closing one frees its place.
    let mut first = held.remove(0);
    first.close(None).await.unwrap();
    drop(first);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(latch.state.gateway.open_sockets("10.0.0.1".parse().unwrap()), 2);
    ws(&latch, Some("10.0.0.1")).await.unwrap();
    // Another address is unaffected; a socket with a subscription outlives the idle timeout.
    let mut normal = ws(&latch, Some("10.0.0.2")).await.unwrap();
    normal
        .send(Message::text(call(1, "eth_subscribe", json!(["newHeads"])).to_string()))
        .await
        .unwrap();
    assert!(next_json(&mut normal).await["result"].is_string());
    listen(&mut normal, Duration::from_secs(3)).await;
    normal
        .send(Message::text(call(2, "eth_chainId", json!([])).to_string()))
        .await
        .unwrap();
    assert_eq!(next_json(&mut normal).await["result"], "0x7a69");
}
