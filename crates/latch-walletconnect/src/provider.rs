//! An EIP-1193 provider over the Sign engine: what the official universal and
//! ethereum providers do for a dapp, with the documented messages (behaviour 2.9 Sessions).
//!
//! - [`Provider::connect`] drops pending pairings, proposes, and on approval
//!   takes the session's default chain (the one asked for if approved, else
//!   the first chain of the first namespace), persists it and emits
//!   [`ProviderEvent::Connect`].
//! - [`Provider::request`] answers `eth_requestAccounts`, `eth_accounts`,
//!   `eth_chainId` and `wallet_switchEthereumChain` itself, sends methods the
//!   session's namespace lists to the wallet, and everything else over HTTP
//!   JSON-RPC: to the chain's `rpcMap` URL, else the Latch gateway
//!   (`{gateway}/v1/?chainId=…&projectId=…`).
//! - Chain changes (local or the wallet's `chainChanged`) move the default
//!   chain, emit `chainChanged` and `accountsChanged` and persist; the end of
//!   the session (either side, or expiry) clears what was stored and emits
//!   `disconnect`.
//!
//! State lives under the official universal provider's storage keys, next to
//! the engine's, so a reload restores the session and its default chain.

use std::cell::RefCell;
use std::rc::Rc;

use latch_core::caip::CaipNetworkId;

use crate::io::{BodyKind, Http, Storage};
use crate::json;
use crate::json::{FromValue, Value};
use crate::map::Map;
use crate::sign::{ConnectParams, Connecting, ProposalNamespace, Reason, Session, SignClient, SignEvent};
use crate::task::{self, select, Either, Receiver, Sender};
use crate::{to_json, Error, Result};

/// Storage keys (the official universal provider's names).
pub const STORE_NAMESPACES: &str = "wc@2:universal_provider:/namespaces";
/// The optional namespaces asked for in the last `connect()`.
pub const STORE_OPTIONAL_NAMESPACES: &str = "wc@2:universal_provider:/optionalNamespaces";
/// The default chain, CAIP-2.
pub const STORE_DEFAULT_CHAIN: &str = "wc@2:universal_provider:/defaultChain";

/// What `disconnect()` tells the wallet and the app.
fn user_disconnected() -> Reason {
    Reason {
        code: 6000,
        message: "User disconnected.".into(),
    }
}

/// Where requests the wallet does not serve go.
#[derive(Debug, Clone, Default)]
pub struct ProviderOptions {
    /// CAIP-2 → HTTP JSON-RPC URL.
    pub rpc_map: Map<String, String>,
    /// The Latch server (`http://127.0.0.1:8787`): chains without an rpcMap entry use its gateway.
    pub gateway_url: Option<String>,
    /// The project id the gateway is called with.
    pub project_id: Option<String>,
}

/// What the app hears (EIP-1193 events, plus the engine's own).
#[derive(Debug, Clone, PartialEq)]
pub enum ProviderEvent {
    /// A session was approved and adopted.
    Connect(Session),
    /// The accounts of the default chain (EIP-55 for eip155).
    AccountsChanged(Vec<String>),
    /// The default chain, as EIP-1193 says it: hex for eip155 (`0x7a69`),
    /// the CAIP-2 reference for other namespaces.
    ChainChanged(String),
    /// The session ended (either side, or expiry).
    Disconnect(Reason),
    /// Everything the engine reported, as it reported it (`session_event`, `session_update`, …).
    Sign(SignEvent),
}

#[derive(Default)]
struct State {
    /// The adopted session's topic.
    topic: Option<String>,
    default_chain: Option<String>,
    /// The default chain's accounts, as last heard.
    accounts: Vec<String>,
    /// What `connect()` asked for: namespaces the provider is configured for.
    namespaces: Map<String, ProposalNamespace>,
    optional_namespaces: Map<String, ProposalNamespace>,
    /// `setDefaultChain` before any session: taken by the next approval if granted.
    wanted_chain: Option<String>,
    next_rpc_id: u64,
    closed: bool,
}

struct Inner {
    client: SignClient,
    http: Rc<dyn Http>,
    storage: Rc<dyn Storage>,
    options: ProviderOptions,
    state: RefCell<State>,
    events: Sender<ProviderEvent>,
    sign_events: RefCell<Option<Receiver<SignEvent>>>,
}

/// The provider; clones share it.
#[derive(Clone)]
pub struct Provider {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.inner.state.borrow();
        f.debug_struct("Provider")
            .field("topic", &state.topic)
            .field("default_chain", &state.default_chain)
            .finish()
    }
}

/// The namespace part of a CAIP-2 id or a namespace key (`eip155:1` → `eip155`).
fn namespace_of(key: &str) -> &str {
    key.split(':').next().unwrap_or_default()
}

/// The session's chains, namespace by namespace, in the order the wallet listed them.
fn session_chains(session: &Session) -> Vec<String> {
    let mut chains = Vec::new();
    for (key, namespace) in &session.namespaces {
        let listed = namespace.chains.clone().unwrap_or_default().into_iter();
        let from_accounts = namespace
            .accounts
            .iter()
            .filter_map(|a| a.rsplit_once(':').map(|(chain, _)| chain.to_owned()));
        let keyed = key.contains(':').then(|| key.clone());
        for chain in listed.chain(from_accounts).chain(keyed) {
            if !chains.contains(&chain) {
                chains.push(chain);
            }
        }
    }
    chains
}

fn session_has_chain(session: &Session, chain: &str) -> bool {
    session
        .namespaces
        .iter()
        .any(|(key, ns)| key == chain || (namespace_of(key) == namespace_of(chain) && ns.has_chain(chain)))
}

/// The methods the session grants in `chain`'s namespace.
fn session_methods<'a>(session: &'a Session, chain: &str) -> impl Iterator<Item = &'a String> + 'a {
    let namespace = namespace_of(chain).to_owned();
    session
        .namespaces
        .iter()
        .filter(move |(key, _)| namespace_of(key) == namespace)
        .flat_map(|(_, ns)| ns.methods.iter())
}

/// An account address as apps expect it: EIP-55 for eip155, else as given.
fn display_address(namespace: &str, address: &str) -> String {
    if namespace == "eip155" {
        latch_core::address::to_checksum_address(address).unwrap_or_else(|_| address.to_owned())
    } else {
        address.to_owned()
    }
}

/// `chain`'s addresses in the session.
fn accounts_on(session: &Session, chain: &str) -> Vec<String> {
    let prefix = format!("{chain}:");
    let mut accounts = Vec::new();
    for namespace in session.namespaces.values() {
        for account in &namespace.accounts {
            if let Some(address) = account.strip_prefix(&prefix) {
                let address = display_address(namespace_of(chain), address);
                if !accounts.contains(&address) {
                    accounts.push(address);
                }
            }
        }
    }
    accounts
}

/// `chain` as EIP-1193 says it: hex for eip155, else its reference.
pub fn chain_id_for_events(chain: &str) -> String {
    match CaipNetworkId::parse(chain) {
        Ok(id) => id.eip155_chain_id_hex().unwrap_or(id.reference),
        Err(_) => chain.to_owned(),
    }
}

/// The chain a `chainChanged` event moves to: its data (a number, hex, or
/// CAIP-2) in the event's namespace, else the event's own chain.
pub fn chain_of_event(event_chain: &str, data: &Value) -> String {
    let namespace = namespace_of(event_chain);
    let reference = match data {
        Value::Number(n) => n.as_u64().map(|n| n.to_string()),
        Value::String(s) if s.contains(':') => return s.clone(),
        Value::String(s) if namespace == "eip155" => CaipNetworkId::eip155(s).ok().map(|id| id.reference),
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    reference.map_or_else(|| event_chain.to_owned(), |r| format!("{namespace}:{r}"))
}

/// Addresses from an `accountsChanged` event (CAIP-10 or plain) on `chain`.
pub fn addresses_of_event(chain: &str, data: &Value) -> Vec<String> {
    let namespace = namespace_of(chain);
    data.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|account| display_address(namespace, account.rsplit(':').next().unwrap_or(account)))
        .collect()
}

impl Provider {
    /// A provider over `client` (whose event receiver it takes), restoring the
    /// persisted session and default chain. Spawn [`Provider::run`] once.
    pub async fn new(
        client: SignClient,
        sign_events: Receiver<SignEvent>,
        http: Rc<dyn Http>,
        storage: Rc<dyn Storage>,
        options: ProviderOptions,
    ) -> Result<(Self, Receiver<ProviderEvent>)> {
        let namespaces = load(&*storage, STORE_NAMESPACES).await?;
        let optional_namespaces = load(&*storage, STORE_OPTIONAL_NAMESPACES).await?;
        let stored_chain: Option<String> = load(&*storage, STORE_DEFAULT_CHAIN).await?;
        let mut state = State {
            namespaces,
            optional_namespaces,
            ..State::default()
        };
        // The most recent session is the provider's, as the official one picks the last.
        if let Some(session) = client.sessions().into_iter().max_by_key(|s| s.expiry) {
            let chain = stored_chain
                .filter(|c| session_has_chain(&session, c))
                .or_else(|| session_chains(&session).into_iter().next());
            state.accounts = chain.as_deref().map(|c| accounts_on(&session, c)).unwrap_or_default();
            state.default_chain = chain;
            state.topic = Some(session.topic);
        }
        let (events, received) = task::channel();
        let inner = Inner {
            client,
            http,
            storage,
            options,
            state: RefCell::new(state),
            events,
            sign_events: RefCell::new(Some(sign_events)),
        };
        Ok((Provider { inner: Rc::new(inner) }, received))
    }

    /// The Sign client underneath.
    pub fn client(&self) -> &SignClient {
        &self.inner.client
    }

    /// Runs the Sign client and handles its events until [`Provider::close`].
    pub async fn run(&self) -> Result<()> {
        let Some(mut sign_events) = self.inner.sign_events.borrow_mut().take() else {
            return Err(Error::Closed);
        };
        let this = self.clone();
        let handle = async move {
            while let Some(event) = sign_events.recv().await {
                this.on_sign_event(event).await;
            }
        };
        match select(self.inner.client.run(), handle).await {
            Either::Left(result) => result,
            Either::Right(_) => Ok(()),
        }
    }

    /// Closes the relay connection; later calls fail with `Sign Client not initialized`.
    pub fn close(&self) {
        self.inner.state.borrow_mut().closed = true;
        self.inner.client.close();
    }

    /// The adopted session, if any.
    pub fn session(&self) -> Option<Session> {
        let topic = self.inner.state.borrow().topic.clone()?;
        self.inner.client.sessions().into_iter().find(|s| s.topic == topic)
    }

    /// The default chain (CAIP-2), if connected.
    pub fn chain_id(&self) -> Option<String> {
        let state = self.inner.state.borrow();
        state.topic.as_ref().and(state.default_chain.clone())
    }

    /// The default chain's accounts, as last heard.
    pub fn accounts(&self) -> Vec<String> {
        self.inner.state.borrow().accounts.clone()
    }

    fn emit(&self, event: ProviderEvent) {
        let _ = self.inner.events.send(event);
    }

    fn check_open(&self) -> Result<()> {
        if self.inner.state.borrow().closed {
            return Err(Error::Closed);
        }
        Ok(())
    }

    /// Drops pending pairings, then proposes `params`; `approval` resolves to
    /// the session once the provider has adopted it (default chain
    /// `default_chain` if the wallet granted it), after `connect` is emitted.
    pub async fn connect(&self, params: ConnectParams, default_chain: Option<String>) -> Result<Connecting> {
        self.check_open()?;
        self.inner.client.remove_pending_pairings().await;
        {
            let mut state = self.inner.state.borrow_mut();
            state.namespaces.clone_from(&params.required_namespaces);
            state.optional_namespaces.clone_from(&params.optional_namespaces);
            if default_chain.is_some() {
                state.wanted_chain.clone_from(&default_chain);
            }
        }
        let connecting = self.inner.client.connect(params).await?;
        let this = self.clone();
        let approval = connecting.approval;
        Ok(Connecting {
            uri: connecting.uri,
            id: connecting.id,
            approval: Box::pin(async move {
                let session = approval.await?;
                this.adopt(session.clone()).await;
                Ok(session)
            }),
        })
    }

    /// Makes `session` the provider's (once: the approval and the engine's
    /// event both lead here).
    async fn adopt(&self, session: Session) {
        let chain = {
            let mut state = self.inner.state.borrow_mut();
            if state.topic.as_deref() == Some(session.topic.as_str()) {
                return;
            }
            let wanted = state.wanted_chain.take().filter(|c| session_has_chain(&session, c));
            let chain = wanted.or_else(|| session_chains(&session).into_iter().next());
            state.topic = Some(session.topic.clone());
            state.accounts = chain.as_deref().map(|c| accounts_on(&session, c)).unwrap_or_default();
            state.default_chain.clone_from(&chain);
            chain
        };
        if let Err(error) = self.persist(chain.as_deref()).await {
            tracing::warn!(%error, "provider: persisting the new session failed");
        }
        self.emit(ProviderEvent::Connect(session));
    }

    /// Writes the connect() config and the default chain.
    async fn persist(&self, chain: Option<&str>) -> Result<()> {
        let (namespaces, optional) = {
            let state = self.inner.state.borrow();
            (to_json(&state.namespaces), to_json(&state.optional_namespaces))
        };
        let storage = &self.inner.storage;
        storage.set(STORE_NAMESPACES, namespaces).await?;
        storage.set(STORE_OPTIONAL_NAMESPACES, optional).await?;
        match chain {
            Some(chain) => storage.set(STORE_DEFAULT_CHAIN, to_json(&chain)).await,
            None => storage.remove(STORE_DEFAULT_CHAIN).await,
        }
    }

    /// The accounts of the default chain (`eth_requestAccounts`).
    pub async fn enable(&self) -> Result<Vec<String>> {
        self.check_open()?;
        if self.session().is_none() {
            return Err(Error::EnableBeforeConnect);
        }
        Ok(self.accounts())
    }

    /// `chain` is usable: its namespace is the session's or connect()'s.
    pub fn check_namespace(&self, chain: &str) -> Result<()> {
        let namespace = namespace_of(chain);
        let state = self.inner.state.borrow();
        let in_session = self
            .session()
            .is_some_and(|s| s.namespaces.keys().any(|k| namespace_of(k) == namespace));
        let configured = state
            .namespaces
            .keys()
            .chain(state.optional_namespaces.keys())
            .any(|k| namespace_of(k) == namespace);
        if namespace.is_empty() || !(in_session || configured) {
            return Err(Error::NamespaceNotConfigured(namespace.to_owned()));
        }
        Ok(())
    }

    /// EIP-1193 `request` on the default chain, or on `chain` (CAIP-2).
    pub async fn request(&self, method: &str, params: Value, chain: Option<&str>) -> Result<Value> {
        self.check_open()?;
        let Some(session) = self.session() else {
            return Err(Error::RequestBeforeConnect);
        };
        let chain = match chain {
            Some(chain) => {
                self.check_namespace(chain)?;
                chain.to_owned()
            }
            None => self.chain_id().ok_or(Error::ChainIdNotFound)?,
        };
        if namespace_of(&chain) == "eip155" {
            match method {
                "eth_requestAccounts" => return self.enable().await.map(|a| json!(a)),
                "eth_accounts" => {
                    let default = self.chain_id().as_deref() == Some(chain.as_str());
                    let accounts = if default {
                        self.accounts()
                    } else {
                        accounts_on(&session, &chain)
                    };
                    return Ok(json!(accounts));
                }
                "eth_chainId" => return Ok(json!(chain_id_for_events(&chain))),
                "wallet_switchEthereumChain" => return self.switch_chain(&session, &chain, params).await,
                _ => {}
            }
        }
        if session_methods(&session, &chain).any(|m| m == method) {
            return self
                .inner
                .client
                .request(&session.topic, &chain, method, params, None)
                .await;
        }
        self.http_request(&session, &chain, method, params).await
    }

    /// `wallet_switchEthereumChain` as the official provider does it: an
    /// approved chain is switched to locally; otherwise the wallet is asked
    /// if the session lists the method, and then the chain is switched to.
    async fn switch_chain(&self, session: &Session, current: &str, params: Value) -> Result<Value> {
        let hex = params[0]
            .get("chainId")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::InvalidPayload("wallet_switchEthereumChain: params[0].chainId is missing".into()))?;
        let target = CaipNetworkId::eip155(hex)
            .map_err(|e| Error::InvalidPayload(format!("wallet_switchEthereumChain: {e}")))?
            .to_string();
        if !session_has_chain(session, &target) {
            if !session_methods(session, current).any(|m| m == "wallet_switchEthereumChain") {
                return Err(Error::NotAllowed(format!(
                    "Failed to switch to chain '{target}'. The chain is not approved or the wallet does not support 'wallet_switchEthereumChain' method."
                )));
            }
            let hex = chain_id_for_events(&target);
            self.inner
                .client
                .request(
                    &session.topic,
                    current,
                    "wallet_switchEthereumChain",
                    json!([{ "chainId": hex }]),
                    None,
                )
                .await?;
        }
        self.change_chain(&target).await;
        Ok(Value::Null)
    }

    /// Makes `chain` the default: for the session if there is one, else for the next approval.
    pub async fn set_default_chain(&self, chain: &str) -> Result<()> {
        self.check_open()?;
        self.check_namespace(chain)?;
        if self.session().is_none() {
            self.inner.state.borrow_mut().wanted_chain = Some(chain.to_owned());
            return Ok(());
        }
        self.change_chain(chain).await;
        Ok(())
    }

    /// Moves the default chain: emits `chainChanged` and `accountsChanged`, persists.
    async fn change_chain(&self, chain: &str) {
        let Some(session) = self.session() else { return };
        let accounts = accounts_on(&session, chain);
        {
            let mut state = self.inner.state.borrow_mut();
            if state.default_chain.as_deref() == Some(chain) && state.accounts == accounts {
                return;
            }
            state.default_chain = Some(chain.to_owned());
            state.accounts.clone_from(&accounts);
        }
        if let Err(error) = self.persist(Some(chain)).await {
            tracing::warn!(%error, "provider: persisting the default chain failed");
        }
        self.emit(ProviderEvent::ChainChanged(chain_id_for_events(chain)));
        self.emit(ProviderEvent::AccountsChanged(accounts));
    }

    /// A JSON-RPC call over HTTP to `chain`'s rpcMap URL or the Latch gateway.
    async fn http_request(&self, session: &Session, chain: &str, method: &str, params: Value) -> Result<Value> {
        if !session_has_chain(session, chain) {
            return Err(Error::NoJsonRpcProvider(chain.to_owned()));
        }
        let options = &self.inner.options;
        let (url, kind) = if let Some(url) = options.rpc_map.get(chain) {
            (url.clone(), BodyKind::Json)
        } else if let Some(gateway) = &options.gateway_url {
            let mut query = form_urlencoded::Serializer::new(String::new());
            query.append_pair("chainId", chain);
            if let Some(project) = &options.project_id {
                query.append_pair("projectId", project);
            }
            let url = format!("{}/v1/?{}", gateway.trim_end_matches('/'), query.finish());
            (url, BodyKind::PlainText)
        } else {
            let reference = chain.split_once(':').map_or(chain, |(_, r)| r);
            return Err(Error::NoRpcUrl(reference.to_owned()));
        };
        let id = {
            let mut state = self.inner.state.borrow_mut();
            state.next_rpc_id += 1;
            state.next_rpc_id
        };
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string();
        let text = self.inner.http.post(&url, body, kind).await?;
        let reply = Value::parse(&text).map_err(|e| Error::InvalidPayload(format!("RPC answer: {e}")))?;
        if let Some(error) = reply.get("error") {
            return Err(Error::Rpc {
                code: error.get("code").and_then(Value::as_i64).unwrap_or(-32603),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("Internal error")
                    .to_owned(),
            });
        }
        match reply {
            Value::Object(mut fields) => fields.remove("result"),
            _ => None,
        }
        .ok_or_else(|| Error::InvalidPayload("RPC answer without result or error".into()))
    }

    /// Ends the session (the wallet hears `6000 User disconnected.`) and clears what was stored.
    pub async fn disconnect(&self) -> Result<()> {
        self.check_open()?;
        if let Some(session) = self.session() {
            match self.inner.client.disconnect(&session.topic).await {
                Ok(()) | Err(Error::UnknownTopic(_)) => {}
                Err(error) => return Err(error),
            }
        }
        self.reset(Some(user_disconnected())).await;
        Ok(())
    }

    /// Forgets the session: stored config and default chain, pending
    /// pairings; emits `disconnect` with `reason` if there was a session.
    async fn reset(&self, reason: Option<Reason>) {
        let had_session = {
            let mut state = self.inner.state.borrow_mut();
            let had = state.topic.take().is_some();
            state.default_chain = None;
            state.accounts.clear();
            state.namespaces.clear();
            state.optional_namespaces.clear();
            had
        };
        for key in [STORE_NAMESPACES, STORE_OPTIONAL_NAMESPACES, STORE_DEFAULT_CHAIN] {
            if let Err(error) = self.inner.storage.remove(key).await {
                tracing::warn!(%error, key, "provider: clearing storage failed");
            }
        }
        self.inner.client.remove_pending_pairings().await;
        if let (true, Some(reason)) = (had_session, reason) {
            self.emit(ProviderEvent::Disconnect(reason));
        }
    }

    fn is_ours(&self, topic: &str) -> bool {
        self.inner.state.borrow().topic.as_deref() == Some(topic)
    }

    async fn on_sign_event(&self, event: SignEvent) {
        match &event {
            SignEvent::SessionConnected(session) => self.adopt(session.clone()).await,
            SignEvent::SessionEvent {
                topic,
                chain_id,
                name,
                data,
            } if self.is_ours(topic) => match name.as_str() {
                "chainChanged" => self.change_chain(&chain_of_event(chain_id, data)).await,
                "accountsChanged" => {
                    let accounts = addresses_of_event(chain_id, data);
                    self.inner.state.borrow_mut().accounts.clone_from(&accounts);
                    self.emit(ProviderEvent::AccountsChanged(accounts));
                }
                _ => {}
            },
            SignEvent::SessionUpdated { topic, .. } if self.is_ours(topic) => {
                let accounts = match (self.session(), self.chain_id()) {
                    (Some(session), Some(chain)) => accounts_on(&session, &chain),
                    _ => Vec::new(),
                };
                self.inner.state.borrow_mut().accounts.clone_from(&accounts);
                self.emit(ProviderEvent::AccountsChanged(accounts));
            }
            SignEvent::SessionDeleted { topic, reason } if self.is_ours(topic) => {
                self.reset(Some(reason.clone())).await;
            }
            SignEvent::SessionExpired { topic } if self.is_ours(topic) => {
                // The engine's words for it; code 6 is the protocol's `Expired.`.
                let reason = Reason {
                    code: 6,
                    message: "Session expired".into(),
                };
                self.reset(Some(reason)).await;
            }
            _ => {}
        }
        self.emit(ProviderEvent::Sign(event));
    }
}

/// A stored JSON value, or the default when absent or unreadable (the
/// provider's keys are a cache of what connect() asked; a bad one is not fatal).
async fn load<T: FromValue + Default>(storage: &dyn Storage, key: &str) -> Result<T> {
    Ok(storage
        .get(key)
        .await?
        .and_then(|text| crate::from_json(&text).ok())
        .unwrap_or_default())
}

/// Pure routing: which answer is local, which URL a call goes to, what is
/// stored, what is emitted. The wallet side needs a relay and is covered by
/// `tests/provider.rs` with the official client; here the Sign client is
/// restored from storage and never connects (its transport refuses), and HTTP
/// is a recording stand-in — the only test doubles, as no real node is needed
/// to see which URL was chosen.
#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use crate::task::LocalBoxFuture;

    use super::*;
    use crate::io::{Clock, MemoryStorage, Socket, Transport};
    use crate::relay::RelayOptions;
    use crate::sign::{Metadata, Peer, SessionNamespace, SignOptions};

    const TOPIC: &str = "1111111111111111111111111111111111111111111111111111111111111111";
    const LOWER: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    const ADDRESS: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    struct NoTransport;
    impl Transport for NoTransport {
        fn connect(&self, _: &str) -> LocalBoxFuture<'static, Result<Socket>> {
            Box::pin(async { Err(Error::Transport("not in unit tests".into())) })
        }
    }

    struct FixedClock;
    impl Clock for FixedClock {
        fn now_ms(&self) -> u64 {
            1_800_000_000_000
        }
        fn sleep(&self, _: u64) -> LocalBoxFuture<'static, ()> {
            Box::pin(std::future::pending())
        }
    }

    #[derive(Default)]
    struct RecordingHttp {
        calls: RefCell<Vec<(String, Value, BodyKind)>>,
        reply: RefCell<String>,
    }
    impl Http for Rc<RecordingHttp> {
        fn post(&self, url: &str, body: String, kind: BodyKind) -> LocalBoxFuture<'static, Result<String>> {
            let body = Value::parse(&body).unwrap();
            self.calls.borrow_mut().push((url.to_owned(), body, kind));
            let reply = self.reply.borrow().clone();
            Box::pin(async move { Ok(reply) })
        }
    }

    fn session(chains: &[&str]) -> Session {
        Session {
            topic: TOPIC.into(),
            pairing_topic: "22".repeat(32),
            expiry: 1_900_000_000,
            namespaces: Map::from([(
                "eip155".into(),
                SessionNamespace {
                    accounts: chains.iter().map(|c| format!("{c}:{LOWER}")).collect(),
                    chains: Some(chains.iter().map(|c| (*c).to_owned()).collect()),
                    methods: vec!["personal_sign".into()],
                    events: vec!["chainChanged".into(), "accountsChanged".into()],
                },
            )]),
            required_namespaces: Map::new(),
            optional_namespaces: Map::new(),
            peer: Peer {
                public_key: "33".repeat(32),
                metadata: Metadata::default(),
            },
            self_public_key: "44".repeat(32),
        }
    }

    /// Storage holding `session` as the Sign client persists it.
    async fn storage_with(session: Option<Session>) -> MemoryStorage {
        let storage = MemoryStorage::default();
        if let Some(session) = session {
            let keychain = json!({ "client_ed25519_seed": "55".repeat(32), TOPIC: "66".repeat(32) });
            storage
                .set("wc@2:core:0.3//keychain", keychain.to_string())
                .await
                .unwrap();
            storage
                .set("wc@2:client:0.3//session", to_json(&vec![session]))
                .await
                .unwrap();
        }
        storage
    }

    async fn provider(
        storage: &MemoryStorage,
        options: ProviderOptions,
    ) -> (Provider, Receiver<ProviderEvent>, Rc<RecordingHttp>) {
        let sign = SignOptions {
            relay: RelayOptions::new("ws://127.0.0.1:1/relay"),
            metadata: Metadata::default(),
        };
        let storage: Rc<dyn Storage> = Rc::new(storage.clone());
        let (client, sign_events) = SignClient::new(sign, Rc::new(NoTransport), storage.clone(), Rc::new(FixedClock))
            .await
            .unwrap();
        let http = Rc::new(RecordingHttp::default());
        let (provider, events) = Provider::new(client, sign_events, Rc::new(http.clone()), storage, options)
            .await
            .unwrap();
        (provider, events, http)
    }

    fn gateway() -> ProviderOptions {
        ProviderOptions {
            rpc_map: Map::from([("eip155:31338".into(), "http://node.test/rpc".into())]),
            gateway_url: Some("http://latch.test/".into()),
            project_id: Some("demo".into()),
        }
    }

    fn drain(events: &mut Receiver<ProviderEvent>) -> Vec<ProviderEvent> {
        std::iter::from_fn(|| events.try_next()).collect()
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        futures_util::FutureExt::now_or_never(Box::pin(future)).expect("no real IO in these tests")
    }

    #[test]
    fn before_connect_the_spec_messages() {
        block_on(async {
            let storage = storage_with(None).await;
            let (provider, _, _) = provider(&storage, gateway()).await;
            assert_eq!(provider.session(), None);
            assert_eq!(provider.chain_id(), None);
            assert_eq!(
                provider.request("eth_chainId", json!([]), None).await,
                Err(Error::RequestBeforeConnect)
            );
            assert_eq!(provider.enable().await, Err(Error::EnableBeforeConnect));
            // No connect() config yet: no namespace is configured.
            assert_eq!(
                provider.set_default_chain("eip155:1").await,
                Err(Error::NamespaceNotConfigured("eip155".into()))
            );
            provider.close();
            assert_eq!(provider.enable().await, Err(Error::Closed));
            assert_eq!(
                provider
                    .request("eth_chainId", json!([]), None)
                    .await
                    .unwrap_err()
                    .to_string(),
                "Sign Client not initialized"
            );
        });
    }

    #[test]
    fn local_answers_and_http_routing() {
        block_on(async {
            let storage = storage_with(Some(session(&["eip155:31337", "eip155:31338"]))).await;
            let (provider, mut events, http) = provider(&storage, gateway()).await;
            // Restored: the first chain of the first namespace, accounts in EIP-55.
            assert_eq!(provider.chain_id().as_deref(), Some("eip155:31337"));
            assert_eq!(
                provider.request("eth_chainId", json!([]), None).await,
                Ok(json!("0x7a69"))
            );
            assert_eq!(
                provider.request("eth_accounts", json!([]), None).await,
                Ok(json!([ADDRESS]))
            );
            assert_eq!(provider.enable().await, Ok(vec![ADDRESS.to_owned()]));
            assert!(http.calls.borrow().is_empty(), "answered locally");

            // No rpcMap entry for 31337: the gateway, as text/plain with the project.
            *http.reply.borrow_mut() = r#"{"jsonrpc":"2.0","id":1,"result":"0x10"}"#.into();
            assert_eq!(
                provider.request("eth_blockNumber", json!([]), None).await,
                Ok(json!("0x10"))
            );
            // An rpcMap entry wins, as JSON.
            provider
                .request("eth_getBalance", json!([ADDRESS, "latest"]), Some("eip155:31338"))
                .await
                .unwrap();
            let calls = http.calls.borrow().clone();
            assert_eq!(calls.len(), 2);
            assert_eq!(
                calls[0].0,
                "http://latch.test/v1/?chainId=eip155%3A31337&projectId=demo"
            );
            assert_eq!(calls[0].2, BodyKind::PlainText);
            assert_eq!(
                (
                    calls[0].1["jsonrpc"].as_str(),
                    calls[0].1["method"].as_str(),
                    &calls[0].1["params"]
                ),
                (Some("2.0"), Some("eth_blockNumber"), &json!([]))
            );
            assert_eq!(
                (calls[1].0.as_str(), calls[1].2),
                ("http://node.test/rpc", BodyKind::Json)
            );
            assert_eq!(calls[1].1["params"], json!([ADDRESS, "latest"]));
            assert_ne!(calls[0].1["id"], calls[1].1["id"], "each call its own id");

            // The node's error keeps its code; a non-JSON answer is a clear error.
            *http.reply.borrow_mut() =
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad params"}}"#.into();
            let error = provider.request("eth_call", json!([]), None).await.unwrap_err();
            assert_eq!(
                (error.rpc_code(), error.to_string().as_str()),
                (Some(-32602), "bad params")
            );
            *http.reply.borrow_mut() = "<html>".into();
            assert!(matches!(
                provider.request("eth_call", json!([]), None).await,
                Err(Error::InvalidPayload(_))
            ));

            // Chains and namespaces the session does not have.
            assert_eq!(
                provider.request("eth_blockNumber", json!([]), Some("eip155:10")).await,
                Err(Error::NoJsonRpcProvider("eip155:10".into()))
            );
            assert_eq!(
                provider.request("getSlot", json!([]), Some("solana:abc")).await,
                Err(Error::NamespaceNotConfigured("solana".into()))
            );
            assert_eq!(
                provider.request("x", json!([]), Some("nonsense")).await,
                Err(Error::NamespaceNotConfigured("nonsense".into()))
            );
            assert!(drain(&mut events).is_empty());

            // Without rpcMap or gateway: no URL, named by the chain's reference.
            let (bare, _, _) = provider_without_urls(&storage).await;
            assert_eq!(
                bare.request("eth_blockNumber", json!([]), None).await,
                Err(Error::NoRpcUrl("31337".into()))
            );
        });
    }

    async fn provider_without_urls(storage: &MemoryStorage) -> (Provider, Receiver<ProviderEvent>, Rc<RecordingHttp>) {
        provider(storage, ProviderOptions::default()).await
    }

    #[test]
    fn chain_changes_emit_persist_and_restore() {
        block_on(async {
            let storage = storage_with(Some(session(&["eip155:31337", "eip155:31338"]))).await;
            let (provider, mut events, _) = provider(&storage, gateway()).await;
            // A local switch to an approved chain.
            let switched = provider
                .request("wallet_switchEthereumChain", json!([{ "chainId": "0x7a6a" }]), None)
                .await;
            assert_eq!(switched, Ok(Value::Null));
            assert_eq!(
                drain(&mut events),
                [
                    ProviderEvent::ChainChanged("0x7a6a".into()),
                    ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
                ]
            );
            assert_eq!(
                storage.get(STORE_DEFAULT_CHAIN).await.unwrap().as_deref(),
                Some("\"eip155:31338\"")
            );
            // Switching to the chain already in use says nothing.
            provider.set_default_chain("eip155:31338").await.unwrap();
            assert!(drain(&mut events).is_empty());
            // Not approved, and the wallet cannot switch: the official provider's refusal.
            assert!(matches!(
                provider.request("wallet_switchEthereumChain", json!([{ "chainId": "0x1" }]), None).await,
                Err(Error::NotAllowed(m)) if m.contains("'eip155:1'")
            ));
            assert!(matches!(
                provider.request("wallet_switchEthereumChain", json!([{}]), None).await,
                Err(Error::InvalidPayload(_))
            ));
            assert!(matches!(
                provider
                    .request("wallet_switchEthereumChain", json!([{ "chainId": "0xzz" }]), None)
                    .await,
                Err(Error::InvalidPayload(_))
            ));

            // A reload restores the stored chain.
            let (reloaded, _, _) = provider_without_urls(&storage).await;
            assert_eq!(reloaded.chain_id().as_deref(), Some("eip155:31338"));

            // The wallet's chainChanged (data as a number) and accountsChanged (CAIP-10).
            provider
                .on_sign_event(SignEvent::SessionEvent {
                    topic: TOPIC.into(),
                    chain_id: "eip155:31338".into(),
                    name: "chainChanged".into(),
                    data: json!(31337),
                })
                .await;
            let seen = drain(&mut events);
            assert_eq!(
                seen[..2],
                [
                    ProviderEvent::ChainChanged("0x7a69".into()),
                    ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
                ]
            );
            assert!(
                matches!(&seen[2], ProviderEvent::Sign(SignEvent::SessionEvent { .. })),
                "passed through last"
            );
            assert_eq!(provider.chain_id().as_deref(), Some("eip155:31337"));
            provider
                .on_sign_event(SignEvent::SessionEvent {
                    topic: TOPIC.into(),
                    chain_id: "eip155:31337".into(),
                    name: "accountsChanged".into(),
                    data: json!([format!("eip155:31337:{LOWER}")]),
                })
                .await;
            assert_eq!(
                drain(&mut events)[0],
                ProviderEvent::AccountsChanged(vec![ADDRESS.into()])
            );
            // Another session's events are not ours.
            provider
                .on_sign_event(SignEvent::SessionEvent {
                    topic: "99".repeat(32),
                    chain_id: "eip155:31338".into(),
                    name: "chainChanged".into(),
                    data: json!(31338),
                })
                .await;
            assert_eq!(provider.chain_id().as_deref(), Some("eip155:31337"));
            assert!(matches!(drain(&mut events)[..], [ProviderEvent::Sign(_)]));
        });
    }

    #[test]
    fn the_wallet_ending_the_session_clears_everything() {
        block_on(async {
            let storage = storage_with(Some(session(&["eip155:31337"]))).await;
            let (provider, mut events, _) = provider(&storage, gateway()).await;
            provider.set_default_chain("eip155:31337").await.unwrap();
            storage.set(STORE_NAMESPACES, "{}".into()).await.unwrap();
            let reason = Reason {
                code: 6000,
                message: "User disconnected.".into(),
            };
            provider
                .on_sign_event(SignEvent::SessionDeleted {
                    topic: TOPIC.into(),
                    reason: reason.clone(),
                })
                .await;
            let seen = drain(&mut events);
            assert_eq!(seen[0], ProviderEvent::Disconnect(reason));
            assert_eq!(provider.chain_id(), None);
            for key in [STORE_NAMESPACES, STORE_OPTIONAL_NAMESPACES, STORE_DEFAULT_CHAIN] {
                assert_eq!(storage.get(key).await.unwrap(), None, "{key}");
            }
        });
    }

    #[test]
    fn a_session_without_chains_has_no_default_chain() {
        block_on(async {
            let storage = storage_with(Some(session(&[]))).await;
            let (provider, _, _) = provider(&storage, gateway()).await;
            assert!(provider.session().is_some());
            assert_eq!(
                provider.request("eth_chainId", json!([]), None).await,
                Err(Error::ChainIdNotFound)
            );
        });
    }

    #[test]
    fn event_data_reads_every_shape() {
        assert_eq!(chain_of_event("eip155:1", &json!(10)), "eip155:10");
        assert_eq!(chain_of_event("eip155:1", &json!("0xa")), "eip155:10");
        assert_eq!(chain_of_event("eip155:1", &json!("eip155:137")), "eip155:137");
        assert_eq!(chain_of_event("eip155:1", &json!(null)), "eip155:1");
        assert_eq!(chain_of_event("eip155:1", &json!("0xzz")), "eip155:1");
        assert_eq!(chain_of_event("solana:abc", &json!("def")), "solana:def");
        assert_eq!(
            addresses_of_event("eip155:1", &json!([LOWER, format!("eip155:1:{LOWER}")])),
            [ADDRESS, ADDRESS]
        );
        assert!(addresses_of_event("eip155:1", &json!({"not": "a list"})).is_empty());
        assert_eq!(chain_id_for_events("eip155:31337"), "0x7a69");
        assert_eq!(chain_id_for_events("solana:abc"), "abc");
        assert_eq!(chain_id_for_events("garbage"), "garbage");
    }

    proptest::proptest! {
        /// What a wallet sends in events is untrusted: any shape gives an answer, never a panic.
        #[test]
        fn event_readers_never_panic(chain in ".{0,40}", text in ".{0,80}", number in proptest::num::u64::ANY) {
            let values = [json!(text), json!(number), json!([text.clone(), 1, null]), json!({ "x": text })];
            for data in &values {
                let moved = chain_of_event(&chain, data);
                proptest::prop_assert!(!moved.is_empty() || chain.is_empty());
                let _ = addresses_of_event(&chain, data);
            }
            let _ = chain_id_for_events(&chain);
            let _ = chain_id_for_events(&text);
        }
    }
}
