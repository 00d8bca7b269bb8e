use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::Row;

use super::embedded::impl_embedded_store;
use super::sql::impl_sql_store;
use super::{
    AnalyticsEvent, AnalyticsStore, CatalogueStore, IndexStore, NameRecord, NameStore, Project, ProjectStore,
    PurchaseStore, RelayAck, RelayMailbox, RelayMessage, SignInStore, SiwxNonce, SiwxRefresh, SiwxRotation,
    SiwxSession, StoreError, StoreResult, StoredImage, StoredWallet, Transfer,
};

/// Serialises adopting an older `latch`'s schema when several nodes start at once (any
/// fixed number works); sqlx's migrator then takes its own lock to run the files.
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
        super::migrations::postgres::adopt(&mut tx, &super::migrations::POSTGRES).await?;
        tx.commit().await?;
        super::migrations::POSTGRES.run(&self.pool).await?;
        Ok(())
    }
}

/// The relay mailbox: a row per message, de-duplicated by a unique (topic, hash)
/// index, and a row per ack; every node reads and writes the same rows.
#[async_trait]
impl RelayMailbox for PostgresStore {
    async fn relay_write(&self, messages: &[RelayMessage], acks: &[RelayAck]) -> StoreResult<Vec<Option<i64>>> {
        // Multi-row statements: a batch of thousands costs a few round trips.
        const ROWS: usize = 500;
        let mut tx = self.pool.begin().await?;
        let mut inserted = std::collections::HashMap::new();
        for chunk in messages.chunks(ROWS) {
            let mut insert = sqlx::QueryBuilder::<sqlx::Postgres>::new(
                "INSERT INTO relay_messages (topic, hash, message, tag, publisher, published_at, expires_at) ",
            );
            insert.push_values(chunk, |mut row, m| {
                row.push_bind(m.topic.as_str())
                    .push_bind(m.hash.as_str())
                    .push_bind(m.message.as_str())
                    .push_bind(m.tag)
                    .push_bind(m.publisher.as_str())
                    .push_bind(m.published_at)
                    .push_bind(m.expires_at);
            });
            insert.push(" ON CONFLICT (topic, hash) DO NOTHING RETURNING id, topic, hash");
            for row in insert.build().fetch_all(&mut *tx).await? {
                inserted.insert(
                    (row.try_get::<String, _>("topic")?, row.try_get::<String, _>("hash")?),
                    row.try_get::<i64, _>("id")?,
                );
            }
        }
        for chunk in acks.chunks(ROWS) {
            let mut insert =
                sqlx::QueryBuilder::<sqlx::Postgres>::new("INSERT INTO relay_acks (message_id, client_id) ");
            insert.push_values(chunk, |mut row, a| {
                row.push_bind(a.message_id).push_bind(a.client_id.as_str());
            });
            insert.push(" ON CONFLICT (message_id, client_id) DO NOTHING");
            insert.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        // The first of equal messages in the batch is the new one.
        Ok(messages
            .iter()
            .map(|m| inserted.remove(&(m.topic.clone(), m.hash.clone())))
            .collect())
    }

    async fn relay_pending(
        &self,
        topic: &str,
        client_id: &str,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<RelayMessage>> {
        let rows = sqlx::query(
            "SELECT id, topic, hash, message, tag, publisher, published_at, expires_at FROM relay_messages m
             WHERE m.topic = $1 AND m.expires_at > $2 AND m.publisher <> $3 AND NOT EXISTS
             (SELECT 1 FROM relay_acks a WHERE a.message_id = m.id AND a.client_id = $3)
             ORDER BY m.id LIMIT $4",
        )
        .bind(topic)
        .bind(now_ms)
        .bind(client_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(relay_message_from_row).collect()
    }

    async fn relay_prune(&self, now_ms: i64) -> StoreResult<u64> {
        // In chunks found by the expiry index: one long delete would hold back the
        // group commits that touch the same rows for as long as it takes.
        const CHUNK: i64 = 1000;
        let mut pruned = 0;
        loop {
            let mut tx = self.pool.begin().await?;
            sqlx::query(
                "DELETE FROM relay_acks WHERE message_id IN
                 (SELECT id FROM relay_messages WHERE expires_at <= $1 ORDER BY expires_at, id LIMIT $2)",
            )
            .bind(now_ms)
            .bind(CHUNK)
            .execute(&mut *tx)
            .await?;
            let done = sqlx::query(
                "DELETE FROM relay_messages WHERE id IN
                 (SELECT id FROM relay_messages WHERE expires_at <= $1 ORDER BY expires_at, id LIMIT $2)",
            )
            .bind(now_ms)
            .bind(CHUNK)
            .execute(&mut *tx)
            .await?;
            let last = done.rows_affected() < CHUNK as u64;
            if last {
                // And acks that came after their message was dropped: every id below the
                // oldest message left (ids are never reused, so these name no message).
                sqlx::query(
                    "DELETE FROM relay_acks WHERE message_id <
                     COALESCE((SELECT MIN(id) FROM relay_messages), 9223372036854775807)",
                )
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            pruned += done.rows_affected();
            if last {
                return Ok(pruned);
            }
        }
    }

    async fn relay_counts(
        &self,
        topics: &[String],
        publishers: &[String],
        now_ms: i64,
    ) -> StoreResult<(Vec<u64>, Vec<u64>)> {
        // One query per kind whatever the batch: counts grouped, then put in the callers' order.
        let count = |rows: Vec<(String, i64)>, names: &[String]| {
            let counts: std::collections::HashMap<String, i64> = rows.into_iter().collect();
            names
                .iter()
                .map(|n| counts.get(n).map_or(0, |c| u64::try_from(*c).unwrap_or(0)))
                .collect::<Vec<u64>>()
        };
        let by_topic: Vec<(String, i64)> = sqlx::query_as(
            "SELECT topic, COUNT(*) FROM relay_messages WHERE topic = ANY($1) AND expires_at > $2 GROUP BY topic",
        )
        .bind(topics)
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        let by_publisher: Vec<(String, i64)> = sqlx::query_as(
            "SELECT publisher, COUNT(*) FROM relay_messages WHERE publisher = ANY($1) AND expires_at > $2 GROUP BY publisher",
        )
        .bind(publishers)
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok((count(by_topic, topics), count(by_publisher, publishers)))
    }

    async fn relay_mailbox_size(&self, now_ms: i64) -> StoreResult<u64> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM relay_messages WHERE expires_at > $1")
            .bind(now_ms)
            .fetch_one(&self.pool)
            .await?;
        Ok(count.max(0) as u64)
    }
}

impl_sql_store!(PostgresStore, PgRow, sqlx::Postgres, postgres);
// Paths from inside the module the macro makes.
impl_embedded_store!(super::PostgresStore, sqlx::postgres::PgRow);

#[cfg(test)]
mod tests {
    use super::*;

    /// Needs a server: `scripts/with-postgres` provides one (see `store::contract::postgres`).
    #[tokio::test]
    async fn an_old_mailbox_keeps_its_pending_messages() {
        let Some(url) = crate::store::contract::fresh_postgres_database("latch_old_mailbox").await else {
            return;
        };
        {
            let pool = PgPool::connect(&url).await.unwrap();
            let mut tx = pool.begin().await.unwrap();
            write_old_mailbox(&mut tx).await.unwrap();
            tx.commit().await.unwrap();
            pool.close().await;
        }
        let store = PostgresStore::open(&url).await.unwrap();
        crate::store::contract::old_mailbox_kept(&store).await;
    }
}
