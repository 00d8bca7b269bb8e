//! One typed configuration, read from `latch.toml` and then `LATCH_*`
//! environment variables (which win), e.g. `LATCH_PORT=9000`,
//! `LATCH_CHAINS='[{id="eip155:1", upstreams=["https://…"]}]'`.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use latch_core::caip::CaipNetworkId;
use latch_core::constants::CONSTANTS;
use latch_core::origin::is_valid_origin_pattern;
use serde::{Deserialize, Serialize};

pub use self::devnet::{DEV_DEVNET_FILE, DEV_SOLANA_DEVNET_FILE};
use crate::outbound::redact_url;
use crate::ratelimit::{Cidr, Limit};

mod chains;
mod devnet;
mod sections;

pub use self::chains::{ChainConfig, EnsConfig, PriceConfig, StaticPriceConfig, TokenConfig};
pub use self::sections::{
    BodyLimits, RelayConfig, RpcWsConfig, SiwxConfig, RELAY_MAX_JOURNAL_SHARDS, RELAY_MAX_TTL_CEILING_SECS,
};

/// Every setting of `latch`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address to listen on.
    pub host: IpAddr,
    /// Port for the API, the relay and the demo.
    pub port: u16,
    /// Where `latch` keeps its state (the SQLite database by default).
    pub data_dir: PathBuf,
    /// `sqlite://…` (default: `<data_dir>/latch.db`) or, later, `postgres://…`.
    pub database_url: Option<Secret>,
    /// `redis://…`: fans relay messages out to the other `latch` nodes sharing the
    /// (Postgres) database, so several nodes act as one relay.
    pub redis_url: Option<Secret>,
    /// A built web app to serve at `/` (the demo in `--dev`).
    pub static_dir: Option<PathBuf>,
    /// Development mode: the local devnet chain and the `demo` project exist.
    pub dev: bool,
    /// Chains the RPC gateway serves.
    pub chains: Vec<ChainConfig>,
    /// Upstream RPC timeout in milliseconds (behaviour 6.15: 10 s).
    pub upstream_timeout_ms: u64,
    /// Largest JSON-RPC batch accepted (behaviour 6.15: 1000).
    pub max_batch: usize,
    /// Largest request body in bytes on routes without a limit of their own in `body_limits`.
    pub max_body_bytes: usize,
    /// Per-route request body limits (larger bodies answer 413 `PAYLOAD_TOO_LARGE`).
    pub body_limits: BodyLimits,
    /// Limits of the JSON-RPC WebSocket at `GET /v1/?chainId=…`.
    pub rpc_ws: RpcWsConfig,
    /// Requests one project may make (all its users together).
    pub project_rate_limit: Limit,
    /// Requests one client IP may make.
    pub ip_rate_limit: Limit,
    /// Replaced by `trusted_proxies`; `true` is refused with a message saying so.
    pub trust_forwarded_for: bool,
    /// Proxies (addresses or CIDR ranges, e.g. `["10.0.0.0/8"]`) whose
    /// `X-Forwarded-For` is believed: only when the socket peer is one of them,
    /// the client is the right-most hop that is not. Empty: the peer is the client.
    pub trusted_proxies: Vec<Cidr>,
    /// Bearer token for the analytics dashboard and its API; unset disables them
    /// (`--dev` uses [`DEV_ADMIN_TOKEN`], which is refused outside `--dev`).
    pub admin_token: Option<Secret>,
    /// Bearer token `/metrics` requires; unset: `/metrics` is open, but only
    /// served when `host` is a loopback address or `metrics_address` is set.
    pub metrics_token: Option<Secret>,
    /// A separate address (e.g. `127.0.0.1:9090`) serving `/metrics` alone;
    /// set, the API's port no longer serves it.
    pub metrics_address: Option<SocketAddr>,
    /// Tokio worker threads serving requests (`LATCH_WORKER_THREADS`); unset: one per core.
    pub worker_threads: Option<usize>,
    /// Catalogue ids listed first, in this order, when the list is not searched.
    pub featured_wallet_ids: Vec<String>,
    /// ERC-20 tokens (eip155 chains) and SPL Token mints (solana chains) whose
    /// balances `/v1/account/{address}/balance` reads, per chain.
    pub tokens: Vec<TokenConfig>,
    /// Where token prices come from, per eip155 chain (Uniswap V2 reserves against a USD stablecoin).
    pub prices: Vec<PriceConfig>,
    /// Fixed USD prices for solana chains, which have no market `latch` reads.
    pub static_prices: Vec<StaticPriceConfig>,
    /// Swap markets per eip155 chain (`/v1/convert/*`): Uniswap V2-style factory
    /// and router, the wrapped native coin and the base tokens routes go through.
    pub swap: Vec<crate::convert::settings::SwapConfig>,
    /// Swap aggregators asked besides the chain's own pools, when given a key.
    pub swap_aggregators: Vec<crate::convert::settings::AggregatorConfig>,
    /// The ENS deployment `/v1/identity/{address}` resolves names on.
    pub ens: Option<EnsConfig>,
    /// A devnet fixture file (`scripts/devnet` writes `.devnet/addresses.json`) whose
    /// tokens, Uniswap V2 market and ENS registry fill `tokens`, `prices` and `ens`;
    /// `--dev` reads `.devnet/addresses.json` when it exists and this is unset.
    pub devnet_file: Option<PathBuf>,
    /// A Solana devnet fixture file (`scripts/solana-devnet` writes `.devnet/solana.json`)
    /// whose USDC mint fills `tokens` and `static_prices` for its chain;
    /// `--dev` reads `.devnet/solana.json` when it exists and this is unset.
    pub solana_devnet_file: Option<PathBuf>,
    /// The zone names are registered under (`alice.<zone>`): the primary suffix.
    pub name_zone: String,
    /// A former zone (the legacy suffix, behaviour 7.10): `alice.<legacy>` resolves as `alice.<zone>`
    /// in lookups and through the CCIP-Read gateway; new names are registered under `name_zone`.
    pub name_legacy_zone: Option<String>,
    /// The secp256k1 key (32 bytes, hex) the CCIP-Read gateway signs answers with; the zone's
    /// offchain resolver trusts its address. Unset: `/ccip` answers 503. `--dev` uses a fixed,
    /// published key ([`DEV_CCIP_SIGNING_KEY`]), refused outside `--dev`.
    pub ccip_signing_key: Option<Secret>,
    /// EVM gateway chains whose transfers are indexed for `/v1/account/{address}/history`
    /// (`--dev` indexes the devnet).
    pub index_chains: Vec<String>,
    /// The block an empty index starts at. Unset: the chain's head when indexing
    /// begins (a long chain is never read from block 0 unless asked: `0`).
    /// `--dev` indexes the devnet from 0.
    pub index_start: Option<u64>,
    /// Blocks left unindexed behind the head; deeper reorganisations are still undone.
    pub index_confirmations: u64,
    /// Blocks read per indexing step.
    pub index_batch: u64,
    /// How often an indexer level with its chain looks for new blocks, in milliseconds.
    pub index_poll_ms: u64,
    /// The WalletConnect-compatible relay at `/relay`.
    pub relay: RelayConfig,
    /// Sign in with X (`crate::siwx`).
    pub siwx: SiwxConfig,
    /// An IPFS HTTP gateway (e.g. `https://ipfs.example`) through which `ipfs://` NFT
    /// metadata is read and NFT images are linked; unset: `ipfs://` media is not shown.
    pub ipfs_gateway: Option<String>,
    /// Let NFT metadata be fetched from loopback and private addresses. Off by default,
    /// because a token's URI is chosen by whoever deployed it (server-side request
    /// forgery); `--dev` turns it on for the devnet's NFT.
    pub nft_metadata_private_hosts: bool,
    /// The base URL clients reach this server at (e.g. `https://latch.example.com`),
    /// used wherever an answer links back to it (token icons). Answers are cached
    /// and shared between clients, so the request's `Host` is never used. Unset:
    /// `http://<host>:<port>` (`127.0.0.1` when listening on every address).
    pub public_url: Option<String>,
    /// Buying crypto: providers, their keys and the built-in sandbox (`crate::onramp`).
    pub onramp: crate::onramp::config::OnrampConfig,
    /// Embedded-wallet sign-up and login (`crate::embedded`): the frame's origin, mail, sessions.
    pub embedded: crate::embedded::config::EmbeddedConfig,
}

/// A setting that must not appear in logs: `Debug` prints `"<redacted>"`.
#[derive(Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(transparent)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"<redacted>\"")
    }
}

/// The dashboard token `--dev` uses when none is configured (local use only).
pub const DEV_ADMIN_TOKEN: &str = "latch-dev-admin";

/// The CCIP-Read gateway's `--dev` key: anvil's account 9, public, so the devnet's offchain
/// resolver can trust its address (`0xa0Ee7A142d267C1f36714E4a8F75612F20a79720`).
pub const DEV_CCIP_SIGNING_KEY: &str = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";

/// The local devnet chain `--dev` serves when no chain is configured.
pub const DEV_CHAIN: &str = "eip155:31337";
/// Its default upstream (anvil started by `scripts/devnet`).
pub const DEV_RPC_URL: &str = "http://127.0.0.1:8545";
/// The same devnet's WebSocket endpoint (anvil serves both on one port).
pub const DEV_WS_URL: &str = "ws://127.0.0.1:8545";
/// The local Solana devnet chain `--dev` also serves (litesvm, started by `scripts/solana-devnet`).
pub const DEV_SOLANA_CHAIN: &str = latch_core::network::LOCAL_SOLANA_DEVNET;
/// Its default upstream.
pub const DEV_SOLANA_RPC_URL: &str = "http://127.0.0.1:8899";
/// Its WebSocket endpoint: the next port, as on a Solana validator.
pub const DEV_SOLANA_WS_URL: &str = "ws://127.0.0.1:8900";

/// The chains `--dev` serves when none is configured: the EVM devnet and the Solana devnet.
fn dev_chains() -> Vec<ChainConfig> {
    vec![
        dev_chain(DEV_CHAIN, DEV_RPC_URL, DEV_WS_URL),
        dev_chain(DEV_SOLANA_CHAIN, DEV_SOLANA_RPC_URL, DEV_SOLANA_WS_URL),
    ]
}

/// A devnet chain `--dev` serves: one upstream and its WebSocket endpoint, unranked.
fn dev_chain(id: &str, upstream: &str, ws_upstream: &str) -> ChainConfig {
    ChainConfig {
        id: id.into(),
        upstreams: vec![upstream.into()],
        ws_upstreams: vec![ws_upstream.into()],
        rank: false,
        methods: Default::default(),
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 8787,
            data_dir: PathBuf::from(".latch"),
            database_url: None,
            redis_url: None,
            static_dir: None,
            dev: false,
            chains: Vec::new(),
            upstream_timeout_ms: CONSTANTS.rpc.timeout_ms,
            max_batch: CONSTANTS.rpc.batch_size as usize,
            max_body_bytes: 10 * 1024 * 1024,
            body_limits: BodyLimits::default(),
            rpc_ws: RpcWsConfig::default(),
            project_rate_limit: Limit {
                per_second: 500.0,
                burst: 1000.0,
            },
            ip_rate_limit: Limit {
                per_second: 50.0,
                burst: 200.0,
            },
            trust_forwarded_for: false,
            trusted_proxies: Vec::new(),
            admin_token: None,
            metrics_token: None,
            metrics_address: None,
            worker_threads: None,
            featured_wallet_ids: Vec::new(),
            tokens: Vec::new(),
            prices: Vec::new(),
            static_prices: Vec::new(),
            swap: Vec::new(),
            swap_aggregators: Vec::new(),
            ens: None,
            devnet_file: None,
            solana_devnet_file: None,
            name_zone: DEFAULT_NAME_ZONE.into(),
            name_legacy_zone: None,
            ccip_signing_key: None,
            index_chains: Vec::new(),
            index_start: None,
            index_confirmations: 2,
            index_batch: 200,
            index_poll_ms: 2_000,
            relay: RelayConfig::default(),
            siwx: SiwxConfig::default(),
            ipfs_gateway: None,
            nft_metadata_private_hosts: false,
            public_url: None,
            onramp: Default::default(),
            embedded: Default::default(),
        }
    }
}

/// Why the configuration was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file or an environment variable could not be read into [`Config`].
    #[error("invalid configuration: {0}")]
    Load(#[from] Box<figment::Error>),
    /// A value parsed but breaks a rule.
    #[error("invalid configuration: {0}")]
    Invalid(String),
}

impl Config {
    /// Reads `file` (if it exists), then `LATCH_*` variables from `env`, and checks every rule.
    pub fn load(file: &Path, env: Env) -> Result<Self, ConfigError> {
        Self::read(file, env)?.validated()
    }

    /// Reads like [`Config::load`] without checking: the binary applies its command line
    /// (`--dev`, `--port`) first, since rules depend on them, then calls [`Config::validated`].
    pub fn read(file: &Path, env: Env) -> Result<Self, ConfigError> {
        Ok(Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::file(file))
            .merge(env)
            .extract()
            .map_err(Box::new)?)
    }

    /// The `LATCH_` environment provider used by the binary.
    pub fn env() -> Env {
        // `LATCH_CONFIG` names the file itself and `LATCH_LOG` the log filter: not settings.
        Env::prefixed("LATCH_").ignore(&["config", "log"])
    }

    /// Applies `--dev` defaults and checks every rule.
    pub fn validated(mut self) -> Result<Self, ConfigError> {
        if self.dev && !self.host.is_loopback() {
            return Err(ConfigError::Invalid(format!(
                "--dev serves a fixed admin token and the demo project: it only listens on a loopback host, not {}",
                self.host
            )));
        }
        if self.dev && self.admin_token.is_none() {
            self.admin_token = Some(Secret(DEV_ADMIN_TOKEN.into()));
        }
        if !self.dev && self.admin_token.as_ref().is_some_and(|t| t.0 == DEV_ADMIN_TOKEN) {
            return Err(ConfigError::Invalid(format!(
                "admin_token {DEV_ADMIN_TOKEN:?} is the published --dev token: choose another outside --dev"
            )));
        }
        for (name, token) in [
            ("admin_token", &self.admin_token),
            ("metrics_token", &self.metrics_token),
        ] {
            if token.as_ref().is_some_and(|t| t.0.len() < 12) {
                return Err(ConfigError::Invalid(format!("{name} must be at least 12 characters")));
            }
        }
        if self.trust_forwarded_for {
            return Err(ConfigError::Invalid(
                "trust_forwarded_for is replaced by trusted_proxies: list the proxies whose X-Forwarded-For to believe, e.g. trusted_proxies = [\"10.0.0.0/8\"]".into(),
            ));
        }
        let siwx = &self.siwx;
        if !(1..=86_400).contains(&siwx.issued_at_window_secs) {
            return Err(ConfigError::Invalid(
                "siwx: issued_at_window_secs must be 1 to 86400".into(),
            ));
        }
        if !(512..=65_536).contains(&siwx.max_message_bytes) {
            return Err(ConfigError::Invalid(
                "siwx: max_message_bytes must be 512 to 65536".into(),
            ));
        }
        if !(60..=86_400).contains(&siwx.access_token_secs) {
            return Err(ConfigError::Invalid(
                "siwx: access_token_secs must be 60 to 86400".into(),
            ));
        }
        if siwx.prune_every_secs == 0 || siwx.prune_grace_secs > 30 * 86_400 {
            return Err(ConfigError::Invalid(
                "siwx: prune_every_secs must be positive and prune_grace_secs at most 2592000 (30 days)".into(),
            ));
        }
        self.embedded.validate(self.dev, self.port)?;
        let relay = &self.relay;
        if relay.min_ttl_secs == 0 || relay.min_ttl_secs > relay.max_ttl_secs {
            return Err(ConfigError::Invalid(
                "relay: min_ttl_secs must be at least 1 and at most max_ttl_secs".into(),
            ));
        }
        if relay.max_ttl_secs > RELAY_MAX_TTL_CEILING_SECS {
            return Err(ConfigError::Invalid(format!(
                "relay: max_ttl_secs must be at most {RELAY_MAX_TTL_CEILING_SECS} (7 days)"
            )));
        }
        if relay.max_topics_per_connection == 0
            || relay.max_connections_per_ip == 0
            || relay.max_messages_per_topic == 0
            || relay.max_messages_per_publisher == 0
        {
            return Err(ConfigError::Invalid(
                "relay: max_topics_per_connection, max_connections_per_ip, max_messages_per_topic and max_messages_per_publisher must be positive".into(),
            ));
        }
        if relay
            .journal_shards
            .is_some_and(|n| !(1..=RELAY_MAX_JOURNAL_SHARDS).contains(&n))
        {
            return Err(ConfigError::Invalid(format!(
                "relay: journal_shards must be 1 to {RELAY_MAX_JOURNAL_SHARDS}"
            )));
        }
        for url in &relay.audiences {
            if !["ws://", "wss://", "http://", "https://"]
                .iter()
                .any(|s| url.starts_with(s))
            {
                return Err(ConfigError::Invalid(format!(
                    "relay: audience {url:?} is not a ws(s) or http(s) URL"
                )));
            }
        }
        if relay.max_message_bytes < 128 * 1024 {
            return Err(ConfigError::Invalid(
                "relay: max_message_bytes must be at least 131072 (128 KiB)".into(),
            ));
        }
        if relay.ping_interval_secs == 0 || relay.ping_interval_secs >= 35 {
            return Err(ConfigError::Invalid(
                "relay: ping_interval_secs must be 1 to 34 (clients drop a socket silent for 35 s)".into(),
            ));
        }
        if relay.redeliver_after_ms == 0 {
            return Err(ConfigError::Invalid(
                "relay: redeliver_after_ms must be positive".into(),
            ));
        }
        if self.dev && self.chains.is_empty() {
            self.chains = dev_chains();
        }
        for chain in &self.chains {
            CaipNetworkId::parse(&chain.id).map_err(|e| ConfigError::Invalid(format!("chain {:?}: {e}", chain.id)))?;
            let namespace = chain.id.split(':').next().unwrap_or_default();
            if chain.rank && !matches!(namespace, "eip155" | "solana") {
                return Err(ConfigError::Invalid(format!(
                    "chain {}: ranking probes only eip155 and solana chains",
                    chain.id
                )));
            }
            chain
                .methods
                .validate()
                .map_err(|e| ConfigError::Invalid(format!("chain {} methods: {e}", chain.id)))?;
            if chain.upstreams.is_empty() {
                return Err(ConfigError::Invalid(format!("chain {} has no upstreams", chain.id)));
            }
            for url in &chain.upstreams {
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(ConfigError::Invalid(format!(
                        "chain {}: upstream {} is not an http(s) URL",
                        chain.id,
                        redact_url(url)
                    )));
                }
            }
            for url in &chain.ws_upstreams {
                if !(url.starts_with("ws://") || url.starts_with("wss://")) {
                    return Err(ConfigError::Invalid(format!(
                        "chain {}: ws upstream {} is not a ws(s) URL",
                        chain.id,
                        redact_url(url)
                    )));
                }
            }
        }
        let mut ids: Vec<_> = self.chains.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(ConfigError::Invalid(format!("chain {} is configured twice", w[0])));
        }
        let limits = self.body_limits;
        if [
            limits.rpc,
            limits.event,
            limits.event_batch,
            limits.sign_in,
            self.max_body_bytes,
        ]
        .contains(&0)
        {
            return Err(ConfigError::Invalid("body limits must be positive".into()));
        }
        let ws = self.rpc_ws;
        if ws.max_message_bytes == 0
            || ws.max_subscriptions == 0
            || ws.idle_timeout_secs < 2
            || ws.max_sockets_per_ip == 0
        {
            return Err(ConfigError::Invalid(
                "rpc_ws: max_message_bytes, max_subscriptions and max_sockets_per_ip must be positive, idle_timeout_secs at least 2".into(),
            ));
        }
        for limit in [self.project_rate_limit, self.ip_rate_limit, ws.rate_limit] {
            let enabled = limit.per_second > 0.0 && limit.per_second.is_finite();
            if !(limit.per_second == 0.0 || enabled && limit.burst >= 1.0 && limit.burst.is_finite()) {
                return Err(ConfigError::Invalid(
                    "a rate limit needs per_second >= 0 and burst >= 1".into(),
                ));
            }
        }
        if self.worker_threads == Some(0) {
            return Err(ConfigError::Invalid(
                "worker_threads must be at least 1 (unset: one per core)".into(),
            ));
        }
        if self.max_batch == 0 || self.upstream_timeout_ms == 0 {
            return Err(ConfigError::Invalid(
                "max_batch and upstream_timeout_ms must be positive".into(),
            ));
        }
        if self.dev {
            self.nft_metadata_private_hosts = true;
        }
        if let Some(public_url) = &self.public_url {
            check_public_url(public_url)?;
        }
        if let Some(gateway) = &self.ipfs_gateway {
            if !(gateway.starts_with("https://") || gateway.starts_with("http://")) {
                return Err(ConfigError::Invalid(format!(
                    "ipfs_gateway: {gateway} is not an http(s) URL"
                )));
            }
        }
        self.apply_devnet_files()?;
        if self.dev && self.index_chains.is_empty() && self.chains.iter().any(|c| c.id == DEV_CHAIN) {
            // The devnet mines on demand and reorganises only when a test says so: index its head.
            self.index_chains.push(DEV_CHAIN.into());
            self.index_start = Some(0);
            self.index_confirmations = 0;
            self.index_poll_ms = self.index_poll_ms.min(500);
        }
        for chain in &self.index_chains {
            if !chain.starts_with("eip155:") || !self.chains.iter().any(|c| &c.id == chain) {
                return Err(ConfigError::Invalid(format!(
                    "index_chains: {chain} is not an eip155 gateway chain"
                )));
            }
        }
        if self.index_batch == 0 || self.index_batch > 1_000 || self.index_poll_ms == 0 {
            return Err(ConfigError::Invalid(
                "index_batch is 1 to 1000 and index_poll_ms positive".into(),
            ));
        }
        self.check_chain_data()?;
        let gateway_chains: Vec<String> = self.chains.iter().map(|c| c.id.clone()).collect();
        self.onramp
            .validate(self.dev, &gateway_chains)
            .map_err(ConfigError::Invalid)?;
        let zone_ok = |zone: &str| {
            !zone.is_empty()
                && zone.len() <= 64
                && zone.split('.').all(|label| {
                    !label.is_empty()
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                })
        };
        for (setting, zone) in [
            ("name_zone", Some(&self.name_zone)),
            ("name_legacy_zone", self.name_legacy_zone.as_ref()),
        ] {
            if zone.is_some_and(|zone| !zone_ok(zone)) {
                return Err(ConfigError::Invalid(format!(
                    "{setting} {zone:?} must be dot-separated labels of a-z, 0-9 and -"
                )));
            }
        }
        if self.name_legacy_zone.as_ref() == Some(&self.name_zone) {
            return Err(ConfigError::Invalid(
                "name_legacy_zone must differ from name_zone".into(),
            ));
        }
        if self.dev && self.ccip_signing_key.is_none() {
            self.ccip_signing_key = Some(Secret(DEV_CCIP_SIGNING_KEY.into()));
        }
        if let Some(key) = &self.ccip_signing_key {
            let key = crate::ccip::parse_key(&key.0).map_err(ConfigError::Invalid)?;
            let dev_key = crate::ccip::parse_key(DEV_CCIP_SIGNING_KEY).map_err(ConfigError::Invalid)?;
            if !self.dev && key == dev_key {
                return Err(ConfigError::Invalid(
                    "ccip_signing_key is the published --dev key: choose another outside --dev".into(),
                ));
            }
        }
        Ok(self)
    }

    /// `scheme://host[:port][/prefix]` that answers link back to: `public_url`
    /// without its trailing `/`, else derived from `host` and `port`.
    pub fn public_base_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => {
                let host = if self.host.is_unspecified() {
                    IpAddr::from([127, 0, 0, 1])
                } else {
                    self.host
                };
                // `SocketAddr` brackets an IPv6 host.
                format!("http://{}", std::net::SocketAddr::new(host, self.port))
            }
        }
    }

    /// The database to open: the configured URL or SQLite under `data_dir`.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.0.clone(),
            None => format!("sqlite://{}", self.data_dir.join("latch.db").display()),
        }
    }
}

/// The zone names are registered under unless configured.
pub const DEFAULT_NAME_ZONE: &str = "latch.id";

/// `public_url` must be an http(s) origin with at most a path prefix: no query,
/// fragment or credentials, since it is pasted in front of our paths.
fn check_public_url(value: &str) -> Result<(), ConfigError> {
    let invalid = || ConfigError::Invalid(format!("public_url {value:?} must look like https://latch.example.com"));
    let url = url::Url::parse(value).map_err(|_| invalid())?;
    let plain = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some()
        && url.query().is_none()
        && url.fragment().is_none()
        && url.username().is_empty()
        && url.password().is_none();
    if plain {
        Ok(())
    } else {
        Err(invalid())
    }
}

/// Origins the `demo` project allows in `--dev`.
pub const DEV_ORIGINS: [&str; 2] = ["http://127.0.0.1:*", "http://localhost:*"];

/// Checks an origin pattern given on the command line or in a file.
pub fn check_origin_pattern(pattern: &str) -> Result<(), ConfigError> {
    if is_valid_origin_pattern(pattern) {
        Ok(())
    } else {
        Err(ConfigError::Invalid(format!(
            "origin {pattern:?} must look like https://app.example.com, http://localhost:* or https://*.example.com"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type.
    fn file_then_env() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "latch.toml",
                "port = 9000\n[[chains]]\nid = \"eip155:1\"\nupstreams = [\"http://a\"]\n",
            )?;
            jail.set_env("LATCH_PORT", "9100");
            jail.set_env("LATCH_DATABASE_URL", "sqlite://secret-path.db");
            let config = Config::load(Path::new("latch.toml"), Config::env()).unwrap();
            assert_eq!(config.port, 9100);
            assert_eq!(config.chains[0].id, "eip155:1");
            assert!(!format!("{config:?}").contains("secret-path"));
            Ok(())
        });
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type.
    fn relay_journal_shards_come_from_the_file_or_env_within_bounds() {
        figment::Jail::expect_with(|jail| {
            jail.create_file("latch.toml", "[relay]\njournal_shards = 3\n")?;
            let config = Config::load(Path::new("latch.toml"), Config::env()).unwrap();
            assert_eq!(config.relay.journal_shards(), 3);
            jail.set_env("LATCH_RELAY", "{journal_shards=5}");
            let config = Config::load(Path::new("latch.toml"), Config::env()).unwrap();
            assert_eq!(config.relay.journal_shards(), 5);
            Ok(())
        });
        let unset = RelayConfig::default().journal_shards();
        assert!((1..=8).contains(&unset), "one per core, at most 8: {unset}");
        for shards in [0, RELAY_MAX_JOURNAL_SHARDS + 1] {
            let mut config = Config::default();
            config.relay.journal_shards = Some(shards);
            let error = config.validated().unwrap_err().to_string();
            assert!(error.contains("journal_shards must be 1 to 64"), "{error}");
        }
    }

    #[test]
    fn dev_adds_the_devnet_and_rules_hold() {
        let dev = Config {
            dev: true,
            ..Config::default()
        }
        .validated()
        .unwrap();
        assert_eq!(
            dev.chains,
            vec![
                dev_chain(DEV_CHAIN, DEV_RPC_URL, DEV_WS_URL),
                dev_chain(
                    "solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh",
                    "http://127.0.0.1:8899",
                    "ws://127.0.0.1:8900"
                ),
            ]
        );
        let bad = |chains| {
            Config {
                chains,
                ..Config::default()
            }
            .validated()
            .unwrap_err()
            .to_string()
        };
        assert!(bad(vec![ChainConfig {
            id: "nope".into(),
            upstreams: vec!["http://a".into()],
            ..ChainConfig::default()
        }])
        .contains("Invalid CAIP-2"));
        assert!(bad(vec![ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec![],
            ..ChainConfig::default()
        }])
        .contains("no upstreams"));
        assert!(bad(vec![ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec!["ftp://a".into()],
            ..ChainConfig::default()
        }])
        .contains("http(s)"));
        let twice = ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec!["http://a".into()],
            ..ChainConfig::default()
        };
        assert!(bad(vec![twice.clone(), twice]).contains("twice"));
        assert!(bad(vec![ChainConfig {
            id: "eip155:1".into(),
            upstreams: vec!["http://a".into()],
            ws_upstreams: vec!["http://a".into()],
            ..ChainConfig::default()
        }])
        .contains("ws(s)"));
    }
}

#[cfg(test)]
mod chain_data_tests {
    use super::*;

    /// A config serving eip155:1, adjusted, then validated.
    pub(super) fn with(adjust: impl FnOnce(&mut Config)) -> Result<Config, ConfigError> {
        let mut config = Config {
            chains: vec![ChainConfig {
                id: "eip155:1".into(),
                upstreams: vec!["http://a".into()],
                ..ChainConfig::default()
            }],
            ..Config::default()
        };
        adjust(&mut config);
        config.validated()
    }

    fn usdc(chain: &str) -> TokenConfig {
        TokenConfig {
            chain: chain.into(),
            address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into(),
            symbol: "USDC".into(),
            name: "USD Coin".into(),
            decimals: 6,
        }
    }

    #[test]
    fn tokens_prices_and_ens_are_checked() {
        assert!(with(|c| c.tokens.push(usdc("eip155:1"))).is_ok());
        let refused = |adjust: fn(&mut Config)| with(adjust).unwrap_err().to_string();
        assert!(refused(|c| c.tokens.push(usdc("eip155:10"))).contains("not a gateway chain"));
        assert!(refused(|c| c.tokens.push(TokenConfig {
            address: "0x12".into(),
            ..usdc("eip155:1")
        }))
        .contains("token USDC"));
        let price = PriceConfig {
            chain: "eip155:1".into(),
            uniswap_v2_factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f".into(),
            wrapped_native: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2".into(),
            usd_token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into(),
        };
        let listed = price.clone();
        assert!(with(move |c| {
            c.tokens.push(usdc("eip155:1"));
            c.prices.push(listed);
        })
        .is_ok());
        let unlisted = with(move |c| c.prices.push(price)).unwrap_err().to_string();
        assert!(unlisted.contains("usd_token must be listed"), "{unlisted}");
        assert!(refused(|c| c.ens = Some(EnsConfig {
            chain: "eip155:5".into(),
            registry: "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e".into()
        }))
        .contains("ens: chain eip155:5"));
    }

    #[test]
    fn solana_tokens_and_static_prices_are_checked() {
        const MINT: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        let solana = |c: &mut Config| {
            c.chains.push(ChainConfig {
                id: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into(),
                upstreams: vec!["http://s".into()],
                ..ChainConfig::default()
            });
            c.tokens.push(TokenConfig {
                address: MINT.into(),
                ..usdc("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")
            });
        };
        let price = |native_usd, usd_token: &str| StaticPriceConfig {
            chain: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into(),
            native_usd,
            usd_token: Some(usd_token.into()),
        };
        assert!(with(|c| {
            solana(c);
            c.static_prices.push(price(Some(150.0), MINT));
        })
        .is_ok());
        let refused = |adjust: &dyn Fn(&mut Config)| {
            with(|c| {
                solana(c);
                adjust(c);
            })
            .unwrap_err()
            .to_string()
        };
        assert!(
            refused(&|c| c.tokens[0].address = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into())
                .contains("token USDC: Invalid Solana address")
        );
        assert!(refused(&|c| c
            .static_prices
            .push(price(None, "So11111111111111111111111111111111111111112")))
        .contains("usd_token must be listed"));
        assert!(refused(&|c| c.static_prices.push(price(Some(f64::NAN), MINT))).contains("native_usd"));
        assert!(refused(&|c| c.static_prices.push(StaticPriceConfig {
            chain: "eip155:1".into(),
            ..price(None, MINT)
        }))
        .contains("only solana chains"));
    }
}

#[cfg(test)]
mod rate_limit_tests {
    use super::*;

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type.
    fn worker_threads_from_env_at_least_one() {
        figment::Jail::expect_with(|jail| {
            assert_eq!(
                Config::load(Path::new("absent.toml"), Config::env())
                    .unwrap()
                    .worker_threads,
                None
            );
            jail.set_env("LATCH_WORKER_THREADS", "2");
            assert_eq!(
                Config::load(Path::new("absent.toml"), Config::env())
                    .unwrap()
                    .worker_threads,
                Some(2)
            );
            jail.set_env("LATCH_WORKER_THREADS", "0");
            let error = Config::load(Path::new("absent.toml"), Config::env())
                .unwrap_err()
                .to_string();
            assert!(error.contains("worker_threads must be at least 1"), "{error}");
            Ok(())
        });
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type.
    fn rate_limits_from_env_and_their_rules() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("LATCH_IP_RATE_LIMIT", "{per_second=0,burst=0}");
            jail.set_env("LATCH_PROJECT_RATE_LIMIT", "{per_second=5,burst=10}");
            let config = Config::load(Path::new("absent.toml"), Config::env()).unwrap();
            assert_eq!(
                config.ip_rate_limit,
                Limit {
                    per_second: 0.0,
                    burst: 0.0
                }
            );
            assert_eq!(
                config.project_rate_limit,
                Limit {
                    per_second: 5.0,
                    burst: 10.0
                }
            );
            Ok(())
        });
        let with = |per_second, burst| {
            Config {
                ip_rate_limit: Limit { per_second, burst },
                ..Config::default()
            }
            .validated()
            .map(drop)
        };
        assert!(
            with(10.0, 0.5).is_err(),
            "a burst below one request never admits anything"
        );
        assert!(with(-1.0, 5.0).is_err());
        assert!(with(f64::INFINITY, 5.0).is_err());
        assert!(with(0.0, 0.0).is_ok(), "zero disables");
    }
}

#[cfg(test)]
mod edge_tests {
    use super::*;

    fn refused(config: Config) -> String {
        config.validated().unwrap_err().to_string()
    }

    #[test]
    fn dev_only_on_loopback_and_its_token_only_in_dev() {
        let open = refused(Config {
            dev: true,
            host: IpAddr::from([0, 0, 0, 0]),
            ..Config::default()
        });
        assert!(open.contains("only listens on a loopback host, not 0.0.0.0"), "{open}");
        assert!(Config {
            dev: true,
            host: "::1".parse().unwrap(),
            ..Config::default()
        }
        .validated()
        .is_ok());
        let token = refused(Config {
            admin_token: Some(Secret(DEV_ADMIN_TOKEN.into())),
            ..Config::default()
        });
        assert!(token.contains("published --dev token"), "{token}");
        let short = refused(Config {
            metrics_token: Some(Secret("short".into())),
            ..Config::default()
        });
        assert!(short.contains("metrics_token must be at least 12"), "{short}");
    }

    #[test]
    fn ccip_key_and_name_zones() {
        // --dev gets the published key; outside --dev that key is refused, another is kept.
        let dev = Config {
            dev: true,
            ..Config::default()
        }
        .validated()
        .unwrap();
        assert_eq!(dev.ccip_signing_key.map(|k| k.0).as_deref(), Some(DEV_CCIP_SIGNING_KEY));
        let published = refused(Config {
            ccip_signing_key: Some(Secret(DEV_CCIP_SIGNING_KEY.trim_start_matches("0x").into())),
            ..Config::default()
        });
        assert!(published.contains("published --dev key"), "{published}");
        let own = Config {
            ccip_signing_key: Some(Secret("42".repeat(32))),
            ..Config::default()
        };
        assert!(!format!("{own:?}").contains(&"42".repeat(32)), "the key is redacted");
        assert!(own.validated().is_ok());
        for (key, why) in [
            ("0x12", "not 32 bytes"),
            ("zz", "not hex"),
            (&"00".repeat(32)[..], "secp256k1"),
        ] {
            let message = refused(Config {
                ccip_signing_key: Some(Secret(key.into())),
                ..Config::default()
            });
            assert!(message.contains(why), "{key}: {message}");
        }
        let legacy = refused(Config {
            name_legacy_zone: Some("Latch.ETH".into()),
            ..Config::default()
        });
        assert!(legacy.contains("name_legacy_zone"), "{legacy}");
        let same = refused(Config {
            name_legacy_zone: Some(DEFAULT_NAME_ZONE.into()),
            ..Config::default()
        });
        assert!(same.contains("must differ"), "{same}");
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type.
    fn trusted_proxies_replace_trust_forwarded_for() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("LATCH_TRUSTED_PROXIES", r#"["10.0.0.0/8","::1"]"#);
            jail.set_env("LATCH_METRICS_ADDRESS", "127.0.0.1:9090");
            let config = Config::load(Path::new("absent.toml"), Config::env()).unwrap();
            assert_eq!(config.trusted_proxies.len(), 2);
            assert!(config.trusted_proxies[1].contains("::1".parse().unwrap()));
            assert_eq!(config.metrics_address, Some("127.0.0.1:9090".parse().unwrap()));
            jail.set_env("LATCH_TRUSTED_PROXIES", r#"["10.0.0.1/8"]"#);
            let bad = Config::load(Path::new("absent.toml"), Config::env()).unwrap_err();
            assert!(bad.to_string().contains("bits set past the prefix"), "{bad}");
            jail.set_env("LATCH_TRUSTED_PROXIES", "[]");
            jail.set_env("LATCH_TRUST_FORWARDED_FOR", "true");
            let old = Config::load(Path::new("absent.toml"), Config::env()).unwrap_err();
            assert!(old.to_string().contains("replaced by trusted_proxies"), "{old}");
            Ok(())
        });
    }
}
