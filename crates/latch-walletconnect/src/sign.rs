//! The Sign engine, dapp side: propose a session over a new pairing, take the
//! wallet's settlement, send requests and take their answers, take events,
//! updates, extensions, pings and deletions, and expire what outlives its time.
//!
//! [`SignClient::run`] drives everything (relay connection, incoming
//! messages, the expirer); the host spawns it once. What the wallet does
//! arrives as [`SignEvent`]s on the receiver [`SignClient::new`] returns.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use latch_core::validate::ExpirerTarget;

use crate::crypto::{self, random_bytes, topic_of, Envelope, KeyPair, SymKey};
use crate::io::{Clock, Storage, Transport};
use crate::json::{FromValue, ToValue, Value};
use crate::map::Map;
use crate::relay::{Relay, RelayMessage, RelayOptions};
use crate::task::{self, select, Either, Receiver, Sender};
use crate::uri::PairingUri;
use crate::{json, to_json, Error, Result};

/// Seconds.
const FIVE_MINUTES: u64 = 300;
const ONE_DAY: u64 = 86_400;
const SEVEN_DAYS: u64 = 7 * ONE_DAY;
/// The expirer's tick, ms.
const EXPIRER_TICK_MS: u64 = 1_000;
/// The JS client's message when a request outlives its expiry.
pub const REQUEST_EXPIRED: &str = "Request expired. Please try again.";
/// The JS client's message when nobody approved a proposal in time.
pub const PROPOSAL_EXPIRED: &str = "Proposal expired";
/// Storage keys (the JS client's names, so a browser profile reads like one).
const STORE_SESSIONS: &str = "wc@2:client:0.3//session";
const STORE_KEYCHAIN: &str = "wc@2:core:0.3//keychain";
const STORE_EXPIRER: &str = "wc@2:core:0.3//expirer";
const CLIENT_SEED: &str = "client_ed25519_seed";

/// (ttl seconds, tag) of each message the dapp sends, from the protocol's table.
mod opts {
    pub(super) const PROPOSE: (u64, u32) = (super::FIVE_MINUTES, 1100);
    pub(super) const SETTLE_RES: (u64, u32) = (super::FIVE_MINUTES, 1103);
    pub(super) const UPDATE_RES: (u64, u32) = (super::ONE_DAY, 1105);
    pub(super) const EXTEND_RES: (u64, u32) = (super::ONE_DAY, 1107);
    pub(super) const REQUEST: (u64, u32) = (super::FIVE_MINUTES, 1108);
    pub(super) const EVENT_RES: (u64, u32) = (super::FIVE_MINUTES, 1111);
    pub(super) const DELETE: (u64, u32) = (super::ONE_DAY, 1112);
    pub(super) const DELETE_RES: (u64, u32) = (super::ONE_DAY, 1113);
    pub(super) const PING: (u64, u32) = (super::ONE_DAY, 1114);
    pub(super) const PING_RES: (u64, u32) = (super::ONE_DAY, 1115);
    pub(super) const PAIRING_DELETE_RES: (u64, u32) = (super::ONE_DAY, 1001);
    pub(super) const PAIRING_PING_RES: (u64, u32) = (30, 1003);
    pub(super) const UNKNOWN: (u64, u32) = (super::ONE_DAY, 0);
}

/// The dapp as wallets show it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata {
    /// Name.
    pub name: String,
    /// One line.
    pub description: String,
    /// Its origin.
    pub url: String,
    /// Icon URLs.
    pub icons: Vec<String>,
}

/// A CAIP-25 namespace asked for in a proposal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProposalNamespace {
    /// CAIP-2 chains (absent when the key itself is a chain, `eip155:1`).
    pub chains: Option<Vec<String>>,
    /// JSON-RPC methods.
    pub methods: Vec<String>,
    /// Events.
    pub events: Vec<String>,
}

/// A CAIP-25 namespace the wallet granted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SessionNamespace {
    /// CAIP-10 accounts.
    pub accounts: Vec<String>,
    /// CAIP-2 chains, when the wallet lists them.
    pub chains: Option<Vec<String>>,
    /// Methods.
    pub methods: Vec<String>,
    /// Events.
    pub events: Vec<String>,
}

impl SessionNamespace {
    /// Whether `chain` is granted: listed in `chains` or in an account.
    pub fn has_chain(&self, chain: &str) -> bool {
        self.chains.iter().flatten().any(|c| c == chain)
            || self
                .accounts
                .iter()
                .any(|a| a.rsplit_once(':').is_some_and(|(c, _)| c == chain))
    }
}

/// What [`SignClient::connect`] proposes (read from JS in camelCase).
#[derive(Debug, Clone, Default)]
pub struct ConnectParams {
    /// Namespaces the wallet must grant.
    pub required_namespaces: Map<String, ProposalNamespace>,
    /// Namespaces the wallet may grant.
    pub optional_namespaces: Map<String, ProposalNamespace>,
    /// Free-form `sessionProperties`.
    pub session_properties: Option<Map<String, String>>,
}

/// The other side of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Its X25519 public key (hex).
    pub public_key: String,
    /// How it presents itself.
    pub metadata: Metadata,
}

/// A settled session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The session topic.
    pub topic: String,
    /// The pairing it was proposed over.
    pub pairing_topic: String,
    /// Unix seconds.
    pub expiry: u64,
    /// What the wallet granted.
    pub namespaces: Map<String, SessionNamespace>,
    /// What was asked for.
    pub required_namespaces: Map<String, ProposalNamespace>,
    /// What was offered.
    pub optional_namespaces: Map<String, ProposalNamespace>,
    /// The wallet (the controller).
    pub peer: Peer,
    /// The dapp's own public key for this session.
    pub self_public_key: String,
}

/// A JSON-RPC error as the protocol sends it (`{code, message}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// Code (`6000` user disconnected, `5000` user rejected, …).
    pub code: i64,
    /// Message.
    pub message: String,
}

// Read and written by hand (crate::json): derived serde code was a large part of the browser module.
crate::json_record!(Metadata {
    name: field("name"),
    description: field("description"),
    url: field("url"),
    icons: or_default("icons"),
});

crate::json_record!(ProposalNamespace {
    chains: optional("chains"),
    methods: field("methods"),
    events: field("events"),
});

crate::json_record!(SessionNamespace {
    accounts: field("accounts"),
    chains: optional("chains"),
    methods: field("methods"),
    events: field("events"),
});

crate::read_fields!(ConnectParams {
    required_namespaces: or_default("requiredNamespaces"),
    optional_namespaces: or_default("optionalNamespaces"),
    session_properties: optional("sessionProperties"),
});

crate::json_record!(Peer {
    public_key: field("publicKey"),
    metadata: field("metadata"),
});

crate::json_record!(Session {
    topic: field("topic"),
    pairing_topic: field("pairingTopic"),
    expiry: field("expiry"),
    namespaces: field("namespaces"),
    required_namespaces: field("requiredNamespaces"),
    optional_namespaces: field("optionalNamespaces"),
    peer: field("peer"),
    self_public_key: field("selfPublicKey"),
});

crate::json_record!(Reason {
    code: field("code"),
    message: field("message"),
});

/// What happened, as the app sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum SignEvent {
    /// A proposal was approved and settled.
    SessionConnected(Session),
    /// `wc_sessionEvent` (`accountsChanged`, `chainChanged`, …).
    SessionEvent {
        /// Session topic.
        topic: String,
        /// CAIP-2 chain.
        chain_id: String,
        /// Event name.
        name: String,
        /// Event data.
        data: Value,
    },
    /// The wallet changed the granted namespaces.
    SessionUpdated {
        /// Session topic.
        topic: String,
        /// The new namespaces.
        namespaces: Map<String, SessionNamespace>,
    },
    /// The wallet extended the session.
    SessionExtended {
        /// Session topic.
        topic: String,
        /// New expiry, unix seconds.
        expiry: u64,
    },
    /// The wallet pinged.
    SessionPing {
        /// Session topic.
        topic: String,
    },
    /// The wallet ended the session.
    SessionDeleted {
        /// Session topic.
        topic: String,
        /// Why, as the wallet said.
        reason: Reason,
    },
    /// A session reached its expiry.
    SessionExpired {
        /// Session topic.
        topic: String,
    },
    /// A proposal nobody approved in time.
    ProposalExpired {
        /// The proposal id.
        id: u64,
    },
}

/// Construction options.
#[derive(Debug, Clone)]
pub struct SignOptions {
    /// The relay.
    pub relay: RelayOptions,
    /// The dapp's metadata.
    pub metadata: Metadata,
}

/// An outstanding [`SignClient::connect`]: show `uri`, await `approval`.
pub struct Connecting {
    /// The pairing URI for the QR code or deep link.
    pub uri: PairingUri,
    /// The proposal id.
    pub id: u64,
    /// Resolves with the session once the wallet settles it.
    pub approval: Pin<Box<dyn Future<Output = Result<Session>>>>,
}

impl std::fmt::Debug for Connecting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connecting")
            .field("uri", &self.uri)
            .field("id", &self.id)
            .finish()
    }
}

struct Proposal {
    pairing_topic: String,
    key_pair: KeyPair,
    params: ConnectParams,
    done: Sender<Result<Session>>,
}

/// A sealed message to publish: topic, envelope, (ttl, tag).
type Reply = (String, String, (u64, u32));

/// What handling a message or an expiry leaves to do once the state is
/// updated, in this order (`SignClient::perform`). Handlers decide without
/// awaiting; one place awaits, so the engine compiles one state machine for
/// it rather than one per handler and answer.
#[derive(Default)]
struct Effects {
    /// Write the state to storage.
    persist: bool,
    /// Answer the peer.
    reply: Option<Reply>,
    /// Stop listening to a topic.
    unsubscribe: Option<String>,
    /// Start listening to a topic.
    subscribe: Option<String>,
    /// Resolve a `connect()`'s approval.
    settled: Option<(Sender<Result<Session>>, Session)>,
    /// Tell the app.
    event: Option<SignEvent>,
}

struct Waiting {
    topic: String,
    done: Sender<Result<Value>>,
}

#[derive(Default)]
struct State {
    /// Topic → key, for every pairing and session.
    keys: Map<String, SymKey>,
    proposals: Map<u64, Proposal>,
    /// Session topic → proposal id, between the proposal's answer and the settlement.
    settling: Map<String, u64>,
    sessions: Map<String, Session>,
    /// Our requests awaiting the peer's answer, by id.
    waiting: Map<u64, Waiting>,
    /// `topic:…` / `id:…` → expiry in ms.
    expirer: Map<String, u64>,
    last_id: u64,
    closed: bool,
}

struct Inner {
    relay: Relay,
    storage: Rc<dyn Storage>,
    clock: Rc<dyn Clock>,
    metadata: Metadata,
    /// The keychain's `client_ed25519_seed` entry, as stored: written back
    /// with the session keys, so persisting need not read the keychain again.
    client_seed: String,
    state: RefCell<State>,
    events: Sender<SignEvent>,
    messages: RefCell<Option<Receiver<RelayMessage>>>,
}

/// The dapp's Sign client; clones share it.
#[derive(Clone)]
pub struct SignClient {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for SignClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignClient").field("relay", &self.inner.relay).finish()
    }
}

impl SignClient {
    /// A client restored from `storage` (its relay identity, keys, sessions
    /// and expiries; a new identity when there is none), and its event receiver.
    pub async fn new(
        options: SignOptions,
        transport: Rc<dyn Transport>,
        storage: Rc<dyn Storage>,
        clock: Rc<dyn Clock>,
    ) -> Result<(Self, Receiver<SignEvent>)> {
        let mut keychain: Map<String, String> = load(&*storage, STORE_KEYCHAIN).await?;
        let seed = match keychain.get(CLIENT_SEED).map(|s| crypto::parse_hex32(s, "client seed")) {
            Some(Ok(seed)) => seed,
            _ => {
                let seed = random_bytes::<32>()?;
                keychain.insert(CLIENT_SEED.into(), hex::encode(seed));
                storage.set(STORE_KEYCHAIN, to_json(&keychain)).await?;
                seed
            }
        };
        let client_seed = keychain.get(CLIENT_SEED).cloned().unwrap_or_default();
        let sessions: Vec<Session> = load(&*storage, STORE_SESSIONS).await?;
        let expirer: Map<String, u64> = load(&*storage, STORE_EXPIRER).await?;
        let (relay, messages) = Relay::new(options.relay, seed, transport, clock.clone())?;
        let mut state = State::default();
        for session in sessions {
            if let Some(Ok(key)) = keychain.get(&session.topic).map(|k| SymKey::from_hex(k)) {
                state.keys.insert(session.topic.clone(), key);
                state.sessions.insert(session.topic.clone(), session);
            }
        }
        // Only session expiries outlive a reload; proposals and requests died with the page.
        state.expirer = expirer
            .into_iter()
            .filter(|(target, _)| match target.parse() {
                Ok(ExpirerTarget::Topic(topic)) => state.sessions.contains_key(&topic),
                _ => false,
            })
            .collect();
        let (events, received) = task::channel();
        let inner = Inner {
            relay,
            storage,
            clock,
            metadata: options.metadata,
            client_seed,
            state: RefCell::new(state),
            events,
            messages: RefCell::new(Some(messages)),
        };
        Ok((SignClient { inner: Rc::new(inner) }, received))
    }

    /// The relay connection (its client id, connection state).
    pub fn relay(&self) -> &Relay {
        &self.inner.relay
    }

    /// The settled sessions.
    pub fn sessions(&self) -> Vec<Session> {
        self.inner.state.borrow().sessions.values().cloned().collect()
    }

    /// Runs the relay connection, the message handler and the expirer until
    /// [`SignClient::close`] (or the relay refuses the client). Spawn it once.
    pub async fn run(&self) -> Result<()> {
        let Some(mut messages) = self.inner.messages.borrow_mut().take() else {
            return Err(Error::Closed);
        };
        let relay = self.inner.relay.run();
        let this = self.clone();
        let handle = async move {
            // Restored sessions: listen again (the relay pushes what waited).
            let restored: Vec<String> = this.inner.state.borrow().sessions.keys().cloned().collect();
            for topic in restored {
                if let Err(error) = this.inner.relay.subscribe(&topic).await {
                    tracing::warn!(%error, "sign: resubscribing a restored session failed");
                }
            }
            while let Some(message) = messages.recv().await {
                if let Err(error) = this.on_message(message).await {
                    tracing::warn!(%error, "sign: message not handled");
                }
            }
        };
        let expirer = async {
            loop {
                self.inner.clock.sleep(EXPIRER_TICK_MS).await;
                if self.inner.state.borrow().closed {
                    return;
                }
                self.expire().await;
            }
        };
        match select(relay, task::join(handle, expirer)).await {
            Either::Left(result) => result,
            Either::Right(_) => Ok(()),
        }
    }

    /// Closes the relay connection; [`SignClient::run`] returns.
    pub fn close(&self) {
        self.inner.state.borrow_mut().closed = true;
        self.inner.relay.close();
    }

    /// A JSON-RPC id as the JS client makes them: ms × 1000 + 3 random digits, increasing.
    fn next_id(&self) -> Result<u64> {
        let random = u64::from(u16::from_le_bytes(random_bytes::<2>()?) % 1000);
        let mut state = self.inner.state.borrow_mut();
        let id = (self.inner.clock.now_ms() * 1000 + random).max(state.last_id.saturating_add(1));
        state.last_id = id;
        Ok(id)
    }

    fn now_secs(&self) -> u64 {
        self.inner.clock.now_ms() / 1000
    }

    fn emit(&self, event: SignEvent) {
        let _ = self.inner.events.send(event);
    }

    /// Proposes a session over a new pairing. Pairings left over from earlier
    /// attempts that nobody answered are dropped first.
    pub async fn connect(&self, params: ConnectParams) -> Result<Connecting> {
        self.cleanup_pending_pairings().await;
        let sym_key = SymKey::random()?;
        let expiry = self.now_secs() + FIVE_MINUTES;
        let uri = PairingUri::new(sym_key.clone(), expiry);
        let key_pair = KeyPair::generate()?;
        let id = self.next_id()?;
        let mut proposal = json!({
            "requiredNamespaces": params.required_namespaces,
            "optionalNamespaces": params.optional_namespaces,
            "relays": [{ "protocol": "irn" }],
            "proposer": { "publicKey": key_pair.public_hex(), "metadata": self.inner.metadata },
            "expiryTimestamp": expiry,
            "pairingTopic": uri.topic,
            "id": id,
        });
        if let Value::Object(fields) = &mut proposal {
            params.session_properties.put(fields, "sessionProperties");
        }
        let (done, mut approval) = task::channel();
        {
            let mut state = self.inner.state.borrow_mut();
            state.keys.insert(uri.topic.clone(), sym_key);
            state.proposals.insert(
                id,
                Proposal {
                    pairing_topic: uri.topic.clone(),
                    key_pair,
                    params,
                    done,
                },
            );
            state.expirer.insert(ExpirerTarget::Id(id).to_string(), expiry * 1000);
        }
        self.inner.relay.subscribe(&uri.topic).await?;
        let payload = json!({ "id": id, "jsonrpc": "2.0", "method": "wc_sessionPropose", "params": proposal });
        self.publish(&uri.topic, &payload, opts::PROPOSE).await?;
        Ok(Connecting {
            uri,
            id,
            approval: Box::pin(async move { approval.recv().await.unwrap_or(Err(Error::Closed)) }),
        })
    }

    /// Unsubscribes and forgets pairings whose proposal is no longer awaited.
    async fn cleanup_pending_pairings(&self) {
        let stale: Vec<(u64, String)> = {
            let state = self.inner.state.borrow();
            state
                .proposals
                .iter()
                .filter(|(_, p)| p.done.is_closed())
                .map(|(id, p)| (*id, p.pairing_topic.clone()))
                .collect()
        };
        for (id, topic) in stale {
            self.forget_proposal(id);
            let _ = self.inner.relay.unsubscribe(&topic).await;
        }
    }

    /// Forgets every pairing whose proposal is not settled yet (their
    /// approvals fail with `session ended: pairing removed`) and stops
    /// listening to them: what the provider does before a new `connect()` and
    /// when a session ends, so no stale pairing outlives it.
    pub async fn remove_pending_pairings(&self) {
        let pending: Vec<u64> = self.inner.state.borrow().proposals.keys().copied().collect();
        for id in pending {
            let Some(proposal) = self.forget_proposal(id) else {
                continue;
            };
            self.inner.state.borrow_mut().settling.retain(|_, p| *p != id);
            let _ = proposal.done.send(Err(Error::SessionEnded("pairing removed".into())));
            let _ = self.inner.relay.unsubscribe(&proposal.pairing_topic).await;
        }
    }

    /// How many pairings await their proposal's answer.
    pub fn pending_pairings(&self) -> usize {
        self.inner.state.borrow().proposals.len()
    }

    fn forget_proposal(&self, id: u64) -> Option<Proposal> {
        let mut state = self.inner.state.borrow_mut();
        state.expirer.remove(&ExpirerTarget::Id(id).to_string());
        let proposal = state.proposals.remove(&id)?;
        state.keys.remove(&proposal.pairing_topic);
        Some(proposal)
    }

    /// Sends `method` with `params` to the wallet of session `topic` on `chain_id`
    /// and awaits its answer; the request expires after `expiry_secs`
    /// (300 s by default, at most 7 days), as the JS client's does.
    pub async fn request(
        &self,
        topic: &str,
        chain_id: &str,
        method: &str,
        params: Value,
        expiry_secs: Option<u64>,
    ) -> Result<Value> {
        let expiry = expiry_secs.unwrap_or(FIVE_MINUTES);
        if !(FIVE_MINUTES..=SEVEN_DAYS).contains(&expiry) {
            return Err(Error::NotAllowed(format!(
                "request() expiry: {expiry}. Expiry must be a number (in seconds) between {FIVE_MINUTES} and {SEVEN_DAYS}"
            )));
        }
        {
            let state = self.inner.state.borrow();
            let session = state
                .sessions
                .get(topic)
                .ok_or_else(|| Error::UnknownTopic(topic.into()))?;
            let namespace = chain_id.split(':').next().unwrap_or_default();
            let granted = session
                .namespaces
                .iter()
                .filter(|(key, _)| *key == namespace || *key == chain_id)
                .find(|(key, ns)| *key == chain_id || ns.has_chain(chain_id));
            let Some((_, granted)) = granted else {
                return Err(Error::NotAllowed(format!("request() chainId: {chain_id}")));
            };
            if !granted.methods.iter().any(|m| m == method) {
                return Err(Error::NotAllowed(format!("request() method: {method}")));
            }
        }
        let params = json!({
            "request": { "method": method, "params": params, "expiryTimestamp": self.now_secs() + expiry },
            "chainId": chain_id,
        });
        let (ttl, tag) = opts::REQUEST;
        self.call(
            topic,
            "wc_sessionRequest",
            params,
            (ttl.max(expiry), tag),
            expiry * 1000,
            REQUEST_EXPIRED,
        )
        .await
    }

    /// Pings the wallet of session `topic` and awaits its answer.
    pub async fn ping(&self, topic: &str) -> Result<()> {
        if !self.inner.state.borrow().sessions.contains_key(topic) {
            return Err(Error::UnknownTopic(topic.into()));
        }
        self.call(
            topic,
            "wc_sessionPing",
            json!({}),
            opts::PING,
            FIVE_MINUTES * 1000,
            "Ping expired",
        )
        .await
        .map(drop)
    }

    /// Ends session `topic`: tells the wallet (`6000 User disconnected.`) and forgets it.
    pub async fn disconnect(&self, topic: &str) -> Result<()> {
        if !self.inner.state.borrow().sessions.contains_key(topic) {
            return Err(Error::UnknownTopic(topic.into()));
        }
        let id = self.next_id()?;
        let payload = json!({
            "id": id, "jsonrpc": "2.0", "method": "wc_sessionDelete",
            "params": { "code": 6000, "message": "User disconnected." },
        });
        self.publish(topic, &payload, opts::DELETE).await?;
        self.perform(self.delete_session(topic, "User disconnected.")).await
    }

    /// Sends a request on `topic` and awaits the peer's answer for `timeout_ms`.
    async fn call(
        &self,
        topic: &str,
        method: &str,
        params: Value,
        opts: (u64, u32),
        timeout_ms: u64,
        expired: &str,
    ) -> Result<Value> {
        let id = self.next_id()?;
        let (done, mut answer) = task::channel();
        {
            let mut state = self.inner.state.borrow_mut();
            state.waiting.insert(
                id,
                Waiting {
                    topic: topic.to_owned(),
                    done,
                },
            );
            let at = self.inner.clock.now_ms() + timeout_ms;
            state.expirer.insert(ExpirerTarget::Id(id).to_string(), at);
        }
        let payload = json!({ "id": id, "jsonrpc": "2.0", "method": method, "params": params });
        if let Err(error) = self.publish(topic, &payload, opts).await {
            self.inner.state.borrow_mut().waiting.remove(&id);
            return Err(error);
        }
        let result = match select(answer.recv(), self.inner.clock.sleep(timeout_ms)).await {
            Either::Left(answer) => answer.unwrap_or(Err(Error::Timeout(expired.into()))),
            Either::Right(_) => Err(Error::Timeout(expired.into())),
        };
        let mut state = self.inner.state.borrow_mut();
        state.waiting.remove(&id);
        state.expirer.remove(&ExpirerTarget::Id(id).to_string());
        result
    }

    /// `payload` sealed with `topic`'s key, as the relay carries it.
    fn seal(&self, topic: &str, payload: &Value) -> Result<String> {
        let state = self.inner.state.borrow();
        let key = state.keys.get(topic).ok_or_else(|| Error::UnknownTopic(topic.into()))?;
        crypto::encrypt(key, &payload.to_string(), None)
    }

    /// Seals `payload` with `topic`'s key and publishes it.
    async fn publish(&self, topic: &str, payload: &Value, (ttl, tag): (u64, u32)) -> Result<()> {
        let message = self.seal(topic, payload)?;
        self.inner.relay.publish(topic, &message, ttl, tag).await
    }

    /// An answer to the peer's request `id` on `topic`, sealed, for [`Effects::reply`].
    fn reply(&self, topic: &str, id: &Value, result: Result<Value, Reason>, opts: (u64, u32)) -> Result<Reply> {
        let payload = match result {
            Ok(result) => json!({ "id": id, "jsonrpc": "2.0", "result": result }),
            Err(error) => json!({ "id": id, "jsonrpc": "2.0", "error": error }),
        };
        Ok((topic.to_owned(), self.seal(topic, &payload)?, opts))
    }

    /// Handles one relay message: updates the state at once, then carries
    /// out what that left to do.
    async fn on_message(&self, message: RelayMessage) -> Result<()> {
        let effects = self.take(message)?;
        self.perform(effects).await
    }

    /// Carries out `effects` in their order. A failed write is logged, not
    /// fatal: the wallet still gets its answer and the app its event (the
    /// session then lasts as long as the page).
    async fn perform(&self, effects: Effects) -> Result<()> {
        if effects.persist {
            if let Err(error) = self.persist().await {
                tracing::warn!(%error, "sign: persisting failed");
            }
        }
        let mut result = Ok(());
        if let Some((topic, message, (ttl, tag))) = effects.reply {
            result = self.inner.relay.publish(&topic, &message, ttl, tag).await;
        }
        if let Some(topic) = effects.unsubscribe {
            let _ = self.inner.relay.unsubscribe(&topic).await;
        }
        if let Some(topic) = effects.subscribe {
            result = result.and(self.inner.relay.subscribe(&topic).await.map(drop));
        }
        if let Some((done, session)) = effects.settled {
            let _ = done.send(Ok(session));
        }
        if let Some(event) = effects.event {
            self.emit(event);
        }
        result
    }

    /// Reads a relay message and applies it to the state; what needs IO comes back as [`Effects`].
    fn take(&self, message: RelayMessage) -> Result<Effects> {
        let Some(key) = self.inner.state.borrow().keys.get(&message.topic).cloned() else {
            return Ok(Effects::default());
        };
        let envelope = Envelope::decode(&message.message)?;
        if envelope.sender_public_key().is_some() {
            // Type 1 answers only sessionAuthenticate, which this client does not send.
            return Err(Error::InvalidEnvelope("type 1 envelope on a known topic"));
        }
        let payload = Value::parse(&envelope.open(&key)?).map_err(|e| Error::InvalidPayload(e.to_string()))?;
        let topic = message.topic;
        let id = payload.get("id").cloned().unwrap_or(Value::Null);
        if let Some(method) = payload.get("method").and_then(Value::as_str) {
            let params = payload.get("params").cloned().unwrap_or(Value::Null);
            return self.on_request(&topic, &id, method, params);
        }
        let Some(id) = id.as_u64() else {
            return Err(Error::InvalidPayload("response without a numeric id".into()));
        };
        let answer = match (payload.get("result"), payload.get("error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Reason::from_value(error)
                .map(|r| Error::Peer {
                    code: r.code,
                    message: r.message,
                })
                .unwrap_or_else(|e| Error::InvalidPayload(e.to_string()))),
            (None, None) => return Err(Error::InvalidPayload("neither request nor response".into())),
        };
        if self.inner.state.borrow().proposals.contains_key(&id) {
            return Ok(self.on_proposal_answer(id, answer));
        }
        let waiting = self.inner.state.borrow_mut().waiting.remove(&id);
        if let Some(waiting) = waiting {
            let _ = waiting.done.send(answer);
        }
        Ok(Effects::default())
    }

    /// The wallet's answer on the pairing topic: derive the session key and
    /// listen on the session topic for the settlement.
    fn on_proposal_answer(&self, id: u64, answer: Result<Value>) -> Effects {
        let peer = match answer {
            Ok(result) => result
                .get("responderPublicKey")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::InvalidPayload("no responderPublicKey".into()))
                .and_then(|k| crypto::parse_hex32(k, "publicKey")),
            Err(error) => Err(error),
        };
        let derived = peer.and_then(|peer| {
            let state = self.inner.state.borrow();
            let proposal = state.proposals.get(&id).ok_or(Error::Closed)?;
            proposal.key_pair.derive_sym_key(&peer)
        });
        let key = match derived {
            Ok(key) => key,
            Err(error) => {
                let Some(proposal) = self.forget_proposal(id) else {
                    return Effects::default();
                };
                let _ = proposal.done.send(Err(error));
                return Effects {
                    unsubscribe: Some(proposal.pairing_topic),
                    ..Effects::default()
                };
            }
        };
        let session_topic = topic_of(&key);
        let mut state = self.inner.state.borrow_mut();
        state.keys.insert(session_topic.clone(), key);
        state.settling.insert(session_topic.clone(), id);
        Effects {
            subscribe: Some(session_topic),
            ..Effects::default()
        }
    }

    fn on_request(&self, topic: &str, id: &Value, method: &str, params: Value) -> Result<Effects> {
        let known = self.inner.state.borrow().sessions.contains_key(topic);
        // Most requests are answered `true` once applied, and end with an event.
        let mut event = None;
        let mut persist = false;
        let (answer, opts) = match method {
            "wc_sessionSettle" => return self.on_settle(topic, id, params),
            "wc_sessionEvent" if known => {
                // Heard at once: it changes nothing here to wait for.
                let event = &params["event"];
                self.emit(SignEvent::SessionEvent {
                    topic: topic.into(),
                    chain_id: params["chainId"].as_str().unwrap_or_default().into(),
                    name: event["name"].as_str().unwrap_or_default().into(),
                    data: event["data"].clone(),
                });
                (Ok(()), opts::EVENT_RES)
            }
            "wc_sessionUpdate" if known => match Map::<String, SessionNamespace>::from_value(&params["namespaces"]) {
                Ok(namespaces) => {
                    if let Some(session) = self.inner.state.borrow_mut().sessions.get_mut(topic) {
                        session.namespaces.clone_from(&namespaces);
                    }
                    persist = true;
                    event = Some(SignEvent::SessionUpdated {
                        topic: topic.into(),
                        namespaces,
                    });
                    (Ok(()), opts::UPDATE_RES)
                }
                Err(e) => (Err(invalid(&e.to_string())), opts::UPDATE_RES),
            },
            "wc_sessionExtend" if known => {
                // As the JS client: a week from now, whatever the wallet proposed.
                let expiry = self.now_secs() + SEVEN_DAYS;
                let mut state = self.inner.state.borrow_mut();
                if let Some(session) = state.sessions.get_mut(topic) {
                    session.expiry = expiry;
                }
                state
                    .expirer
                    .insert(ExpirerTarget::Topic(topic.into()).to_string(), expiry * 1000);
                persist = true;
                event = Some(SignEvent::SessionExtended {
                    topic: topic.into(),
                    expiry,
                });
                (Ok(()), opts::EXTEND_RES)
            }
            "wc_sessionPing" if known => {
                event = Some(SignEvent::SessionPing { topic: topic.into() });
                (Ok(()), opts::PING_RES)
            }
            "wc_sessionDelete" if known => {
                let reason = Reason::from_value(&params).unwrap_or(Reason {
                    code: 6000,
                    message: "User disconnected.".into(),
                });
                // Sealed before the session (and its key) is forgotten.
                let reply = self.reply(topic, id, Ok(json!(true)), opts::DELETE_RES)?;
                let mut effects = self.delete_session(topic, &reason.message);
                effects.reply = Some(reply);
                effects.event = Some(SignEvent::SessionDeleted {
                    topic: topic.into(),
                    reason,
                });
                return Ok(effects);
            }
            "wc_pairingPing" => (Ok(()), opts::PAIRING_PING_RES),
            "wc_pairingDelete" => {
                let reply = self.reply(topic, id, Ok(json!(true)), opts::PAIRING_DELETE_RES)?;
                self.inner.state.borrow_mut().keys.remove(topic);
                return Ok(Effects {
                    reply: Some(reply),
                    unsubscribe: Some(topic.into()),
                    ..Effects::default()
                });
            }
            _ if !known && method.starts_with("wc_session") => {
                let reason = Reason {
                    code: 7001,
                    message: format!("No matching key. session topic doesn't exist: {topic}"),
                };
                (Err(reason), opts::UNKNOWN)
            }
            _ => {
                let reason = Reason {
                    code: 10001,
                    message: format!("Unsupported wc_ method. {method}"),
                };
                (Err(reason), opts::UNKNOWN)
            }
        };
        Ok(Effects {
            persist,
            reply: Some(self.reply(topic, id, answer.map(|()| json!(true)), opts)?),
            event,
            ..Effects::default()
        })
    }

    /// `wc_sessionSettle` on a session topic derived from one of our proposals.
    fn on_settle(&self, topic: &str, id: &Value, params: Value) -> Result<Effects> {
        struct Settle {
            namespaces: Map<String, SessionNamespace>,
            controller: Peer,
            expiry: u64,
        }
        crate::read_fields!(Settle {
            namespaces: field("namespaces"),
            controller: field("controller"),
            expiry: field("expiry"),
        });
        let refuse = |why: &str| -> Result<Effects> {
            Ok(Effects {
                reply: Some(self.reply(topic, id, Err(invalid(why)), opts::SETTLE_RES)?),
                ..Effects::default()
            })
        };
        let Some(proposal_id) = self.inner.state.borrow_mut().settling.remove(topic) else {
            return refuse("no pending session for this topic");
        };
        let settle = match Settle::from_value(&params) {
            Ok(settle) => settle,
            Err(e) => return refuse(&e.to_string()),
        };
        let Some(proposal) = self.forget_proposal(proposal_id) else {
            return Ok(Effects::default());
        };
        let session = Session {
            topic: topic.into(),
            pairing_topic: proposal.pairing_topic.clone(),
            expiry: settle.expiry,
            namespaces: settle.namespaces,
            required_namespaces: proposal.params.required_namespaces,
            optional_namespaces: proposal.params.optional_namespaces,
            peer: settle.controller,
            self_public_key: proposal.key_pair.public_hex(),
        };
        {
            let mut state = self.inner.state.borrow_mut();
            state.sessions.insert(topic.into(), session.clone());
            state
                .expirer
                .insert(ExpirerTarget::Topic(topic.into()).to_string(), session.expiry * 1000);
        }
        Ok(Effects {
            persist: true,
            reply: Some(self.reply(topic, id, Ok(json!(true)), opts::SETTLE_RES)?),
            // The pairing did its job: stop listening to it.
            unsubscribe: Some(proposal.pairing_topic),
            settled: Some((proposal.done, session.clone())),
            event: Some(SignEvent::SessionConnected(session)),
            ..Effects::default()
        })
    }

    /// Forgets session `topic`: its key, expiry and waiting requests (which
    /// fail with `why`); writing the state down and unsubscribing are left to the caller.
    fn delete_session(&self, topic: &str, why: &str) -> Effects {
        let waiting: Vec<Waiting> = {
            let mut state = self.inner.state.borrow_mut();
            state.sessions.remove(topic);
            state.keys.remove(topic);
            state.expirer.remove(&ExpirerTarget::Topic(topic.into()).to_string());
            let ids: Vec<u64> = state
                .waiting
                .iter()
                .filter(|(_, w)| w.topic == topic)
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| state.waiting.remove(id)).collect()
        };
        for waiting in waiting {
            let _ = waiting.done.send(Err(Error::SessionEnded(why.into())));
        }
        Effects {
            persist: true,
            unsubscribe: Some(topic.into()),
            ..Effects::default()
        }
    }

    /// Handles everything whose time has come.
    async fn expire(&self) {
        let now = self.inner.clock.now_ms();
        let due: Vec<String> = {
            let state = self.inner.state.borrow();
            state
                .expirer
                .iter()
                .filter(|(_, at)| **at <= now)
                .map(|(target, _)| target.clone())
                .collect()
        };
        for target in due {
            if let Err(error) = self.perform(self.expire_one(&target)).await {
                tracing::warn!(%error, "sign: expiring {target} failed");
            }
        }
    }

    /// Applies one due expiry: a session's (`topic:…`), a proposal's or a request's (`id:…`).
    fn expire_one(&self, target: &str) -> Effects {
        self.inner.state.borrow_mut().expirer.remove(target);
        match target.parse::<ExpirerTarget>() {
            Ok(ExpirerTarget::Topic(topic)) => {
                if !self.inner.state.borrow().sessions.contains_key(&topic) {
                    return Effects::default();
                }
                let mut effects = self.delete_session(&topic, "Session expired");
                effects.event = Some(SignEvent::SessionExpired { topic });
                effects
            }
            Ok(ExpirerTarget::Id(id)) => {
                if let Some(proposal) = self.forget_proposal(id) {
                    let _ = proposal.done.send(Err(Error::Timeout(PROPOSAL_EXPIRED.into())));
                    return Effects {
                        unsubscribe: Some(proposal.pairing_topic),
                        event: Some(SignEvent::ProposalExpired { id }),
                        ..Effects::default()
                    };
                }
                if let Some(waiting) = self.inner.state.borrow_mut().waiting.remove(&id) {
                    let _ = waiting.done.send(Err(Error::Timeout(REQUEST_EXPIRED.into())));
                }
                Effects::default()
            }
            Err(error) => {
                tracing::warn!(%error, "sign: bad expirer target");
                Effects::default()
            }
        }
    }

    /// Writes sessions, their keys (with the client seed) and session expiries.
    async fn persist(&self) -> Result<()> {
        let storage = &self.inner.storage;
        let mut keychain = Map::new();
        keychain.insert(CLIENT_SEED.to_owned(), self.inner.client_seed.clone());
        let (sessions, expirer) = {
            let state = self.inner.state.borrow();
            for topic in state.sessions.keys() {
                if let Some(key) = state.keys.get(topic) {
                    keychain.insert(topic.clone(), key.to_hex());
                }
            }
            let sessions: Vec<Session> = state.sessions.values().cloned().collect();
            let expirer: Map<String, u64> = state
                .expirer
                .iter()
                .filter(|(t, _)| t.starts_with("topic:"))
                .map(|(t, at)| (t.clone(), *at))
                .collect();
            (sessions, expirer)
        };
        storage.set(STORE_KEYCHAIN, to_json(&keychain)).await?;
        storage.set(STORE_SESSIONS, to_json(&sessions)).await?;
        storage.set(STORE_EXPIRER, to_json(&expirer)).await
    }
}

fn invalid(why: &str) -> Reason {
    Reason {
        code: 1001,
        message: format!("Missing or invalid. {why}"),
    }
}

/// A stored JSON value, or the default when absent.
async fn load<T: FromValue + Default>(storage: &dyn Storage, key: &str) -> Result<T> {
    match storage.get(key).await? {
        None => Ok(T::default()),
        Some(text) => crate::from_json(&text).map_err(|e| Error::Storage(format!("{key}: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn strings() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec("[a-z0-9:_]{0,10}", 0..3)
    }

    fn session() -> impl Strategy<Value = Session> {
        fn proposals() -> impl Strategy<Value = Map<String, ProposalNamespace>> {
            let proposal = (prop::option::of(strings()), strings(), strings()).prop_map(|(chains, methods, events)| {
                ProposalNamespace {
                    chains,
                    methods,
                    events,
                }
            });
            prop::collection::vec(("[a-z0-9:]{1,8}", proposal), 0..3)
                .prop_map(|entries| entries.into_iter().collect::<Map<_, _>>())
        }
        let granted = (strings(), prop::option::of(strings()), strings(), strings()).prop_map(
            |(accounts, chains, methods, events)| SessionNamespace {
                accounts,
                chains,
                methods,
                events,
            },
        );
        let metadata =
            ("\\PC{0,12}", "\\PC{0,12}", "[a-z:/.]{0,12}", strings()).prop_map(|(name, description, url, icons)| {
                Metadata {
                    name,
                    description,
                    url,
                    icons,
                }
            });
        (
            (
                "[0-9a-f]{64}",
                "[0-9a-f]{64}",
                any::<u64>(),
                "[0-9a-f]{64}",
                "[0-9a-f]{64}",
            ),
            prop::collection::vec(("[a-z0-9:]{1,8}", granted), 0..3),
            proposals(),
            proposals(),
            metadata,
        )
            .prop_map(
                |(
                    (topic, pairing_topic, expiry, public_key, self_public_key),
                    granted,
                    required,
                    optional,
                    metadata,
                )| {
                    Session {
                        topic,
                        pairing_topic,
                        expiry,
                        namespaces: granted.into_iter().collect(),
                        required_namespaces: required,
                        optional_namespaces: optional,
                        peer: Peer { public_key, metadata },
                        self_public_key,
                    }
                },
            )
    }

    proptest! {
        /// A session read by hand is the one written (storage and the JS façade both go this way).
        #[test]
        fn sessions_read_back_as_written(session in session()) {
            let written = session.to_value();
            prop_assert_eq!(Session::from_value(&written), Ok(session.clone()));
            prop_assert_eq!(crate::from_json::<Session>(&written.to_string()).unwrap(), session);
        }

        /// Any JSON is read or refused with a reason, never a panic; what reads writes back the same.
        #[test]
        fn any_json_is_read_or_refused(value in any_json()) {
            match Session::from_value(&value) {
                Ok(session) => prop_assert_eq!(Session::from_value(&session.to_value()), Ok(session)),
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
            if let Err(reason) = ConnectParams::from_value(&value) {
                prop_assert!(!reason.is_empty());
            }
            if let Err(reason) = crate::relay::RelayMessage::from_value(&value) {
                prop_assert!(!reason.is_empty());
            }
        }
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "[a-zA-Z]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "topic",
                            "expiry",
                            "peer",
                            "namespaces",
                            "message",
                            "requiredNamespaces"
                        ]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|fields| Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
            ]
        })
    }

    #[test]
    fn connect_params_read_the_js_shape() {
        let params: ConnectParams = crate::from_json(
            r#"{"requiredNamespaces":{"eip155":{"chains":["eip155:1"],"methods":["personal_sign"],"events":[]}},
                "sessionProperties":{"k":"v"}}"#,
        )
        .unwrap();
        assert_eq!(
            params.required_namespaces["eip155"].chains.as_deref(),
            Some(&["eip155:1".to_owned()][..])
        );
        assert!(params.optional_namespaces.is_empty());
        assert_eq!(params.session_properties.unwrap()["k"], "v");
        // Everything is optional: `{}` proposes nothing in particular.
        let empty: ConnectParams = crate::from_json("{}").unwrap();
        assert!(empty.required_namespaces.is_empty());
        // A namespace without methods is a shape error, not a panic.
        assert_eq!(
            crate::from_json::<ConnectParams>(r#"{"requiredNamespaces":{"eip155":{}}}"#).unwrap_err(),
            "requiredNamespaces: eip155: missing field `methods`"
        );
    }
}
