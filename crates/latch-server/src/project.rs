//! Who is calling: every API call names a project (query `projectId` or header
//! `x-project-id`) and, from a browser, an `Origin` the project allows.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Uri};
use latch_core::origin::origin_allowed;

use crate::error::ApiError;
use crate::store::{is_valid_project_id, Project, Store, StoreResult};
use crate::AppState;

/// The project a request is made for, checked against the store and its allowlist.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The project.
    pub project: Project,
    /// The client's address, when known (the key of its per-IP budget).
    pub ip: Option<IpAddr>,
}

/// How long a looked-up project (or its absence) is trusted before the store
/// is asked again: every API call checks its project, so this keeps the
/// database off the hot path, while `latch project add|remove` (possibly on
/// another node) still takes effect within seconds.
pub const PROJECT_CACHE_TTL: Duration = Duration::from_secs(5);
/// Entries kept at most; past it the cache starts over (a flood of made-up
/// ids must not grow memory).
const PROJECT_CACHE_CAPACITY: usize = 10_000;

/// A project (or its absence) and when the store said so.
type CacheEntry = (Option<Project>, Instant);

/// Projects by id, read through a short-lived cache.
#[derive(Clone)]
pub struct ProjectDirectory {
    store: Arc<dyn Store>,
    cache: Arc<RwLock<HashMap<String, CacheEntry>>>,
}

impl ProjectDirectory {
    /// A directory over `store`.
    pub fn new(store: Arc<dyn Store>) -> Self {
        Self {
            store,
            cache: Arc::default(),
        }
    }

    /// The project `id`, from the cache when fresh.
    pub async fn get(&self, id: &str) -> StoreResult<Option<Project>> {
        let now = Instant::now();
        if let Some((project, fetched)) = self.cache.read().unwrap_or_else(|e| e.into_inner()).get(id) {
            if now.duration_since(*fetched) < PROJECT_CACHE_TTL {
                return Ok(project.clone());
            }
        }
        let project = self.store.project(id).await?;
        let mut cache = self.cache.write().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= PROJECT_CACHE_CAPACITY {
            cache.clear();
        }
        cache.insert(id.to_owned(), (project.clone(), now));
        Ok(project)
    }
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

fn project_id(parts: &Parts) -> Option<&str> {
    project_id_of(&parts.uri, &parts.headers)
}

/// The project a request names: query `projectId`, else header `x-project-id`.
pub(crate) fn project_id_of<'a>(uri: &'a Uri, headers: &'a HeaderMap) -> Option<&'a str> {
    let from_query = uri.query().and_then(|q| query_param(q, "projectId"));
    from_query.or_else(|| header_str(headers, "x-project-id"))
}

/// The client's address: the socket peer, or the first `X-Forwarded-For` hop
/// when a trusted proxy sets it.
fn client_ip(parts: &Parts, trust_forwarded_for: bool) -> Option<IpAddr> {
    let forwarded = trust_forwarded_for
        .then(|| header_str(&parts.headers, "x-forwarded-for"))
        .flatten()
        .and_then(|list| list.split(',').next())
        .and_then(|first| first.trim().parse().ok());
    forwarded.or_else(|| {
        parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip())
    })
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let id = project_id(parts)
            .filter(|id| is_valid_project_id(id))
            .ok_or(ApiError::InvalidProjectId)?;
        let project = state.projects.get(id).await.map_err(|e| ApiError::Internal(e.into()))?;
        let project = project.ok_or(ApiError::InvalidProjectId)?;
        let now = Instant::now();
        state
            .project_limiter
            .check(&project.id, now)
            .map_err(ApiError::RateLimited)?;
        let ip = client_ip(parts, state.config.trust_forwarded_for);
        if let Some(ip) = ip {
            state
                .ip_limiter
                .check(&ip.to_string(), now)
                .map_err(ApiError::RateLimited)?;
        }
        if let Some(origin) = header_str(&parts.headers, header::ORIGIN.as_str()) {
            if !origin_allowed(&project.allowed_origins, origin) {
                return Err(ApiError::OriginNotAllowed(origin.to_owned()));
            }
        }
        Ok(Caller { project, ip })
    }
}

impl Caller {
    /// Charges `extra` more requests to the project's and the client's budgets
    /// (a JSON-RPC batch of N calls costs N; extracting the caller took one).
    pub fn charge(&self, state: &AppState, extra: usize) -> Result<(), ApiError> {
        let extra = u32::try_from(extra).unwrap_or(u32::MAX);
        let now = Instant::now();
        state
            .project_limiter
            .check_n(&self.project.id, extra, now)
            .map_err(ApiError::RateLimited)?;
        if let Some(ip) = self.ip {
            state
                .ip_limiter
                .check_n(&ip.to_string(), extra, now)
                .map_err(ApiError::RateLimited)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    #[tokio::test]
    async fn directory_answers_from_its_cache_within_the_ttl() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(
            SqliteStore::open(&format!("sqlite://{}", dir.path().join("db").display()))
                .await
                .unwrap(),
        );
        let project = Project {
            id: "p".into(),
            allowed_origins: vec![],
            created_at: 0,
            analytics_enabled: true,
        };
        store.put_project(&project).await.unwrap();
        let directory = ProjectDirectory::new(store.clone());
        assert_eq!(directory.get("p").await.unwrap(), Some(project.clone()));
        assert_eq!(directory.get("ghost").await.unwrap(), None);
        // The store changes; the directory keeps its answers until they expire.
        store.remove_project("p").await.unwrap();
        store
            .put_project(&Project {
                id: "ghost".into(),
                ..project.clone()
            })
            .await
            .unwrap();
        assert_eq!(directory.get("p").await.unwrap(), Some(project));
        assert_eq!(directory.get("ghost").await.unwrap(), None);
        // A fresh directory (another node, or after the TTL) sees the store as it is.
        let fresh = ProjectDirectory::new(store);
        assert_eq!(fresh.get("p").await.unwrap(), None);
        assert!(fresh.get("ghost").await.unwrap().is_some());
    }

    #[test]
    fn query_params() {
        assert_eq!(
            query_param("chainId=eip155:1&projectId=demo", "projectId"),
            Some("demo")
        );
        assert_eq!(query_param("xprojectId=a", "projectId"), None);
        assert_eq!(query_param("projectIdx=a", "projectId"), None);
        assert_eq!(query_param("", "projectId"), None);
    }
}
