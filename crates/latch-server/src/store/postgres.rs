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
    /// The relay's group commits share the pool (Postgres caches pages server-side).
    relay_writer: PgPool,
}

impl PostgresStore {
    /// Connects to `postgres://…` and migrates the schema.
    pub async fn open(url: &str) -> StoreResult<Self> {
        let pool = PgPoolOptions::new().max_connections(16).connect(url).await?;
        let store = Self {
            relay_writer: pool.clone(),
            pool,
        };
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

impl_sql_store!(PostgresStore, PgRow, sqlx::Postgres, postgres);

#[cfg(test)]
mod tests {
    use super::*;

    /// Needs a server: `scripts/with-postgres` provides one (see `store::contract::postgres`).
    #[tokio::test]
    async fn an_old_mailbox_keeps_its_pending_messages() {
        let url = crate::store::contract::fresh_postgres_database("latch_old_mailbox").await;
        {
            let pool = PgPool::connect(&url).await.unwrap();
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
        let store = PostgresStore::open(&url).await.unwrap();
        crate::store::contract::old_mailbox_kept(&store).await;
    }
}
