//! Who is calling: every API call names a project (query `projectId` or header
//! `x-project-id`) and, from a browser, an `Origin` the project allows.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderName, Uri};
use latch_core::origin::origin_allowed;

use crate::error::ApiError;
use crate::ratelimit::{Cidr, IpKey};
use crate::store::{is_valid_project_id, Project, ProjectStore, StoreResult};
use crate::AppState;

/// The project a request is made for, checked against the store and its allowlist.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The project (shared with the directory's cache: reading it copies nothing).
    pub project: Arc<Project>,
    /// The client's address, when known (the key of its per-IP budget).
    pub ip: Option<IpAddr>,
}

/// How long a looked-up project (or its absence) is trusted before the store
/// is asked again: every API call checks its project, so this keeps the
/// database off the hot path, while `latch project add|remove` (possibly on
/// another node) still takes effect within seconds.
pub(crate) const PROJECT_CACHE_TTL: Duration = Duration::from_secs(5);
/// Known projects kept at most (they are created by the operator, so this is
/// only reached by a very large deployment; then the known cache starts over).
const PROJECT_CACHE_CAPACITY: usize = 10_000;
/// Unknown ids remembered at most. Kept apart from the known projects, so a
/// flood of made-up ids only ever flushes other made-up ids.
const UNKNOWN_CACHE_CAPACITY: usize = 4_096;

/// The caches' maps, looked up on every API call: foldhash (seeded per process,
/// as the relay journal's maps) costs a fraction of the standard SipHash on a short id.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A known project and when it was read from the store.
type Cached = (Arc<Project>, Instant);

/// Projects by id, read through a short-lived cache.
#[derive(Clone)]
pub struct ProjectDirectory {
    store: Arc<dyn ProjectStore>,
    known: Arc<RwLock<FastMap<String, Cached>>>,
    unknown: Arc<RwLock<FastMap<String, Instant>>>,
    ttl: Duration,
}

impl ProjectDirectory {
    /// A directory over `store`, its answers kept [`PROJECT_CACHE_TTL`].
    pub fn new(store: Arc<dyn ProjectStore>) -> Self {
        Self::with_ttl(store, PROJECT_CACHE_TTL)
    }

    /// A directory whose answers are kept `ttl` (tests that must not race the clock).
    fn with_ttl(store: Arc<dyn ProjectStore>, ttl: Duration) -> Self {
        Self {
            store,
            known: Arc::default(),
            unknown: Arc::default(),
            ttl,
        }
    }

    /// The project `id`, from the cache when fresh.
    pub async fn get(&self, id: &str) -> StoreResult<Option<Arc<Project>>> {
        let now = Instant::now();
        let fresh = |fetched: &Instant| now.saturating_duration_since(*fetched) < self.ttl;
        if let Some((project, _)) = read(&self.known).get(id).filter(|(_, fetched)| fresh(fetched)) {
            return Ok(Some(project.clone()));
        }
        if read(&self.unknown).get(id).is_some_and(fresh) {
            return Ok(None);
        }
        let project = self.store.project(id).await?.map(Arc::new);
        match &project {
            Some(project) => {
                write(&self.unknown).remove(id);
                let mut known = write(&self.known);
                if known.len() >= PROJECT_CACHE_CAPACITY && !known.contains_key(id) {
                    known.clear();
                }
                known.insert(id.to_owned(), (project.clone(), now));
            }
            None => {
                write(&self.known).remove(id);
                let mut unknown = write(&self.unknown);
                if unknown.len() >= UNKNOWN_CACHE_CAPACITY {
                    unknown.clear();
                }
                unknown.insert(id.to_owned(), now);
            }
        }
        Ok(project)
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    QueryParts(Some(query)).find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// A query's `&`-separated parts, found byte by byte (every request reads one:
/// a byte search is cheaper than `str::split`'s; `&` is ASCII, so every part is whole UTF-8).
pub(crate) struct QueryParts<'a>(pub(crate) Option<&'a str>);

impl<'a> Iterator for QueryParts<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.0?;
        match rest.bytes().position(|b| b == b'&') {
            Some(at) => {
                self.0 = rest.get(at + 1..);
                rest.get(..at)
            }
            None => {
                self.0 = None;
                Some(rest)
            }
        }
    }
}

/// The header naming a request's project when its query does not.
const PROJECT_HEADER: HeaderName = HeaderName::from_static("x-project-id");

fn project_id(parts: &Parts) -> Option<&str> {
    project_id_of(&parts.uri, &parts.headers)
}

/// The project a request names: query `projectId`, else header `x-project-id`.
pub(crate) fn project_id_of<'a>(uri: &'a Uri, headers: &'a HeaderMap) -> Option<&'a str> {
    let from_query = uri.query().and_then(|q| query_param(q, "projectId"));
    from_query.or_else(|| header_str(headers, &PROJECT_HEADER))
}

/// Most `X-Forwarded-For` hops walked: a longer chain is cut (from the left,
/// the client's side), so a long header costs nothing.
const MAX_FORWARDED_HOPS: usize = 16;

/// The client's address. The socket `peer` is the client unless it is one of
/// the `trusted` proxies: then `X-Forwarded-For` is read from the right (each
/// proxy appends the address it was called from), skipping trusted hops, and
/// the first untrusted hop is the client. Hops to the left of it were written
/// by the client itself and are ignored.
pub(crate) fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|range| range.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    // Several headers are one list, in order.
    let headers: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let hops = headers
        .iter()
        .rev()
        .flat_map(|h| h.rsplit(','))
        .take(MAX_FORWARDED_HOPS);
    let mut client = peer;
    for hop in hops {
        // A hop that is not an address ends the walk: nothing left of it can be vouched for.
        let Ok(ip) = hop.trim().parse::<IpAddr>() else { break };
        client = ip;
        if !is_trusted(ip) {
            break;
        }
    }
    client
}

fn header_str<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The client's address (see [`client_ip`]); without a socket peer (a
/// router called in-process), the unspecified address.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client of a request that came over a socket (`None` in-process).
    fn of(parts: &Parts, trusted: &[Cidr]) -> Option<Self> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>()?.0.ip();
        Some(ClientIp(client_ip(peer, &parts.headers, trusted)))
    }
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(ClientIp::of(parts, &state.config.trusted_proxies).unwrap_or(ClientIp(IpAddr::V4(Ipv4Addr::UNSPECIFIED))))
    }
}

/// A caller of a public route that names no project (the CCIP-Read gateway, the sandbox
/// checkout page): only the client's per-IP budget applies, charged on extraction.
#[derive(Debug, Clone, Copy)]
pub struct Visitor {
    /// The client's address, when known (`None` in-process).
    pub ip: Option<IpAddr>,
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // A router called in-process, without a socket, has no client to limit.
        let ip = ClientIp::of(parts, &state.config.trusted_proxies).map(|ClientIp(ip)| ip);
        if let Some(ip) = ip {
            state
                .ip_limiter
                .check(&IpKey::of(ip))
                .await
                .map_err(ApiError::RateLimited)?;
        }
        Ok(Visitor { ip })
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Caller::of(parts, state, None).await
    }
}

impl Caller {
    /// The caller of a request, whose `Origin` may be the project's or `also_allowed`
    /// (the embedded wallet's frame, which serves every project from its own origin).
    pub(crate) async fn of(parts: &mut Parts, state: &AppState, also_allowed: Option<&str>) -> Result<Self, ApiError> {
        // The client's budget first: a client over it is stopped before it
        // costs a lookup or charges the project's budget, whatever id it names.
        let Visitor { ip } = Visitor::from_request_parts(parts, state).await?;
        let id = project_id(parts)
            .filter(|id| is_valid_project_id(id))
            .ok_or(ApiError::InvalidProjectId)?;
        let project = state.projects.get(id).await.map_err(|e| ApiError::Internal(e.into()))?;
        let project = project.ok_or(ApiError::InvalidProjectId)?;
        state
            .project_limiter
            .check(project.id.as_str())
            .await
            .map_err(ApiError::RateLimited)?;
        if let Some(origin) = header_str(&parts.headers, &header::ORIGIN) {
            if !origin_allowed(&project.allowed_origins, origin) && also_allowed != Some(origin) {
                return Err(ApiError::OriginNotAllowed(origin.to_owned()));
            }
        }
        Ok(Caller { project, ip })
    }
}

impl Caller {
    /// Charges `extra` more requests to the client's and the project's budgets
    /// (a JSON-RPC batch of N calls costs N; extracting the caller took one).
    pub async fn charge(&self, state: &AppState, extra: usize) -> Result<(), ApiError> {
        let extra = u32::try_from(extra).unwrap_or(u32::MAX);
        if let Some(ip) = self.ip {
            state
                .ip_limiter
                .check_n(&IpKey::of(ip), extra)
                .await
                .map_err(ApiError::RateLimited)?;
        }
        state
            .project_limiter
            .check_n(self.project.id.as_str(), extra)
            .await
            .map_err(ApiError::RateLimited)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{SqliteStore, Store};

    /// A store on a fresh SQLite file holding the project `id`.
    async fn store_with_project(id: &str) -> (Arc<dyn Store>, Project, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(
            SqliteStore::open(&format!("sqlite://{}", dir.path().join("db").display()))
                .await
                .unwrap(),
        );
        let project = Project {
            id: id.into(),
            allowed_origins: vec![],
            created_at: 0,
            analytics_enabled: true,
        };
        store.put_project(&project).await.unwrap();
        (store, project, dir)
    }

    #[tokio::test]
    async fn directory_answers_from_its_cache_within_the_ttl() {
        let (store, project, _dir) = store_with_project("p").await;
        let directory = ProjectDirectory::new(store.clone());
        assert_eq!(directory.get("p").await.unwrap(), Some(Arc::new(project.clone())));
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
        assert_eq!(directory.get("p").await.unwrap(), Some(Arc::new(project)));
        assert_eq!(directory.get("ghost").await.unwrap(), None);
        // A fresh directory (another node, or after the TTL) sees the store as it is.
        let fresh = ProjectDirectory::new(store);
        assert_eq!(fresh.get("p").await.unwrap(), None);
        assert!(fresh.get("ghost").await.unwrap().is_some());
    }

    #[tokio::test]
    async fn made_up_ids_never_evict_known_projects() {
        let (store, project, _dir) = store_with_project("real").await;
        // 14,096 lookups can outlast the 5 s TTL on a loaded machine: an hour here.
        let directory = ProjectDirectory::with_ttl(store.clone(), Duration::from_secs(3600));
        assert!(directory.get("real").await.unwrap().is_some());
        // Removed from the store: only the cache still knows it, so a flush would show.
        store.remove_project("real").await.unwrap();
        for i in 0..(PROJECT_CACHE_CAPACITY + UNKNOWN_CACHE_CAPACITY) {
            assert_eq!(directory.get(&format!("fake-{i}")).await.unwrap(), None);
        }
        assert_eq!(directory.get("real").await.unwrap(), Some(Arc::new(project)));
        assert!(read(&directory.unknown).len() <= UNKNOWN_CACHE_CAPACITY);
    }

    #[test]
    fn forwarded_for_is_read_from_the_right_through_trusted_proxies_only() {
        let trusted: Vec<Cidr> = vec!["10.0.0.0/8".parse().unwrap(), "192.0.2.1".parse().unwrap()];
        let headers = |values: &[&str]| {
            let mut map = HeaderMap::new();
            for v in values {
                map.append("x-forwarded-for", v.parse().unwrap());
            }
            map
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let forged = headers(&["1.1.1.1"]);
        assert_eq!(
            client_ip(ip("203.0.113.9"), &forged, &trusted),
            ip("203.0.113.9"),
            "untrusted peer"
        );
        assert_eq!(client_ip(ip("203.0.113.9"), &forged, &[]), ip("203.0.113.9"));
        // The client wrote 1.1.1.1; the proxy appended the address it saw.
        let chain = headers(&["1.1.1.1, 198.51.100.7, 10.1.1.1"]);
        assert_eq!(client_ip(ip("192.0.2.1"), &chain, &trusted), ip("198.51.100.7"));
        let split = headers(&["1.1.1.1", "198.51.100.7", "10.1.1.1"]);
        assert_eq!(client_ip(ip("10.2.2.2"), &split, &trusted), ip("198.51.100.7"));
        assert_eq!(
            client_ip(ip("10.2.2.2"), &headers(&[]), &trusted),
            ip("10.2.2.2"),
            "no header"
        );
        assert_eq!(
            client_ip(ip("10.2.2.2"), &headers(&["garbage, 10.3.3.3"]), &trusted),
            ip("10.3.3.3"),
            "a hop that is not an address stops the walk"
        );
        let long = format!("198.51.100.7{}", ", 10.0.0.1".repeat(100));
        assert_eq!(
            client_ip(ip("10.2.2.2"), &headers(&[&long]), &trusted),
            ip("10.0.0.1"),
            "a walk is bounded"
        );
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
        assert_eq!(query_param("&&projectId=b&", "projectId"), Some("b"));
        assert_eq!(query_param("projectId=a&projectId=b", "projectId"), Some("a"));
        assert_eq!(query_param("a=é&projectId=ü", "projectId"), Some("ü"));
        assert_eq!(QueryParts(Some("a&&b=1&")).collect::<Vec<_>>(), ["a", "", "b=1", ""]);
    }
}
