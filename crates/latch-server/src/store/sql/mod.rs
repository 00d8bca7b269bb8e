//! The SQL both backends share, a file per domain. SQLite accepts PostgreSQL's `$N` parameters,
//! and both keep JSON as text, so one body of queries serves both; the macro
//! only varies the pool and row types.

pub(super) mod catalogue;
pub(super) mod index;
pub(super) mod names;
pub(super) mod projects;
pub(super) mod siwx;

/// Implements [`super::Store`] for `$store` (with a `pool` field; its
/// [`super::RelayMailbox`] is the backend's own) whose rows are `$row` on
/// database `$db`, and `apply_migrations` for its `migrate`; `$dialect` names
/// the [`Step`] field of its migrations.
macro_rules! impl_sql_store {
    ($store:ty, $row:ty, $db:ty, $dialect:ident) => {
        /// Applies the [`MIGRATIONS`](super::migrations::MIGRATIONS) not yet applied, inside `tx`.
        async fn apply_migrations(tx: &mut sqlx::Transaction<'_, $db>) -> StoreResult<()> {
            apply_migrations_until(tx, super::migrations::MIGRATIONS.len()).await
        }

        /// Applies the migrations not yet applied up to schema version `until`
        /// (tests start from older schemas with it).
        async fn apply_migrations_until(tx: &mut sqlx::Transaction<'_, $db>, until: usize) -> StoreResult<()> {
            sqlx::query("CREATE TABLE IF NOT EXISTS latch_schema (version BIGINT NOT NULL)")
                .execute(&mut **tx)
                .await?;
            let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM latch_schema")
                .fetch_one(&mut **tx)
                .await?;
            for (version, step) in super::migrations::MIGRATIONS
                .iter()
                .enumerate()
                .take(until)
                .skip(applied as usize)
            {
                sqlx::query(step.$dialect).execute(&mut **tx).await?;
                sqlx::query("INSERT INTO latch_schema (version) VALUES ($1)")
                    .bind(version as i64 + 1)
                    .execute(&mut **tx)
                    .await?;
            }
            Ok(())
        }

        /// Brings `tx`'s database to the schema before the relay mailbox was keyed
        /// by message ids and fills it with the shared contract's old mailbox:
        /// where both backends' import tests start.
        #[cfg(test)]
        async fn write_old_mailbox(tx: &mut sqlx::Transaction<'_, $db>) -> StoreResult<()> {
            apply_migrations_until(tx, crate::store::contract::OLD_MAILBOX_VERSION).await?;
            for sql in crate::store::contract::OLD_MAILBOX {
                sqlx::query(sql).execute(&mut **tx).await?;
            }
            Ok(())
        }

        /// A message of the relay mailbox's tables (Postgres keeps its mailbox in them;
        /// SQLite reads them once, to move an older mailbox into its journal).
        pub(super) fn relay_message_from_row(row: &$row) -> StoreResult<RelayMessage> {
            Ok(RelayMessage {
                id: row.try_get("id")?,
                topic: row.try_get("topic")?,
                hash: row.try_get("hash")?,
                message: row.try_get("message")?,
                tag: row.try_get("tag")?,
                publisher: row.try_get("publisher")?,
                published_at: row.try_get("published_at")?,
                expires_at: row.try_get("expires_at")?,
            })
        }

        // Each domain's queries.
        super::sql::projects::impl_projects_store!($store, $row, $db);
        super::sql::catalogue::impl_catalogue_store!($store, $row, $db);
        super::sql::names::impl_names_store!($store, $row, $db);
        super::sql::index::impl_index_store!($store, $row, $db);
        super::sql::siwx::impl_siwx_store!($store, $row, $db);
    };
}

pub(super) use impl_sql_store;
