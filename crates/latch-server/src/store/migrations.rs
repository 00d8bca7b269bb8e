//! The schema: SQL files per backend (`migrations/sqlite`, `migrations/postgres` in this
//! crate) that `sqlx::migrate!` embeds in the binary and runs in order, each once; sqlx
//! records them, with their checksums, in `_sqlx_migrations`. Add files, never edit one
//! (sqlx refuses a database whose applied file changed). Both folders hold the same
//! versions: a step only one backend needs is `SELECT 1` in the other's.
//!
//! Before these files, `latch` kept the steps in its source and counted those applied
//! in a `latch_schema` table (its step n is file n here). [`sqlite::adopt`] and
//! [`postgres::adopt`] record such a database's applied steps in sqlx's table, so
//! opening it upgrades it in place; `latch_schema` is left as it was.

use sqlx::migrate::Migrator;

/// SQLite's schema.
pub(super) static SQLITE: Migrator = sqlx::migrate!("migrations/sqlite");

/// PostgreSQL's schema.
pub(super) static POSTGRES: Migrator = sqlx::migrate!("migrations/postgres");

/// Defines module `$backend` with `adopt` (and the tests' `write_old_schema`) for database
/// `$db`, whose query `$table_count` counts the tables named `$1`, and its `$migrator` as `MIGRATOR`.
macro_rules! backend {
    ($backend:ident, $db:ty, $migrator:ident, $table_count:literal) => {
        pub(super) mod $backend {
            use sqlx::migrate::{Migrate, Migrator};

            #[cfg(test)]
            pub(in crate::store) use super::$migrator as MIGRATOR;

            use crate::store::{StoreError, StoreResult};

            /// Records in `_sqlx_migrations` the steps an older `latch` applied (counted in
            /// `latch_schema`) as `migrator`'s first files, with their checksums, unless sqlx's
            /// table is there already; inside `tx`, so a failure records none. Whether it did.
            pub(in crate::store) async fn adopt(
                tx: &mut sqlx::Transaction<'_, $db>,
                migrator: &Migrator,
            ) -> StoreResult<bool> {
                let mut exists = [false; 2];
                for (found, table) in exists.iter_mut().zip(["latch_schema", "_sqlx_migrations"]) {
                    let count: i64 = sqlx::query_scalar($table_count)
                        .bind(table)
                        .fetch_one(&mut **tx)
                        .await?;
                    *found = count > 0;
                }
                if exists != [true, false] {
                    return Ok(false);
                }
                let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM latch_schema")
                    .fetch_one(&mut **tx)
                    .await?;
                let known = migrator.iter().count();
                let applied = usize::try_from(applied).unwrap_or(usize::MAX);
                if applied > known {
                    return Err(StoreError::Corrupt(format!(
                        "latch_schema counts {applied} schema steps; this latch knows {known} (a newer latch made it)"
                    )));
                }
                tx.ensure_migrations_table().await?;
                for migration in migrator.iter().take(applied) {
                    sqlx::query(
                        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
                         VALUES ($1, $2, TRUE, $3, 0)",
                    )
                    .bind(migration.version)
                    .bind(&*migration.description)
                    .bind(&*migration.checksum)
                    .execute(&mut **tx)
                    .await?;
                }
                tracing::info!(
                    steps = applied,
                    "store: adopted the schema an older latch applied"
                );
                Ok(true)
            }

            /// Brings `tx`'s database to `migrator`'s first `until` files the way `latch`
            /// did before them (counting in `latch_schema`): where the upgrade tests start.
            #[cfg(test)]
            pub(in crate::store) async fn write_old_schema(
                tx: &mut sqlx::Transaction<'_, $db>,
                migrator: &Migrator,
                until: usize,
            ) -> StoreResult<()> {
                sqlx::query("CREATE TABLE IF NOT EXISTS latch_schema (version BIGINT NOT NULL)")
                    .execute(&mut **tx)
                    .await?;
                for migration in migrator.iter().take(until) {
                    sqlx::raw_sql(&migration.sql).execute(&mut **tx).await?;
                    sqlx::query("INSERT INTO latch_schema (version) VALUES ($1)")
                        .bind(migration.version)
                        .execute(&mut **tx)
                        .await?;
                }
                Ok(())
            }
        }
    };
}

backend!(
    sqlite,
    sqlx::Sqlite,
    SQLITE,
    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1"
);
backend!(
    postgres,
    sqlx::Postgres,
    POSTGRES,
    "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
);

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
    use sqlx::PgPool;

    use super::*;
    use crate::store::contract::fresh_postgres_database;
    use crate::store::{PostgresStore, Project, ProjectStore, SqliteStore};

    /// The project an old database holds before it is opened.
    const KEPT: &str =
        "INSERT INTO projects (id, allowed_origins, created_at) VALUES ('kept', '[\"https://a.org\"]', 7)";

    /// What opening a database an older `latch` left at some version must give: its
    /// project still there, and every file recorded once, with its checksum.
    async fn adopted(store: &dyn ProjectStore, recorded: Vec<(i64, Vec<u8>)>, migrator: &Migrator) {
        assert_eq!(
            store.project("kept").await.unwrap(),
            Some(Project {
                id: "kept".into(),
                allowed_origins: vec!["https://a.org".into()],
                created_at: 7,
                analytics_enabled: true,
            }),
            "the data stays"
        );
        let files: Vec<(i64, Vec<u8>)> = migrator.iter().map(|m| (m.version, m.checksum.to_vec())).collect();
        assert_eq!(recorded, files, "every file, recorded once");
    }

    const RECORDED: &str = "SELECT version, checksum FROM _sqlx_migrations WHERE success ORDER BY version";

    /// An SQLite database at `url` as an older `latch` left it at `version`, holding a project.
    async fn old_sqlite(url: &str, version: usize) -> SqlitePool {
        let options = SqliteConnectOptions::from_str(url).unwrap().create_if_missing(true);
        let pool = SqlitePool::connect_with(options).await.unwrap();
        let mut tx = pool.begin().await.unwrap();
        sqlite::write_old_schema(&mut tx, &SQLITE, version).await.unwrap();
        if version > 0 {
            sqlx::query(KEPT).execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
        pool
    }

    #[tokio::test]
    async fn sqlite_databases_of_older_latches_upgrade_in_place() {
        let known = SQLITE.iter().count();
        assert_eq!(
            SQLITE.iter().map(|m| m.version).collect::<Vec<_>>(),
            (1..=known as i64).collect::<Vec<_>>(),
            "file n is the old step n"
        );
        // The first schema, the one before the mailbox moved, one in the middle, the last.
        for version in [1, crate::store::contract::OLD_MAILBOX_VERSION, 33, known] {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("latch.db").display());
            let pool = old_sqlite(&url, version).await;
            // Opened twice: the second time, nothing is left to do.
            for _ in 0..2 {
                let store = SqliteStore::open(&url).await.unwrap();
                adopted(
                    &store,
                    sqlx::query_as(RECORDED).fetch_all(&pool).await.unwrap(),
                    &SQLITE,
                )
                .await;
            }
        }
    }

    /// Needs a server: `scripts/with-postgres` provides one (see `store::contract::postgres`).
    #[tokio::test]
    async fn postgres_databases_of_older_latches_upgrade_in_place() {
        let known = POSTGRES.iter().count();
        assert_eq!(
            POSTGRES
                .iter()
                .map(|m| (m.version, m.description.clone()))
                .collect::<Vec<_>>(),
            SQLITE
                .iter()
                .map(|m| (m.version, m.description.clone()))
                .collect::<Vec<_>>(),
            "both backends count the same steps"
        );
        for version in [1, known] {
            let Some(url) = fresh_postgres_database(&format!("latch_adopt_{version}")).await else {
                return;
            };
            let pool = PgPool::connect(&url).await.unwrap();
            let mut tx = pool.begin().await.unwrap();
            postgres::write_old_schema(&mut tx, &POSTGRES, version).await.unwrap();
            sqlx::query(KEPT).execute(&mut *tx).await.unwrap();
            tx.commit().await.unwrap();
            // Nodes starting together: one adopts, the others find it done.
            let (a, b) = tokio::join!(PostgresStore::open(&url), PostgresStore::open(&url));
            let (a, _b) = (a.unwrap(), b.unwrap());
            adopted(&a, sqlx::query_as(RECORDED).fetch_all(&pool).await.unwrap(), &POSTGRES).await;
            pool.close().await;
        }
    }

    #[tokio::test]
    async fn a_database_of_a_newer_latch_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let pool = old_sqlite(&url, SQLITE.iter().count()).await;
        sqlx::query("INSERT INTO latch_schema (version) VALUES (1000)")
            .execute(&pool)
            .await
            .unwrap();
        let error = SqliteStore::open(&url).await.err().unwrap();
        assert!(error.to_string().contains("a newer latch made it"), "{error}");
    }
}
