use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::Row;

use super::sql::impl_sql_store;
use super::{AnalyticsEvent, Project, Store, StoreError, StoreResult, StoredWallet};

/// Schema steps, applied once each in order; append, never edit.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins TEXT NOT NULL,
        created_at INTEGER NOT NULL
    )",
    "ALTER TABLE projects ADD COLUMN analytics_enabled INTEGER NOT NULL DEFAULT 1",
    "CREATE TABLE analytics_events (
        project_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        event TEXT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT,
        domain TEXT NOT NULL,
        url TEXT NOT NULL,
        occurred_at INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        properties TEXT,
        PRIMARY KEY (project_id, event_id)
    )",
    "CREATE INDEX analytics_events_by_time ON analytics_events (project_id, occurred_at)",
    "CREATE TABLE wallets (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        data TEXT NOT NULL
    )",
];

/// The embedded default store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens `sqlite://path` (created with its parent folder if missing) and migrates it.
    pub async fn open(url: &str) -> StoreResult<Self> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true);
        if let Some(parent) = options.get_filename().parent() {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
            }
        }
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        let store = Self { pool };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("CREATE TABLE IF NOT EXISTS latch_schema (version INTEGER NOT NULL)")
            .execute(&mut *tx)
            .await?;
        let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM latch_schema")
            .fetch_one(&mut *tx)
            .await?;
        for (version, sql) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
            sqlx::query(sql).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO latch_schema (version) VALUES (?)")
                .bind(version as i64 + 1)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

impl_sql_store!(SqliteStore, sqlx::sqlite::SqliteRow);

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
}
