//! The wallet catalogue (behaviour 2.4, 6.12 "Wallet catalogue service"): `GET /getWallets`
//! in the Explorer API's format, and the import the `latch catalogue` commands use.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::Json;
use latch_core::caip::CaipNetworkId;
use latch_core::catalogue::rank_match;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::{CatalogueStore, StoreResult, StoredWallet};
use crate::AppState;

/// How long a read catalogue is served before the store is read again.
const CATALOGUE_TTL: Duration = Duration::from_secs(5);
/// Default and largest page (behaviour 7.8: page size 40, search 100).
const DEFAULT_ENTRIES: usize = 40;
const MAX_ENTRIES: usize = 100;

/// A catalogue entry with the Explorer API's field names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Wallet {
    /// Catalogue id.
    pub id: String,
    /// Display name.
    pub name: String,
    #[serde(default)]
    pub homepage: Option<String>,
    #[serde(default)]
    pub image_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Listing order; smaller first.
    #[serde(default)]
    pub order: Option<i64>,
    #[serde(default)]
    pub mobile_link: Option<String>,
    #[serde(default)]
    pub desktop_link: Option<String>,
    #[serde(default)]
    pub webapp_link: Option<String>,
    #[serde(default)]
    pub link_mode: Option<String>,
    #[serde(default)]
    pub app_store: Option<String>,
    #[serde(default)]
    pub play_store: Option<String>,
    #[serde(default)]
    pub chrome_store: Option<String>,
    /// EIP-6963 reverse-DNS id.
    #[serde(default)]
    pub rdns: Option<String>,
    /// CAIP-2 ids the wallet supports.
    #[serde(default)]
    pub chains: Vec<String>,
    #[serde(default)]
    #[schema(value_type = Option<Vec<Object>>)]
    pub injected: Option<Vec<Value>>,
    #[serde(default)]
    pub badge_type: Option<String>,
    #[serde(default)]
    pub supports_wc: Option<bool>,
    #[serde(default)]
    pub description: Option<String>,
}

/// Why an entry could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    /// The file is not a catalogue in a known shape.
    #[error("not a wallet catalogue: {0}")]
    Format(String),
    /// One entry breaks a rule.
    #[error("wallet {index} ({id}): {reason}")]
    Entry {
        /// Position in the file.
        index: usize,
        /// Its id, as given.
        id: String,
        /// What is wrong.
        reason: String,
    },
}

impl Wallet {
    /// Checks the fields other parts rely on; `Err` says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let id_ok = (1..=128).contains(&self.id.len())
            && self
                .id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if !id_ok {
            return Err("id must be 1-128 of A-Z a-z 0-9 - _ .".into());
        }
        if self.name.trim().is_empty() || self.name.chars().count() > 100 {
            return Err("name must be 1-100 characters".into());
        }
        for chain in &self.chains {
            CaipNetworkId::parse(chain).map_err(|e| format!("chain {chain:?}: {e}"))?;
        }
        Ok(())
    }
}

/// Reads a catalogue in the Explorer API's shapes: `{"data": [...]}` (as
/// `/getWallets` answers), `{"listings": {id: entry}}` (the registry file),
/// or a plain array. Every entry is checked; one bad entry refuses the file.
pub fn parse_catalogue(text: &str) -> Result<Vec<Wallet>, CatalogueError> {
    let value: Value = serde_json::from_str(text).map_err(|e| CatalogueError::Format(e.to_string()))?;
    let entries = match value {
        Value::Array(entries) => entries,
        Value::Object(mut fields) => match (fields.remove("data"), fields.remove("listings")) {
            (Some(Value::Array(entries)), _) => entries,
            (_, Some(Value::Object(listings))) => listings.into_iter().map(|(_, entry)| entry).collect(),
            _ => {
                return Err(CatalogueError::Format(
                    "expected \"data\": [...] or \"listings\": {...}".into(),
                ))
            }
        },
        _ => return Err(CatalogueError::Format("expected an object or an array".into())),
    };
    entries
        .into_iter()
        .enumerate()
        .map(|(index, entry)| {
            let id = entry.get("id").and_then(Value::as_str).unwrap_or("?").to_owned();
            let wallet: Wallet = serde_json::from_value(entry).map_err(|e| CatalogueError::Entry {
                index,
                id: id.clone(),
                reason: e.to_string(),
            })?;
            wallet
                .check()
                .map_err(|reason| CatalogueError::Entry { index, id, reason })?;
            Ok(wallet)
        })
        .collect()
}

/// The stored form of `wallets`, positioned by `order` or else by their place in the list.
pub fn to_stored(wallets: &[Wallet]) -> Vec<StoredWallet> {
    wallets
        .iter()
        .enumerate()
        .map(|(index, wallet)| StoredWallet {
            id: wallet.id.clone(),
            name: wallet.name.clone(),
            position: wallet.order.unwrap_or(index as i64),
            data: serde_json::to_string(wallet).unwrap_or_default(),
        })
        .collect()
}

/// The wallets as read, and when.
type Snapshot = Option<(Arc<Vec<Wallet>>, Instant)>;

/// The catalogue read from the store, kept for [`CATALOGUE_TTL`].
#[derive(Clone)]
pub struct CatalogueCache {
    store: Arc<dyn CatalogueStore>,
    snapshot: Arc<RwLock<Snapshot>>,
}

impl CatalogueCache {
    /// A cache over `store`.
    pub fn new(store: Arc<dyn CatalogueStore>) -> Self {
        Self {
            store,
            snapshot: Arc::default(),
        }
    }

    async fn wallets(&self) -> StoreResult<Arc<Vec<Wallet>>> {
        if let Some((wallets, read)) = &*self.snapshot.read().unwrap_or_else(|e| e.into_inner()) {
            if read.elapsed() < CATALOGUE_TTL {
                return Ok(wallets.clone());
            }
        }
        // A stored entry that no longer parses is skipped rather than failing every listing.
        let wallets: Arc<Vec<Wallet>> = Arc::new(
            self.store
                .wallets()
                .await?
                .iter()
                .filter_map(|w| serde_json::from_str(&w.data).ok())
                .collect(),
        );
        *self.snapshot.write().unwrap_or_else(|e| e.into_inner()) = Some((wallets.clone(), Instant::now()));
        Ok(wallets)
    }
}

/// `GET /getWallets` parameters (all optional; lists are comma-separated).
#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct WalletsQuery {
    /// 1-based page.
    #[param(minimum = 1, maximum = 1_000_000)]
    page: Option<usize>,
    /// Entries per page, 1-100 (default 40).
    #[param(minimum = 1, maximum = 100)]
    entries: Option<usize>,
    /// Ranked: exact name, prefix, word prefix, substring, then fuzzy.
    search: Option<String>,
    badge_type: Option<String>,
    /// Only these ids.
    include: Option<String>,
    /// Not these ids.
    exclude: Option<String>,
    /// Wallets supporting any of these CAIP-2 chains.
    chains: Option<String>,
    /// Only these reverse-DNS ids.
    rdns: Option<String>,
    /// Only these names.
    names: Option<String>,
}

/// A page of the catalogue.
#[derive(Serialize, ToSchema)]
pub struct WalletPage {
    /// Matching wallets in all pages.
    pub count: usize,
    /// This page.
    pub data: Vec<Wallet>,
}

fn list(text: &Option<String>) -> Option<Vec<&str>> {
    text.as_deref()
        .map(|t| t.split(',').map(str::trim).filter(|s| !s.is_empty()).collect())
}

/// Filters, orders and pages `wallets` (already in catalogue order) for `query`;
/// `featured` ids lead an unsearched listing, in their configured order.
pub fn select(wallets: &[Wallet], query: &WalletsQuery, featured: &[String]) -> ApiResult<WalletPage> {
    let page = query.page.unwrap_or(1);
    let entries = query.entries.unwrap_or(DEFAULT_ENTRIES);
    if page == 0 || !(1..=MAX_ENTRIES).contains(&entries) {
        return Err(ApiError::bad(
            "entries",
            format!("page starts at 1 and entries is 1 to {MAX_ENTRIES}"),
        ));
    }
    let (include, exclude, chains, rdns, names) = (
        list(&query.include),
        list(&query.exclude),
        list(&query.chains),
        list(&query.rdns),
        list(&query.names),
    );
    let kept = wallets.iter().filter(|w| {
        include.as_ref().is_none_or(|ids| ids.contains(&w.id.as_str()))
            && exclude.as_ref().is_none_or(|ids| !ids.contains(&w.id.as_str()))
            && chains
                .as_ref()
                .is_none_or(|cs| w.chains.iter().any(|c| cs.contains(&c.as_str())))
            && rdns
                .as_ref()
                .is_none_or(|rs| w.rdns.as_deref().is_some_and(|r| rs.contains(&r)))
            && names
                .as_ref()
                .is_none_or(|ns| ns.iter().any(|n| n.eq_ignore_ascii_case(&w.name)))
            && query
                .badge_type
                .as_ref()
                .is_none_or(|b| w.badge_type.as_ref() == Some(b))
    });
    let mut ordered: Vec<&Wallet> = match query.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(search) => {
            let mut ranked: Vec<_> = kept
                .filter_map(|w| rank_match(search, &w.name).map(|rank| (rank, w)))
                .collect();
            // Stable: equal ranks keep catalogue order.
            ranked.sort_by_key(|(rank, _)| *rank);
            ranked.into_iter().map(|(_, w)| w).collect()
        }
        None => {
            let mut all: Vec<&Wallet> = kept.collect();
            all.sort_by_key(|w| featured.iter().position(|id| *id == w.id).unwrap_or(usize::MAX));
            all
        }
    };
    let count = ordered.len();
    let start = (page - 1).saturating_mul(entries).min(count);
    let data = ordered.drain(start..(start + entries).min(count)).cloned().collect();
    Ok(WalletPage { count, data })
}

/// `GET /getWallets`.
#[utoipa::path(get, path = "/getWallets", tag = "catalogue",
    params(WalletsQuery), security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = WalletPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn get_wallets(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(query): ApiQuery<WalletsQuery>,
) -> ApiResult<Json<WalletPage>> {
    let wallets = state
        .catalogue
        .wallets()
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    select(&wallets, &query, &state.config.featured_wallet_ids).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet(id: &str, name: &str) -> Wallet {
        serde_json::from_value(serde_json::json!({"id": id, "name": name, "chains": ["eip155:1"]})).unwrap()
    }

    fn catalogue() -> Vec<Wallet> {
        let mut rabby = wallet("rabby", "Rabby Wallet");
        rabby.rdns = Some("io.rabby".into());
        rabby.chains.push("eip155:10".into());
        let mut phantom = wallet("phantom", "Phantom");
        phantom.chains = vec!["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into()];
        phantom.badge_type = Some("certified".into());
        vec![
            wallet("mm", "MetaMask"),
            wallet("cb", "Coinbase Wallet"),
            rabby,
            phantom,
            wallet("rb", "Rainbow"),
        ]
    }

    fn ids(page: &WalletPage) -> Vec<&str> {
        page.data.iter().map(|w| w.id.as_str()).collect()
    }

    fn query(f: impl FnOnce(&mut WalletsQuery)) -> WalletsQuery {
        let mut q = WalletsQuery::default();
        f(&mut q);
        q
    }

    #[test]
    fn search_ranks_exact_prefix_then_fuzzy() {
        let all = catalogue();
        let page = select(&all, &query(|q| q.search = Some("ra".into())), &[]).unwrap();
        assert_eq!(ids(&page), ["rabby", "rb"], "prefix matches, in catalogue order");
        let page = select(&all, &query(|q| q.search = Some("wallet".into())), &[]).unwrap();
        assert_eq!(ids(&page), ["cb", "rabby"]);
        let page = select(&all, &query(|q| q.search = Some("mtmsk".into())), &[]).unwrap();
        assert_eq!(ids(&page), ["mm"]);
        let page = select(&all, &query(|q| q.search = Some("rainbow".into())), &[]).unwrap();
        assert_eq!(ids(&page), ["rb"]);
    }

    #[test]
    fn filters_featured_and_pages() {
        let all = catalogue();
        let chains = |c: &str| query(|q| q.chains = Some(c.into()));
        assert_eq!(ids(&select(&all, &chains("eip155:10"), &[]).unwrap()), ["rabby"]);
        assert_eq!(
            ids(&select(&all, &query(|q| q.rdns = Some("io.rabby".into())), &[]).unwrap()),
            ["rabby"]
        );
        assert_eq!(
            ids(&select(&all, &query(|q| q.names = Some("phantom, rainbow".into())), &[]).unwrap()),
            ["phantom", "rb"]
        );
        assert_eq!(
            ids(&select(&all, &query(|q| q.badge_type = Some("certified".into())), &[]).unwrap()),
            ["phantom"]
        );
        let both = query(|q| {
            q.include = Some("mm,cb,rb".into());
            q.exclude = Some("cb".into());
        });
        assert_eq!(ids(&select(&all, &both, &[]).unwrap()), ["mm", "rb"]);
        let featured = ["rb".to_owned(), "phantom".to_owned()];
        assert_eq!(
            ids(&select(&all, &WalletsQuery::default(), &featured).unwrap()),
            ["rb", "phantom", "mm", "cb", "rabby"]
        );
        let page2 = select(
            &all,
            &query(|q| {
                q.page = Some(2);
                q.entries = Some(2);
            }),
            &[],
        )
        .unwrap();
        assert_eq!((page2.count, ids(&page2)), (5, vec!["rabby", "phantom"]));
        let beyond = select(&all, &query(|q| q.page = Some(9)), &[]).unwrap();
        assert_eq!((beyond.count, beyond.data.len()), (5, 0));
        assert!(select(&all, &query(|q| q.entries = Some(0)), &[]).is_err());
        assert!(select(&all, &query(|q| q.page = Some(0)), &[]).is_err());
    }

    #[test]
    fn parses_the_explorer_shapes_and_refuses_bad_entries() {
        let data = r#"{"count": 1, "data": [{"id": "mm", "name": "MetaMask", "rdns": "io.metamask", "chains": ["eip155:1"]}]}"#;
        assert_eq!(parse_catalogue(data).unwrap()[0].rdns.as_deref(), Some("io.metamask"));
        let listings = r#"{"listings": {"x": {"id": "x", "name": "X"}}}"#;
        assert_eq!(parse_catalogue(listings).unwrap()[0].id, "x");
        assert_eq!(parse_catalogue(r#"[{"id": "y", "name": "Y"}]"#).unwrap().len(), 1);
        let bad_chain = r#"[{"id": "y", "name": "Y"}, {"id": "z", "name": "Z", "chains": ["nope"]}]"#;
        assert_eq!(
            parse_catalogue(bad_chain).unwrap_err().to_string(),
            "wallet 1 (z): chain \"nope\": Invalid CAIP-2 network id"
        );
        assert!(parse_catalogue(r#"[{"id": "a b", "name": "Y"}]"#).is_err());
        assert!(parse_catalogue(r#"[{"id": "a", "name": " "}]"#).is_err());
        assert!(parse_catalogue("{}").is_err());
        assert!(parse_catalogue("not json").is_err());
    }
}
