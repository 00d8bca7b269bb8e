//! The provider layer end to end, all parts real: this crate's EIP-1193
//! provider as the dapp, the official wallet client (@walletconnect/sign-client
//! 2.21.8, `tests/wallet.mjs`, signing with anvil's account 1 through viem) as
//! the wallet, `latch serve --dev` as relay and RPC gateway, and two anvil
//! chains (31337 behind the gateway, 31338 through the rpcMap).
//! Needs the root `node_modules` (`npm ci`) and the `latch` binary (`cargo build -p latch-server`).

mod common;

use std::rc::Rc;
use std::time::Duration;

use common::{Anvil, Latch, Wallet};
use latch_walletconnect::io::{MemoryStorage, Storage};
use latch_walletconnect::json;
use latch_walletconnect::json::Value;
use latch_walletconnect::map::Map;
use latch_walletconnect::native::{ReqwestHttp, TokioClock, TungsteniteTransport};
use latch_walletconnect::provider::{Provider, ProviderEvent, ProviderOptions, STORE_DEFAULT_CHAIN, STORE_NAMESPACES};
use latch_walletconnect::relay::RelayOptions;
use latch_walletconnect::sign::{ConnectParams, Metadata, ProposalNamespace, SignClient, SignOptions};
use latch_walletconnect::task::Receiver;
use latch_walletconnect::Error;
use tokio::io::AsyncWriteExt;

const ADDRESS: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
/// Anvil's account 2: where the test transaction goes.
const RECIPIENT: &str = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
/// What anvil funds every account with: 10 000 ETH.
const FUNDED: &str = "0x21e19e0c9bab2400000";

/// A provider (and its Sign client) on `storage`, running on the current `LocalSet`.
async fn provider(
    relay_url: &str,
    storage: &MemoryStorage,
    options: ProviderOptions,
    run: bool,
) -> (Provider, Receiver<ProviderEvent>) {
    let sign_options = SignOptions {
        relay: RelayOptions::new(relay_url),
        metadata: Metadata {
            name: "latch provider".into(),
            description: "the Rust EIP-1193 provider".into(),
            url: "http://127.0.0.1".into(),
            icons: vec![],
        },
    };
    let storage: Rc<dyn Storage> = Rc::new(storage.clone());
    let (client, sign_events) = SignClient::new(
        sign_options,
        Rc::new(TungsteniteTransport),
        storage.clone(),
        Rc::new(TokioClock),
    )
    .await
    .unwrap();
    let (provider, events) = Provider::new(client, sign_events, Rc::new(ReqwestHttp::default()), storage, options)
        .await
        .unwrap();
    if run {
        let runner = provider.clone();
        tokio::task::spawn_local(async move { runner.run().await });
    }
    (provider, events)
}

/// The next provider event that is not a pass-through of the engine's.
async fn next(events: &mut Receiver<ProviderEvent>) -> ProviderEvent {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            match events.recv().await.expect("events open") {
                ProviderEvent::Sign(_) => continue,
                event => return event,
            }
        }
    })
    .await
    .expect("a provider event within 30 s")
}

/// Skips provider events until `wanted` (the wallet's update and event arrive in their own time).
async fn until(events: &mut Receiver<ProviderEvent>, wanted: &ProviderEvent) {
    loop {
        if next(events).await == *wanted {
            return;
        }
    }
}

fn devnet_params() -> ConnectParams {
    let namespace = |chain: &str| ProposalNamespace {
        chains: Some(vec![chain.into()]),
        methods: vec!["personal_sign".into(), "eth_sendTransaction".into()],
        events: vec!["accountsChanged".into(), "chainChanged".into()],
    };
    ConnectParams {
        required_namespaces: Map::from([("eip155".into(), namespace("eip155:31337"))]),
        optional_namespaces: Map::from([("eip155".into(), namespace("eip155:31338"))]),
        session_properties: None,
    }
}

#[tokio::test(flavor = "current_thread")]
async fn the_provider_with_the_official_wallet_on_anvil() {
    let first = Anvil::start(31337).await;
    let second = Anvil::start(31338).await;
    let latch = Latch::start_dev(&[("eip155:31337", &first.url)]).await;
    let url = latch.relay_url();
    let rpc = format!("eip155:31337={},eip155:31338={}", first.url, second.url);
    let mut wallet = Wallet::start(&url, Some(&rpc)).await;
    let storage = MemoryStorage::default();
    let options = ProviderOptions {
        rpc_map: Map::from([("eip155:31338".into(), second.url.clone())]),
        gateway_url: Some(latch.http_url()),
        project_id: Some("demo".into()),
    };
    tokio::task::LocalSet::new()
        .run_until(async {
            let (dapp, mut events) = provider(&url, &storage, options.clone(), true).await;

            // Before connect(): the documented messages.
            assert_eq!(
                dapp.request("eth_accounts", json!([]), None).await,
                Err(Error::RequestBeforeConnect)
            );
            assert_eq!(dapp.enable().await, Err(Error::EnableBeforeConnect));
            assert_eq!(dapp.chain_id(), None);

            // Connect: the wallet approves 31337 (asked for first) and 31338.
            let connecting = dapp.connect(devnet_params(), None).await.unwrap();
            wallet.run(&format!("pair {}", connecting.uri)).await;
            let session = connecting.approval.await.unwrap();
            wallet.expect("approved").await;
            assert_eq!(next(&mut events).await, ProviderEvent::Connect(session.clone()));
            assert_eq!(dapp.chain_id().as_deref(), Some("eip155:31337"));
            assert_eq!(dapp.enable().await.unwrap(), [ADDRESS]);
            assert_eq!(
                dapp.request("eth_requestAccounts", json!([]), None).await,
                Ok(json!([ADDRESS]))
            );
            assert_eq!(
                dapp.request("eth_accounts", json!([]), None).await,
                Ok(json!([ADDRESS]))
            );
            assert_eq!(dapp.request("eth_chainId", json!([]), None).await, Ok(json!("0x7a69")));
            let stored = storage.get(STORE_DEFAULT_CHAIN).await.unwrap();
            assert_eq!(stored.as_deref(), Some("\"eip155:31337\""));

            // personal_sign goes to the wallet; the signature recovers to its account.
            let signature = dapp
                .request("personal_sign", json!(["0x68656c6c6f", ADDRESS]), None)
                .await
                .unwrap();
            let signer = latch_core::siwx::recover_personal_sign_address("hello", signature.as_str().unwrap()).unwrap();
            assert_eq!(signer, ADDRESS);
            assert_eq!(wallet.expect("request").await["method"], "personal_sign");

            // eth_sendTransaction: the wallet sends it to anvil, the hash has a successful receipt.
            let hash = dapp
                .request(
                    "eth_sendTransaction",
                    json!([{ "from": ADDRESS, "to": RECIPIENT, "value": "0x2386f26fc10000" }]),
                    None,
                )
                .await
                .unwrap();
            assert_eq!(wallet.expect("request").await["method"], "eth_sendTransaction");
            let hash = hash.as_str().unwrap().to_owned();
            assert!(hash.starts_with("0x") && hash.len() == 66, "{hash}");
            let receipt = first.rpc("eth_getTransactionReceipt", json!([hash])).await;
            assert_eq!(receipt["status"], "0x1", "{receipt}");
            assert_eq!(
                receipt["to"].as_str().map(str::to_lowercase),
                Some(RECIPIENT.to_lowercase())
            );

            // Reads go over HTTP, not to the wallet: 31337 through the Latch gateway, 31338 through the rpcMap.
            let block = dapp.request("eth_blockNumber", json!([]), None).await.unwrap();
            assert_eq!(block, first.rpc("eth_blockNumber", json!([])).await);
            assert_eq!(block, "0x1", "the one transaction was mined");
            let receipt_via_gateway = dapp
                .request("eth_getTransactionReceipt", json!([hash]), None)
                .await
                .unwrap();
            assert_eq!(receipt_via_gateway["status"], "0x1");
            let spent = dapp
                .request("eth_getBalance", json!([ADDRESS, "latest"]), None)
                .await
                .unwrap();
            assert_ne!(spent, FUNDED, "31337 paid value and gas");
            let untouched = dapp
                .request("eth_getBalance", json!([ADDRESS, "latest"]), Some("eip155:31338"))
                .await
                .unwrap();
            assert_eq!(untouched, FUNDED, "31338 is the other anvil");
            assert_eq!(
                dapp.request("eth_blockNumber", json!([]), Some("eip155:31338")).await,
                Ok(json!("0x0"))
            );
            // An RPC node's error keeps its code.
            let refused = dapp.request("eth_getBalance", json!(["not an address"]), None).await;
            assert!(matches!(&refused, Err(Error::Rpc { .. })), "{refused:?}");
            assert!(refused.unwrap_err().rpc_code().is_some());

            // The behaviour 2.9 messages where they arise.
            assert_eq!(
                dapp.request("getBalance", json!([]), Some("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"))
                    .await,
                Err(Error::NamespaceNotConfigured("solana".into()))
            );
            assert_eq!(
                dapp.request("eth_blockNumber", json!([]), Some("eip155:10")).await,
                Err(Error::NoJsonRpcProvider("eip155:10".into()))
            );
            // A chain the session lacks is asked of the wallet (it lists the method); this one it does not know.
            let unknown = dapp
                .request("wallet_switchEthereumChain", json!([{ "chainId": "0xa" }]), None)
                .await;
            assert_eq!(
                unknown.as_ref().map_err(Error::rpc_code),
                Err(Some(4902)),
                "{unknown:?}"
            );
            assert_eq!(wallet.expect("request").await["method"], "wallet_switchEthereumChain");
            assert_eq!(
                dapp.chain_id().as_deref(),
                Some("eip155:31337"),
                "a refused switch changes nothing"
            );

            // The wallet switches to 31338: default chain, events, persisted.
            wallet.run("switch eip155:31338").await;
            assert_eq!(next(&mut events).await, ProviderEvent::ChainChanged("0x7a6a".into()));
            assert_eq!(
                next(&mut events).await,
                ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
            );
            // The wallet's accountsChanged for the new chain follows.
            assert_eq!(
                next(&mut events).await,
                ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
            );
            assert_eq!(dapp.chain_id().as_deref(), Some("eip155:31338"));
            assert_eq!(dapp.request("eth_chainId", json!([]), None).await, Ok(json!("0x7a6a")));
            assert_eq!(
                dapp.request("eth_getBalance", json!([ADDRESS, "latest"]), None).await,
                Ok(json!(FUNDED)),
                "the default chain's reads go to its own node"
            );
            let stored = storage.get(STORE_DEFAULT_CHAIN).await.unwrap();
            assert_eq!(stored.as_deref(), Some("\"eip155:31338\""));

            // A reload: a new provider on the same storage has the session and the chain, no new pairing.
            let (reloaded, _) = provider(&url, &storage, ProviderOptions::default(), false).await;
            assert_eq!(reloaded.session().map(|s| s.topic), Some(session.topic.clone()));
            assert_eq!(reloaded.chain_id().as_deref(), Some("eip155:31338"));
            assert_eq!(reloaded.client().pending_pairings(), 0);
            assert_eq!(
                reloaded.request("eth_accounts", json!([]), None).await,
                Ok(json!([ADDRESS]))
            );
            // That one has neither rpcMap nor gateway.
            assert_eq!(
                reloaded.request("eth_blockNumber", json!([]), None).await,
                Err(Error::NoRpcUrl("31338".into()))
            );
            reloaded.close();

            // A chain the wallet knows but the session lacks: the wallet adds it (session update), then the switch.
            let switched = dapp
                .request("wallet_switchEthereumChain", json!([{ "chainId": "0x1" }]), None)
                .await;
            assert_eq!(switched, Ok(Value::Null));
            assert_eq!(wallet.expect("request").await["method"], "wallet_switchEthereumChain");
            assert_eq!(dapp.chain_id().as_deref(), Some("eip155:1"));
            assert!(dapp.session().unwrap().namespaces["eip155"].has_chain("eip155:1"));
            // The wallet's chainChanged and its answer lead to one switch: one pair of events.
            until(&mut events, &ProviderEvent::ChainChanged("0x1".into())).await;
            assert_eq!(
                next(&mut events).await,
                ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
            );
            assert_eq!(
                dapp.request("eth_accounts", json!([]), None).await,
                Ok(json!([ADDRESS]))
            );

            // A local switch back to an approved chain (the wallet hears nothing).
            let switched = dapp
                .request("wallet_switchEthereumChain", json!([{ "chainId": "0x7a69" }]), None)
                .await;
            assert_eq!(switched, Ok(Value::Null));
            assert_eq!(next(&mut events).await, ProviderEvent::ChainChanged("0x7a69".into()));
            assert_eq!(
                next(&mut events).await,
                ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
            );
            assert_eq!(dapp.chain_id().as_deref(), Some("eip155:31337"));

            // A user rejection keeps the wallet's code.
            wallet.run("reject").await;
            let rejected = dapp.request("personal_sign", json!(["0x00", ADDRESS]), None).await;
            assert_eq!(
                rejected,
                Err(Error::Peer {
                    code: 5000,
                    message: "User rejected.".into()
                })
            );
            wallet.run("accept").await;

            // A pairing left pending, then the wallet disconnects: all of it goes.
            let pending = dapp.connect(devnet_params(), None).await.unwrap();
            assert_eq!(dapp.client().pending_pairings(), 1);
            wallet.run("delete").await;
            let ProviderEvent::Disconnect(reason) = next(&mut events).await else {
                panic!("a disconnect event")
            };
            assert_eq!((reason.code, reason.message.as_str()), (6000, "User disconnected."));
            assert_eq!(dapp.session(), None);
            assert_eq!(dapp.chain_id(), None);
            assert_eq!(dapp.client().pending_pairings(), 0);
            assert!(matches!(pending.approval.await, Err(Error::SessionEnded(_))));
            assert_eq!(storage.get(STORE_NAMESPACES).await.unwrap(), None);
            assert_eq!(storage.get(STORE_DEFAULT_CHAIN).await.unwrap(), None);
            assert_eq!(
                storage.get("wc@2:client:0.3//session").await.unwrap().as_deref(),
                Some("[]")
            );
            let keychain: Map<String, String> =
                latch_walletconnect::from_json(&storage.get("wc@2:core:0.3//keychain").await.unwrap().unwrap())
                    .unwrap();
            assert_eq!(
                keychain.keys().collect::<Vec<_>>(),
                ["client_ed25519_seed"],
                "no pairing or session key left"
            );
            assert_eq!(
                dapp.request("eth_accounts", json!([]), None).await,
                Err(Error::RequestBeforeConnect)
            );

            // Connect again with a default chain, then the dapp disconnects.
            let connecting = dapp
                .connect(devnet_params(), Some("eip155:31338".into()))
                .await
                .unwrap();
            wallet.run(&format!("pair {}", connecting.uri)).await;
            let session = connecting.approval.await.unwrap();
            wallet.expect("approved").await;
            assert!(matches!(next(&mut events).await, ProviderEvent::Connect(_)));
            assert_eq!(dapp.chain_id().as_deref(), Some("eip155:31338"));
            dapp.disconnect().await.unwrap();
            assert_eq!(wallet.expect("deleted").await["topic"], session.topic.as_str());
            let ProviderEvent::Disconnect(reason) = next(&mut events).await else {
                panic!("a disconnect event")
            };
            assert_eq!(reason.code, 6000);
            assert_eq!(storage.get(STORE_DEFAULT_CHAIN).await.unwrap(), None);

            // Closed: the documented words.
            dapp.close();
            assert_eq!(dapp.request("eth_chainId", json!([]), None).await, Err(Error::Closed));
            assert_eq!(Error::Closed.to_string(), "Sign Client not initialized");
        })
        .await;
    let _ = wallet.stdin.write_all(b"quit\n").await;
}
