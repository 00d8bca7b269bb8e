//! The relay's quotas (SECURITY.md, "Relay"): tokens for another relay or with
//! bad times, the per-connection topic cap and request rate, the per-IP
//! connection cap, mailbox quotas per topic and per publisher, the TTL ceiling,
//! oversized frames, byte-paged fetches, and on Postgres one unstorable message
//! among many. Every attack runs over a real WebSocket against a real `latch`,
//! and a normal client's traffic alongside must still work.

use std::time::Duration;

use ed25519_dalek::{Signer, SigningKey};
use futures_util::{SinkExt, StreamExt};
use latch_server::config::Secret;
use latch_server::relay::auth;
use latch_server::relay::protocol::Publish;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::common::{self, close_of, next_json, relay_call as call, relay_send as send, Client};
use crate::harness::{Latch, PROJECT};

const TOPIC: &str = "1111111111111111111111111111111111111111111111111111111111111111";

fn topic(n: u32) -> String {
    format!("{n:064x}")
}

fn now() -> i64 {
    latch_server::now_ms() / 1000
}

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

/// A relay server with `adjust` applied to its configuration.
async fn relay(adjust: impl FnOnce(&mut latch_server::config::Config)) -> Latch {
    Latch::start(vec![common::dead_upstream()], adjust).await
}

/// `ws://…/relay?auth=<token>&projectId=test`.
fn url_with(latch: &Latch, token: &str) -> String {
    format!("{}?auth={token}&projectId={PROJECT}", latch.ws_url("/relay"))
}

/// A client with a valid token for this relay (as the official clients sign it).
async fn connect(latch: &Latch, seed: u8) -> Client {
    let token = auth::sign(&key(seed), "sub", &latch.ws_url("/relay"), now(), now() + 86_400);
    let (client, _) = tokio_tungstenite::connect_async(url_with(latch, &token)).await.unwrap();
    client
}

/// Signs arbitrary claims JSON with `key(seed)`, as a hostile client can.
fn token_with_claims(seed: u8, claims: &Value) -> String {
    let header = latch_core::base64::encode_url(br#"{"alg":"EdDSA","typ":"JWT"}"#);
    let signed = format!(
        "{header}.{}",
        latch_core::base64::encode_url(claims.to_string().as_bytes())
    );
    let signature = latch_core::base64::encode_url(&key(seed).sign(signed.as_bytes()).to_bytes());
    format!("{signed}.{signature}")
}

/// The `(code, data)` of an error answer.
fn error_of(answer: &Value) -> (i64, String) {
    (
        answer["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {answer}")),
        answer["error"]["data"].as_str().unwrap_or_default().to_owned(),
    )
}

fn publish(topic: &str, message: &str, ttl: u64) -> Value {
    json!({"topic": topic, "message": message, "ttl": ttl, "tag": 1108})
}

/// A normal client still works: it subscribes, a second one publishes, the first gets the push.
async fn normal_traffic_works(latch: &Latch, seeds: (u8, u8), topic: &str) {
    let mut wallet = connect(latch, seeds.0).await;
    let mut dapp = connect(latch, seeds.1).await;
    assert!(call(&mut wallet, "n1", "irn_subscribe", json!({"topic": topic})).await["result"].is_string());
    let message = format!("bm9ybWFs{}", seeds.0);
    assert_eq!(
        call(&mut dapp, "n2", "irn_publish", publish(topic, &message, 300)).await["result"],
        json!(true)
    );
    let push = next_json(&mut wallet).await;
    assert_eq!(push["method"], "irn_subscription", "{push}");
    assert_eq!(push["params"]["data"]["message"], json!(message));
}

#[tokio::test]
async fn tokens_for_another_relay_are_refused_even_with_a_forged_host() {
    let latch = relay(|_| {}).await;
    // Minted for another relay.
    let elsewhere = auth::sign(
        &key(1),
        "sub",
        "wss://relay.elsewhere.example/relay",
        now(),
        now() + 600,
    );
    let (mut client, _) = tokio_tungstenite::connect_async(url_with(&latch, &elsewhere))
        .await
        .unwrap();
    assert_eq!(
        close_of(&mut client).await,
        (CloseCode::from(3000), "auth: JWT audience is not this relay".into())
    );
    // Minted for a host the attacker controls, sent with that `Host`: the audience comes from configuration only.
    let forged_host = format!("evil.example:{}", latch.addr.port());
    let forged = auth::sign(&key(1), "sub", &format!("ws://{forged_host}/relay"), now(), now() + 600);
    let mut request = url_with(&latch, &forged).into_client_request().unwrap();
    request.headers_mut().insert("host", forged_host.parse().unwrap());
    let (mut client, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(close_of(&mut client).await.0, CloseCode::from(3000));
    normal_traffic_works(&latch, (2, 3), TOPIC).await;
}

#[tokio::test]
async fn a_configured_public_url_is_the_only_audience() {
    let latch = relay(|c| c.relay.audiences = vec!["wss://relay.example/relay".into()]).await;
    let loopback = auth::sign(&key(1), "sub", &latch.ws_url("/relay"), now(), now() + 600);
    let (mut client, _) = tokio_tungstenite::connect_async(url_with(&latch, &loopback))
        .await
        .unwrap();
    assert_eq!(close_of(&mut client).await.0, CloseCode::from(3000));
    let public = auth::sign(&key(1), "sub", "wss://relay.example/relay", now(), now() + 600);
    let (mut client, _) = tokio_tungstenite::connect_async(url_with(&latch, &public))
        .await
        .unwrap();
    assert!(call(&mut client, "1", "irn_subscribe", json!({"topic": TOPIC})).await["result"].is_string());
}

#[tokio::test]
async fn tokens_without_iat_too_long_lived_or_with_huge_times_are_refused() {
    let latch = relay(|_| {}).await;
    let iss = auth::encode_did_key(&key(1).verifying_key());
    let aud = latch.ws_url("/relay");
    let cases = [
        (
            json!({"iss": iss, "aud": aud, "exp": now() + 600}),
            "auth: JWT has no iat",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": now(), "exp": now() + 86_401}),
            "auth: JWT lifetime exceeds one day",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": i64::MIN, "exp": i64::MAX}),
            "auth: JWT lifetime exceeds one day",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": i64::MAX, "exp": i64::MAX}),
            "auth: JWT expired or not yet valid",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": i64::MIN, "exp": i64::MIN}),
            "auth: JWT expired or not yet valid",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": 1e300, "exp": 1e300}),
            "auth: malformed JWT",
        ),
        (
            json!({"iss": iss, "aud": aud, "iat": u64::MAX, "exp": u64::MAX}),
            "auth: malformed JWT",
        ),
    ];
    for (claims, reason) in cases {
        let token = token_with_claims(1, &claims);
        let (mut client, _) = tokio_tungstenite::connect_async(url_with(&latch, &token))
            .await
            .unwrap();
        assert_eq!(
            close_of(&mut client).await,
            (CloseCode::from(3000), reason.into()),
            "{claims}"
        );
    }
    // The server survived all of them.
    normal_traffic_works(&latch, (2, 3), TOPIC).await;
}

#[tokio::test]
async fn subscribing_past_the_topic_cap_is_answered_and_the_socket_stays_usable() {
    let latch = relay(|c| c.relay.max_topics_per_connection = 3).await;
    let mut client = connect(&latch, 1).await;
    let three: Vec<String> = (1..=3).map(topic).collect();
    assert_eq!(
        call(&mut client, "1", "irn_batchSubscribe", json!({"topics": three})).await["result"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Re-subscribing to a joined topic costs nothing.
    assert!(call(&mut client, "2", "irn_subscribe", json!({"topic": topic(1)})).await["result"].is_string());
    let answer = call(&mut client, "3", "irn_subscribe", json!({"topic": topic(4)})).await;
    assert_eq!(error_of(&answer), (-32000, "SubscriberLimitExceeded".into()));
    let answer = call(
        &mut client,
        "4",
        "irn_batchSubscribe",
        json!({"topics": [topic(5), topic(6)]}),
    )
    .await;
    assert_eq!(error_of(&answer), (-32000, "SubscriberLimitExceeded".into()));
    // The socket stays: publishing works, and after an unsubscribe a new topic fits.
    assert_eq!(
        call(&mut client, "5", "irn_publish", publish(&topic(9), "AAAA", 300)).await["result"],
        json!(true)
    );
    assert_eq!(
        call(
            &mut client,
            "6",
            "irn_unsubscribe",
            json!({"topic": topic(1), "id": "x"})
        )
        .await["result"],
        json!(true)
    );
    assert!(call(&mut client, "7", "irn_subscribe", json!({"topic": topic(4)})).await["result"].is_string());
    normal_traffic_works(&latch, (2, 3), TOPIC).await;
}

#[tokio::test]
async fn publishing_past_a_topics_or_a_publishers_mailbox_quota_is_refused() {
    let latch = relay(|c| {
        c.relay.max_messages_per_topic = 3;
        c.relay.max_messages_per_publisher = 5;
    })
    .await;
    let mut spammer = connect(&latch, 1).await;
    let mut other = connect(&latch, 2).await;
    for n in 0..3 {
        let answer = call(
            &mut spammer,
            &format!("t{n}"),
            "irn_publish",
            publish(&topic(1), &format!("AAA{n}"), 300),
        )
        .await;
        assert_eq!(answer["result"], json!(true), "{answer}");
    }
    let full = call(&mut spammer, "t3", "irn_publish", publish(&topic(1), "AAA3", 300)).await;
    assert_eq!(error_of(&full), (-32000, "MailboxLimitExceeded".into()));
    // The topic is full for everyone.
    let full = call(&mut other, "o1", "irn_publish", publish(&topic(1), "BBB0", 300)).await;
    assert_eq!(error_of(&full), (-32000, "MailboxLimitExceeded".into()));
    // The publisher's own quota (5 over all topics): two more on another topic, then no more anywhere.
    for n in 0..2 {
        let answer = call(
            &mut spammer,
            &format!("u{n}"),
            "irn_publish",
            publish(&topic(2), &format!("CCC{n}"), 300),
        )
        .await;
        assert_eq!(answer["result"], json!(true), "{answer}");
    }
    let spent = call(&mut spammer, "u2", "irn_publish", publish(&topic(3), "CCC2", 300)).await;
    assert_eq!(error_of(&spent), (-32000, "MailboxLimitExceeded".into()));
    // The quota is counted from the store: what was refused was not stored, what was accepted is delivered.
    let mut reader = connect(&latch, 4).await;
    assert!(call(&mut reader, "r1", "irn_subscribe", json!({"topic": topic(1)})).await["result"].is_string());
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(
            next_json(&mut reader).await["params"]["data"]["message"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    seen.sort();
    assert_eq!(seen, ["AAA0", "AAA1", "AAA2"]);
    // Others' traffic on other topics is unaffected.
    normal_traffic_works(&latch, (5, 6), TOPIC).await;
}

#[tokio::test]
async fn a_ttl_over_seven_days_is_refused() {
    let latch = relay(|_| {}).await;
    let mut client = connect(&latch, 1).await;
    let answer = call(&mut client, "1", "irn_publish", publish(TOPIC, "AAAA", 7 * 86_400 + 1)).await;
    assert_eq!(error_of(&answer), (-32000, "TtlTooLong".into()));
    let answer = call(&mut client, "2", "irn_publish", publish(TOPIC, "AAAA", u64::MAX)).await;
    assert_eq!(error_of(&answer), (-32000, "TtlTooLong".into()));
    assert_eq!(
        call(&mut client, "3", "irn_publish", publish(TOPIC, "AAAA", 7 * 86_400)).await["result"],
        json!(true)
    );
    // A relay cannot be configured past the ceiling either.
    let mut config = latch_server::config::Config::default();
    config.relay.max_ttl_secs = 30 * 86_400;
    let refused = config.validated().unwrap_err().to_string();
    assert!(refused.contains("max_ttl_secs"), "{refused}");
}

#[tokio::test]
async fn a_frame_above_the_message_cap_is_answered_and_the_socket_stays_open() {
    let latch = relay(|_| {}).await;
    let mut client = connect(&latch, 1).await;
    // 300 KiB: over the 256 KiB message cap, under the WebSocket frame limit.
    let answer = call(
        &mut client,
        "1",
        "irn_publish",
        publish(TOPIC, &"A".repeat(300 * 1024), 300),
    )
    .await;
    assert_eq!(error_of(&answer), (-32600, "MessageTooLarge".into()));
    // Not base64 (a NUL byte): refused before it reaches the mailbox.
    let answer = call(&mut client, "2", "irn_publish", publish(TOPIC, "AA\u{0}AA", 300)).await;
    assert_eq!(error_of(&answer), (-32600, "InvalidParams".into()));
    assert_eq!(
        call(&mut client, "3", "irn_publish", publish(TOPIC, "AAAA", 300)).await["result"],
        json!(true)
    );
    normal_traffic_works(&latch, (2, 3), &topic(7)).await;
}

#[tokio::test]
async fn connections_past_the_per_ip_cap_are_closed_with_1013() {
    let latch = relay(|c| c.relay.max_connections_per_ip = 3).await;
    let mut open = Vec::new();
    for seed in 1..=3 {
        let mut client = connect(&latch, seed).await;
        assert!(call(&mut client, "1", "irn_subscribe", json!({"topic": TOPIC})).await["result"].is_string());
        open.push(client);
    }
    let mut fourth = connect(&latch, 4).await;
    let (code, reason) = close_of(&mut fourth).await;
    assert_eq!(code, CloseCode::Again, "{reason}");
    // The open ones are unaffected.
    assert_eq!(
        call(&mut open[0], "2", "irn_publish", publish(TOPIC, "AAAA", 300)).await["result"],
        json!(true)
    );
    // A closed connection gives its slot back.
    let mut first = open.remove(0);
    first.close(None).await.unwrap();
    drop(first);
    let mut again = None;
    for _ in 0..50 {
        let mut client = connect(&latch, 5).await;
        send(&mut client, "3", "irn_subscribe", json!({"topic": TOPIC})).await;
        match tokio::time::timeout(Duration::from_secs(10), client.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Text(_))) => {
                again = Some(client);
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    assert!(again.is_some(), "the slot came back");
}

#[tokio::test]
async fn a_request_flood_on_one_socket_gets_3001_and_other_clients_are_unaffected() {
    let latch = relay(|c| {
        c.relay.rate_limit.per_second = 1.0;
        c.relay.rate_limit.burst = 20.0;
    })
    .await;
    let mut flooder = connect(&latch, 1).await;
    let flood = async {
        for n in 0..200 {
            send(
                &mut flooder,
                &format!("f{n}"),
                "irn_subscribe",
                json!({"topic": topic(n)}),
            )
            .await;
        }
        let mut limited = 0;
        for _ in 0..200 {
            let answer = next_json(&mut flooder).await;
            if answer.get("error").is_some() {
                assert_eq!(error_of(&answer), (3001, "TooManyRequests".into()));
                limited += 1;
            }
        }
        limited
    };
    let (limited, ()) = tokio::join!(flood, normal_traffic_works(&latch, (2, 3), TOPIC));
    assert!(limited >= 170, "most of the flood is refused: {limited}");
    // The flooder's socket is still open (and refused until its budget refills).
    let answer = call(&mut flooder, "after", "irn_subscribe", json!({"topic": TOPIC})).await;
    assert!(
        answer.get("result").is_some() || error_of(&answer).0 == 3001,
        "{answer}"
    );
}

#[tokio::test]
async fn fetches_and_pushes_of_a_mailbox_of_large_messages_come_in_pages_of_bytes() {
    let latch = relay(|_| {}).await;
    let mut dapp = connect(&latch, 1).await;
    // Six messages of 200 KiB: 1.2 MiB, over one page.
    let big = |n: u8| format!("{}{}", char::from(b'A' + n), "A".repeat(200 * 1024 - 1));
    for n in 0..6 {
        let answer = call(
            &mut dapp,
            &format!("p{n}"),
            "irn_publish",
            publish(&topic(1), &big(n), 300),
        )
        .await;
        assert_eq!(answer["result"], json!(true));
        let answer = call(
            &mut dapp,
            &format!("q{n}"),
            "irn_publish",
            publish(&topic(2), &big(n), 300),
        )
        .await;
        assert_eq!(answer["result"], json!(true));
    }
    let mut wallet = connect(&latch, 2).await;
    let first = call(&mut wallet, "1", "irn_fetchMessages", json!({"topic": topic(1)})).await;
    let page = first["result"]["messages"].as_array().unwrap();
    assert!(page.len() < 6 && !page.is_empty(), "one page of bytes: {}", page.len());
    assert!(
        page.iter().map(|m| m["message"].as_str().unwrap().len()).sum::<usize>() <= latch_server::relay::PAGE_BYTES
    );
    assert_eq!(first["result"]["hasMore"], json!(true));
    let second = call(&mut wallet, "2", "irn_fetchMessages", json!({"topic": topic(1)})).await;
    let rest = second["result"]["messages"].as_array().unwrap();
    assert_eq!(page.len() + rest.len(), 6);
    assert_eq!(second["result"]["hasMore"], json!(false));
    // Batch fetch over two topics pages the same way.
    let mut other = connect(&latch, 3).await;
    let mut fetched = 0;
    let mut pages = 0;
    loop {
        let answer = call(
            &mut other,
            &format!("b{pages}"),
            "irn_batchFetchMessages",
            json!({"topics": [topic(1), topic(2)]}),
        )
        .await;
        fetched += answer["result"]["messages"].as_array().unwrap().len();
        pages += 1;
        if answer["result"]["hasMore"] == json!(false) {
            break;
        }
        assert!(pages < 10);
    }
    assert_eq!((fetched, pages > 2), (12, true));
    // Pushes on subscribe: all six arrive, a page at a time.
    let mut subscriber = connect(&latch, 4).await;
    assert!(call(&mut subscriber, "s", "irn_subscribe", json!({"topic": topic(2)})).await["result"].is_string());
    let mut pushed = std::collections::HashSet::new();
    while pushed.len() < 6 {
        let push = next_json(&mut subscriber).await;
        pushed.insert(push["params"]["data"]["message"].as_str().unwrap()[..1].to_owned());
    }
}

#[tokio::test]
async fn on_postgres_one_unstorable_message_fails_only_its_own_publish() {
    let Some(database) = crate::harness::fresh_postgres("security_relay").await else {
        return;
    };
    let latch = relay(|c| c.database_url = Some(Secret(database))).await;
    let mut wallet = connect(&latch, 1).await;
    assert!(call(&mut wallet, "s", "irn_subscribe", json!({"topic": TOPIC})).await["result"].is_string());
    // Over the socket, a NUL byte among pipelined publishes is refused alone.
    let mut dapp = connect(&latch, 2).await;
    for n in 0..20 {
        let message = if n == 7 {
            "AA\u{0}AA".to_owned()
        } else {
            format!("V1{n:02}")
        };
        send(
            &mut dapp,
            &format!("w{n}"),
            "irn_publish",
            publish(TOPIC, &message, 300),
        )
        .await;
    }
    let mut refused = Vec::new();
    for _ in 0..20 {
        let answer = next_json(&mut dapp).await;
        if answer.get("error").is_some() {
            refused.push(answer["id"].clone());
        }
    }
    assert_eq!(refused, [json!("w7")]);
    // Behind the parser, in the group commit itself: many concurrent publishes, one
    // that Postgres cannot store (a NUL byte in TEXT). Only that one fails.
    let relay = latch.state.relay.clone();
    let publishes = (0..40).map(|n| {
        let relay = relay.clone();
        async move {
            let message = if n == 13 {
                "AA\u{0}AA".to_owned()
            } else {
                format!("G1{n:02}")
            };
            let publish = Publish {
                topic: TOPIC.into(),
                message,
                ttl: 300,
                tag: 1108,
            };
            relay.publish("did:key:zPublisher", publish).await
        }
    });
    let results = futures_util::future::join_all(publishes).await;
    for (n, result) in results.iter().enumerate() {
        assert_eq!(result.is_ok(), n != 13, "publish {n}: {result:?}");
    }
    // The stored ones are delivered: 19 over the socket, 39 from the group commit.
    let mut delivered = std::collections::HashSet::new();
    while delivered.len() < 19 + 39 {
        let push = next_json(&mut wallet).await;
        assert_eq!(push["method"], "irn_subscription", "{push}");
        delivered.insert(push["params"]["data"]["message"].as_str().unwrap().to_owned());
        let ack = json!({"id": push["id"], "jsonrpc": "2.0", "result": true});
        wallet.send(Message::text(ack.to_string())).await.unwrap();
    }
    assert!(!delivered.iter().any(|m| m.contains('\u{0}')));
    normal_traffic_works(&latch, (3, 4), &topic(5)).await;
}

#[tokio::test]
async fn two_nodes_sharing_postgres_hold_one_mailbox_quota() {
    // Two nodes of one deployment: switching node buys no mailbox space.
    let Some(database) = crate::harness::fresh_postgres("security_relay_nodes").await else {
        return;
    };
    let quota = |c: &mut latch_server::config::Config| {
        c.database_url = Some(Secret(database.clone()));
        c.relay.max_messages_per_topic = 4;
    };
    let node_a = relay(quota).await;
    let node_b = relay(quota).await;
    let mut on_a = connect(&node_a, 1).await;
    let mut on_b = connect(&node_b, 1).await;
    for n in 0..4 {
        let client = if n % 2 == 0 { &mut on_a } else { &mut on_b };
        let answer = call(
            client,
            &format!("p{n}"),
            "irn_publish",
            publish(&topic(9), &format!("DDD{n}"), 300),
        )
        .await;
        assert_eq!(answer["result"], json!(true), "{answer}");
    }
    for client in [&mut on_a, &mut on_b] {
        let full = call(client, "full", "irn_publish", publish(&topic(9), "EEEE", 300)).await;
        assert_eq!(error_of(&full), (-32000, "MailboxLimitExceeded".into()));
    }
    // Other topics on either node are unaffected.
    normal_traffic_works(&node_b, (3, 4), &topic(10)).await;
}
