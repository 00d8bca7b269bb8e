use std::str::FromStr;

use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};
use sqlx::Row;

use super::{Project, Store, StoreError, StoreResult};

/// Schema steps, applied once each in order; append, never edit.
const MIGRATIONS: &[&str] = &["CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins TEXT NOT NULL,
        created_at INTEGER NOT NULL
    )"];

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
    Ok(Project {
        id: row.try_get("id")?,
        allowed_origins: serde_json::from_str(&origins)
            .map_err(|e| StoreError::Corrupt(format!("allowed_origins: {e}")))?,
        created_at: row.try_get("created_at")?,
    })
}

#[async_trait]
impl Store for SqliteStore {
    async fn put_project(&self, project: &Project) -> StoreResult<()> {
        let origins =
            serde_json::to_string(&project.allowed_origins).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        sqlx::query(
            "INSERT INTO projects (id, allowed_origins, created_at) VALUES (?, ?, ?)
             ON CONFLICT(id) DO UPDATE SET allowed_origins = excluded.allowed_origins",
        )
        .bind(&project.id)
        .bind(origins)
        .bind(project.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn project(&self, id: &str) -> StoreResult<Option<Project>> {
        let row = sqlx::query("SELECT id, allowed_origins, created_at FROM projects WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(project_from_row).transpose()
    }

    async fn projects(&self) -> StoreResult<Vec<Project>> {
        let rows = sqlx::query("SELECT id, allowed_origins, created_at FROM projects ORDER BY id")
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
