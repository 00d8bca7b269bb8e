use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::Row;

use super::sql::impl_sql_store;
use super::{
    AnalyticsEvent, NameRecord, Project, RelayAck, RelayMessage, SiwxNonce, SiwxSession, Store, StoreError,
    StoreResult, StoredImage, StoredWallet, Transfer,
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
    /// One connection for the relay's group commits. SQLite drops a connection's
    /// page cache whenever another connection wrote since its last transaction, so
    /// commits rotating over the pool re-read every page they touch; one writer
    /// keeps its pages cached.
    relay_writer: SqlitePool,
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

fn checkpoints(pool: SqlitePool, relay_writer: SqlitePool) -> Checkpoints {
    Checkpoints(tokio::spawn(async move {
        let mut every = tokio::time::interval(CHECKPOINT_EVERY);
        loop {
            every.tick().await;
            if let Err(error) = checkpoint(&pool, &relay_writer, WAL_LIMIT_PAGES).await {
                tracing::warn!(%error, "sqlite: checkpoint failed");
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
    /// Opens `sqlite://path` (created with its parent folder if missing) and migrates it.
    pub async fn open(url: &str) -> StoreResult<Self> {
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
        apply_migrations(&mut tx).await?;
        tx.commit().await?;
        // SQLite's default page cache (2 MiB): a 64 MiB one measured slower, as
        // every commit walks the cache to drop pages past the end of the file.
        let relay_writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await?;
        Ok(Self {
            _checkpoints: std::sync::Arc::new(checkpoints(pool.clone(), relay_writer.clone())),
            relay_writer,
            pool,
        })
    }
}

impl_sql_store!(SqliteStore, sqlx::sqlite::SqliteRow, sqlx::Sqlite, sqlite);

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(!checkpoint(&store.pool, &store.relay_writer, i64::MAX).await.unwrap());
        // Past it, the WAL starts over: as many writes again reuse the file instead of growing it.
        assert!(checkpoint(&store.pool, &store.relay_writer, 1).await.unwrap());
        for n in 50..100 {
            store.relay_write(&[message(n)], &[]).await.unwrap();
        }
        assert!(std::fs::metadata(&wal).unwrap().len() <= written);
        let stored = store.relay_pending(&topic, "did:key:zWallet", 2, 1_000).await.unwrap();
        assert_eq!(stored.len(), 100, "nothing was lost");
    }

    #[tokio::test]
    async fn an_old_mailbox_keeps_its_pending_messages() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        {
            let options = SqliteConnectOptions::from_str(&url).unwrap().create_if_missing(true);
            let pool = SqlitePool::connect_with(options).await.unwrap();
            let mut tx = pool.begin().await.unwrap();
            apply_migrations_until(&mut tx, crate::store::contract::OLD_MAILBOX_VERSION)
                .await
                .unwrap();
            for sql in crate::store::contract::OLD_MAILBOX {
                sqlx::query(sql).execute(&mut *tx).await.unwrap();
            }
            tx.commit().await.unwrap();
            pool.close().await;
        }
        let store = SqliteStore::open(&url).await.unwrap();
        crate::store::contract::old_mailbox_kept(&store).await;

        // An ack of a message already pruned (its id is below every stored one) goes at the next prune.
        let late = RelayAck {
            message_id: 0,
            client_id: "did:key:zLate".into(),
        };
        store.relay_write(&[], &[late]).await.unwrap();
        let late_acks = || {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM relay_acks WHERE client_id = 'did:key:zLate'")
                .fetch_one(&store.pool)
        };
        assert_eq!(late_acks().await.unwrap(), 1);
        assert_eq!(store.relay_prune(500).await.unwrap(), 0);
        assert_eq!(late_acks().await.unwrap(), 0);
    }
}
