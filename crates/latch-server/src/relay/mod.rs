//! A WalletConnect-compatible relay at `GET /relay` (WebSocket), on the API's
//! port: dapps and wallets publish encrypted envelopes to 32-byte topics and
//! receive those of the topics they subscribe to. The relay never decodes them.
//!
//! - `auth`: the client's EdDSA JWT (its did:key is its client id).
//! - `protocol`: JSON-RPC frames, limits and stable error codes.
//! - `delivery`: per-connection pushes awaiting acks (pure, property-tested).
//! - the mailbox is the [`Store`]'s `relay_*` tables (SQLite or Postgres):
//!   every message is kept until its TTL and pushed to each subscriber except
//!   its publisher until that subscriber acks, across reconnects and restarts.
//!   `mailbox` writes to it by group commit, then hands new messages on.
//! - [`Hub`] fans a new message out to this node's subscribed connections;
//!   with the top-level `redis_url` also to the other nodes sharing the database (`fanout`).

pub mod auth;
pub mod delivery;
pub mod fanout;
pub mod mailbox;
pub mod metrics;
pub mod protocol;

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use futures_util::stream::FuturesOrdered;
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};

use crate::config::{Config, RelayConfig};
use crate::error::ApiError;
use crate::project::ProjectDirectory;
use crate::store::{RelayAck, RelayMessage, Store};
use crate::{now_ms, AppState};

use self::delivery::Deliveries;
use self::metrics::RelayMetrics;
use self::protocol::{Frame, Limits, Publish, RelayError, Request};

/// Close code for refused credentials or project (clients do not retry it).
pub const CLOSE_AUTH: u16 = 3000;
/// Close code when the server stops: clients reconnect.
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code when one address holds too many connections ("try again later").
pub const CLOSE_TRY_LATER: u16 = 1013;
/// Mailbox messages pushed per topic at once; more follow as acks arrive.
const PENDING_PAGE: u32 = 500;
/// Bytes of messages in one fetch answer or one round of mailbox pushes (at
/// least one message each): a mailbox of large messages comes in pages, so one
/// request cannot make the relay build (or a client receive) an unbounded frame.
pub const PAGE_BYTES: usize = 1024 * 1024;
/// Pushes queued for one connection before it falls back to re-reading the mailbox.
const QUEUE: usize = 1024;
/// Read and write buffer of a relay socket (they grow for larger frames).
const SOCKET_BUFFER: usize = 4 * 1024;
/// Publishes of one connection being stored at once; reading waits beyond that.
const IN_FLIGHT: usize = 1024;
/// How often unacknowledged pushes and overflowed queues are looked at.
const TICK: Duration = Duration::from_millis(250);
/// How often expired messages are dropped and the mailbox gauge refreshed.
const PRUNE_EVERY: Duration = Duration::from_secs(15);

/// sha256 of `data`, lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

/// The subscription id the official clients compute themselves: sha256(topic ‖ client id).
pub fn subscription_id(topic: &str, client_id: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(topic.as_bytes());
    hasher.update(client_id.as_bytes());
    hex::encode(hasher.finalize())
}

/// One subscribed connection, as the hub sees it.
struct Subscriber {
    client_id: Arc<str>,
    queue: mpsc::Sender<Arc<RelayMessage>>,
    /// Set when `queue` overflowed: the connection re-reads the mailbox.
    resync: Arc<AtomicBool>,
}

/// This node's subscriptions: topic → connection → subscriber.
#[derive(Default)]
pub struct Hub {
    topics: RwLock<HashMap<String, HashMap<u64, Subscriber>>>,
}

impl Hub {
    fn add(&self, topic: &str, connection: u64, subscriber: Subscriber) -> bool {
        let mut topics = self.topics.write().unwrap_or_else(|e| e.into_inner());
        topics
            .entry(topic.to_owned())
            .or_default()
            .insert(connection, subscriber)
            .is_none()
    }

    fn remove(&self, topic: &str, connection: u64) -> bool {
        let mut topics = self.topics.write().unwrap_or_else(|e| e.into_inner());
        let Some(subscribers) = topics.get_mut(topic) else {
            return false;
        };
        let removed = subscribers.remove(&connection).is_some();
        if subscribers.is_empty() {
            topics.remove(topic);
        }
        removed
    }

    /// Hands `message` to every local subscriber of its topic but its publisher.
    pub fn deliver(&self, message: &Arc<RelayMessage>) {
        let topics = self.topics.read().unwrap_or_else(|e| e.into_inner());
        let Some(subscribers) = topics.get(&message.topic) else {
            return;
        };
        for subscriber in subscribers.values() {
            if *subscriber.client_id == *message.publisher {
                continue;
            }
            if subscriber.queue.try_send(message.clone()).is_err() {
                subscriber.resync.store(true, Ordering::Release);
            }
        }
    }

    /// Has every local connection re-read the mailbox (after missing fan-out messages).
    pub fn resync_all(&self) {
        let topics = self.topics.read().unwrap_or_else(|e| e.into_inner());
        for subscriber in topics.values().flat_map(HashMap::values) {
            subscriber.resync.store(true, Ordering::Release);
        }
    }
}

/// The relay shared by every connection of this node.
pub struct Relay {
    store: Arc<dyn Store>,
    config: RelayConfig,
    /// Which JWT audiences name this relay (from configuration only).
    audiences: auth::Audiences,
    /// Whether a known `projectId` is required (`require_project`, else on outside `--dev`).
    require_project: bool,
    /// Take the client IP from `X-Forwarded-For` (the top-level `trust_forwarded_for`).
    trust_forwarded_for: bool,
    /// Open connections per client IP (connections live on one node: counted in-process).
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    hub: Arc<Hub>,
    mailbox: mailbox::Mailbox,
    next_connection: AtomicU64,
    next_push: AtomicU64,
    stopping: watch::Sender<bool>,
    /// Counters and gauges for `/metrics`.
    pub metrics: Arc<RelayMetrics>,
}

impl Relay {
    /// A relay over `store`'s mailbox; starts the task that drops expired messages
    /// and, with `redis_url`, the fan-out to other nodes.
    pub async fn new(
        site: &Config,
        redis_url: Option<&str>,
        store: Arc<dyn Store>,
        metrics: Arc<RelayMetrics>,
    ) -> Result<Self, fanout::FanoutError> {
        let config = site.relay.clone();
        let hub = Arc::new(Hub::default());
        let node = format!("{}-{}", std::process::id(), now_ms());
        let fanout = match redis_url {
            Some(url) => Some(fanout::RedisFanout::start(url, hub.clone(), node.clone()).await?),
            None => None,
        };
        let mailbox = mailbox::Mailbox::start(
            store.clone(),
            mailbox::Outlets {
                hub: hub.clone(),
                fanout,
                node,
                metrics: metrics.clone(),
                quotas: mailbox::Quotas {
                    per_topic: config.max_messages_per_topic,
                    per_publisher: config.max_messages_per_publisher,
                },
            },
        );
        let prune_store = store.clone();
        let prune_metrics = metrics.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(PRUNE_EVERY);
            loop {
                every.tick().await;
                let now = now_ms();
                if let Err(error) = prune_store.relay_prune(now).await {
                    tracing::warn!(%error, "relay: pruning the mailbox failed");
                }
                if let Ok(size) = prune_store.relay_mailbox_size(now).await {
                    prune_metrics.mailbox_messages.store(size, Ordering::Relaxed);
                }
            }
        });
        // Server-initiated ids: unique across restarts, below 2^53 (clients parse them as JS numbers).
        let first_push = (now_ms().max(0) as u64 % 1_000_000_000_000) * 1000;
        Ok(Self {
            store,
            audiences: auth::Audiences::new(&config.audiences, site.host, site.port),
            require_project: config.requires_project(site.dev),
            trust_forwarded_for: site.trust_forwarded_for,
            per_ip: Mutex::default(),
            config,
            hub,
            mailbox,
            next_connection: AtomicU64::new(1),
            next_push: AtomicU64::new(first_push),
            stopping: watch::channel(false).0,
            metrics,
        })
    }

    /// Accepts tokens for the loopback URLs on `port` too, when no public URL is
    /// configured (the server calls it with the port it bound).
    pub fn serving_on(&self, port: u16) {
        self.audiences.serving_on(port);
    }

    /// Takes one of `ip`'s connection slots; `None` when all are taken.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let mut per_ip = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        let open = per_ip.entry(ip).or_default();
        if *open >= self.config.max_connections_per_ip {
            return None;
        }
        *open += 1;
        Some(Slot {
            relay: self.clone(),
            ip,
        })
    }

    /// Closes every connection with 1001 ("going away") so clients reconnect elsewhere or later.
    pub fn shutdown(&self) {
        let _ = self.stopping.send(true);
    }

    fn limits(&self) -> Limits {
        Limits {
            min_ttl: self.config.min_ttl_secs,
            max_ttl: self.config.max_ttl_secs,
            max_message: self.config.max_message_bytes,
        }
    }

    /// Stores `publish` from `publisher` and, when new, fans it out.
    /// Idempotent: a retry (same message) answers the same and delivers nothing twice.
    pub async fn publish(&self, publisher: &str, publish: Publish) -> Result<(), RelayError> {
        let now = now_ms();
        let message = RelayMessage {
            id: 0,
            hash: sha256_hex(publish.message.as_bytes()),
            topic: publish.topic,
            message: publish.message,
            tag: publish.tag,
            publisher: publisher.to_owned(),
            published_at: now,
            expires_at: now.saturating_add((publish.ttl as i64).saturating_mul(1000)),
        };
        // Fresh or a duplicate, the publisher hears the same; the mailbox delivers fresh ones.
        match self.mailbox.publish(message).await {
            Ok(_) => Ok(()),
            Err(mailbox::MailboxError::Full) => Err(RelayError::MailboxLimitExceeded),
            Err(mailbox::MailboxError::Failed) => Err(RelayError::Internal),
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct RelayQuery {
    auth: Option<String>,
    #[serde(rename = "projectId")]
    project_id: Option<String>,
}

/// One of an address's connection slots, given back when dropped.
struct Slot {
    relay: Arc<Relay>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut per_ip = self.relay.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = per_ip.get_mut(&self.ip) {
            *open = open.saturating_sub(1);
            if *open == 0 {
                per_ip.remove(&self.ip);
            }
        }
    }
}

/// The client's address: the socket peer, or the first `X-Forwarded-For` hop
/// when the operator says a proxy sets it.
fn client_ip(headers: &HeaderMap, peer: Option<SocketAddr>, trust_forwarded_for: bool) -> Option<IpAddr> {
    let forwarded = trust_forwarded_for
        .then(|| headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()))
        .flatten()
        .and_then(|list| list.split(',').next())
        .and_then(|first| first.trim().parse().ok());
    forwarded.or(peer.map(|p| p.ip()))
}

/// Who a connection belongs to, or why it is refused.
async fn authenticate(
    relay: &Relay,
    projects: &ProjectDirectory,
    query: &RelayQuery,
    headers: &HeaderMap,
) -> Result<String, String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let token = query
        .auth
        .as_deref()
        .or(bearer)
        .ok_or(auth::AuthError::Missing.to_string())?;
    let verified = auth::verify(token, now_ms() / 1000).map_err(|e| e.to_string())?;
    if !relay.audiences.accepts(&verified.audience) {
        return Err(auth::AuthError::Audience.to_string());
    }
    if relay.require_project {
        let known = match query.project_id.as_deref() {
            Some(id) => matches!(projects.get(id).await, Ok(Some(_))),
            None => false,
        };
        if !known {
            return Err("project: unknown or missing projectId".into());
        }
    }
    Ok(verified.client_id)
}

/// `GET /relay?auth=…&projectId=…` upgraded to a WebSocket. Refusals still
/// upgrade, then close with 3000 and the reason: browsers cannot read a refused upgrade.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    peer: Result<ConnectInfo<SocketAddr>, axum::extract::rejection::ExtensionRejection>,
    query: Result<Query<RelayQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Ok(upgrade) = upgrade else {
        return ApiError::bad("upgrade", "the relay speaks JSON-RPC over a WebSocket").into_response();
    };
    let relay = state.relay.clone();
    // Counted before anything else: a flood of sockets is refused before it costs a signature check.
    let slot = match client_ip(&headers, peer.ok().map(|p| p.0), relay.trust_forwarded_for) {
        Some(ip) => relay
            .admit(ip)
            .ok_or((CLOSE_TRY_LATER, "too many connections from this address".to_owned())),
        None => Err((CLOSE_AUTH, "no client address".to_owned())),
    };
    let client = match (&slot, query) {
        (Err(refusal), _) => Err(refusal.clone()),
        (Ok(_), Ok(Query(query))) => authenticate(&relay, &state.projects, &query, &headers)
            .await
            .map_err(|reason| (CLOSE_AUTH, reason)),
        (Ok(_), Err(rejection)) => Err((CLOSE_AUTH, format!("auth: {rejection}"))),
    };
    // The frame limit sits well above the message cap, so an oversized message is answered, not cut off.
    let frame_limit = relay.config.max_message_bytes * 2 + 64 * 1024;
    upgrade
        .max_message_size(frame_limit)
        // Most frames are a few hundred bytes and most sockets sit idle: the
        // 128 KiB default buffers would be most of a connection's memory.
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |socket| async move {
            // Held for the connection's life.
            let _slot = slot;
            match client {
                Ok(client_id) => Connection::run(relay, socket, client_id.into()).await,
                Err((code, reason)) => {
                    relay.metrics.refused.fetch_add(1, Ordering::Relaxed);
                    let mut socket = socket;
                    let frame = CloseFrame {
                        code,
                        reason: reason.into(),
                    };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                }
            }
        })
}

/// A topic one connection subscribed to.
struct Joined {
    /// The topic, shared with its pushes awaiting acks.
    topic: Arc<str>,
    /// Its subscription id, repeated in every push.
    subscription: String,
}

/// A token bucket for one connection's requests.
struct Budget {
    tokens: f64,
    updated: Instant,
}

/// One client's socket.
struct Connection {
    relay: Arc<Relay>,
    id: u64,
    client_id: Arc<str>,
    /// Subscribed topics, with what each push on them repeats.
    topics: HashMap<String, Joined>,
    deliveries: Deliveries<Arc<RelayMessage>>,
    queue: mpsc::Sender<Arc<RelayMessage>>,
    resync: Arc<AtomicBool>,
    budget: Budget,
    started: Instant,
    /// Answers to publishes still being stored, in request order: a client may
    /// pipeline publishes without waiting for each commit.
    answers: FuturesOrdered<Pin<Box<dyn Future<Output = String> + Send>>>,
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

impl Connection {
    async fn run(relay: Arc<Relay>, socket: WebSocket, client_id: Arc<str>) {
        let (queue, mut incoming) = mpsc::channel(QUEUE);
        let mut connection = Connection {
            id: relay.next_connection.fetch_add(1, Ordering::Relaxed),
            deliveries: Deliveries::new(relay.config.redeliver_after_ms),
            budget: Budget {
                tokens: relay.config.rate_limit.burst,
                updated: Instant::now(),
            },
            relay,
            client_id,
            topics: HashMap::new(),
            queue,
            resync: Arc::default(),
            answers: FuturesOrdered::new(),
            started: Instant::now(),
        };
        let metrics = connection.relay.metrics.clone();
        metrics.connections.fetch_add(1, Ordering::Relaxed);
        metrics.connections_total.fetch_add(1, Ordering::Relaxed);
        let (mut sink, mut stream) = socket.split();
        let mut stopping = connection.relay.stopping.subscribe();
        let mut ping = tokio::time::interval(Duration::from_secs(connection.relay.config.ping_interval_secs));
        ping.tick().await;
        let mut tick = tokio::time::interval(TICK);
        loop {
            let step = tokio::select! {
                frame = stream.next(), if connection.answers.len() < IN_FLIGHT => match frame {
                    Some(Ok(Message::Text(text))) => connection.on_text(&mut sink, &text).await,
                    Some(Ok(Message::Binary(_))) => {
                        connection.send(&mut sink, RelayError::InvalidRequest("frames are JSON text".into()).to_response(&Value::Null)).await
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                },
                // What is ready goes out in one write: under load a group commit
                // releases hundreds of answers and pushes at once.
                Some(message) = incoming.recv() => connection.push_ready(&mut sink, message, &mut incoming).await,
                Some(answer) = connection.answers.next(), if !connection.answers.is_empty() => connection.answer_ready(&mut sink, answer).await,
                _ = ping.tick() => sink.send(Message::Ping(Default::default())).await.map_err(drop),
                _ = tick.tick() => connection.on_tick(&mut sink).await,
                _ = async { drop(stopping.wait_for(|stop| *stop).await) } => {
                    let frame = CloseFrame { code: CLOSE_GOING_AWAY, reason: "server restarting".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            };
            if step.is_err() {
                break;
            }
        }
        for topic in std::mem::take(&mut connection.topics).into_keys() {
            connection.relay.hub.remove(&topic, connection.id);
            metrics.subscriptions.fetch_sub(1, Ordering::Relaxed);
        }
        metrics.connections.fetch_sub(1, Ordering::Relaxed);
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    async fn send(&mut self, sink: &mut Sink, text: String) -> Result<(), ()> {
        sink.send(Message::Text(Utf8Bytes::from(text))).await.map_err(drop)
    }

    /// Most frames buffered before a flush.
    const FEED: usize = 256;

    /// Sends `first` and the other publish answers already settled, then flushes once.
    async fn answer_ready(&mut self, sink: &mut Sink, first: String) -> Result<(), ()> {
        sink.feed(Message::Text(Utf8Bytes::from(first))).await.map_err(drop)?;
        for _ in 1..Self::FEED {
            let Some(Some(answer)) = self.answers.next().now_or_never() else {
                break;
            };
            sink.feed(Message::Text(Utf8Bytes::from(answer))).await.map_err(drop)?;
        }
        sink.flush().await.map_err(drop)
    }

    /// Pushes `first` and the other messages already queued, then flushes once.
    async fn push_ready(
        &mut self,
        sink: &mut Sink,
        first: Arc<RelayMessage>,
        incoming: &mut mpsc::Receiver<Arc<RelayMessage>>,
    ) -> Result<(), ()> {
        self.push_frame(sink, first, false).await?;
        for _ in 1..Self::FEED {
            let Ok(message) = incoming.try_recv() else {
                break;
            };
            self.push_frame(sink, message, false).await?;
        }
        sink.flush().await.map_err(drop)
    }

    fn spend(&mut self) -> bool {
        let limit = self.relay.config.rate_limit;
        if limit.per_second <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let refill = now.duration_since(self.budget.updated).as_secs_f64() * limit.per_second;
        self.budget.tokens = (self.budget.tokens + refill).min(limit.burst);
        self.budget.updated = now;
        if self.budget.tokens >= 1.0 {
            self.budget.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    async fn on_text(&mut self, sink: &mut Sink, text: &str) -> Result<(), ()> {
        let (id, request) = match protocol::parse(text, &self.relay.limits()) {
            Ok(Frame::Ack(Some(id))) => return self.on_ack(id).await,
            Ok(Frame::Ack(None)) => return Ok(()),
            Ok(Frame::Request(id, request)) => (id, request),
            Err((id, error)) => {
                self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                return self.send(sink, error.to_response(&id)).await;
            }
        };
        if !self.spend() {
            self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
            return self.send(sink, RelayError::TooManyRequests.to_response(&id)).await;
        }
        match self.handle(&id, request).await {
            // Answered by `answers` once stored.
            Ok(None) => Ok(()),
            Ok(Some((result, then_push))) => {
                self.send(sink, json!({"id": id, "jsonrpc": "2.0", "result": result}).to_string())
                    .await?;
                // Mailbox pushes go after the answer, so the client knows the topic when they come.
                for topic in then_push {
                    self.push_pending(sink, &topic).await?;
                }
                Ok(())
            }
            Err(error) => {
                self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                self.send(sink, error.to_response(&id)).await
            }
        }
    }

    /// Answers a request: its result and the topics whose mailbox is to be
    /// pushed afterwards, or `None` for a publish, which is answered through
    /// `answers` once stored so that a client can pipeline publishes.
    async fn handle(&mut self, id: &Value, request: Request) -> Result<Option<(Value, Vec<String>)>, RelayError> {
        match request {
            Request::Publish(publish) => {
                let (relay, client_id, id) = (self.relay.clone(), self.client_id.clone(), id.clone());
                self.answers.push_back(Box::pin(async move {
                    match relay.publish(&client_id, publish).await {
                        Ok(()) => json!({"id": id, "jsonrpc": "2.0", "result": true}).to_string(),
                        Err(error) => {
                            relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                            error.to_response(&id)
                        }
                    }
                }));
                Ok(None)
            }
            Request::Subscribe { topics, batch } => {
                self.may_join(&topics)?;
                let ids: Vec<String> = topics.iter().map(|t| self.subscribe(t)).collect();
                let result = if batch { json!(ids) } else { json!(ids[0]) };
                Ok(Some((result, topics)))
            }
            Request::Unsubscribe { topics } => {
                for topic in topics {
                    if self.topics.remove(&topic).is_some() {
                        self.relay.hub.remove(&topic, self.id);
                        self.relay.metrics.subscriptions.fetch_sub(1, Ordering::Relaxed);
                    }
                    self.deliveries.drop_topic(&topic);
                }
                Ok(Some((json!(true), vec![])))
            }
            Request::Fetch { topics } => {
                let mut messages = Vec::new();
                let mut acks = Vec::new();
                let mut has_more = false;
                let mut bytes = 0usize;
                'topics: for topic in topics {
                    if bytes >= PAGE_BYTES {
                        // The page is full; what this topic holds comes with the next fetch.
                        has_more = true;
                        break;
                    }
                    let pending = self
                        .relay
                        .store
                        .relay_pending(&topic, &self.client_id, now_ms(), PENDING_PAGE + 1)
                        .await
                        .map_err(|_| RelayError::Internal)?;
                    has_more |= pending.len() > PENDING_PAGE as usize;
                    for message in pending.into_iter().take(PENDING_PAGE as usize) {
                        if !messages.is_empty() && bytes.saturating_add(message.message.len()) > PAGE_BYTES {
                            has_more = true;
                            break 'topics;
                        }
                        bytes = bytes.saturating_add(message.message.len());
                        // Answered here, so delivered: no push follows.
                        acks.push(RelayAck {
                            message_id: message.id,
                            client_id: self.client_id.to_string(),
                        });
                        messages.push(json!({"topic": message.topic, "message": message.message,
                            "publishedAt": message.published_at, "tag": message.tag, "attestation": null}));
                    }
                }
                self.relay
                    .store
                    .relay_write(&[], &acks)
                    .await
                    .map_err(|_| RelayError::Internal)?;
                Ok(Some((json!({"messages": messages, "hasMore": has_more}), vec![])))
            }
            Request::ProposeSession {
                pairing_topic,
                proposal,
            } => {
                self.may_join(std::slice::from_ref(&pairing_topic))?;
                self.subscribe(&pairing_topic);
                self.relay.publish(&self.client_id, proposal).await?;
                Ok(Some((json!(true), vec![pairing_topic])))
            }
            Request::ApproveSession {
                session_topic,
                response,
                settlement,
            } => {
                self.may_join(std::slice::from_ref(&session_topic))?;
                self.subscribe(&session_topic);
                self.relay.publish(&self.client_id, response).await?;
                self.relay.publish(&self.client_id, settlement).await?;
                Ok(Some((json!(true), vec![session_topic])))
            }
        }
    }

    /// Whether joining `topics` keeps this connection within its topic cap
    /// (all or none: a batch over the cap subscribes nothing).
    fn may_join(&self, topics: &[String]) -> Result<(), RelayError> {
        let cap = self.relay.config.max_topics_per_connection;
        let mut new: Vec<&str> = topics
            .iter()
            .map(String::as_str)
            .filter(|t| !self.topics.contains_key(*t))
            .collect();
        new.sort_unstable();
        new.dedup();
        if self.topics.len().saturating_add(new.len()) > cap {
            return Err(RelayError::SubscriberLimitExceeded(cap));
        }
        Ok(())
    }

    /// Joins `topic` on this node; its subscription id.
    fn subscribe(&mut self, topic: &str) -> String {
        if !self.topics.contains_key(topic) {
            let joined = Joined {
                topic: topic.into(),
                subscription: subscription_id(topic, &self.client_id),
            };
            self.topics.insert(topic.to_owned(), joined);
            self.relay.hub.add(
                topic,
                self.id,
                Subscriber {
                    client_id: self.client_id.clone(),
                    queue: self.queue.clone(),
                    resync: self.resync.clone(),
                },
            );
            self.relay.metrics.subscriptions.fetch_add(1, Ordering::Relaxed);
        }
        subscription_id(topic, &self.client_id)
    }

    /// Pushes what the mailbox holds for this client on `topic`.
    async fn push_pending(&mut self, sink: &mut Sink, topic: &str) -> Result<(), ()> {
        let pending = match self
            .relay
            .store
            .relay_pending(topic, &self.client_id, now_ms(), PENDING_PAGE)
            .await
        {
            Ok(pending) => pending,
            Err(error) => {
                tracing::error!(%error, "relay: reading the mailbox failed");
                self.resync.store(true, Ordering::Release);
                return Ok(());
            }
        };
        if pending.len() == PENDING_PAGE as usize {
            // More than a page: read again once these are acked.
            self.resync.store(true, Ordering::Release);
        }
        let mut bytes = 0usize;
        for message in pending {
            if self.deliveries.contains(message.id) {
                continue;
            }
            if bytes > 0 && bytes.saturating_add(message.message.len()) > PAGE_BYTES {
                // A page of bytes per round; the rest follows on a later tick.
                self.resync.store(true, Ordering::Release);
                break;
            }
            bytes = bytes.saturating_add(message.message.len());
            self.push(sink, Arc::new(message)).await?;
        }
        Ok(())
    }

    /// The `irn_subscription` push of `message` as request `id`; `None` once
    /// the topic is no longer subscribed.
    fn frame(&self, id: u64, message: &RelayMessage) -> Option<String> {
        let joined = self.topics.get(&message.topic)?;
        Some(protocol::subscription_frame(id, &joined.subscription, message))
    }

    async fn push(&mut self, sink: &mut Sink, message: Arc<RelayMessage>) -> Result<(), ()> {
        self.push_frame(sink, message, true).await
    }

    /// Pushes `message` unless it is the client's own, not subscribed or already
    /// in flight; flushed now or left buffered for the caller to flush.
    async fn push_frame(&mut self, sink: &mut Sink, message: Arc<RelayMessage>, flush: bool) -> Result<(), ()> {
        if *message.publisher == *self.client_id {
            return Ok(());
        }
        let Some(joined) = self.topics.get(&message.topic) else {
            return Ok(());
        };
        let topic = joined.topic.clone();
        let id = self.relay.next_push.fetch_add(1, Ordering::Relaxed);
        let now = self.elapsed_ms();
        let Some(frame) = self.frame(id, &message) else {
            return Ok(());
        };
        if !self.deliveries.offer(id, &topic, message.id, message, now) {
            return Ok(());
        }
        self.relay.metrics.pushed.fetch_add(1, Ordering::Relaxed);
        if flush {
            self.send(sink, frame).await
        } else {
            sink.feed(Message::Text(Utf8Bytes::from(frame))).await.map_err(drop)
        }
    }

    async fn on_ack(&mut self, id: u64) -> Result<(), ()> {
        let Some(message_id) = self.deliveries.ack(id) else {
            return Ok(());
        };
        self.relay.metrics.acked.fetch_add(1, Ordering::Relaxed);
        self.relay.mailbox.ack(RelayAck {
            message_id,
            client_id: self.client_id.to_string(),
        });
        Ok(())
    }

    async fn on_tick(&mut self, sink: &mut Sink) -> Result<(), ()> {
        for (id, message, _attempts) in self.deliveries.due(self.elapsed_ms()) {
            let Some(frame) = self.frame(id, &message) else {
                continue;
            };
            self.relay.metrics.redelivered.fetch_add(1, Ordering::Relaxed);
            self.send(sink, frame).await?;
        }
        if self.resync.swap(false, Ordering::AcqRel) {
            let topics: Vec<String> = self.topics.keys().cloned().collect();
            for topic in topics {
                self.push_pending(sink, &topic).await?;
            }
        }
        Ok(())
    }
}
