//! A throw-away PostgreSQL database for tests: the store's unit tests and the security suite
//! (`tests/security/harness.rs` includes this file by path) share it.

/// An empty database named `{prefix}_{pid}` on the server `scripts/with-postgres` started
/// (`POSTGRES_TEST_URL`); its URL. Several servers given it are the nodes of one deployment.
/// None, said in one line, without that variable: a plain `cargo test` on a laptop has no
/// PostgreSQL (make test-rust and make test-security set it and check it was used).
pub(crate) async fn fresh_postgres_database(prefix: &str) -> Option<String> {
    let Ok(url) = std::env::var("POSTGRES_TEST_URL") else {
        eprintln!("{prefix}: NOT run against PostgreSQL: POSTGRES_TEST_URL is unset (scripts/with-postgres sets it)");
        return None;
    };
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    let name = format!("{prefix}_{}", std::process::id());
    for sql in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::query(&sql).execute(&admin).await.unwrap();
    }
    let (base, _) = url.rsplit_once('/').unwrap();
    Some(format!("{base}/{name}"))
}
