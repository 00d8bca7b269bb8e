//! Storage behind one trait in domain terms, so SQLite (embedded default) and
//! Postgres (when scaled out) are interchangeable; chosen once from the URL scheme.

pub mod embedded;
// Reached from outside only by the fuzz targets (feature `fuzzing`).
#[cfg(test)]
mod fresh_postgres;
#[cfg(feature = "fuzzing")]
pub mod journal;
#[cfg(not(feature = "fuzzing"))]
pub(crate) mod journal;
mod migrations;
mod postgres;
mod relay_shards;
mod sql;
mod sqlite;

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;

pub use postgres::PostgresStore;
pub use relay_shards::RelayShards;
pub use sqlite::SqliteStore;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed the operation.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date (a migration file failed, or one
    /// applied earlier is not this build's).
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database URL names no backend this build has.
    #[error("unsupported database URL scheme {0:?} (expected sqlite:// or postgres://)")]
    UnsupportedUrl(String),
    /// A stored value could not be decoded; the database was edited by hand or is corrupt.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
}

/// Result of a storage operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A dapp allowed to use this `latch` (behaviour 6.2 "A project id is required").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    /// The `projectId` clients send.
    pub id: String,
    /// Origin patterns (see `latch_core::origin`) allowed to call with this id.
    pub allowed_origins: Vec<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// Whether the modal may send analytics for this project (behaviour 6.14 `isAnalyticsEnabled`).
    pub analytics_enabled: bool,
}

/// One analytics event as received (behaviour 6.14 "Analytics event").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsEvent {
    /// The project it was sent for.
    pub project_id: String,
    /// The client's id for it; a resend with the same id is stored once.
    pub event_id: String,
    /// The event name, e.g. `CONNECT_SUCCESS`.
    pub event: String,
    /// `track` or `error`.
    pub kind: String,
    /// The connected address, when there was one.
    pub address: Option<String>,
    /// The page's domain.
    pub domain: String,
    /// The page's URL.
    pub url: String,
    /// When it happened (client clock), unix milliseconds.
    pub occurred_at: i64,
    /// When the server received it, unix milliseconds.
    pub received_at: i64,
    /// The event's properties as JSON text.
    pub properties: Option<String>,
}

/// One wallet of the catalogue (behaviour 2.4 "Wallet catalogue entry"), stored as
/// its whole JSON entry plus the columns it is ordered and looked up by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredWallet {
    /// The catalogue id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Listing order (smaller first).
    pub position: i64,
    /// The entry in the Explorer API's JSON format.
    pub data: String,
}

/// An image served by the catalogue service (behaviour 6.13 "image blobs").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredImage {
    /// Which endpoint serves it: `wallet`, `asset`, `currency` or `token`.
    pub kind: String,
    /// Its id within the kind (a wallet's `image_id`, a CAIP-2 id, a currency code, a token symbol).
    pub id: String,
    /// Its media type, e.g. `image/svg+xml`.
    pub content_type: String,
    /// The image bytes.
    pub data: Vec<u8>,
    /// A strong HTTP entity tag of `data`, quotes included.
    pub etag: String,
}

/// A registered name (behaviour 5.12 name registration) with its addresses per coin type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRecord {
    /// The full name, zone included, lower case.
    pub name: String,
    /// Attributes as a JSON object text (e.g. `{"bio":"…"}`).
    pub attributes: String,
    /// Unix seconds.
    pub registered_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
    /// `(coin type, address, created_at)`, by coin type.
    pub addresses: Vec<(i64, String, i64)>,
}

/// One transfer the history indexer found: a native value transfer or a token `Transfer` log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// CAIP-2 chain.
    pub chain: String,
    /// Block number.
    pub block_number: i64,
    /// Position of the transaction in its block.
    pub tx_index: i64,
    /// Position of the log in its block; -1 for the transaction's own value.
    pub log_index: i64,
    /// Transaction hash.
    pub tx_hash: String,
    /// `native`, `erc20`, `erc721` or `erc1155`.
    pub kind: String,
    /// The token contract (lower case); `None` for native.
    pub token: Option<String>,
    /// NFT id, decimal; `None` for fungibles.
    pub token_id: Option<String>,
    /// Who sent (lower case).
    pub sender: String,
    /// Who received (lower case).
    pub recipient: String,
    /// Amount in base units, decimal.
    pub amount: String,
    /// Block time, unix seconds.
    pub mined_at: i64,
    /// Whether the transaction succeeded.
    pub success: bool,
    /// The transaction's nonce.
    pub nonce: i64,
    /// The transaction's sender (lower case).
    pub tx_from: String,
    /// The transaction's recipient (lower case); `None` for contract creation.
    pub tx_to: Option<String>,
}

/// A message in the relay's mailbox (see `crate::relay`): kept per topic until
/// it expires, and delivered to every subscriber but its publisher until each acks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayMessage {
    /// The mailbox's number for it, assigned when it is stored (0 until then):
    /// increasing in storage order, never reused; what acks name.
    pub id: i64,
    /// 64 hex characters.
    pub topic: String,
    /// sha256 of `message`, hex: the message's id within its topic (duplicates are stored once).
    pub hash: String,
    /// The envelope as the publisher sent it (base64 text).
    pub message: String,
    /// The publisher's tag (e.g. 1100 for a session proposal).
    pub tag: i64,
    /// The publisher's client id (did:key), never delivered its own message.
    pub publisher: String,
    /// Unix milliseconds.
    pub published_at: i64,
    /// Unix milliseconds after which it is dropped.
    pub expires_at: i64,
}

/// That a client received a mailbox message: it is not pushed to that client again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayAck {
    /// The message's [`RelayMessage::id`].
    pub message_id: i64,
    /// The receiving client's id (did:key).
    pub client_id: String,
}

/// A sign-in nonce (see `crate::siwx`): single use, for one project and domain, until it expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiwxNonce {
    /// The nonce itself (letters and digits).
    pub nonce: String,
    /// The project that asked for it.
    pub project_id: String,
    /// The RFC 3986 authority the signed message must name.
    pub domain: String,
    /// Unix milliseconds after which it is refused.
    pub expires_at: i64,
}

/// A sign-in session: a verified message and signature, and the token that stands for them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiwxSession {
    /// Public id (used to revoke).
    pub id: String,
    /// sha256 of the long-lived session token (the HTTP-only cookie's), hex; the token itself is never stored.
    #[serde(skip)]
    pub token_hash: String,
    /// sha256 of the current short-lived access token (answered in JSON, kept in the page's memory).
    #[serde(skip)]
    pub access_hash: String,
    /// Unix milliseconds after which the access token no longer counts (the session may).
    #[serde(skip)]
    pub access_expires_at: i64,
    /// sha256 of the current one-time refresh token.
    #[serde(skip)]
    pub refresh_hash: String,
    /// The project it belongs to.
    #[serde(skip)]
    pub project_id: String,
    /// CAIP-10 account, e.g. `eip155:1:0xAbc…`.
    pub account: String,
    /// CAIP-2 chain of the message.
    pub chain_id: String,
    /// The domain the message was signed for.
    pub domain: String,
    /// The signed message, as signed.
    pub message: String,
    /// The signature, as sent.
    pub signature: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds after which it no longer counts.
    pub expires_at: i64,
    /// Unix milliseconds when it was revoked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<i64>,
}

/// The new access and refresh token hashes of a refresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiwxRotation {
    /// sha256 of the new access token.
    pub access_hash: String,
    /// Unix milliseconds the new access token counts until.
    pub access_expires_at: i64,
    /// sha256 of the new refresh token.
    pub refresh_hash: String,
}

/// What presenting a refresh token did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiwxRefresh {
    /// It was the session's current one: the session, with the new hashes.
    Rotated(Box<SiwxSession>),
    /// It had been rotated away already: its session is now revoked.
    Reused,
    /// No active session has it.
    Unknown,
}

/// The projects allowed to use this `latch` (`crate::project`).
#[async_trait]
pub trait ProjectStore: Send + Sync {
    /// Inserts or replaces a project.
    async fn put_project(&self, project: &Project) -> StoreResult<()>;
    /// The project with this id, if any.
    async fn project(&self, id: &str) -> StoreResult<Option<Project>>;
    /// All projects, by id.
    async fn projects(&self) -> StoreResult<Vec<Project>>;
    /// Removes a project; whether it existed.
    async fn remove_project(&self, id: &str) -> StoreResult<bool>;
}

/// Analytics events as received (`crate::analytics`).
#[async_trait]
pub trait AnalyticsStore: Send + Sync {
    /// Stores events in one transaction, ignoring ids already stored; how many were new.
    async fn add_events(&self, events: &[AnalyticsEvent]) -> StoreResult<u64>;
    /// A project's events that happened at or after `since_ms`, oldest first, at most `limit`.
    async fn events(&self, project_id: &str, since_ms: i64, limit: u32) -> StoreResult<Vec<AnalyticsEvent>>;
}

/// The wallet catalogue and the images it serves (`crate::catalogue`, `crate::images`).
#[async_trait]
pub trait CatalogueStore: Send + Sync {
    /// Inserts or replaces catalogue wallets in one transaction.
    async fn put_wallets(&self, wallets: &[StoredWallet]) -> StoreResult<()>;
    /// The whole catalogue, by position then name.
    async fn wallets(&self) -> StoreResult<Vec<StoredWallet>>;
    /// Removes a wallet; whether it existed.
    async fn remove_wallet(&self, id: &str) -> StoreResult<bool>;
    /// Inserts or replaces images in one transaction.
    async fn put_images(&self, images: &[StoredImage]) -> StoreResult<()>;
    /// The image of this kind and id, if any.
    async fn image(&self, kind: &str, id: &str) -> StoreResult<Option<StoredImage>>;
}

/// Registered names and their addresses (`crate::names`).
#[async_trait]
pub trait NameStore: Send + Sync {
    /// Registers a name with its addresses in one transaction; `false` when the name is taken.
    async fn add_name(&self, record: &NameRecord) -> StoreResult<bool>;
    /// The name, if registered.
    async fn name(&self, name: &str) -> StoreResult<Option<NameRecord>>;
    /// Names with `address` (compared case-insensitively) among their addresses, by name.
    async fn names_of(&self, address: &str) -> StoreResult<Vec<NameRecord>>;
}

/// What the history indexer found (`crate::indexer`): indexed blocks and their transfers.
#[async_trait]
pub trait IndexStore: Send + Sync {
    /// The highest block indexed on `chain`, with its hash.
    async fn index_tip(&self, chain: &str) -> StoreResult<Option<(i64, String)>>;
    /// The hash recorded for block `number` of `chain`.
    async fn indexed_hash(&self, chain: &str, number: i64) -> StoreResult<Option<String>>;
    /// Records blocks (number, hash) and their transfers in one transaction.
    async fn add_blocks(&self, chain: &str, blocks: &[(i64, String)], transfers: &[Transfer]) -> StoreResult<()>;
    /// Forgets blocks of `chain` from `number` up, with their transfers (a reorg).
    async fn rewind(&self, chain: &str, number: i64) -> StoreResult<()>;
    /// Transfers of the `limit` latest transactions touching `address` (lower case), newest
    /// first, on `chain` or all chains, strictly before the (block, tx index) `before`.
    async fn history(
        &self,
        address: &str,
        chain: Option<&str>,
        before: Option<(i64, i64)>,
        limit: u32,
    ) -> StoreResult<Vec<Transfer>>;
    /// The ERC-721 and ERC-1155 transfers into or out of `address` (lower case), on
    /// `chain` or all chains, oldest first, at most `limit`: what an address holds.
    async fn nft_transfers(&self, address: &str, chain: Option<&str>, limit: u32) -> StoreResult<Vec<Transfer>>;
}

/// On-ramp purchases delivered (`crate::onramp`), which the history marks.
#[async_trait]
pub trait PurchaseStore: Send + Sync {
    /// Records that the transaction `tx_hash` delivered an on-ramp purchase through `provider`
    /// (the first record stays).
    async fn put_purchase(&self, tx_hash: &str, provider: &str, now_ms: i64) -> StoreResult<()>;
    /// Which of `tx_hashes` delivered purchases: lower-cased hash → provider.
    async fn purchases_among(&self, tx_hashes: &[String]) -> StoreResult<HashMap<String, String>>;
}

/// Sign in with X (`crate::siwx`): nonces and sessions.
#[async_trait]
pub trait SignInStore: Send + Sync {
    /// Stores a new sign-in nonce.
    async fn siwx_add_nonce(&self, nonce: &SiwxNonce) -> StoreResult<()>;
    /// Removes `nonce` of `project_id` and returns it, in one atomic statement, so that of
    /// any number of concurrent takers (on any node sharing the database) one gets it:
    /// `None` when unknown, another project's, or already taken.
    async fn siwx_take_nonce(&self, project_id: &str, nonce: &str) -> StoreResult<Option<SiwxNonce>>;
    /// Stores a new session.
    async fn siwx_add_session(&self, session: &SiwxSession) -> StoreResult<()>;
    /// The unrevoked, unexpired session whose session token, or unexpired access token, hashes to `token_hash`.
    async fn siwx_session_by_token(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<SiwxSession>>;
    /// Rotates a session's refresh token, atomically: the active session of `project_id`
    /// whose current refresh token hashes to `refresh_hash` gets `next` access and refresh
    /// hashes. A refresh token already rotated away revokes its session (it was copied).
    async fn siwx_refresh(
        &self,
        project_id: &str,
        refresh_hash: &str,
        next: &SiwxRotation,
        now_ms: i64,
    ) -> StoreResult<SiwxRefresh>;
    /// Deletes nonces expired at `now_ms`, and sessions expired or revoked before
    /// `before_ms` (a grace after `now_ms`, so a copied refresh token is still recognised
    /// for a while); how many (nonces, sessions) went.
    async fn siwx_prune(&self, now_ms: i64, before_ms: i64) -> StoreResult<(u64, u64)>;
    /// A session by id, whatever its state.
    async fn siwx_session(&self, project_id: &str, id: &str) -> StoreResult<Option<SiwxSession>>;
    /// The unrevoked, unexpired sessions of a project, of `account` (CAIP-10 as stored) when given, newest first.
    async fn siwx_sessions(
        &self,
        project_id: &str,
        account: Option<&str>,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<SiwxSession>>;
    /// Revokes a session; `false` when it was not active.
    async fn siwx_revoke(&self, project_id: &str, id: &str, now_ms: i64) -> StoreResult<bool>;
}

/// Everything `latch` persists: every domain's store, which each backend implements
/// whole. Code that needs one domain takes that trait (an `Arc<dyn Store>` coerces to it).
pub trait Store:
    ProjectStore
    + AnalyticsStore
    + CatalogueStore
    + NameStore
    + IndexStore
    + PurchaseStore
    + SignInStore
    + RelayMailbox
    + embedded::EmbeddedStore
    + Send
    + Sync
    + 'static
{
}

impl<T> Store for T where
    T: ProjectStore
        + AnalyticsStore
        + CatalogueStore
        + NameStore
        + IndexStore
        + PurchaseStore
        + SignInStore
        + RelayMailbox
        + embedded::EmbeddedStore
        + Send
        + Sync
        + 'static
{
}

/// The relay's mailbox (see `crate::relay`), which each backend keeps its own
/// way: Postgres a row per message, SQLite a journal (`store::journal`).
#[async_trait]
pub trait RelayMailbox: Send + Sync {
    /// Adds `messages` to the relay mailbox (their `id` is ignored) and records
    /// `acks`, in one transaction (the relay's group commit); per message, the id
    /// it was stored under, or `None` when its (topic, hash) was already there
    /// (or earlier in `messages`). Acks are idempotent.
    async fn relay_write(&self, messages: &[RelayMessage], acks: &[RelayAck]) -> StoreResult<Vec<Option<i64>>>;
    /// Unexpired messages of `topic` that `client_id` neither published nor acknowledged,
    /// oldest first, at most `limit`.
    async fn relay_pending(
        &self,
        topic: &str,
        client_id: &str,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<RelayMessage>>;
    /// Drops messages expired at `now_ms` and their acknowledgements; how many messages went.
    async fn relay_prune(&self, now_ms: i64) -> StoreResult<u64>;
    /// How many unexpired messages the mailbox holds.
    async fn relay_mailbox_size(&self, now_ms: i64) -> StoreResult<u64>;
    /// For the relay's quotas: messages held on each of `topics` and published
    /// by each of `publishers` (all topics), in their order. Expired messages
    /// may count until pruned.
    async fn relay_counts(
        &self,
        topics: &[String],
        publishers: &[String],
        now_ms: i64,
    ) -> StoreResult<(Vec<u64>, Vec<u64>)>;
    /// Which part of the mailbox stores what, for the relay to run a writer
    /// per part: a topic's messages and their acks always go to one part, and
    /// parts share no lock. One part unless the backend is sharded (SQLite).
    async fn relay_shards(&self) -> StoreResult<Arc<RelayShards>> {
        Ok(Arc::new(RelayShards::one()))
    }
}

/// Opens (creating and migrating if needed) the database `url` names:
/// `sqlite://…` or `postgres://…` / `postgresql://…`.
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    open_with(url, 1).await
}

/// [`open`], with a SQLite relay mailbox in `relay_shards` shards (see
/// [`RelayShards`]; Postgres has one).
pub async fn open_with(url: &str, relay_shards: usize) -> StoreResult<Arc<dyn Store>> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::open_sharded(url, relay_shards).await?))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::open(url).await?))
    } else {
        Err(StoreError::UnsupportedUrl(
            url.split("://").next().unwrap_or_default().to_owned(),
        ))
    }
}

/// Whether `id` can be a project id: 1–64 of `[A-Za-z0-9_-]`.
pub fn is_valid_project_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One test story for every backend: what any `Store` must do.
#[cfg(test)]
mod contract {
    use super::*;

    async fn check(store: Arc<dyn Store>) {
        // On-ramp purchases: first record wins; lookups ignore the hash's case.
        store.put_purchase("0xABCD", "sandbox", 1).await.unwrap();
        store.put_purchase("0xabcd", "moonpay", 2).await.unwrap();
        let many: Vec<String> = (0..250)
            .map(|i| format!("0x{i:04x}"))
            .chain(["0xAbCd".into()])
            .collect();
        let found = store.purchases_among(&many).await.unwrap();
        assert_eq!(found, HashMap::from([("0xabcd".to_owned(), "sandbox".to_owned())]));
        assert!(store.purchases_among(&[]).await.unwrap().is_empty());

        let project = Project {
            id: "demo".into(),
            allowed_origins: vec!["http://localhost:*".into()],
            created_at: 7,
            analytics_enabled: true,
        };
        store.put_project(&project).await.unwrap();
        assert_eq!(store.project("demo").await.unwrap(), Some(project.clone()));
        let updated = Project {
            allowed_origins: vec!["https://a.org".into(), "https://b.org".into()],
            created_at: 99,
            ..project
        };
        store.put_project(&updated).await.unwrap();
        store
            .put_project(&Project {
                id: "alpha".into(),
                allowed_origins: vec![],
                created_at: 1,
                analytics_enabled: true,
            })
            .await
            .unwrap();
        let stored = store.projects().await.unwrap();
        assert_eq!(
            stored.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["alpha", "demo"]
        );
        assert_eq!(stored[1].allowed_origins, ["https://a.org", "https://b.org"]);
        assert_eq!(stored[1].created_at, 7, "an update keeps the creation time");
        assert!(store.remove_project("demo").await.unwrap());
        assert!(!store.remove_project("demo").await.unwrap());
        assert_eq!(store.project("demo").await.unwrap(), None);

        let muted = Project {
            id: "muted".into(),
            allowed_origins: vec![],
            created_at: 1,
            analytics_enabled: false,
        };
        store.put_project(&muted).await.unwrap();
        assert!(!store.project("muted").await.unwrap().unwrap().analytics_enabled);

        let event = |id: &str, at: i64| AnalyticsEvent {
            project_id: "alpha".into(),
            event_id: id.into(),
            event: "MODAL_OPEN".into(),
            kind: "track".into(),
            address: None,
            domain: "a.org".into(),
            url: "https://a.org/".into(),
            occurred_at: at,
            received_at: at + 5,
            properties: Some(r#"{"connected":false}"#.into()),
        };
        assert_eq!(store.add_events(&[event("e1", 10), event("e2", 20)]).await.unwrap(), 2);
        assert_eq!(
            store.add_events(&[event("e2", 20), event("e3", 30)]).await.unwrap(),
            1,
            "resends are stored once"
        );
        let stored = store.events("alpha", 15, 10).await.unwrap();
        assert_eq!(stored, vec![event("e2", 20), event("e3", 30)]);
        assert_eq!(store.events("alpha", 0, 1).await.unwrap().len(), 1);
        assert!(store.events("muted", 0, 10).await.unwrap().is_empty());

        let wallet = |id: &str, position: i64| StoredWallet {
            id: id.into(),
            name: format!("Wallet {id}"),
            position,
            data: format!(r#"{{"id":"{id}"}}"#),
        };
        store.put_wallets(&[wallet("b", 2), wallet("a", 1)]).await.unwrap();
        store
            .put_wallets(&[StoredWallet {
                name: "Renamed".into(),
                ..wallet("b", 0)
            }])
            .await
            .unwrap();
        let wallets = store.wallets().await.unwrap();
        assert_eq!(
            wallets
                .iter()
                .map(|w| (w.id.as_str(), w.name.as_str()))
                .collect::<Vec<_>>(),
            [("b", "Renamed"), ("a", "Wallet a")]
        );
        assert!(store.remove_wallet("a").await.unwrap());
        assert!(!store.remove_wallet("a").await.unwrap());
        assert_eq!(store.wallets().await.unwrap().len(), 1);

        let image = |id: &str, data: &[u8]| StoredImage {
            kind: "wallet".into(),
            id: id.into(),
            content_type: "image/png".into(),
            data: data.to_vec(),
            etag: format!("\"{}\"", data.len()),
        };
        // Every byte value survives the round trip (a BLOB, not text).
        let all_bytes: Vec<u8> = (0..=255).collect();
        store
            .put_images(&[image("w1", &all_bytes), image("w2", b"x")])
            .await
            .unwrap();
        store.put_images(&[image("w2", b"yz")]).await.unwrap();
        assert_eq!(
            store.image("wallet", "w1").await.unwrap(),
            Some(image("w1", &all_bytes))
        );
        assert_eq!(store.image("wallet", "w2").await.unwrap(), Some(image("w2", b"yz")));
        assert_eq!(store.image("token", "w1").await.unwrap(), None, "kinds are separate");

        let record = |name: &str, address: &str| NameRecord {
            name: name.into(),
            attributes: r#"{"bio":"hi"}"#.into(),
            registered_at: 100,
            updated_at: 100,
            addresses: vec![(60, address.into(), 100), (2147514689, address.into(), 100)],
        };
        let alice = record("alice.latch", "0xAbC0000000000000000000000000000000000001");
        assert!(store.add_name(&alice).await.unwrap());
        assert!(
            !store.add_name(&record("alice.latch", "0x2")).await.unwrap(),
            "a name is registered once"
        );
        assert_eq!(store.name("alice.latch").await.unwrap(), Some(alice.clone()));
        assert_eq!(store.name("bob.latch").await.unwrap(), None);
        assert!(store
            .add_name(&record("aaron.latch", "0xabc0000000000000000000000000000000000001"))
            .await
            .unwrap());
        let owned = store
            .names_of("0xABC0000000000000000000000000000000000001")
            .await
            .unwrap();
        assert_eq!(
            owned.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(),
            ["aaron.latch", "alice.latch"]
        );
        assert!(store.names_of("0x2").await.unwrap().is_empty());

        let transfer = |block: i64, tx: i64, log: i64, from: &str, to: &str| Transfer {
            chain: "eip155:1".into(),
            block_number: block,
            tx_index: tx,
            log_index: log,
            tx_hash: format!("0x{block}{tx}"),
            kind: if log < 0 { "native".into() } else { "erc20".into() },
            token: (log >= 0).then(|| "0xt".into()),
            token_id: None,
            sender: from.into(),
            recipient: to.into(),
            amount: "5".into(),
            mined_at: block * 12,
            success: true,
            nonce: tx,
            tx_from: from.into(),
            tx_to: Some(to.into()),
        };
        assert_eq!(store.index_tip("eip155:1").await.unwrap(), None);
        let blocks = [
            (1, "0xh1".to_string()),
            (2, "0xh2".to_string()),
            (3, "0xh3".to_string()),
        ];
        let transfers = [
            transfer(1, 0, -1, "0xa", "0xb"),
            transfer(2, 0, 0, "0xb", "0xa"),
            transfer(2, 0, 1, "0xa", "0xc"),
            transfer(3, 1, -1, "0xc", "0xd"),
        ];
        store.add_blocks("eip155:1", &blocks, &transfers).await.unwrap();
        assert_eq!(store.index_tip("eip155:1").await.unwrap(), Some((3, "0xh3".into())));
        assert_eq!(
            store.indexed_hash("eip155:1", 2).await.unwrap().as_deref(),
            Some("0xh2")
        );
        let of_a = store.history("0xa", Some("eip155:1"), None, 10).await.unwrap();
        assert_eq!(
            of_a,
            vec![transfers[1].clone(), transfers[2].clone(), transfers[0].clone()],
            "newest tx first, all its transfers"
        );
        let page = store.history("0xa", None, None, 1).await.unwrap();
        assert_eq!(page.len(), 2, "one transaction, both its transfers");
        assert_eq!(
            store.history("0xa", None, Some((2, 0)), 10).await.unwrap(),
            vec![transfers[0].clone()]
        );
        assert!(store
            .history("0xa", Some("eip155:5"), None, 10)
            .await
            .unwrap()
            .is_empty());
        store.rewind("eip155:1", 2).await.unwrap();
        assert_eq!(store.index_tip("eip155:1").await.unwrap(), Some((1, "0xh1".into())));
        assert_eq!(
            store.history("0xa", None, None, 10).await.unwrap(),
            vec![transfers[0].clone()]
        );
        relay_mailbox(store.as_ref()).await;
        siwx(store.as_ref()).await;
        siwx_nonce_race(store.clone()).await;
        super::embedded::contract(store.as_ref()).await;
    }

    /// Many takers of one nonce at once (as several nodes would be): exactly one gets it.
    async fn siwx_nonce_race(store: Arc<dyn Store>) {
        for round in 0..5 {
            let nonce = SiwxNonce {
                nonce: format!("race{round}0123456789"),
                project_id: "p".into(),
                domain: "app.example".into(),
                expires_at: i64::MAX,
            };
            store.siwx_add_nonce(&nonce).await.unwrap();
            let takers: Vec<_> = (0..16)
                .map(|_| {
                    let (store, nonce) = (store.clone(), nonce.nonce.clone());
                    tokio::spawn(async move { store.siwx_take_nonce("p", &nonce).await.unwrap() })
                })
                .collect();
            let mut won = 0;
            for taker in takers {
                won += usize::from(taker.await.unwrap().is_some());
            }
            assert_eq!(won, 1, "one taker of {}", nonce.nonce);
        }
    }

    async fn siwx(store: &dyn Store) {
        let nonce = SiwxNonce {
            nonce: "abcdef0123456789".into(),
            project_id: "p".into(),
            domain: "app.example".into(),
            expires_at: 1_000,
        };
        store.siwx_add_nonce(&nonce).await.unwrap();
        assert!(store.siwx_add_nonce(&nonce).await.is_err(), "a nonce is issued once");
        assert_eq!(
            store.siwx_take_nonce("q", &nonce.nonce).await.unwrap(),
            None,
            "not another project's"
        );
        assert_eq!(
            store.siwx_take_nonce("p", &nonce.nonce).await.unwrap(),
            Some(nonce.clone())
        );
        assert_eq!(
            store.siwx_take_nonce("p", &nonce.nonce).await.unwrap(),
            None,
            "and taken once"
        );
        assert_eq!(store.siwx_take_nonce("p", "unknown").await.unwrap(), None);

        let session = |id: &str, account: &str, created_at: i64, expires_at: i64| SiwxSession {
            id: id.into(),
            token_hash: format!("hash-{id}"),
            access_hash: format!("access-{id}"),
            access_expires_at: 40,
            refresh_hash: format!("refresh-{id}"),
            project_id: "p".into(),
            account: account.into(),
            chain_id: "eip155:1".into(),
            domain: "app.example".into(),
            message: "m".into(),
            signature: "s".into(),
            created_at,
            expires_at,
            revoked_at: None,
        };
        let (a, b, c) = (
            session("a", "eip155:1:0xA", 10, 1_000),
            session("b", "eip155:1:0xA", 20, 1_000),
            session("c", "eip155:1:0xB", 30, 100),
        );
        for s in [&a, &b, &c] {
            store.siwx_add_session(s).await.unwrap();
        }
        assert_eq!(
            store.siwx_session_by_token("hash-a", 50).await.unwrap(),
            Some(a.clone())
        );
        assert_eq!(
            store.siwx_session_by_token("hash-c", 100).await.unwrap(),
            None,
            "expired"
        );
        assert_eq!(
            store.siwx_sessions("p", Some("eip155:1:0xA"), 50, 10).await.unwrap(),
            vec![b.clone(), a.clone()],
            "newest first"
        );
        assert_eq!(store.siwx_sessions("p", None, 50, 10).await.unwrap().len(), 3);
        assert!(
            store.siwx_sessions("q", None, 50, 10).await.unwrap().is_empty(),
            "per project"
        );
        assert!(store.siwx_revoke("p", "a", 60).await.unwrap());
        assert!(!store.siwx_revoke("p", "a", 61).await.unwrap(), "revoked once");
        assert_eq!(store.siwx_session_by_token("hash-a", 70).await.unwrap(), None);
        assert_eq!(
            store.siwx_session("p", "a").await.unwrap().unwrap().revoked_at,
            Some(60)
        );
        assert!(store.siwx_session("q", "a").await.unwrap().is_none());

        // Access tokens count until their own expiry; refresh tokens rotate once.
        assert_eq!(
            store.siwx_session_by_token("access-b", 39).await.unwrap(),
            Some(b.clone())
        );
        assert_eq!(store.siwx_session_by_token("access-b", 40).await.unwrap(), None);
        let next = SiwxRotation {
            access_hash: "access-b2".into(),
            access_expires_at: 90,
            refresh_hash: "refresh-b2".into(),
        };
        assert_eq!(
            store.siwx_refresh("q", "refresh-b", &next, 50).await.unwrap(),
            SiwxRefresh::Unknown,
            "per project"
        );
        let SiwxRefresh::Rotated(rotated) = store.siwx_refresh("p", "refresh-b", &next, 50).await.unwrap() else {
            panic!("the current refresh token rotates");
        };
        assert_eq!(
            (rotated.access_hash.as_str(), rotated.refresh_hash.as_str()),
            ("access-b2", "refresh-b2")
        );
        assert_eq!(
            store
                .siwx_session_by_token("access-b2", 60)
                .await
                .unwrap()
                .map(|s| s.id),
            Some("b".into())
        );
        assert_eq!(
            store.siwx_refresh("p", "refresh-b", &next, 60).await.unwrap(),
            SiwxRefresh::Reused,
            "a rotated-away token is a copy"
        );
        assert_eq!(
            store.siwx_session_by_token("hash-b", 61).await.unwrap(),
            None,
            "and its session ends"
        );
        assert_eq!(
            store.siwx_refresh("p", "refresh-b2", &next, 62).await.unwrap(),
            SiwxRefresh::Unknown,
            "for every token of it"
        );
        assert_eq!(
            store.siwx_refresh("p", "refresh-b", &next, 63).await.unwrap(),
            SiwxRefresh::Unknown
        );

        // Pruning: expired nonces at once, ended sessions after the grace.
        let old = SiwxNonce {
            nonce: "old0123456789".into(),
            expires_at: 100,
            ..nonce.clone()
        };
        let live = SiwxNonce {
            nonce: "live0123456789".into(),
            expires_at: 10_000,
            ..nonce.clone()
        };
        store.siwx_add_nonce(&old).await.unwrap();
        store.siwx_add_nonce(&live).await.unwrap();
        // a revoked at 60, b revoked at 60, c expired at 100: none before 50.
        assert_eq!(store.siwx_prune(200, 50).await.unwrap(), (1, 0));
        assert_eq!(store.siwx_prune(200, 100).await.unwrap(), (0, 3));
        assert!(store.siwx_session("p", "a").await.unwrap().is_none());
        assert_eq!(store.siwx_take_nonce("p", &live.nonce).await.unwrap(), Some(live));
    }

    async fn relay_mailbox(store: &dyn Store) {
        let topic = "ab".repeat(32);
        let message = |text: &str, publisher: &str, at: i64, expires: i64| RelayMessage {
            id: 0,
            topic: topic.clone(),
            hash: format!("{text:0>64}"),
            message: text.into(),
            tag: 1108,
            publisher: publisher.into(),
            published_at: at,
            expires_at: expires,
        };
        let stored = |message: &RelayMessage, id: Option<i64>| RelayMessage {
            id: id.expect("stored"),
            ..message.clone()
        };
        let first = message("m1", "did:key:zDapp", 100, 1_000);
        let second = message("m2", "did:key:zDapp", 200, 2_000);
        let from_wallet = message("m3", "did:key:zWallet", 300, 2_000);
        let ids = store.relay_write(std::slice::from_ref(&first), &[]).await.unwrap();
        let first = stored(&first, ids[0]);
        let ids = store
            .relay_write(&[first.clone(), second.clone(), second.clone()], &[])
            .await
            .unwrap();
        assert_eq!(
            ids.iter().map(Option::is_some).collect::<Vec<_>>(),
            [false, true, false],
            "a duplicate is stored once, in one batch or across batches"
        );
        let second = stored(&second, ids[1]);
        assert!(second.id > first.id, "ids follow storage order");
        let ids = store
            .relay_write(std::slice::from_ref(&from_wallet), &[])
            .await
            .unwrap();
        let from_wallet = stored(&from_wallet, ids[0]);
        assert_eq!(
            store.relay_pending(&topic, "did:key:zWallet", 500, 10).await.unwrap(),
            vec![first.clone(), second.clone()],
            "oldest first, never the client's own"
        );
        assert_eq!(
            store.relay_pending(&topic, "did:key:zWallet", 500, 1).await.unwrap(),
            vec![first.clone()]
        );
        let ack = RelayAck {
            message_id: first.id,
            client_id: "did:key:zWallet".into(),
        };
        assert!(store
            .relay_write(&[], &[ack.clone(), ack.clone()])
            .await
            .unwrap()
            .is_empty());
        store.relay_write(&[], &[ack]).await.unwrap();
        assert_eq!(
            store.relay_pending(&topic, "did:key:zWallet", 500, 10).await.unwrap(),
            vec![second.clone()]
        );
        assert_eq!(
            store.relay_pending(&topic, "did:key:zDapp", 500, 10).await.unwrap(),
            vec![from_wallet.clone()]
        );
        assert_eq!(
            store
                .relay_pending(&topic, "did:key:zOther", 500, 10)
                .await
                .unwrap()
                .len(),
            3,
            "an ack is per client"
        );
        assert!(store
            .relay_pending(&"cd".repeat(32), "did:key:zOther", 500, 10)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(store.relay_mailbox_size(500).await.unwrap(), 3);
        assert_eq!(
            store.relay_mailbox_size(1_000).await.unwrap(),
            2,
            "expired messages are not counted"
        );
        assert_eq!(
            store
                .relay_pending(&topic, "did:key:zOther", 1_500, 10)
                .await
                .unwrap()
                .len(),
            2
        );
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            store
                .relay_counts(
                    &names(&[&topic, &"cd".repeat(32)]),
                    &names(&["did:key:zDapp", "did:key:zWallet", "did:key:zOther"]),
                    500
                )
                .await
                .unwrap(),
            (vec![3, 0], vec![2, 1, 0]),
            "the quotas' counts per topic and per publisher"
        );
        assert_eq!(store.relay_prune(1_500).await.unwrap(), 1);
        assert_eq!(store.relay_prune(1_500).await.unwrap(), 0);
        assert_eq!(
            store
                .relay_counts(&names(&[&topic]), &names(&["did:key:zDapp"]), 1_500)
                .await
                .unwrap(),
            (vec![2], vec![1]),
            "pruned messages no longer count"
        );
        // The pruned message's ack went with it, and a republish is a new message (a new id).
        let ids = store
            .relay_write(&[message("m1", "did:key:zDapp", 1_600, 3_000)], &[])
            .await
            .unwrap();
        assert!(ids[0].is_some_and(|id| id > from_wallet.id), "ids are never reused");
        assert_eq!(
            store
                .relay_pending(&topic, "did:key:zWallet", 1_600, 10)
                .await
                .unwrap()
                .len(),
            2
        );
        // An ack arriving after its message was pruned is dropped by the next prune, and
        // settles nothing meanwhile.
        let late = RelayAck {
            message_id: first.id,
            client_id: "did:key:zLate".into(),
        };
        store.relay_write(&[], &[late]).await.unwrap();
        assert_eq!(
            store
                .relay_pending(&topic, "did:key:zLate", 1_600, 10)
                .await
                .unwrap()
                .len(),
            3
        );
        assert_eq!(store.relay_prune(1_600).await.unwrap(), 0);

        // A prune larger than one chunk takes every expired message and its acks.
        let many: Vec<RelayMessage> = (0..2_500)
            .map(|i| RelayMessage {
                topic: "ef".repeat(32),
                ..message(&format!("bulk{i}"), "did:key:zDapp", 1_600, 1_650)
            })
            .collect();
        let ids = store.relay_write(&many, &[]).await.unwrap();
        let acks: Vec<RelayAck> = ids
            .iter()
            .map(|id| RelayAck {
                message_id: id.expect("new"),
                client_id: "did:key:zWallet".into(),
            })
            .collect();
        store.relay_write(&[], &acks).await.unwrap();
        assert_eq!(store.relay_mailbox_size(1_600).await.unwrap(), 2_503);
        assert_eq!(store.relay_prune(1_700).await.unwrap(), 2_500);
        assert_eq!(store.relay_mailbox_size(1_600).await.unwrap(), 3);
    }

    pub(super) use super::fresh_postgres::fresh_postgres_database;

    /// The schema version before the mailbox was keyed by message ids.
    pub(super) const OLD_MAILBOX_VERSION: usize = 23;

    /// A mailbox in that schema: on topic `ab…`, m1 (acked by the wallet) and m2
    /// from the dapp, m3 from the wallet (written oldest last, to show the order
    /// comes from `published_at`), and an ack of a message no longer there.
    pub(super) const OLD_MAILBOX: &[&str] = &[
        "INSERT INTO relay_messages (topic, hash, message, tag, publisher, published_at, expires_at) VALUES
         ('abababababababababababababababababababababababababababababababab', 'h3', 'm3', 1108, 'did:key:zWallet', 300, 9000),
         ('abababababababababababababababababababababababababababababababab', 'h2', 'm2', 1108, 'did:key:zDapp', 200, 9000),
         ('abababababababababababababababababababababababababababababababab', 'h1', 'm1', 1108, 'did:key:zDapp', 100, 9000)",
        "INSERT INTO relay_acks (topic, hash, client_id) VALUES
         ('abababababababababababababababababababababababababababababababab', 'h1', 'did:key:zWallet'),
         ('abababababababababababababababababababababababababababababababab', 'gone', 'did:key:zWallet')",
    ];

    /// What a store migrated from [`OLD_MAILBOX`] must hold: every pending message,
    /// in order, with its acks; and de-duplication still by (topic, hash).
    pub(super) async fn old_mailbox_kept(store: &dyn Store) {
        let topic = "ab".repeat(32);
        assert_eq!(
            pending_texts(store, &topic, "did:key:zWallet").await,
            ["m2"],
            "m1 stays acked"
        );
        let other = store.relay_pending(&topic, "did:key:zOther", 500, 10).await.unwrap();
        assert!(other.windows(2).all(|w| w[0].id < w[1].id));
        assert_eq!(
            other.iter().map(|m| m.message.as_str()).collect::<Vec<_>>(),
            ["m1", "m2", "m3"],
            "oldest first"
        );
        assert_eq!(pending_texts(store, &topic, "did:key:zDapp").await, ["m3"]);
        let again = RelayMessage {
            id: 0,
            ..other[0].clone()
        };
        assert_eq!(
            store.relay_write(&[again], &[]).await.unwrap(),
            [None],
            "still a duplicate"
        );
        let ack = RelayAck {
            message_id: other[1].id,
            client_id: "did:key:zWallet".into(),
        };
        store.relay_write(&[], &[ack]).await.unwrap();
        assert!(pending_texts(store, &topic, "did:key:zWallet").await.is_empty());
    }

    /// The texts of the messages `client` has pending on `topic` at 500 ms, at most 10.
    pub(super) async fn pending_texts(store: &dyn Store, topic: &str, client: &str) -> Vec<String> {
        let pending = store.relay_pending(topic, client, 500, 10).await.unwrap();
        pending.into_iter().map(|m| m.message).collect()
    }

    #[tokio::test]
    async fn sqlite() {
        let dir = tempfile::tempdir().unwrap();
        check(
            open(&format!("sqlite://{}", dir.path().join("latch.db").display()))
                .await
                .unwrap(),
        )
        .await;
    }

    /// Needs a server: `scripts/with-postgres` (which `make test` uses) provides one.
    #[tokio::test]
    async fn postgres() {
        // A fresh database per run, so the story starts from an empty schema.
        let Some(url) = fresh_postgres_database("latch_contract").await else {
            return;
        };
        check(open(&url).await.unwrap()).await;
        // Opening again finds the schema in place (migrations are idempotent).
        open(&url).await.unwrap();
    }

    #[tokio::test]
    async fn unknown_scheme_is_refused() {
        let err = open("mysql://x").await.err().unwrap();
        assert_eq!(
            err.to_string(),
            "unsupported database URL scheme \"mysql\" (expected sqlite:// or postgres://)"
        );
    }
}
