//! Request body limits per route (`config.body_limits`), answered in our JSON
//! error body: 413 `PAYLOAD_TOO_LARGE`. A body is refused from its
//! `Content-Length` before it is read, and a chunked one as soon as it passes
//! the limit, so a large upload costs at most the limit in memory.

use std::future::Future;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::config::Config;
use crate::error::ApiError;
use crate::AppState;

/// The largest body of routes whose bodies are a few short fields.
pub(crate) const FEW_FIELDS_BYTES: usize = 16 * 1024;

/// Routes whose bodies are a few short fields: an on-ramp checkout form or quote question, a
/// swap to build, a CCIP-Read lookup (a DNS name of at most 255 bytes and one resolver call).
fn takes_few_fields(path: &str) -> bool {
    path.starts_with("/v1/onramp/")
        || path == "/v1/generators/onrampurl"
        || path.starts_with("/onramp/")
        || path.starts_with("/v1/convert/")
        || path == "/ccip"
}

/// The largest body `path` accepts under `config`.
pub(crate) fn limit_for(config: &Config, path: &str) -> usize {
    let limits = &config.body_limits;
    match path {
        "/v1" | "/v1/" | "/v1/embedded/rpc" => limits.rpc,
        "/e" => limits.event,
        "/batch" => limits.event_batch,
        _ if path.starts_with("/v1/siwx/") => limits.sign_in,
        // Login requests and a wallet's shares and envelopes (2 KiB each): a few KiB.
        _ if path.starts_with("/v1/embedded/") => FEW_FIELDS_BYTES,
        _ if takes_few_fields(path) => config.max_body_bytes.min(FEW_FIELDS_BYTES),
        _ => config.max_body_bytes,
    }
}

/// The middleware: limits the body of every request by its route.
pub(crate) async fn limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    limited(&state.config, request, |request| next.run(request)).await
}

/// [`limit`] around `next` (the rest of a middleware that does more than this).
pub(crate) async fn limited<F: Future<Output = Response>>(
    config: &Config,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response {
    let limit = limit_for(config, request.uri().path());
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return ApiError::PayloadTooLarge(limit).into_response();
    }
    let request = request.map(|body| Body::new(http_body_util::Limited::new(body, limit)));
    let response = next(request).await;
    // A body that passed the limit while being read is refused by the extractor
    // in axum's plain text; clients read our JSON body everywhere.
    let ours = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE && !ours {
        return ApiError::PayloadTooLarge(limit).into_response();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_by_route() {
        let config = Config::default();
        let limits = config.body_limits;
        assert_eq!(limit_for(&config, "/v1/"), limits.rpc);
        assert_eq!(limit_for(&config, "/v1"), limits.rpc);
        assert_eq!(limit_for(&config, "/v1/embedded/rpc"), limits.rpc);
        assert_eq!(limit_for(&config, "/e"), limits.event);
        assert_eq!(limit_for(&config, "/batch"), limits.event_batch);
        assert_eq!(limit_for(&config, "/v1/siwx/verify"), limits.sign_in);
        assert_eq!(limit_for(&config, "/v1/siwx/sessions/a/revoke"), limits.sign_in);
        assert_eq!(limit_for(&config, "/v1/profile/account"), config.max_body_bytes);
        for few in [
            "/v1/onramp/quote",
            "/v1/generators/onrampurl",
            "/onramp/sandbox/confirm",
            "/v1/convert/build-transaction",
            "/ccip",
        ] {
            assert_eq!(limit_for(&config, few), FEW_FIELDS_BYTES, "{few}");
        }
        assert_eq!(
            (limits.rpc, limits.event, limits.event_batch, limits.sign_in),
            (1 << 20, 64 << 10, 512 << 10, 16 << 10)
        );
    }
}
