//! A WalletConnect-compatible relay at `GET /relay` (WebSocket), on the API's
//! port: dapps and wallets publish encrypted envelopes to 32-byte topics and
//! receive those of the topics they subscribe to. The relay never decodes them.
//!
//! - `auth`: the client's EdDSA JWT (its did:key is its client id).
//! - `protocol`: JSON-RPC frames, limits and stable error codes.
//! - `delivery`: per-connection pushes awaiting acks (pure, property-tested).
//! - the mailbox is the store's [`RelayMailbox`] (SQLite or Postgres):
//!   every message is kept until its TTL and pushed to each subscriber except
//!   its publisher until that subscriber acks, across reconnects and restarts.
//!   `mailbox` writes to it by group commit, then hands new messages on.
//! - [`Hub`] fans a new message out to this node's subscribed connections;
//!   with the top-level `redis_url` also to the other nodes sharing the database (`fanout`).

pub mod auth;
mod connection;
pub mod delivery;
// Reached from outside only by the fuzz targets (feature `fuzzing`).
#[cfg(feature = "fuzzing")]
pub mod fanout;
#[cfg(not(feature = "fuzzing"))]
pub(crate) mod fanout;
pub mod mailbox;
pub mod metrics;
pub mod protocol;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};

use crate::config::{Config, RelayConfig};
use crate::error::ApiError;
use crate::project::ProjectDirectory;
use crate::store::{RelayMailbox, RelayMessage};
use crate::{now_ms, AppState};

use self::connection::Connection;
use self::metrics::RelayMetrics;
use self::protocol::{Limits, Publish, RelayError};

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
    store: Arc<dyn RelayMailbox>,
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
        store: Arc<dyn RelayMailbox>,
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
