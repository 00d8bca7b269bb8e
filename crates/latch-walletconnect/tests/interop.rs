//! The proof of interoperability: this crate as the dapp and the official
//! WalletConnect wallet client (@walletconnect/sign-client 2.21.8, Apache-2.0,
//! run by Node from `tests/wallet.mjs`) as the wallet, through a real
//! `latch serve` relay. Needs the root `node_modules` (`npm ci`, part of
//! `scripts/setup`) and the `latch` binary (`make build`).

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use common::{Latch, Wallet};
use latch_walletconnect::io::{MemoryStorage, Storage};
use latch_walletconnect::json;
use latch_walletconnect::map::Map;
use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
use latch_walletconnect::relay::RelayOptions;
use latch_walletconnect::sign::{ConnectParams, Metadata, ProposalNamespace, SignClient, SignEvent, SignOptions};
use latch_walletconnect::task::{LocalBoxFuture, Receiver};
use latch_walletconnect::Error;
use tokio::io::AsyncWriteExt;

const ACCOUNT: &str = "eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ADDRESS: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async fn next_event(events: &mut Receiver<SignEvent>) -> SignEvent {
    tokio::time::timeout(Duration::from_secs(30), events.recv())
        .await
        .expect("a dapp event within 30 s")
        .expect("events open")
}

fn eip155() -> ConnectParams {
    let namespace = ProposalNamespace {
        chains: Some(vec!["eip155:1".into()]),
        methods: vec!["personal_sign".into(), "eth_sendTransaction".into()],
        events: vec!["accountsChanged".into(), "chainChanged".into()],
    };
    ConnectParams {
        required_namespaces: Map::from([("eip155".into(), namespace)]),
        optional_namespaces: Map::new(),
        session_properties: None,
    }
}

async fn dapp(url: &str, storage: &MemoryStorage) -> (SignClient, Receiver<SignEvent>) {
    dapp_on(url, Rc::new(storage.clone())).await
}

async fn dapp_on(url: &str, storage: Rc<dyn Storage>) -> (SignClient, Receiver<SignEvent>) {
    let options = SignOptions {
        relay: RelayOptions::new(url),
        metadata: Metadata {
            name: "latch dapp".into(),
            description: "the Rust dapp client".into(),
            url: "http://127.0.0.1".into(),
            icons: vec![],
        },
    };
    let (client, events) = SignClient::new(options, Rc::new(TungsteniteTransport), storage, Rc::new(TokioClock))
        .await
        .unwrap();
    let runner = client.clone();
    tokio::task::spawn_local(async move { runner.run().await });
    (client, events)
}

#[tokio::test(flavor = "current_thread")]
async fn the_rust_dapp_and_the_official_wallet_client() {
    let latch = Latch::start().await;
    let url = latch.relay_url();
    let mut wallet = Wallet::start(&url, None).await;
    let storage = MemoryStorage::default();
    tokio::task::LocalSet::new()
        .run_until(async {
            let (dapp, mut events) = dapp(&url, &storage).await;

            // Pair and approve.
            let connecting = dapp.connect(eip155()).await.unwrap();
            let uri = connecting.uri.to_string();
            assert!(
                uri.starts_with("wc:") && uri.contains("@2?relay-protocol=irn&symKey="),
                "{uri}"
            );
            wallet.run(&format!("pair {uri}")).await;
            let proposal = wallet.expect("proposal").await;
            assert_eq!(proposal["proposer"]["name"], "latch dapp");
            assert_eq!(proposal["requiredNamespaces"]["eip155"]["chains"], json!(["eip155:1"]));
            let session = connecting.approval.await.unwrap();
            let approved = wallet.expect("approved").await;
            assert_eq!(
                approved["topic"],
                session.topic.as_str(),
                "both sides derived one session topic"
            );
            // What was asked for first, then the two devnet chains the wallet always adds.
            assert_eq!(
                session.namespaces["eip155"].accounts,
                [
                    ACCOUNT.to_owned(),
                    format!("eip155:31337:{ADDRESS}"),
                    format!("eip155:31338:{ADDRESS}")
                ]
            );
            assert_eq!(session.peer.metadata.name, "wallet");
            assert!(session.expiry > 1_700_000_000);
            assert_eq!(
                next_event(&mut events).await,
                SignEvent::SessionConnected(session.clone())
            );
            let topic = session.topic.clone();

            // Requests: a result, a wallet-side error, and one refused before sending.
            let signed = dapp
                .request(
                    &topic,
                    "eip155:1",
                    "personal_sign",
                    json!(["0x68656c6c6f", ACCOUNT.rsplit(':').next()]),
                    None,
                )
                .await
                .unwrap();
            // A real signature: it recovers to the wallet's account.
            let signer = latch_core::siwx::recover_personal_sign_address("hello", signed.as_str().unwrap()).unwrap();
            assert_eq!(signer, ADDRESS);
            let seen = wallet.expect("request").await;
            assert_eq!(
                (seen["method"].as_str(), seen["chainId"].as_str()),
                (Some("personal_sign"), Some("eip155:1"))
            );
            // This wallet has no RPC URL for eip155:1: it refuses to send.
            let rejected = dapp
                .request(&topic, "eip155:1", "eth_sendTransaction", json!([{}]), Some(600))
                .await;
            assert_eq!(
                rejected,
                Err(Error::Peer {
                    code: 5000,
                    message: "User rejected.".into()
                })
            );
            assert!(matches!(
                dapp.request(&topic, "eip155:1", "eth_sign", json!([]), None).await,
                Err(Error::NotAllowed(m)) if m == "request() method: eth_sign"
            ));
            assert!(matches!(
                dapp.request(&topic, "eip155:10", "personal_sign", json!([]), None).await,
                Err(Error::NotAllowed(m)) if m == "request() chainId: eip155:10"
            ));

            // Events from the wallet.
            wallet.run("accounts").await;
            let SignEvent::SessionEvent {
                name, data, chain_id, ..
            } = next_event(&mut events).await
            else {
                panic!("an accountsChanged event")
            };
            assert_eq!(
                (name.as_str(), chain_id.as_str(), data),
                ("accountsChanged", "eip155:1", json!([ACCOUNT]))
            );
            wallet.run("chain").await;
            let SignEvent::SessionEvent { name, data, .. } = next_event(&mut events).await else {
                panic!("a chainChanged event")
            };
            assert_eq!((name.as_str(), data), ("chainChanged", json!(1)));

            // Update and extend (the wallet awaits the dapp's acknowledgement).
            wallet.run("update").await;
            let SignEvent::SessionUpdated { namespaces, .. } = next_event(&mut events).await else {
                panic!("an update")
            };
            assert_eq!(namespaces["eip155"].accounts.len(), 2);
            assert_eq!(dapp.sessions()[0].namespaces, namespaces);
            let polygon = dapp
                .request(
                    &topic,
                    "eip155:137",
                    "personal_sign",
                    json!(["0x00", ACCOUNT.rsplit(':').next()]),
                    None,
                )
                .await;
            assert!(polygon.is_ok(), "the updated chain is usable: {polygon:?}");
            wallet.run("extend").await;
            assert!(matches!(
                next_event(&mut events).await,
                SignEvent::SessionExtended { .. }
            ));

            // Pings both ways.
            dapp.ping(&topic).await.unwrap();
            wallet.run("ping").await;
            assert_eq!(
                next_event(&mut events).await,
                SignEvent::SessionPing { topic: topic.clone() }
            );

            // Persisted: a new client on the same storage has the session.
            let stored = storage.get("wc@2:client:0.3//session").await.unwrap().unwrap();
            assert!(stored.contains(&topic));
            let (restored, _) = dapp_without_run(&url, &storage).await;
            assert_eq!(restored.sessions(), dapp.sessions());
            assert_eq!(
                restored.relay().client_id(),
                dapp.relay().client_id(),
                "same relay identity"
            );

            // The wallet disconnects.
            wallet.run("delete").await;
            let SignEvent::SessionDeleted { reason, .. } = next_event(&mut events).await else {
                panic!("a deletion")
            };
            assert_eq!((reason.code, reason.message.as_str()), (6000, "User disconnected."));
            assert!(dapp.sessions().is_empty());
            assert!(matches!(dapp.ping(&topic).await, Err(Error::UnknownTopic(_))));

            // A second session, which the dapp ends.
            let connecting = dapp.connect(eip155()).await.unwrap();
            wallet.run(&format!("pair {}", connecting.uri)).await;
            let session = connecting.approval.await.unwrap();
            wallet.expect("approved").await;
            dapp.disconnect(&session.topic).await.unwrap();
            let deleted = wallet.expect("deleted").await;
            assert_eq!(deleted["topic"], session.topic.as_str());
            assert!(dapp.sessions().is_empty());
            dapp.close();
        })
        .await;
    // The wallet closes its socket and exits; kill_on_drop covers a hang.
    let _ = wallet.stdin.write_all(b"quit\n").await;
}

/// A client on the same storage, not started (to read what it restored).
async fn dapp_without_run(url: &str, storage: &MemoryStorage) -> (SignClient, Receiver<SignEvent>) {
    SignClient::new(
        SignOptions {
            relay: RelayOptions::new(url),
            metadata: Metadata::default(),
        },
        Rc::new(TungsteniteTransport),
        Rc::new(storage.clone()),
        Rc::new(TokioClock),
    )
    .await
    .unwrap()
}

/// Storage whose writes fail once `full` is set, as a full disk or a browser
/// refusing IndexedDB writes would (a stand-in: no real storage fails on cue).
#[derive(Clone, Default)]
struct FillingStorage {
    inner: MemoryStorage,
    full: Rc<Cell<bool>>,
}

impl Storage for FillingStorage {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, latch_walletconnect::Result<Option<String>>> {
        self.inner.get(key)
    }

    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, latch_walletconnect::Result<()>> {
        if self.full.get() {
            return Box::pin(async { Err(Error::Storage("quota exceeded".into())) });
        }
        self.inner.set(key, value)
    }

    fn remove(&self, key: &str) -> LocalBoxFuture<'static, latch_walletconnect::Result<()>> {
        if self.full.get() {
            return Box::pin(async { Err(Error::Storage("quota exceeded".into())) });
        }
        self.inner.remove(key)
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_storage_that_refuses_writes_does_not_stop_a_pairing() {
    let latch = Latch::start().await;
    let url = latch.relay_url();
    let mut wallet = Wallet::start(&url, None).await;
    let storage = FillingStorage::default();
    tokio::task::LocalSet::new()
        .run_until(async {
            let (dapp, mut events) = dapp_on(&url, Rc::new(storage.clone())).await;
            let written = storage.inner.keys();
            storage.full.set(true);

            let connecting = dapp.connect(eip155()).await.unwrap();
            wallet.run(&format!("pair {}", connecting.uri)).await;
            wallet.expect("proposal").await;
            // The settlement is answered and the app told, though it could not be written down.
            let session = connecting.approval.await.unwrap();
            let approved = wallet.expect("approved").await;
            assert_eq!(approved["topic"], session.topic.as_str());
            assert_eq!(
                next_event(&mut events).await,
                SignEvent::SessionConnected(session.clone())
            );
            assert_eq!(storage.inner.keys(), written, "nothing was written");
            // The session works for as long as the page lives.
            dapp.ping(&session.topic).await.unwrap();
            dapp.close();
        })
        .await;
    let _ = wallet.stdin.write_all(b"quit\n").await;
}
