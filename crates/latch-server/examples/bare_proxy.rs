//! The floor the RPC gateway is measured against (issue 30, BENCHMARKS.md "RPC
//! gateway overhead"): the smallest proxy built from latch's own stack. axum's
//! `serve` (hyper's HTTP/1 server on tokio, TCP_NODELAY, mimalloc), the body read
//! whole as latch's `Bytes` extractor reads it, and hyper-util's pooled client over
//! the same rustls connector (`crate::upstream`) POSTing it to the upstream as
//! `application/json`; the upstream's body goes back as `application/json`. No
//! routing, checks, CORS, limits, request ids or metrics: what this costs per call
//! is what any forwarding proxy on this stack costs, and the rest of latch's cost
//! is latch's own.
//!
//! `bare_proxy <port> <upstream url> [--router]`: with `--router`, the same
//! forwarding is an axum handler (`State` and `Bytes` extractors) on a one-route
//! `Router` at `/v1/`: what axum's routing adds, still without latch's middleware.
//! Worker threads: `TOKIO_WORKER_THREADS` (tokio's default: one per core).
//! Run by `scripts/bench-gateway` (`BENCH_BARE=1`) and `scripts/bench-gateway-ir`.

use std::convert::Infallible;
use std::net::SocketAddr;

use anyhow::Context;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Router, ServiceExt};
use http_body_util::{BodyExt, Full};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The upstream client and where it sends; cloning shares the pool.
#[derive(Clone)]
struct Upstream {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    uri: Uri,
}

impl Upstream {
    fn new(url: &str) -> anyhow::Result<Self> {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new()).build(https);
        Ok(Self {
            client,
            uri: url.parse().context("upstream URL")?,
        })
    }

    /// POSTs `body` upstream; its 2xx answer's body, as latch answers it.
    async fn forward(&self, body: Bytes) -> Response {
        let mut request = hyper::Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.uri.clone();
        request
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let Ok(response) = self.client.request(request).await else {
            return StatusCode::BAD_GATEWAY.into_response();
        };
        if !response.status().is_success() {
            return StatusCode::BAD_GATEWAY.into_response();
        }
        match response.into_body().collect().await {
            Ok(body) => answer(body.to_bytes()),
            Err(_) => StatusCode::BAD_GATEWAY.into_response(),
        }
    }
}

fn answer(body: Bytes) -> Response {
    ([(CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response()
}

/// `--router`'s handler: axum's extractors read the body.
async fn routed(State(upstream): State<Upstream>, body: Bytes) -> Response {
    upstream.forward(body).await
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: bare_proxy <port> <upstream url> [--router]";
    let port: u16 = args.next().context(usage)?.parse().context(usage)?;
    let upstream = Upstream::new(&args.next().context(usage)?)?;
    let router = match args.next().as_deref() {
        None => false,
        Some("--router") => true,
        Some(_) => anyhow::bail!(usage),
    };
    // Like latch's runtime: multi-threaded, workers from TOKIO_WORKER_THREADS or one per core.
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        if router {
            let app = Router::new().route("/v1/", post(routed)).with_state(upstream);
            axum::serve(listener, app).await?;
        } else {
            let service = tower::service_fn(move |request: Request| {
                let upstream = upstream.clone();
                async move {
                    let body = match request.into_body().collect().await {
                        Ok(body) => body.to_bytes(),
                        Err(_) => return Ok::<_, Infallible>(StatusCode::BAD_REQUEST.into_response()),
                    };
                    Ok(upstream.forward(body).await)
                }
            });
            axum::serve(listener, service.into_make_service()).await?;
        }
        anyhow::Ok(())
    })
}
