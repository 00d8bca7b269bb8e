use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::Row;

use super::{AnalyticsEvent, Project, Store, StoreResult};

/// Schema steps, applied once each in order; append, never edit.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins JSONB NOT NULL,
        created_at BIGINT NOT NULL
    )",
    "ALTER TABLE projects ADD COLUMN analytics_enabled BOOLEAN NOT NULL DEFAULT TRUE",
    "CREATE TABLE analytics_events (
        project_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        event TEXT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT,
        domain TEXT NOT NULL,
        url TEXT NOT NULL,
        occurred_at BIGINT NOT NULL,
        received_at BIGINT NOT NULL,
        properties TEXT,
        PRIMARY KEY (project_id, event_id)
    )",
    "CREATE INDEX analytics_events_by_time ON analytics_events (project_id, occurred_at)",
];

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
    let allowed_origins = row.try_get::<sqlx::types::Json<Vec<String>>, _>("allowed_origins")?.0;
    Ok(Project {
        id: row.try_get("id")?,
        allowed_origins,
        created_at: row.try_get("created_at")?,
        analytics_enabled: row.try_get("analytics_enabled")?,
    })
}

fn event_from_row(row: &PgRow) -> StoreResult<AnalyticsEvent> {
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
impl Store for PostgresStore {
    async fn put_project(&self, project: &Project) -> StoreResult<()> {
        let origins = sqlx::types::Json(&project.allowed_origins);
        sqlx::query(
            "INSERT INTO projects (id, allowed_origins, created_at, analytics_enabled) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET allowed_origins = EXCLUDED.allowed_origins, analytics_enabled = EXCLUDED.analytics_enabled",
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
        let row = sqlx::query(&format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE id = $1"))
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
        let done = sqlx::query("DELETE FROM projects WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    async fn add_events(&self, events: &[AnalyticsEvent]) -> StoreResult<u64> {
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for event in events {
            let done = sqlx::query("INSERT INTO analytics_events (project_id, event_id, event, kind, address, domain, url, occurred_at, received_at, properties) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (project_id, event_id) DO NOTHING")
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
             FROM analytics_events WHERE project_id = $1 AND occurred_at >= $2 ORDER BY occurred_at, event_id LIMIT $3",
        )
        .bind(project_id)
        .bind(since_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_from_row).collect()
    }
}
