use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::Row;

use super::sql::impl_sql_store;
use super::{AnalyticsEvent, Project, Store, StoreError, StoreResult, StoredWallet};

/// Schema steps, applied once each in order; append, never edit.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins TEXT NOT NULL,
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
    "CREATE TABLE wallets (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        position BIGINT NOT NULL,
        data TEXT NOT NULL
    )",
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

impl_sql_store!(PostgresStore, PgRow);
