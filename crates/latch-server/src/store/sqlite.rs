use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::Row;

use super::{AnalyticsEvent, Project, Store, StoreError, StoreResult};

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

fn project_from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<Project> {
    let origins: String = row.try_get("allowed_origins")?;
    let allowed_origins =
        serde_json::from_str(&origins).map_err(|e| StoreError::Corrupt(format!("allowed_origins: {e}")))?;
    Ok(Project {
        id: row.try_get("id")?,
        allowed_origins,
        created_at: row.try_get("created_at")?,
        analytics_enabled: row.try_get("analytics_enabled")?,
    })
}

fn event_from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<AnalyticsEvent> {
    Ok(AnalyticsEvent {
        project_id: row.try_get("project_id")?,
        event_id: row.try_get("event_id")?,
        event: row.try_get("event")?,
        kind: row.try_get("kind")?,
        address: row.try_get("address")?,
        domain: row.try_get("domain")?,
        url: row.try_get("url")?,
        occurred_at: row.try_get("occurred_at")?,
        received_at: row.try_get("received_at")?,
        properties: row.try_get("properties")?,
    })
}

const PROJECT_COLUMNS: &str = "id, allowed_origins, created_at, analytics_enabled";

#[async_trait]
impl Store for SqliteStore {
    async fn put_project(&self, project: &Project) -> StoreResult<()> {
        let origins =
            serde_json::to_string(&project.allowed_origins).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        sqlx::query(
            "INSERT INTO projects (id, allowed_origins, created_at, analytics_enabled) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET allowed_origins = excluded.allowed_origins, analytics_enabled = excluded.analytics_enabled",
        )
        .bind(&project.id)
        .bind(origins)
        .bind(project.created_at)
        .bind(project.analytics_enabled)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn project(&self, id: &str) -> StoreResult<Option<Project>> {
        let row = sqlx::query(&format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(project_from_row).transpose()
    }

    async fn projects(&self) -> StoreResult<Vec<Project>> {
        let rows = sqlx::query(&format!("SELECT {PROJECT_COLUMNS} FROM projects ORDER BY id"))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(project_from_row).collect()
    }

    async fn remove_project(&self, id: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM projects WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn add_events(&self, events: &[AnalyticsEvent]) -> StoreResult<u64> {
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for event in events {
            let done = sqlx::query("INSERT INTO analytics_events (project_id, event_id, event, kind, address, domain, url, occurred_at, received_at, properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, event_id) DO NOTHING")
                .bind(&event.project_id)
                .bind(&event.event_id)
                .bind(&event.event)
                .bind(&event.kind)
                .bind(&event.address)
                .bind(&event.domain)
                .bind(&event.url)
                .bind(event.occurred_at)
                .bind(event.received_at)
                .bind(&event.properties)
                .execute(&mut *tx)
                .await?;
            added += done.rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    async fn events(&self, project_id: &str, since_ms: i64, limit: u32) -> StoreResult<Vec<AnalyticsEvent>> {
        let rows = sqlx::query(
            "SELECT project_id, event_id, event, kind, address, domain, url, occurred_at, received_at, properties
             FROM analytics_events WHERE project_id = ? AND occurred_at >= ? ORDER BY occurred_at, event_id LIMIT ?",
        )
        .bind(project_id)
        .bind(since_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_from_row).collect()
    }
}

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
