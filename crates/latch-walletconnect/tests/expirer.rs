//! The expirer against a real `latch serve`, with a clock that can be moved
//! forward: a proposal nobody answers expires after its 5 minutes (a test
//! cannot wait them out, so only the clock is a stand-in here; sockets,
//! relay and timers are real).

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use common::Latch;
use latch_walletconnect::io::{Clock, MemoryStorage};
use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
use latch_walletconnect::relay::RelayOptions;
use latch_walletconnect::sign::{ConnectParams, Metadata, SignClient, SignEvent, SignOptions, PROPOSAL_EXPIRED};
use latch_walletconnect::task::LocalBoxFuture;
use latch_walletconnect::Error;

/// Real time plus an offset the test moves; sleeps are real (and short).
#[derive(Default)]
struct SkewedClock {
    offset_ms: Cell<u64>,
}

impl Clock for SkewedClock {
    fn now_ms(&self) -> u64 {
        TokioClock.now_ms() + self.offset_ms.get()
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        TokioClock.sleep(ms)
    }
}

#[tokio::test(flavor = "current_thread")]
async fn an_unanswered_proposal_expires() {
    let latch = Latch::start().await;
    let clock = Rc::new(SkewedClock::default());
    tokio::task::LocalSet::new()
        .run_until(async {
            let options = SignOptions {
                relay: RelayOptions::new(latch.relay_url()),
                metadata: Metadata::default(),
            };
            let (dapp, mut events) = SignClient::new(
                options,
                Rc::new(TungsteniteTransport),
                Rc::new(MemoryStorage::default()),
                clock.clone(),
            )
            .await
            .unwrap();
            let runner = dapp.clone();
            tokio::task::spawn_local(async move { runner.run().await });
            let before = clock.now_ms() / 1000;
            let connecting = dapp.connect(ConnectParams::default()).await.unwrap();
            let after = clock.now_ms() / 1000;
            let expiry = connecting.uri.expiry_timestamp.unwrap();
            // The second may turn between the pairing's creation and this read.
            assert!(
                (before + 300..=after + 300).contains(&expiry),
                "a pairing lives 5 minutes: {expiry} not in {}..={}",
                before + 300,
                after + 300
            );
            assert!(dapp.relay().topics().contains(&connecting.uri.topic));

            clock.offset_ms.set(301_000);
            let expired = // Within one heartbeat (5 s), the expirer's tick.
            tokio::time::timeout(Duration::from_secs(10), connecting.approval)
                .await
                .unwrap();
            assert_eq!(expired, Err(Error::Timeout(PROPOSAL_EXPIRED.into())));
            let event = tokio::time::timeout(Duration::from_secs(10), events.recv())
                .await
                .unwrap();
            assert_eq!(event, Some(SignEvent::ProposalExpired { id: connecting.id }));
            // Its pairing is dropped with it.
            assert!(dapp.relay().topics().is_empty());
            dapp.close();
        })
        .await;
}

#[tokio::test(flavor = "current_thread")]
async fn a_new_connect_drops_abandoned_pairings() {
    let latch = Latch::start().await;
    tokio::task::LocalSet::new()
        .run_until(async {
            let options = SignOptions {
                relay: RelayOptions::new(latch.relay_url()),
                metadata: Metadata::default(),
            };
            let (dapp, _events) = SignClient::new(
                options,
                Rc::new(TungsteniteTransport),
                Rc::new(MemoryStorage::default()),
                Rc::new(TokioClock),
            )
            .await
            .unwrap();
            let runner = dapp.clone();
            tokio::task::spawn_local(async move { runner.run().await });
            let kept = dapp.connect(ConnectParams::default()).await.unwrap();
            let abandoned = dapp.connect(ConnectParams::default()).await.unwrap();
            assert_eq!(dapp.relay().topics().len(), 2, "both awaited");
            let abandoned_topic = abandoned.uri.topic.clone();
            drop(abandoned);
            let latest = dapp.connect(ConnectParams::default()).await.unwrap();
            let mut expected = vec![kept.uri.topic.clone(), latest.uri.topic.clone()];
            expected.sort();
            assert_eq!(dapp.relay().topics(), expected);
            assert!(!dapp.relay().topics().contains(&abandoned_topic));
            dapp.close();
        })
        .await;
}
