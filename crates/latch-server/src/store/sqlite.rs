use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Row;

use super::embedded::impl_embedded_store;
use super::relay_shards::{JournalShards, RelayShards};
use super::sql::impl_sql_store;
use super::{
    AnalyticsEvent, AnalyticsStore, CatalogueStore, IndexStore, NameRecord, NameStore, Project, ProjectStore,
    PurchaseStore, RelayAck, RelayMailbox, RelayMessage, SignInStore, SiwxNonce, SiwxRefresh, SiwxRotation,
    SiwxSession, StoreError, StoreResult, StoredImage, StoredWallet, Transfer,
};

/// How often the WAL is copied back into the database file.
/// Often enough that little is left to copy when the WAL must start over.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// WAL length (pages, 4 KiB each by default: 256 MiB) past which the
/// checkpointer pauses the relay writer to start it over. Sustained relay
/// traffic writes the WAL at tens of MiB/s; a larger limit means fewer pauses.
const WAL_LIMIT_PAGES: i64 = 65_536;

/// The embedded default store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// The relay mailbox, its shards each on a connection of its own for the
    /// relay's group commits. SQLite drops a connection's page cache whenever
    /// another connection wrote since its last transaction, so commits rotating
    /// over the pool re-read every page they touch; one writer keeps its pages cached.
    journal: std::sync::Arc<JournalShards>,
    _checkpoints: std::sync::Arc<Checkpoints>,
}

/// The background checkpointer; stops when the last clone of the store goes.
#[derive(Debug)]
struct Checkpoints(tokio::task::JoinHandle<()>);

impl Drop for Checkpoints {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Checkpoints each file of the store: the main one (shard 0 of the relay
/// mailbox) and the other shards'. They share [`WAL_LIMIT_PAGES`], so the
/// WALs together stay near it whatever the shard count.
fn checkpoints(journal: &JournalShards) -> Checkpoints {
    // Each file's (pool, relay writer).
    let files: Vec<(SqlitePool, SqlitePool)> = journal
        .shards()
        .iter()
        .map(|shard| (shard.pool.clone(), shard.journal.writer().clone()))
        .collect();
    Checkpoints(tokio::spawn(async move {
        let limit = (WAL_LIMIT_PAGES / files.len() as i64).max(1);
        let mut every = tokio::time::interval(CHECKPOINT_EVERY);
        loop {
            every.tick().await;
            for (pool, writer) in &files {
                if let Err(error) = checkpoint(pool, writer, limit).await {
                    tracing::warn!(%error, "sqlite: checkpoint failed");
                }
            }
        }
    }))
}

/// One round of the checkpointer. A PASSIVE checkpoint copies what no reader
/// needs and never waits for or blocks writers; but the WAL only starts over
/// when a checkpoint has copied everything and no reader still uses it as the
/// writer begins, which under sustained relay traffic never happens: the WAL
/// would grow without bound. Past `limit_pages`, a RESTART checkpoint on the
/// relay writer's only connection (relay commits wait for it) copies the rest
/// and waits for readers, so the next commit writes the WAL from its start.
/// The file keeps its length (truncating it measured slower) and is reused:
/// its size stays near the limit. Returns whether the WAL starts over.
async fn checkpoint(pool: &SqlitePool, relay_writer: &SqlitePool, limit_pages: i64) -> StoreResult<bool> {
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(pool).await?;
    let wal_pages: i64 = row.try_get(1)?;
    let copied_pages: i64 = row.try_get(2)?;
    if wal_pages < limit_pages {
        return Ok(false);
    }
    let mut writer = relay_writer.acquire().await?;
    let started = std::time::Instant::now();
    let row = sqlx::query("PRAGMA wal_checkpoint(RESTART)")
        .fetch_one(&mut *writer)
        .await?;
    let busy: i64 = row.try_get(0)?;
    let paused_ms = started.elapsed().as_secs_f64() * 1000.0;
    if busy != 0 {
        tracing::warn!(
            wal_pages,
            paused_ms,
            "sqlite: the WAL could not start over (a reader or writer held it)"
        );
    } else {
        tracing::debug!(wal_pages, copied_pages, paused_ms, "sqlite: WAL starts over");
    }
    Ok(busy == 0)
}

impl SqliteStore {
    /// Opens `sqlite://path` (created with its parent folder if missing) and
    /// migrates it, with one relay mailbox shard (and any found beside it).
    pub async fn open(url: &str) -> StoreResult<Self> {
        Self::open_sharded(url, 1).await
    }

    /// [`Self::open`] with the relay mailbox in `relay_shards` shards
    /// (`store::relay_shards`), or as many as there are files of, if more.
    pub async fn open_sharded(url: &str, relay_shards: usize) -> StoreResult<Self> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL + NORMAL: a commit is safe once written (a crash or restart of
            // `latch` loses nothing); only an OS crash or power cut can lose the
            // last commits. FULL would fsync every commit, ~25 ms on a virtual disk.
            .synchronous(SqliteSynchronous::Normal)
            // No checkpoint inside a commit: `checkpoints` runs them beside the
            // writers, so a checkpoint's fsync never stalls a relay publish.
            .pragma("wal_autocheckpoint", "0")
            .foreign_keys(true);
        if let Some(parent) = options.get_filename().parent() {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
            }
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options.clone())
            .await?;
        let mut tx = pool.begin().await?;
        super::migrations::sqlite::adopt(&mut tx, &super::migrations::SQLITE).await?;
        tx.commit().await?;
        super::migrations::SQLITE.run(&pool).await?;
        // SQLite's default page cache (2 MiB): a 64 MiB one measured slower, as
        // every commit walks the cache to drop pages past the end of the file.
        let relay_writer = SqlitePoolOptions::new()
            .max_connections(1)
            // A local file needs no liveness check: sqlx's ping before each
            // acquire was one more round trip to SQLite's thread per commit.
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        let journal = JournalShards::open(&options, relay_writer, pool.clone(), relay_shards).await?;
        Ok(Self {
            _checkpoints: std::sync::Arc::new(checkpoints(&journal)),
            journal: std::sync::Arc::new(journal),
            pool,
        })
    }
}

#[cfg(test)]
impl SqliteStore {
    /// This store with journal rows of at most `row_messages` messages: tests
    /// reach the writes that span rows without a million messages.
    fn with_journal_rows(self, row_messages: usize) -> Self {
        let journal = std::sync::Arc::try_unwrap(self.journal).expect("the journal is not shared yet");
        Self {
            journal: std::sync::Arc::new(journal.with_row_messages(row_messages)),
            ..self
        }
    }
}

/// The relay mailbox is the journal's.
#[async_trait]
impl RelayMailbox for SqliteStore {
    async fn relay_write(&self, messages: &[RelayMessage], acks: &[RelayAck]) -> StoreResult<Vec<Option<i64>>> {
        self.journal.write(messages, acks).await
    }

    async fn relay_pending(
        &self,
        topic: &str,
        client_id: &str,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<RelayMessage>> {
        self.journal.pending(topic, client_id, now_ms, limit).await
    }

    async fn relay_prune(&self, now_ms: i64) -> StoreResult<u64> {
        self.journal.prune(now_ms).await
    }

    async fn relay_mailbox_size(&self, now_ms: i64) -> StoreResult<u64> {
        self.journal.size(now_ms).await
    }

    async fn relay_counts(
        &self,
        topics: &[String],
        publishers: &[String],
        _now_ms: i64,
    ) -> StoreResult<(Vec<u64>, Vec<u64>)> {
        self.journal.counts(topics, publishers).await
    }

    async fn relay_shards(&self) -> StoreResult<std::sync::Arc<RelayShards>> {
        self.journal.router().await
    }
}

impl_sql_store!(SqliteStore, sqlx::sqlite::SqliteRow, sqlx::Sqlite, sqlite);
// Paths from inside the module the macro makes.
impl_embedded_store!(super::SqliteStore, sqlx::sqlite::SqliteRow);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::contract::pending_texts;

    // A real SQLite file, closed and reopened: what `latch serve --dev` relies on
    // across restarts. (What every store must do is in `store::contract`.)
    #[tokio::test]
    async fn projects_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("nested/latch.db").display());
        let project = Project {
            id: "demo".into(),
            allowed_origins: vec!["http://localhost:*".into()],
            created_at: 7,
            analytics_enabled: true,
        };
        {
            let store = SqliteStore::open(&url).await.unwrap();
            store.put_project(&project).await.unwrap();
            store.pool.close().await;
        }
        let store = SqliteStore::open(&url).await.unwrap();
        assert_eq!(store.project("demo").await.unwrap(), Some(project));
    }

    // The relay's journal (store::journal) is read back on reopening: what a restart of
    // `latch` relies on to lose no message, acked state and de-duplication included.
    #[tokio::test]
    async fn the_mailbox_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let topic = "ab".repeat(32);
        let message = |text: &str, expires_at: i64| RelayMessage {
            id: 0,
            topic: topic.clone(),
            hash: format!("{text:0>64}"),
            message: text.into(),
            tag: 1108,
            publisher: "did:key:zDapp".into(),
            published_at: 1,
            expires_at,
        };
        let reopen = |store: SqliteStore| async {
            store.pool.close().await;
            drop(store);
            SqliteStore::open(&url).await.unwrap()
        };
        async fn rows(store: &SqliteStore) -> Result<i64, sqlx::Error> {
            sqlx::query_scalar("SELECT COUNT(*) FROM relay_journal")
                .fetch_one(&store.pool)
                .await
        }

        let store = SqliteStore::open(&url).await.unwrap();
        let ids = store
            .relay_write(&[message("m1", 1_000), message("m2", 2_000)], &[])
            .await
            .unwrap();
        let ack = RelayAck {
            message_id: ids[0].unwrap(),
            client_id: "did:key:zWallet".into(),
        };
        store.relay_write(&[], &[ack]).await.unwrap();
        let store = reopen(store).await;
        assert_eq!(pending_texts(&store, &topic, "did:key:zWallet").await, ["m2"]);
        let stored = store.relay_pending(&topic, "did:key:zOther", 500, 10).await.unwrap();
        assert_eq!(stored.iter().map(|m| Some(m.id)).collect::<Vec<_>>(), ids, "same ids");
        assert_eq!(store.relay_write(&[message("m1", 1_000)], &[]).await.unwrap(), [None]);
        let later = store.relay_write(&[message("m3", 3_000)], &[]).await.unwrap();
        assert!(later[0] > ids[1], "ids keep increasing across restarts");
        assert_eq!(rows(&store).await.unwrap(), 3);

        // A row goes once all it names has expired: m1 and m2's row and the ack's.
        assert_eq!(store.relay_prune(2_000).await.unwrap(), 2);
        assert_eq!(rows(&store).await.unwrap(), 1);
        let store = reopen(store).await;
        assert_eq!(pending_texts(&store, &topic, "did:key:zWallet").await, ["m3"]);
        assert_eq!(store.relay_mailbox_size(500).await.unwrap(), 1);
    }

    #[tokio::test]
    async fn a_wal_past_its_limit_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latch.db");
        let store = SqliteStore::open(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        // This test runs the checkpointer's rounds itself: a background round at the same time
        // would make SQLite answer the RESTART "busy" (one checkpoint at a time).
        store._checkpoints.0.abort();
        // A round already running finishes its statement (on SQLite's own thread) first.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let wal = dir.path().join("latch.db-wal");
        let topic = "ab".repeat(32);
        let message = |n: u32| RelayMessage {
            id: 0,
            topic: topic.clone(),
            hash: format!("{n:0>64}"),
            message: format!("message {n} {}", "x".repeat(2_000)),
            tag: 1108,
            publisher: "did:key:zDapp".into(),
            published_at: 1,
            expires_at: 1_000,
        };
        for n in 0..50 {
            store.relay_write(&[message(n)], &[]).await.unwrap();
        }
        let written = std::fs::metadata(&wal).unwrap().len();
        assert!(written > 100_000, "the writes went to the WAL ({written} bytes)");

        // Below the limit only the passive pass runs.
        assert!(!checkpoint(&store.pool, store.journal.writer(), i64::MAX).await.unwrap());
        // Past it, the WAL starts over: as many writes again reuse the file instead of growing it.
        assert!(checkpoint(&store.pool, store.journal.writer(), 1).await.unwrap());
        for n in 50..100 {
            store.relay_write(&[message(n)], &[]).await.unwrap();
        }
        assert!(std::fs::metadata(&wal).unwrap().len() <= written);
        let stored = store.relay_pending(&topic, "did:key:zWallet", 2, 1_000).await.unwrap();
        assert_eq!(stored.len(), 100, "nothing was lost");
    }

    /// A database at `url` as a version before the journal left it, holding
    /// the shared contract's old mailbox.
    async fn old_mailbox_at(url: &str) {
        let options = SqliteConnectOptions::from_str(url).unwrap().create_if_missing(true);
        let pool = SqlitePool::connect_with(options).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        write_old_mailbox(&mut tx).await.unwrap();
        tx.commit().await.unwrap();
        pool.close().await;
    }

    #[tokio::test]
    async fn an_old_mailbox_keeps_its_pending_messages() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        old_mailbox_at(&url).await;
        let store = SqliteStore::open(&url).await.unwrap();
        crate::store::contract::old_mailbox_kept(&store).await;
        let old_rows = || async {
            let messages: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM relay_messages")
                .fetch_one(&store.pool)
                .await
                .unwrap();
            let acks: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM relay_acks")
                .fetch_one(&store.pool)
                .await
                .unwrap();
            messages + acks
        };
        assert_eq!(old_rows().await, 0, "moved into the journal");

        // Opened again, the journal alone holds the same mailbox.
        store.pool.close().await;
        drop(store);
        let store = SqliteStore::open(&url).await.unwrap();
        let topic = "ab".repeat(32);
        assert_eq!(
            pending_texts(&store, &topic, "did:key:zOther").await,
            ["m1", "m2", "m3"]
        );
        assert!(pending_texts(&store, &topic, "did:key:zWallet").await.is_empty());
    }

    // Rows hold up to 2^20 messages; a write (only an import gets that far) or
    // an import larger than that spans rows. Tried here with rows of 2 and 3.
    #[tokio::test]
    async fn writes_and_imports_larger_than_a_row_span_rows() {
        let dir = tempfile::tempdir().unwrap();
        async fn rows(store: &SqliteStore) -> i64 {
            sqlx::query_scalar("SELECT COUNT(*) FROM relay_journal")
                .fetch_one(&store.pool)
                .await
                .unwrap()
        }

        // An old mailbox of three messages and an ack: rows of 2 + 1, then the acks' row.
        let url = format!("sqlite://{}", dir.path().join("old.db").display());
        old_mailbox_at(&url).await;
        let store = SqliteStore::open(&url).await.unwrap().with_journal_rows(2);
        crate::store::contract::old_mailbox_kept(&store).await;
        assert_eq!(
            rows(&store).await,
            3 + 1,
            "two rows of messages, one of acks, the contract's ack"
        );

        // One write of eight messages, one of them twice: seven new ones in rows of 3, 3 and 1.
        let url = format!("sqlite://{}", dir.path().join("new.db").display());
        let topic = "cd".repeat(32);
        let message = |n: usize| RelayMessage {
            id: 0,
            topic: topic.clone(),
            hash: format!("{n:0>64}"),
            message: format!("m{n}"),
            tag: 1108,
            publisher: "did:key:zDapp".into(),
            published_at: 1,
            expires_at: 9_000,
        };
        let batch: Vec<RelayMessage> = [1, 2, 3, 4, 2, 5, 6, 7].into_iter().map(message).collect();
        let store = SqliteStore::open(&url).await.unwrap().with_journal_rows(3);
        let ids = store.relay_write(&batch, &[]).await.unwrap();
        assert_eq!(ids[4], None, "the second m2 is a duplicate");
        let ids: Vec<i64> = ids.into_iter().flatten().collect();
        assert_eq!(ids.len(), 7);
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "ids follow the batch's order: {ids:?}"
        );
        assert_eq!(rows(&store).await, 3);
        let expected = ["m1", "m2", "m3", "m4", "m5", "m6", "m7"];
        let pending = store.relay_pending(&topic, "did:key:zWallet", 500, 10).await.unwrap();
        assert_eq!(pending.iter().map(|m| m.id).collect::<Vec<_>>(), ids);
        assert_eq!(pending.iter().map(|m| m.message.as_str()).collect::<Vec<_>>(), expected);

        // Read back from its rows: the same ids, and still de-duplicated.
        store.pool.close().await;
        drop(store);
        let store = SqliteStore::open(&url).await.unwrap().with_journal_rows(3);
        let pending = store.relay_pending(&topic, "did:key:zWallet", 500, 10).await.unwrap();
        assert_eq!(pending.iter().map(|m| m.id).collect::<Vec<_>>(), ids);
        assert_eq!(store.relay_write(&[message(6)], &[]).await.unwrap(), [None]);
    }
}
