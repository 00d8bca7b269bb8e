//! Storage behind one trait in domain terms, so SQLite (embedded default) and
//! Postgres (when scaled out) are interchangeable; chosen once from the URL scheme.

mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use serde::Serialize;

pub use sqlite::SqliteStore;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused or failed the operation.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The database URL names no backend this build has.
    #[error("unsupported database URL (expected sqlite://…): {0}")]
    UnsupportedUrl(String),
    /// A stored value could not be decoded; the database was edited by hand or is corrupt.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
}

/// Result of a storage operation.
pub type StoreResult<T> = Result<T, StoreError>;

/// A dapp allowed to use this `latch` (spec §5 "A project id is required").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    /// The `projectId` clients send.
    pub id: String,
    /// Origin patterns (see `latch_core::origin`) allowed to call with this id.
    pub allowed_origins: Vec<String>,
    /// Unix seconds.
    pub created_at: i64,
}

/// Everything `latch` persists.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Inserts or replaces a project.
    async fn put_project(&self, project: &Project) -> StoreResult<()>;
    /// The project with this id, if any.
    async fn project(&self, id: &str) -> StoreResult<Option<Project>>;
    /// All projects, by id.
    async fn projects(&self) -> StoreResult<Vec<Project>>;
    /// Removes a project; whether it existed.
    async fn remove_project(&self, id: &str) -> StoreResult<bool>;
}

/// Opens (creating and migrating if needed) the database `url` names.
pub async fn open(url: &str) -> StoreResult<Arc<dyn Store>> {
    if url.starts_with("sqlite:") {
        Ok(Arc::new(SqliteStore::open(url).await?))
    } else {
        Err(StoreError::UnsupportedUrl(
            url.split("://").next().unwrap_or_default().to_owned(),
        ))
    }
}

/// Whether `id` can be a project id: 1–64 of `[A-Za-z0-9_-]`.
pub fn is_valid_project_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}
