//! The relay client against a real `latch serve`: publish → push → ack,
//! de-duplication, the mailbox through irn_fetchMessages, unsubscribe, and a
//! server restart survived by reconnecting and re-subscribing.

mod common;

use std::time::Duration;

use common::{next, relay, Latch};
use latch_walletconnect::Error;

const TOPIC: &str = "7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9";
const OTHER: &str = "1111111111111111111111111111111111111111111111111111111111111111";

async fn local<F: std::future::Future<Output = ()>>(f: F) {
    tokio::task::LocalSet::new().run_until(f).await;
}

#[tokio::test(flavor = "current_thread")]
async fn publish_subscribe_fetch_unsubscribe() {
    let latch = Latch::start().await;
    local(async {
        let (dapp, _) = relay(&latch.relay_url(), 1);
        let (wallet, mut wallet_messages) = relay(&latch.relay_url(), 2);
        assert_ne!(dapp.client_id(), wallet.client_id());
        assert!(wallet.client_id().starts_with("did:key:z6Mk"));

        let id = wallet.subscribe(TOPIC).await.unwrap();
        assert_eq!(id.len(), 64, "the relay's subscription id");
        dapp.publish(TOPIC, "aGVsbG8=", 300, 1100).await.unwrap();
        let got = next(&mut wallet_messages, 10).await;
        assert_eq!(
            (got.topic.as_str(), got.message.as_str(), got.tag),
            (TOPIC, "aGVsbG8=", 1100)
        );
        assert!(got.published_at > 1_600_000_000_000, "ms timestamp");

        // The same message again: the relay and the client de-duplicate it; the next one arrives.
        dapp.publish(TOPIC, "aGVsbG8=", 300, 1100).await.unwrap();
        dapp.publish(TOPIC, "d29ybGQ=", 300, 1108).await.unwrap();
        assert_eq!(next(&mut wallet_messages, 10).await.message, "d29ybGQ=");

        // Published where nobody listens: the mailbox keeps it for whoever fetches.
        dapp.publish(OTHER, "bWFpbA==", 300, 1102).await.unwrap();
        let fetched = wallet.fetch_messages(OTHER).await.unwrap();
        assert_eq!(
            fetched.iter().map(|m| m.message.as_str()).collect::<Vec<_>>(),
            ["bWFpbA=="]
        );

        wallet.unsubscribe(TOPIC).await.unwrap();
        assert!(wallet.topics().is_empty());
        dapp.publish(TOPIC, "bGF0ZQ==", 300, 1108).await.unwrap();
        let quiet = tokio::time::timeout(Duration::from_millis(500), next(&mut wallet_messages, 1)).await;
        assert!(quiet.is_err(), "no delivery after unsubscribe");

        dapp.close();
        assert_eq!(dapp.publish(TOPIC, "eA==", 300, 1108).await, Err(Error::Closed));
    })
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_restart_is_survived_by_reconnecting_and_resubscribing() {
    let mut latch = Latch::start().await;
    let url = latch.relay_url();
    local(async {
        let (dapp, _) = relay(&url, 3);
        let (wallet, mut wallet_messages) = relay(&url, 4);
        wallet.subscribe(TOPIC).await.unwrap();
        dapp.publish(TOPIC, "YmVmb3Jl", 300, 1108).await.unwrap();
        assert_eq!(next(&mut wallet_messages, 10).await.message, "YmVmb3Jl");

        latch.stop().await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!wallet.is_connected() && !dapp.is_connected());
        // Published while the relay is down: the request waits for the next socket.
        let publish = dapp.publish(TOPIC, "YWZ0ZXI=", 300, 1108);
        let restart = async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            latch.restart().await;
        };
        let (published, ()) = futures_util::future::join(publish, restart).await;
        published.unwrap();
        // The wallet re-subscribed on its new socket, so the message reaches it.
        assert_eq!(next(&mut wallet_messages, 20).await.message, "YWZ0ZXI=");
        assert!(wallet.is_connected());
    })
    .await;
}

#[test]
fn a_relay_url_that_is_not_a_websocket_is_refused_up_front() {
    use std::rc::Rc;

    use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
    use latch_walletconnect::relay::{Relay, RelayOptions};

    for url in ["http://127.0.0.1/relay", "127.0.0.1:8787/relay", ""] {
        let made = Relay::new(
            RelayOptions::new(url),
            [7; 32],
            Rc::new(TungsteniteTransport),
            Rc::new(TokioClock),
        );
        let Err(error) = made else {
            panic!("{url:?} was accepted")
        };
        assert_eq!(
            error,
            Error::Transport(format!("relay URL must start with ws:// or wss://: {url}"))
        );
        assert_eq!(error.code(), "WC_TRANSPORT");
    }
}
