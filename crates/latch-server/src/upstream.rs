//! The gateway's HTTP client for chain upstreams: hyper-util's pooled HTTP/1
//! client over rustls, used directly. reqwest (kept for the server's other
//! outbound calls) wraps every request in layers the gateway does not need,
//! and re-parses the request URL into a `Url` for every response; on the
//! proxied hot path that was ~6 % of latch's CPU per call (BENCHMARKS.md, issue 30).
//!
//! What reqwest did for the gateway is kept: TLS with the webpki roots and
//! ring (the same rustls as reqwest's), TCP_NODELAY, a keep-alive pool, a
//! connect timeout and a total timeout, no environment proxy (this client
//! never reads one), and credentials in an upstream URL's user info sent as
//! Basic authorization.

use std::fmt;
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Method, Request, StatusCode, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::outbound::redact_url;

/// Why an upstream gave no usable answer. No variant carries the upstream's
/// URL: it holds API keys.
#[derive(Debug, thiserror::Error)]
pub(crate) enum UpstreamError {
    /// The configured URL cannot be sent to (named redacted).
    #[error("upstream {0} is not a usable http(s) URL")]
    BadUrl(String),
    /// The TLS setup failed (the crypto provider refused its defaults).
    #[error("TLS setup: {0}")]
    Tls(String),
    /// No connection, or the request could not be sent; the error chain.
    #[error("{0}")]
    Unreachable(String),
    /// The upstream answered with a status other than 2xx.
    #[error("status {0}")]
    Refused(StatusCode),
    /// The answer's body broke off; the error chain.
    #[error("{0}")]
    CutShort(String),
    /// No whole answer within the configured time.
    #[error("no answer within {0} ms")]
    TimedOut(u128),
    /// The answer's body ran past [`MAX_REPLY_BYTES`].
    #[error("reply larger than {MAX_REPLY_BYTES} bytes")]
    TooLarge,
}

/// The most of an upstream's answer read into memory. A JSON-RPC reply this large (a wide
/// `eth_getLogs`) is far past what a browser asks for; beyond it the upstream is treated as
/// failing rather than letting one answer hold the server's memory.
pub(crate) const MAX_REPLY_BYTES: usize = 32 * 1024 * 1024;

/// An upstream URL parsed once at start: the `Uri` sent to (user info taken
/// out) and the Basic authorization it stood for.
#[derive(Clone)]
pub(crate) struct Endpoint {
    uri: Uri,
    authorization: Option<HeaderValue>,
}

impl fmt::Debug for Endpoint {
    // The URI's path and query hold API keys: only scheme, host and port are shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = self.uri.scheme_str().unwrap_or("");
        let host = self.uri.authority().map_or("", |a| a.as_str());
        write!(f, "Endpoint({scheme}://{host})")
    }
}

impl Endpoint {
    /// Parses `url` (an http(s) URL, as configuration checks); host names are
    /// IDNA-encoded as a browser would.
    pub(crate) fn parse(url: &str) -> Result<Self, UpstreamError> {
        let bad = || UpstreamError::BadUrl(redact_url(url));
        let mut parsed = url::Url::parse(url).map_err(|_| bad())?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(bad());
        }
        let authorization = if parsed.username().is_empty() && parsed.password().is_none() {
            None
        } else {
            let decode = |part: &str| {
                percent_encoding::percent_decode_str(part)
                    .decode_utf8_lossy()
                    .into_owned()
            };
            let user = decode(parsed.username());
            let password = parsed.password().map(decode).unwrap_or_default();
            let mut value = HeaderValue::try_from(format!(
                "Basic {}",
                latch_core::base64::encode(format!("{user}:{password}").as_bytes())
            ))
            .map_err(|_| bad())?;
            // Never printed by hyper's or our Debug.
            value.set_sensitive(true);
            parsed.set_username("").map_err(|_| bad())?;
            parsed.set_password(None).map_err(|_| bad())?;
            Some(value)
        };
        // A fragment never travels in HTTP.
        parsed.set_fragment(None);
        let uri = Uri::try_from(String::from(parsed)).map_err(|_| bad())?;
        Ok(Self { uri, authorization })
    }
}

/// A pooled client for upstreams; cloning shares its pool.
#[derive(Clone)]
pub(crate) struct UpstreamClient {
    inner: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    timeout: Duration,
}

impl fmt::Debug for UpstreamClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UpstreamClient")
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// Longest wait for a connection, whatever the total timeout.
const MAX_CONNECT: Duration = Duration::from_secs(3);

impl UpstreamClient {
    /// A client whose every call (connecting, sending, reading the whole
    /// answer) ends within `timeout`, at most 3 s of it connecting.
    pub(crate) fn new(timeout: Duration) -> Result<Self, UpstreamError> {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        // JSON-RPC calls are one small write each: waiting for Nagle only adds latency.
        http.set_nodelay(true);
        http.set_connect_timeout(Some(timeout.min(MAX_CONNECT)));
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(|e| UpstreamError::Tls(e.to_string()))?
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let inner = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(https);
        Ok(Self { inner, timeout })
    }

    /// POSTs the JSON `body` to `endpoint` and returns the 2xx answer's body.
    pub(crate) async fn post_json(&self, endpoint: &Endpoint, body: Bytes) -> Result<Bytes, UpstreamError> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = endpoint.uri.clone();
        let headers = request.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(authorization) = &endpoint.authorization {
            headers.insert(AUTHORIZATION, authorization.clone());
        }
        let call = async {
            let response = self
                .inner
                .request(request)
                .await
                .map_err(|e| UpstreamError::Unreachable(chain_of(&e)))?;
            if !response.status().is_success() {
                return Err(UpstreamError::Refused(response.status()));
            }
            let body = Limited::new(response.into_body(), MAX_REPLY_BYTES)
                .collect()
                .await
                .map_err(|e| match e.downcast::<LengthLimitError>() {
                    Ok(_) => UpstreamError::TooLarge,
                    Err(e) => UpstreamError::CutShort(chain_of(&*e)),
                })?;
            Ok(body.to_bytes())
        };
        tokio::time::timeout(self.timeout, call)
            .await
            .unwrap_or(Err(UpstreamError::TimedOut(self.timeout.as_millis())))
    }
}

/// `error` and its sources, `: `-joined (hyper's own message alone says little,
/// e.g. "client error (Connect)"). None of them holds the request's URL.
fn chain_of(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_parse_once_without_user_info() {
        let plain = Endpoint::parse("https://rpc.example/v2/KEY?apikey=Q").unwrap();
        assert_eq!(plain.uri.to_string(), "https://rpc.example/v2/KEY?apikey=Q");
        assert!(plain.authorization.is_none());
        assert_eq!(format!("{plain:?}"), "Endpoint(https://rpc.example)");

        let with_user = Endpoint::parse("http://us%40er:p%3Ass@127.0.0.1:8545/#frag").unwrap();
        assert_eq!(with_user.uri.to_string(), "http://127.0.0.1:8545/");
        // base64("us@er:p:ss")
        assert_eq!(
            with_user.authorization.unwrap().to_str().unwrap(),
            "Basic dXNAZXI6cDpzcw=="
        );

        let idn = Endpoint::parse("https://bücher.example/rpc").unwrap();
        assert_eq!(idn.uri.host(), Some("xn--bcher-kva.example"));

        for bad in ["ftp://x.example/", "not a url SECRET", "http://"] {
            let error = Endpoint::parse(bad).unwrap_err().to_string();
            assert!(!error.contains("SECRET"), "{error}");
        }
    }
}
