//! The settings of the relay, request bodies, the JSON-RPC WebSocket and Sign in with X.

use serde::{Deserialize, Serialize};

use crate::ratelimit::Limit;

/// Settings of the relay (`crate::relay`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RelayConfig {
    /// Refuse connections whose `projectId` is not a known project (close 3000).
    /// Unset: on, except in `--dev`.
    pub require_project: Option<bool>,
    /// This relay's public URLs (the clients' `relayUrl`, e.g. `wss://relay.example/relay`):
    /// a token's JWT `aud` must be one of them. Never taken from the request.
    /// Empty: only `ws://` / `wss://` URLs of loopback hosts (`127.0.0.1`,
    /// `localhost`, `[::1]`) and of `host` when it names one address, on the
    /// port served, are accepted; a relay reached from elsewhere must list its URL.
    pub audiences: Vec<String>,
    /// Shortest message TTL accepted, in seconds.
    pub min_ttl_secs: u64,
    /// Longest message TTL accepted, in seconds (at most 7 days).
    pub max_ttl_secs: u64,
    /// Largest `message` accepted, in bytes of its base64 text.
    pub max_message_bytes: usize,
    /// Requests one connection may send.
    pub rate_limit: Limit,
    /// Seconds between WebSocket pings (clients drop a socket silent for 35 s).
    pub ping_interval_secs: u64,
    /// Milliseconds before an unacknowledged `irn_subscription` is sent again.
    pub redeliver_after_ms: u64,
    /// Topics one connection may be subscribed to at once (`SubscriberLimitExceeded` beyond).
    pub max_topics_per_connection: usize,
    /// Relay connections open at once from one client IP (the upgrade is closed with 1013 beyond).
    pub max_connections_per_ip: usize,
    /// Unexpired messages one topic's mailbox may hold (`MailboxLimitExceeded` beyond).
    pub max_messages_per_topic: u64,
    /// Unexpired messages one publisher (client id) may have in the mailbox, all topics together.
    pub max_messages_per_publisher: u64,
    /// Shards of the SQLite mailbox, each a file with its own writer (1–64;
    /// `store::relay_shards`). Unset: the available cores, at most 8.
    pub journal_shards: Option<usize>,
}

/// The longest TTL any relay accepts: what the official clients send at most.
pub const RELAY_MAX_TTL_CEILING_SECS: u64 = 7 * 86_400;

impl RelayConfig {
    /// Whether a known `projectId` is required, given `--dev`.
    pub fn requires_project(&self, dev: bool) -> bool {
        self.require_project.unwrap_or(!dev)
    }

    /// Shards of the SQLite mailbox: `journal_shards`, else one per core up to 8
    /// (past that, measured gains need more cores than a relay usually gets).
    pub fn journal_shards(&self) -> usize {
        self.journal_shards.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(8)
        })
    }
}

/// Most shards `relay.journal_shards` may name.
pub const RELAY_MAX_JOURNAL_SHARDS: usize = 64;

impl Default for RelayConfig {
    fn default() -> Self {
        Self {
            require_project: None,
            audiences: Vec::new(),
            min_ttl_secs: 10,
            max_ttl_secs: RELAY_MAX_TTL_CEILING_SECS,
            max_message_bytes: 256 * 1024,
            // The hosted relay's historical budget: 900 requests a minute, all at once if need be.
            rate_limit: Limit {
                per_second: 15.0,
                burst: 900.0,
            },
            ping_interval_secs: 20,
            redeliver_after_ms: 5_000,
            // A wallet holds a pairing and a session topic per dapp: 1000 is hundreds of dapps.
            max_topics_per_connection: 1_000,
            // Browser tabs behind one NAT each hold a socket; far beyond that is one host hoarding sockets.
            max_connections_per_ip: 100,
            // A session's requests within their TTL; beyond is a topic used as storage.
            max_messages_per_topic: 1_000,
            max_messages_per_publisher: 5_000,
            journal_shards: None,
        }
    }
}

/// Request body limits per route, in bytes. Bodies are read whole before they
/// are parsed, so each route accepts what its largest honest request needs.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct BodyLimits {
    /// `POST /v1/` JSON-RPC (a batch of up to `max_batch` calls).
    pub rpc: usize,
    /// `POST /e`, one analytics event.
    pub event: usize,
    /// `POST /batch`, a batch of analytics events.
    pub event_batch: usize,
    /// `/v1/siwx/*`, sign-in messages and signatures.
    pub sign_in: usize,
}

impl Default for BodyLimits {
    fn default() -> Self {
        Self {
            rpc: 1024 * 1024,
            event: 64 * 1024,
            event_batch: 512 * 1024,
            sign_in: 16 * 1024,
        }
    }
}

/// Limits of the JSON-RPC WebSocket (`crate::subscriptions`): each socket holds
/// an upstream connection and subscriptions on it, so each is bounded.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RpcWsConfig {
    /// Largest client message in bytes; a larger one closes the socket with 1009.
    pub max_message_bytes: usize,
    /// Requests one socket may send (a batch of N counts N); past it, JSON-RPC error -32005.
    pub rate_limit: Limit,
    /// Subscriptions one socket may hold open; past it, JSON-RPC error -32005.
    pub max_subscriptions: usize,
    /// Seconds after which a socket is closed when it sent no request and holds no
    /// subscription, or answered no ping (pings go out every half of it).
    pub idle_timeout_secs: u64,
    /// Open sockets one client IP may hold; past it the upgrade answers 429 `TOO_MANY_SOCKETS`.
    pub max_sockets_per_ip: usize,
}

impl Default for RpcWsConfig {
    fn default() -> Self {
        Self {
            max_message_bytes: 1024 * 1024,
            rate_limit: Limit {
                per_second: 50.0,
                burst: 200.0,
            },
            max_subscriptions: 100,
            idle_timeout_secs: 120,
            max_sockets_per_ip: 32,
        }
    }
}

/// Settings of Sign in with X (`crate::siwx`); `LATCH_SIWX='{issued_at_window_secs=300}'`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct SiwxConfig {
    /// How far a message's `Issued At` may be from the server's clock, either side, in seconds.
    pub issued_at_window_secs: u64,
    /// Largest sign-in message accepted, in bytes.
    pub max_message_bytes: usize,
    /// Lifetime of the access token a sign-in or refresh answers, in seconds.
    pub access_token_secs: u64,
    /// How often expired nonces and ended sessions are deleted, in seconds.
    pub prune_every_secs: u64,
    /// How long an expired or revoked session is kept before it is deleted, in seconds
    /// (its copied refresh token is recognised as reused until then).
    pub prune_grace_secs: u64,
}

impl Default for SiwxConfig {
    fn default() -> Self {
        Self {
            // Wallets sign within seconds of the message being made; ten minutes
            // leaves room for slow confirmations and ordinary clock skew.
            issued_at_window_secs: 600,
            // The cap: far above any real message (about 500 bytes with a statement).
            max_message_bytes: 4 * 1024,
            access_token_secs: 15 * 60,
            prune_every_secs: 60,
            prune_grace_secs: 86_400,
        }
    }
}
