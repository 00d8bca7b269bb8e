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
/// database `$db`; `$dialect` names its module of [`super::migrations`].
macro_rules! impl_sql_store {
    ($store:ty, $row:ty, $db:ty, $dialect:ident) => {
        /// Brings `tx`'s database to the schema before the relay mailbox was keyed
        /// by message ids and fills it with the shared contract's old mailbox:
        /// where both backends' import tests start.
        #[cfg(test)]
        async fn write_old_mailbox(tx: &mut sqlx::Transaction<'_, $db>) -> StoreResult<()> {
            let migrator = &super::migrations::$dialect::MIGRATOR;
            super::migrations::$dialect::write_old_schema(tx, migrator, crate::store::contract::OLD_MAILBOX_VERSION)
                .await?;
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
