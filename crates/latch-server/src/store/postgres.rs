use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::Row;

use super::sql::impl_sql_store;
use super::{
    AnalyticsEvent, NameRecord, Project, RelayAck, RelayMessage, SiwxNonce, SiwxSession, Store, StoreError,
    StoreResult, StoredImage, StoredWallet, Transfer,
};

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
        apply_migrations(&mut tx).await?;
        tx.commit().await?;
        Ok(())
    }
}

impl_sql_store!(PostgresStore, PgRow, sqlx::Postgres);
