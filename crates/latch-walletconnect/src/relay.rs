//! The relay client: one WebSocket to a WalletConnect relay (`irn_*` JSON-RPC),
//! authenticated by a did:key EdDSA JWT, re-opened with back-off when it
//! drops, re-subscribing every topic on each new socket. Messages pushed by
//! the relay (`irn_subscription`) are acknowledged, de-duplicated and handed
//! on through the receiver [`Relay::new`] returns.
//!
//! [`Relay::run`] is the connection loop; the host spawns it (a `LocalSet`
//! task natively, `spawn_local` in the browser). Requests made while the
//! socket is down wait for the next one, up to their deadline.

use std::cell::RefCell;
use std::rc::Rc;

use ed25519_dalek::SigningKey;
use latch_core::relay_auth;

use crate::crypto::{hash_message, random_bytes};
use crate::io::{Clock, Incoming, Transport};
use crate::json;
use crate::json::Value;
use crate::map::Map;
use crate::task::{self, select, Either, Receiver, Sender};
use crate::{Error, Result};

/// Close code of a refused token or project: not retried.
const CLOSE_AUTH: u16 = 3000;
/// Seen-message ids kept for de-duplication before the set is reset.
const MAX_SEEN: usize = 10_000;
/// Reconnect back-off bounds, in milliseconds.
const BACKOFF_MIN_MS: u64 = 250;
const BACKOFF_MAX_MS: u64 = 10_000;
/// Token lifetime, as the JS client: one day.
const JWT_TTL_SECS: i64 = 86_400;
/// What a lost socket does to requests in flight (they are sent again on the next one).
const DISCONNECTED: &str = "connection lost";

/// Where and how to connect.
#[derive(Debug, Clone)]
pub struct RelayOptions {
    /// The relay URL (`ws://` or `wss://`), also the JWT audience.
    pub url: String,
    /// Sent as `projectId` when set.
    pub project_id: Option<String>,
    /// How long a request may wait for the relay, across reconnects.
    pub request_timeout_ms: u64,
}

impl RelayOptions {
    /// Options for `url` with no project and a 30 s request deadline.
    pub fn new(url: impl Into<String>) -> Self {
        RelayOptions {
            url: url.into(),
            project_id: None,
            request_timeout_ms: 30_000,
        }
    }
}

/// A message the relay delivered on a subscribed topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayMessage {
    /// Its topic.
    pub topic: String,
    /// The envelope (base64).
    pub message: String,
    /// When the relay stored it, ms.
    pub published_at: u64,
    /// The publisher's tag.
    pub tag: i64,
}

// Read by hand (crate::json), like the engine's records.
crate::read_fields!(RelayMessage {
    topic: field("topic"),
    message: field("message"),
    published_at: or_default("publishedAt"),
    tag: or_default("tag"),
});

struct State {
    socket: Option<Sender<String>>,
    /// Requests awaiting their answer, by JSON-RPC id.
    pending: Map<u64, Sender<Result<Value>>>,
    /// Topic → subscription id (empty until the relay answered).
    subscriptions: Map<String, String>,
    /// Woken when a socket opens.
    waiters: Vec<Sender<()>>,
    /// Messages delivered (`topic:hash`), as a set: the relay may deliver one twice.
    seen: Map<String, ()>,
    deliver: Sender<RelayMessage>,
    next_id: u64,
    closed: bool,
}

struct Shared {
    options: RelayOptions,
    key: SigningKey,
    sub: String,
    transport: Rc<dyn Transport>,
    clock: Rc<dyn Clock>,
    state: RefCell<State>,
}

/// A handle on the relay connection; clones share it.
#[derive(Clone)]
pub struct Relay {
    shared: Rc<Shared>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay").field("url", &self.shared.options.url).finish()
    }
}

impl Relay {
    /// A client identified by the Ed25519 `seed` (persist it: it is the client id),
    /// and the receiver of the messages it will deliver.
    pub fn new(
        options: RelayOptions,
        seed: [u8; 32],
        transport: Rc<dyn Transport>,
        clock: Rc<dyn Clock>,
    ) -> Result<(Self, Receiver<RelayMessage>)> {
        // A socket to anything else never opens, and would be retried forever.
        if !(options.url.starts_with("ws://") || options.url.starts_with("wss://")) {
            return Err(Error::Transport(format!(
                "relay URL must start with ws:// or wss://: {}",
                options.url
            )));
        }
        let (deliver, delivered) = task::channel();
        // The JS client's `sub`: random per process, never reused across clients.
        let sub = hex::encode(random_bytes::<32>()?);
        let next_id = clock.now_ms().saturating_mul(1000);
        let state = State {
            socket: None,
            pending: Map::new(),
            subscriptions: Map::new(),
            waiters: Vec::new(),
            seen: Map::new(),
            deliver,
            next_id,
            closed: false,
        };
        let shared = Shared {
            options,
            key: SigningKey::from_bytes(&seed),
            sub,
            transport,
            clock,
            state: RefCell::new(state),
        };
        Ok((
            Relay {
                shared: Rc::new(shared),
            },
            delivered,
        ))
    }

    /// The client id: the did:key of the client's Ed25519 key.
    pub fn client_id(&self) -> String {
        relay_auth::encode_did_key(&self.shared.key.verifying_key())
    }

    /// Whether a socket is open right now.
    pub fn is_connected(&self) -> bool {
        self.shared.state.borrow().socket.is_some()
    }

    /// The URL with a fresh token, as the JS client builds it (params sorted).
    fn connect_url(&self) -> String {
        let options = &self.shared.options;
        let iat = (self.shared.clock.now_ms() / 1000) as i64;
        let token = relay_auth::sign(
            &self.shared.key,
            &self.shared.sub,
            &options.url,
            iat,
            iat + JWT_TTL_SECS,
        );
        let mut query = form_urlencoded::Serializer::new(String::new());
        query.append_pair("auth", &token);
        if let Some(project) = &options.project_id {
            query.append_pair("projectId", project);
        }
        query.append_pair("ua", concat!("wc-2/rust-latch-", env!("CARGO_PKG_VERSION")));
        query.append_pair("useOnCloseEvent", "true");
        let separator = if options.url.contains('?') { '&' } else { '?' };
        format!("{}{separator}{}", options.url, query.finish())
    }

    /// The connection loop: connects, re-subscribes, reads until the socket
    /// drops, waits and reconnects. Ends after [`Relay::close`], or with
    /// [`Error::Unauthorized`] when the relay refuses the token.
    pub async fn run(&self) -> Result<()> {
        let mut backoff = BACKOFF_MIN_MS;
        loop {
            if self.shared.state.borrow().closed {
                return Ok(());
            }
            let socket = match self.shared.transport.connect(&self.connect_url()).await {
                Ok(socket) => socket,
                Err(error) => {
                    tracing::debug!(%error, backoff, "relay: connect failed");
                    self.shared.clock.sleep(backoff).await;
                    backoff = (backoff * 2).min(BACKOFF_MAX_MS);
                    continue;
                }
            };
            let waiters = {
                let mut state = self.shared.state.borrow_mut();
                if state.closed {
                    return Ok(());
                }
                state.socket = Some(socket.outgoing);
                std::mem::take(&mut state.waiters)
            };
            for waiter in waiters {
                let _ = waiter.send(());
            }
            tracing::debug!(url = %self.shared.options.url, "relay: connected");
            let read = self.read(socket.incoming);
            let resubscribe = self.resubscribe();
            let (closed, ()) = task::join(read, resubscribe).await;
            {
                let mut state = self.shared.state.borrow_mut();
                state.socket = None;
                for (_, pending) in std::mem::take(&mut state.pending) {
                    let _ = pending.send(Err(Error::Transport(DISCONNECTED.into())));
                }
            }
            let (code, reason) = closed;
            if code == CLOSE_AUTH {
                return Err(Error::Unauthorized(reason));
            }
            if self.shared.state.borrow().closed {
                return Ok(());
            }
            tracing::debug!(code, %reason, "relay: socket closed, reconnecting");
            backoff = BACKOFF_MIN_MS;
            self.shared.clock.sleep(backoff).await;
        }
    }

    /// Reads frames until the socket closes; returns the close code and reason.
    async fn read(&self, mut incoming: Receiver<Incoming>) -> (u16, String) {
        while let Some(frame) = incoming.recv().await {
            match frame {
                Incoming::Text(text) => self.on_frame(&text),
                Incoming::Closed { code, reason } => return (code, reason),
            }
        }
        (1006, String::new())
    }

    /// Subscribes every known topic again on a new socket (the relay then
    /// pushes what its mailbox holds for them). One attempt: if this socket
    /// drops too, the next one tries again.
    async fn resubscribe(&self) {
        let topics: Vec<String> = self.shared.state.borrow().subscriptions.keys().cloned().collect();
        if topics.is_empty() {
            return;
        }
        match self.send_once("irn_batchSubscribe", json!({ "topics": topics })).await {
            Ok(Value::Array(ids)) => {
                let mut state = self.shared.state.borrow_mut();
                for (topic, id) in topics.iter().zip(ids) {
                    if let (Some(slot), Some(id)) = (state.subscriptions.get_mut(topic), id.as_str()) {
                        id.clone_into(slot);
                    }
                }
            }
            Ok(other) => tracing::warn!(%other, "relay: unexpected irn_batchSubscribe answer"),
            Err(error) => tracing::debug!(%error, "relay: resubscribe failed"),
        }
    }

    fn on_frame(&self, text: &str) {
        let Ok(frame) = Value::parse(text) else {
            tracing::warn!("relay: frame is not JSON");
            return;
        };
        if frame.get("method").is_some() {
            self.on_request(&frame);
            return;
        }
        let Some(id) = frame.get("id").and_then(rpc_id) else {
            return;
        };
        let answer = match (frame.get("result"), frame.get("error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Error::Relay {
                code: error.get("code").and_then(Value::as_i64).unwrap_or_default(),
                message: error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            }),
            (None, None) => return,
        };
        if let Some(pending) = self.shared.state.borrow_mut().pending.remove(&id) {
            let _ = pending.send(answer);
        }
    }

    /// A request from the relay: `irn_subscription` is acknowledged and
    /// delivered once per (topic, message); others are acknowledged and ignored.
    fn on_request(&self, frame: &Value) {
        let id = frame.get("id").cloned().unwrap_or(Value::Null);
        let mut state = self.shared.state.borrow_mut();
        // Echo the id exactly as sent (number or string).
        let ack = json!({ "id": id, "jsonrpc": "2.0", "result": true }).to_string();
        if let Some(socket) = &state.socket {
            let _ = socket.send(ack);
        }
        if frame.get("method").and_then(Value::as_str) != Some("irn_subscription") {
            return;
        }
        let data: Option<RelayMessage> = frame
            .get("params")
            .and_then(|params| json::object(params).and_then(|p| json::field(p, "data")).ok());
        let Some(data) = data else {
            tracing::warn!("relay: malformed irn_subscription");
            return;
        };
        if !state.subscriptions.contains_key(&data.topic) {
            return;
        }
        if state.seen.len() >= MAX_SEEN {
            state.seen.clear();
        }
        if state
            .seen
            .insert(format!("{}:{}", data.topic, hash_message(&data.message)), ())
            .is_none()
        {
            let _ = state.deliver.send(data);
        }
    }

    /// Sends one request on the current socket and awaits its answer (or the socket's loss).
    async fn send_once(&self, method: &str, params: Value) -> Result<Value> {
        let mut answer = {
            let mut state = self.shared.state.borrow_mut();
            let Some(socket) = state.socket.clone() else {
                return Err(Error::Transport(DISCONNECTED.into()));
            };
            state.next_id += 1;
            let id = state.next_id;
            let frame = json!({ "id": id, "jsonrpc": "2.0", "method": method, "params": params });
            let (tx, rx) = task::channel();
            state.pending.insert(id, tx);
            if socket.send(frame.to_string()).is_err() {
                state.pending.remove(&id);
                return Err(Error::Transport(DISCONNECTED.into()));
            }
            rx
        };
        answer
            .recv()
            .await
            .unwrap_or(Err(Error::Transport(DISCONNECTED.into())))
    }

    /// A request that survives reconnects: sent again on the next socket until
    /// answered or `request_timeout_ms` passed. Relay methods are idempotent
    /// (a publish is de-duplicated by message), so resending is safe.
    async fn request(&self, method: &str, params: Value) -> Result<Value> {
        let clock = &self.shared.clock;
        let deadline = clock.now_ms() + self.shared.options.request_timeout_ms;
        loop {
            if self.shared.state.borrow().closed {
                return Err(Error::Closed);
            }
            let remaining = deadline.saturating_sub(clock.now_ms());
            if remaining == 0 {
                return Err(Error::Timeout(format!("relay did not answer {method}")));
            }
            if !self.is_connected() {
                let (tx, mut rx) = task::channel();
                self.shared.state.borrow_mut().waiters.push(tx);
                let _ = select(rx.recv(), clock.sleep(remaining)).await;
                continue;
            }
            match select(self.send_once(method, params.clone()), clock.sleep(remaining)).await {
                Either::Left(Err(Error::Transport(why))) if why == DISCONNECTED => continue,
                Either::Left(answer) => return answer,
                Either::Right(_) => return Err(Error::Timeout(format!("relay did not answer {method}"))),
            }
        }
    }

    /// Publishes an envelope to `topic`.
    pub async fn publish(&self, topic: &str, message: &str, ttl: u64, tag: u32) -> Result<()> {
        let params = json!({ "topic": topic, "message": message, "ttl": ttl, "tag": tag, "prompt": false });
        self.request("irn_publish", params).await.map(drop)
    }

    /// Subscribes to `topic` (kept across reconnects); returns the subscription id.
    pub async fn subscribe(&self, topic: &str) -> Result<String> {
        self.shared
            .state
            .borrow_mut()
            .subscriptions
            .get_or_default(topic.to_owned());
        let id = self.request("irn_subscribe", json!({ "topic": topic })).await?;
        let id = id.as_str().unwrap_or_default().to_owned();
        if let Some(slot) = self.shared.state.borrow_mut().subscriptions.get_mut(topic) {
            slot.clone_from(&id);
        }
        Ok(id)
    }

    /// Unsubscribes from `topic` and forgets it.
    pub async fn unsubscribe(&self, topic: &str) -> Result<()> {
        let Some(id) = self.shared.state.borrow_mut().subscriptions.remove(topic) else {
            return Ok(());
        };
        self.request("irn_unsubscribe", json!({ "topic": topic, "id": id }))
            .await
            .map(drop)
    }

    /// The topics subscribed to.
    pub fn topics(&self) -> Vec<String> {
        self.shared.state.borrow().subscriptions.keys().cloned().collect()
    }

    /// The messages the relay's mailbox holds for `topic` (this client has not acknowledged).
    pub async fn fetch_messages(&self, topic: &str) -> Result<Vec<RelayMessage>> {
        let answer = self.request("irn_fetchMessages", json!({ "topic": topic })).await?;
        json::object(&answer)
            .and_then(|fields| json::field(fields, "messages"))
            .map_err(Error::InvalidPayload)
    }

    /// Closes the socket for good; [`Relay::run`] returns and requests fail with [`Error::Closed`].
    pub fn close(&self) {
        let mut state = self.shared.state.borrow_mut();
        state.closed = true;
        state.socket = None;
        state.waiters.clear();
    }
}

/// A JSON-RPC id as a number (the relay echoes ours; it may send strings of digits).
fn rpc_id(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_str().and_then(|s| s.parse().ok()))
}
