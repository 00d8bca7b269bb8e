use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::Row;

use super::sql::impl_sql_store;
use super::{
    AnalyticsEvent, NameRecord, Project, RelayMessage, Store, StoreError, StoreResult, StoredImage, StoredWallet,
    Transfer,
};

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
        apply_migrations(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl_sql_store!(SqliteStore, sqlx::sqlite::SqliteRow, sqlx::Sqlite);

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
