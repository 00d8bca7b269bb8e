use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::Row;

use super::{Project, Store, StoreResult};

/// Schema steps, applied once each in order; append, never edit.
const MIGRATIONS: &[&str] = &["CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins JSONB NOT NULL,
        created_at BIGINT NOT NULL
    )"];

/// Serialises migrations when several nodes start at once (any fixed number works).
const MIGRATION_LOCK: i64 = 0x006c_6174_6368;

/// The store for scaled-out deployments: several `latch` nodes share it.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
}

impl PostgresStore {
    /// Connects to `postgres://…` and migrates the schema.
    pub async fn open(url: &str) -> StoreResult<Self> {
        let pool = PgPoolOptions::new().max_connections(16).connect(url).await?;
        let store = Self { pool };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(MIGRATION_LOCK)
            .execute(&mut *tx)
            .await?;
        sqlx::query("CREATE TABLE IF NOT EXISTS latch_schema (version BIGINT NOT NULL)")
            .execute(&mut *tx)
            .await?;
        let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM latch_schema")
            .fetch_one(&mut *tx)
            .await?;
        for (version, sql) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
            sqlx::query(sql).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO latch_schema (version) VALUES ($1)")
                .bind(version as i64 + 1)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

fn project_from_row(row: &PgRow) -> StoreResult<Project> {
    let origins: sqlx::types::Json<Vec<String>> = row.try_get("allowed_origins")?;
    Ok(Project {
        id: row.try_get("id")?,
        allowed_origins: origins.0,
        created_at: row.try_get("created_at")?,
    })
}

#[async_trait]
impl Store for PostgresStore {
    async fn put_project(&self, project: &Project) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO projects (id, allowed_origins, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET allowed_origins = EXCLUDED.allowed_origins",
        )
        .bind(&project.id)
        .bind(sqlx::types::Json(&project.allowed_origins))
        .bind(project.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn project(&self, id: &str) -> StoreResult<Option<Project>> {
        let row = sqlx::query("SELECT id, allowed_origins, created_at FROM projects WHERE id = $1")
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
        let done = sqlx::query("DELETE FROM projects WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
