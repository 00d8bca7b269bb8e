//! `latch`: the self-hosted service that answers every backend call the Latch
//! modal makes. `main.rs` only reads configuration and serves [`app`].
//!
//! Architecture invariant: this is the only crate that speaks HTTP or touches
//! a database; every rule it applies comes from `latch-core`.

pub(crate) mod analytics;
pub(crate) mod body_limit;
pub mod catalogue;
pub(crate) mod ccip;
pub mod chaindata;
pub mod config;
pub mod convert;
pub(crate) mod cors;
pub(crate) mod dashboard;
pub mod embedded;
pub(crate) mod error;
pub(crate) mod gateway;
pub mod images;
pub mod indexer;
pub(crate) mod metrics;
pub(crate) mod names;
pub mod onramp;
pub mod openapi;
pub mod outbound;
pub(crate) mod project;
pub mod ratelimit;
pub mod relay;
pub(crate) mod routes;
pub(crate) mod rpc;
pub mod server;
pub(crate) mod shard;
pub mod signatures;
pub mod siwx;
pub mod startup;
pub mod store;
pub(crate) mod subscriptions;
pub(crate) mod upstream;

/// Unix milliseconds now: the server's one reading of the wall clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

use std::fmt::Write as _;
use std::sync::Arc;

use axum::http::{HeaderValue, Request};
use axum::middleware;
use axum::routing::{any, get, post};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

use crate::catalogue::CatalogueCache;
use crate::metrics::Metrics;

use crate::config::Config;
use crate::error::ApiError;
use crate::gateway::Gateway;
use crate::project::ProjectDirectory;
use crate::ratelimit::{IpKey, RateLimiter, SharedLimiter};
use crate::store::Store;

/// What every handler shares. One `Arc`, because axum clones the state for
/// every request and every `from_fn_with_state` layer.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// The services behind [`AppState`].
pub struct Services {
    /// The configuration `latch` started with.
    pub config: Arc<Config>,
    /// Persistent state.
    pub store: Arc<dyn Store>,
    /// The chain RPC gateway.
    pub gateway: Arc<Gateway>,
    /// Projects, cached for the per-request check.
    pub projects: ProjectDirectory,
    /// Per-project request budget (shared by the nodes through Redis when configured).
    pub project_limiter: Arc<SharedLimiter<String>>,
    /// Per-client-IP request budget (IPv6 per /64; shared like the project's).
    pub ip_limiter: Arc<SharedLimiter<IpKey>>,
    /// Failed admin tokens per client IP (see [`dashboard::ADMIN_FAILURES`]).
    pub admin_failures: Arc<RateLimiter<IpKey>>,
    /// Request counters and latencies for `/metrics`.
    pub metrics: Metrics,
    /// The wallet catalogue, cached for `/getWallets`.
    pub catalogue: CatalogueCache,
    /// Balances, prices and identities read from the chains.
    pub chain_data: Arc<chaindata::ChainData>,
    /// The WalletConnect-compatible relay at `/relay`.
    pub relay: Arc<relay::Relay>,
    /// Buying crypto: the configured providers and the sandbox.
    pub onramp: Arc<onramp::Onramp>,
    /// Swap markets and their caches (`/v1/convert/*`).
    pub convert: Arc<convert::Convert>,
    /// Embedded-wallet login: its mailer (`/v1/embedded/*`).
    pub embedded: Arc<embedded::Embedded>,
}

/// Request ids: a per-process prefix (start time) and a counter, so ids are
/// unique across restarts without a random source.
#[derive(Clone)]
struct RequestIds {
    prefix: String,
    next: Arc<std::sync::atomic::AtomicU64>,
}

impl Default for RequestIds {
    fn default() -> Self {
        Self {
            prefix: format!("{:x}", now_ms()),
            next: Arc::default(),
        }
    }
}

/// The header request ids travel in.
const REQUEST_ID: axum::http::HeaderName = axum::http::HeaderName::from_static("x-request-id");

/// A request's id, as its span names it.
fn request_id_of<B>(request: &Request<B>) -> &str {
    request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-")
}

/// Ids a thread takes from the shared counter at once: one shared atomic bumped by
/// every request on every core would bounce its cache line between them.
const REQUEST_ID_BLOCK: u64 = 1024;

impl MakeRequestId for RequestIds {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        thread_local! {
            /// The next id of this thread's block and the block's end.
            static BLOCK: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
        }
        let n = BLOCK.with(|block| {
            let (mut next, mut end) = block.get();
            if next == end {
                next = self
                    .next
                    .fetch_add(REQUEST_ID_BLOCK, std::sync::atomic::Ordering::Relaxed);
                end = next + REQUEST_ID_BLOCK;
            }
            block.set((next + 1, end));
            next
        });
        // Written into one buffer and shared, not copied: the request's header, its
        // extension and the response's header (PropagateRequestId) are that buffer.
        let mut id = bytes::BytesMut::with_capacity(40);
        write!(id, "{}-{n}", self.prefix).ok()?;
        HeaderValue::from_maybe_shared(id.freeze()).ok().map(RequestId::new)
    }
}

impl AppState {
    /// Starts an indexer for each configured chain (in the background, for the life of the process).
    pub fn spawn_indexers(&self) {
        for chain in &self.config.index_chains {
            let indexer = indexer::Indexer::new(
                self.gateway.clone(),
                self.store.clone(),
                chain.clone(),
                self.config.index_confirmations,
                self.config.index_batch,
            )
            .starting_at(self.config.index_start)
            .with_metrics(self.metrics.clone());
            indexer.spawn(std::time::Duration::from_millis(self.config.index_poll_ms));
        }
    }

    /// Opens the store and builds the gateway for `config`.
    pub async fn new(config: Config) -> anyhow::Result<Self> {
        let store = store::open_with(&config.database_url(), config.relay.journal_shards()).await?;
        let gateway = Arc::new(Gateway::new(&config)?);
        let projects = ProjectDirectory::new(store.clone());
        let catalogue = CatalogueCache::new(store.clone());
        let chain_data = Arc::new(chaindata::ChainData::new(&config, gateway.clone())?);
        let convert = Arc::new(convert::Convert::new(&config)?);
        let (project_limiter, ip_limiter) = match &config.redis_url {
            Some(url) => (
                SharedLimiter::redis("project", config.project_rate_limit, &url.0).await?,
                SharedLimiter::redis("ip", config.ip_rate_limit, &url.0).await?,
            ),
            None => (
                SharedLimiter::local("project", config.project_rate_limit),
                SharedLimiter::local("ip", config.ip_rate_limit),
            ),
        };
        let (project_limiter, ip_limiter) = (Arc::new(project_limiter), Arc::new(ip_limiter));
        let admin_failures = Arc::new(RateLimiter::new(dashboard::ADMIN_FAILURES));
        let metrics = Metrics::default();
        let relay = Arc::new(
            relay::Relay::new(
                &config,
                config.redis_url.as_ref().map(|url| url.0.as_str()),
                store.clone(),
                metrics.relay().clone(),
            )
            .await?,
        );
        let onramp = Arc::new(onramp::Onramp::new(&config, gateway.clone(), chain_data.clone())?);
        siwx::spawn_pruning(store.clone(), config.siwx.clone());
        embedded::spawn_pruning(store.clone());
        let embedded = Arc::new(embedded::Embedded::new(&config)?);
        Ok(Self(Arc::new(Services {
            config: Arc::new(config),
            store,
            gateway,
            projects,
            project_limiter,
            ip_limiter,
            admin_failures,
            metrics,
            catalogue,
            chain_data,
            relay,
            onramp,
            convert,
            embedded,
        })))
    }
}

/// Every route `app` serves (static files and the JSON 404s aside).
fn api_routes(state: &AppState) -> routes::Routes {
    routes::Routes::new()
        .route("/v1", post(rpc::rpc).get(subscriptions::upgrade))
        .route("/v1/", post(rpc::rpc).get(subscriptions::upgrade))
        .route("/v1/supported-chains", get(rpc::supported_chains))
        .route("/v1/account/{address}/balance", get(chaindata::balances::balance))
        .route("/v1/fungible/price", post(chaindata::balances::price))
        .route("/v1/identity/{address}", get(chaindata::identity::identity))
        .route("/v1/account/{address}/history", get(chaindata::history::history))
        .route("/v1/account/{address}/nfts", get(chaindata::nfts::nfts))
        .route("/v1/convert/tokens", get(convert::tokens))
        .route("/v1/convert/quotes", get(convert::quotes))
        .route("/v1/convert/allowance", get(convert::allowance))
        .route("/v1/convert/gas-price", get(convert::gas_price))
        .route("/v1/convert/build-approve", get(convert::build_approve))
        .route("/v1/convert/build-transaction", post(convert::build_transaction))
        .route("/v1/profile/account", post(names::register))
        .route("/v1/profile/account/{name}", get(names::lookup))
        .route("/v1/profile/reverse/{address}", get(names::reverse))
        .route("/v1/profile/suggestions/{name}", get(names::suggestions))
        .route("/ccip", post(ccip::post_lookup))
        .route("/ccip/{sender}/{data}", get(ccip::get_lookup))
        .route("/v1/onramp/options", get(onramp::options))
        .route("/v1/onramp/quote", post(onramp::quote))
        .route("/v1/generators/onrampurl", post(onramp::onramp_url))
        .route("/onramp/sandbox", get(onramp::sandbox::checkout))
        .route("/onramp/sandbox/confirm", post(onramp::sandbox::confirm))
        .merge(siwx::routes())
        .merge(embedded::routes(state.config.dev))
        .route("/relay", get(relay::upgrade))
        .merge(metrics_on_api(state))
        .route("/openapi.json", get(openapi::serve))
        .route("/e", post(analytics::event))
        .route("/batch", post(analytics::batch))
        .route("/getAnalyticsConfig", get(analytics::config))
        .route("/getWallets", get(catalogue::get_wallets))
        .route("/getWalletImage/{id}", get(images::wallet_image))
        .route("/public/getAssetImage/{id}", get(images::asset_image))
        .route("/public/getCurrencyImage/{id}", get(images::currency_image))
        .route("/public/getTokenImage/{id}", get(images::token_image))
        .route("/dashboard", get(dashboard::page))
        .route("/v1/analytics/summary", get(dashboard::summary))
        .route("/v1/analytics/projects", get(dashboard::projects))
}

/// The paths `app(state)` routes, as registered (`{param}` placeholders and all): what the
/// OpenAPI test compares with `/openapi.json`.
pub fn served_paths(state: &AppState) -> Vec<&'static str> {
    api_routes(state).paths().to_vec()
}

/// The whole HTTP surface.
pub fn app(state: AppState) -> Router {
    let api = api_routes(&state)
        .into_router()
        // Unknown API paths answer JSON even when a web app is served at `/`.
        .route("/v1/{*rest}", any(|| async { ApiError::NotFound }))
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .fallback(|| async { ApiError::NotFound });
    let router = match &state.config.static_dir {
        // Unknown paths fall through to the app's index.html (client-side routing). Files with a
        // `.br` / `.gz` sibling (the demo's build writes them) go out compressed to clients that
        // accept it: the wasm module is a third of its size in Brotli.
        Some(dir) => api.fallback_service(
            ServeDir::new(dir).precompressed_br().precompressed_gzip().fallback(
                ServeFile::new(dir.join("index.html"))
                    .precompressed_br()
                    .precompressed_gzip(),
            ),
        ),
        None => api,
    };
    // One stack, outermost first, wrapped around each route once: every
    // `Router::layer` boxes each route anew, and a boxed service is cloned and
    // its future boxed on every request, so seven separate layers cost seven times that.
    let stack = ServiceBuilder::new()
        .layer(SetRequestIdLayer::x_request_id(RequestIds::default()))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
            // The fields are read only when the span is recorded (not at the default log level).
            tracing::info_span!("request", method = %request.method(), uri = %request.uri(), request_id = %request_id_of(request))
        }))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(middleware::from_fn_with_state(state.clone(), edge))
        // Our per-route limit replaces axum's default (2 MiB) on extractors.
        .layer(axum::extract::DefaultBodyLimit::disable());
    router.layer(stack).with_state(state)
}

/// CORS, then metrics, then the body limit, as one middleware: each `from_fn`
/// layer boxes the service it wraps and its future again on every request.
async fn edge(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    cors::cors(&state, request, |request| {
        metrics::track(&state.metrics, request, |request| {
            body_limit::limited(&state.config, request, |request| next.run(request))
        })
    })
    .await
}

/// `/metrics` on the API's port: not when it has its own address, and without
/// a token only when the API listens on loopback (route names and counts are
/// nobody else's business).
fn metrics_on_api(state: &AppState) -> routes::Routes {
    let config = &state.config;
    let exposed = config.metrics_address.is_none() && (config.metrics_token.is_some() || config.host.is_loopback());
    if exposed {
        routes::Routes::new().route("/metrics", metrics_method(state))
    } else {
        routes::Routes::new()
    }
}

/// `/metrics` alone, for `metrics_address` (with `metrics_token` required when set).
pub fn metrics_app<S: Clone + Send + Sync + 'static>(state: &AppState) -> Router<S> {
    Router::new().route("/metrics", metrics_method(state))
}

/// `GET /metrics` with its own state (the counters and the token), for any router's state.
fn metrics_method<S: Clone + Send + Sync + 'static>(state: &AppState) -> axum::routing::MethodRouter<S> {
    let access = metrics::Access {
        metrics: state.metrics.clone(),
        token: state.config.metrics_token.clone(),
    };
    get(metrics::serve).with_state(access)
}
