//! The public JSON-RPC endpoint (`POST /v1/`) and the chains it serves: the
//! HTTP side of [`crate::gateway::Gateway`], which decides what is forwarded.

use std::ops::Range;

use axum::body::Bytes;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::{Caller, QueryParts};
use crate::{openapi, AppState};

/// The gateway's query (`?chainId=…`; other parameters, `projectId` among them,
/// are not its business). Read in place on every call: the usual query, with
/// nothing escaped and `chainId` at most once, costs no allocation; any other
/// is read by serde_urlencoded as before, so percent-escapes, `+` and a repeated
/// `chainId` (400 "duplicate field") are answered as they always were.
#[derive(Debug)]
pub(crate) struct RpcQuery(ChainIdIn);

#[derive(Debug)]
enum ChainIdIn {
    /// In the request's query (the URI is shared, not copied), at this range.
    Query(Uri, Range<usize>),
    /// Decoded by serde_urlencoded, or absent.
    Decoded(Option<String>),
}

/// The query serde_urlencoded reads when reading in place would differ.
#[derive(Deserialize)]
struct DecodedQuery {
    #[serde(rename = "chainId")]
    chain_id: Option<String>,
}

/// A query whose `chainId` must be decoded to be read.
struct NeedsDecoding;

impl RpcQuery {
    /// `chainId`, if given.
    pub(crate) fn chain_id(&self) -> Option<&str> {
        match &self.0 {
            ChainIdIn::Query(uri, at) => uri.query().and_then(|query| query.get(at.clone())),
            ChainIdIn::Decoded(chain_id) => chain_id.as_deref(),
        }
    }
}

/// Where `chainId`'s value is in `query`, when reading it in place gives what
/// serde_urlencoded gives: pairs split at `&` (empty ones skipped) and at their
/// first `=` (none: an empty value), nothing percent-escaped or `+`, the key once.
fn locate_chain_id(query: &str) -> Result<Option<Range<usize>>, NeedsDecoding> {
    if query.bytes().any(|b| b == b'%' || b == b'+') {
        return Err(NeedsDecoding);
    }
    let mut found = None;
    for pair in QueryParts(Some(query)) {
        // No `=`: an empty value, at the pair's end.
        let (key, value) = pair.split_once('=').unwrap_or((pair, &pair[pair.len()..]));
        if key == "chainId" {
            if found.is_some() {
                return Err(NeedsDecoding);
            }
            // `value` is a slice of `query`: its place there.
            let start = value.as_ptr() as usize - query.as_ptr() as usize;
            found = Some(start..start + value.len());
        }
    }
    Ok(found)
}

impl<S: Send + Sync> FromRequestParts<S> for RpcQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match locate_chain_id(parts.uri.query().unwrap_or_default()) {
            Ok(Some(at)) => Ok(RpcQuery(ChainIdIn::Query(parts.uri.clone(), at))),
            Ok(None) => Ok(RpcQuery(ChainIdIn::Decoded(None))),
            Err(NeedsDecoding) => {
                let ApiQuery(query) = ApiQuery::<DecodedQuery>::from_request_parts(parts, state).await?;
                Ok(RpcQuery(ChainIdIn::Decoded(query.chain_id)))
            }
        }
    }
}

/// `POST /v1/?chainId=…&projectId=…`: the body is read as JSON whatever its
/// Content-Type, because clients send `text/plain` to avoid a CORS preflight.
#[utoipa::path(post, path = "/v1/", tag = "rpc",
    params(("chainId" = String, Query, description = "CAIP-2 id, e.g. eip155:1", pattern = "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$")), security(("project_id" = []), ("project_header" = [])),
    request_body(content = JsonRpcBody, description = "A JSON-RPC 2.0 request or a batch of up to 1000"),
    responses((status = 200, description = "The upstream's JSON-RPC answer", body = serde_json::Value),
        (status = 204, description = "Only notifications were sent: JSON-RPC answers nothing"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, description = "Origin not allowed, or a single call of a method the gateway does not forward (RPC_METHOD_NOT_ALLOWED)", body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub(crate) async fn rpc(
    State(state): State<AppState>,
    caller: Caller,
    query: RpcQuery,
    body: Bytes,
) -> ApiResult<Response> {
    answer(&state, &caller, &query, &body).await
}

/// The gateway's answer to `body` for `caller` (`POST /v1/` and the frame's `POST /v1/embedded/rpc`).
pub(crate) async fn answer(state: &AppState, caller: &Caller, query: &RpcQuery, body: &Bytes) -> ApiResult<Response> {
    let chain = state.gateway.chain(query.chain_id())?;
    let plan = state.gateway.plan(chain, body)?;
    // Every call of a batch counts against the rate limits, refused ones too.
    caller.charge(state, plan.len().saturating_sub(1)).await?;
    let reply = state.gateway.answer(chain, plan, body).await?;
    if reply.0.iter().all(u8::is_ascii_whitespace) {
        // Only notifications: JSON-RPC answers nothing at all, which HTTP says as 204.
        return Ok(axum::http::StatusCode::NO_CONTENT.into_response());
    }
    // Built directly: a static header value is not copied, and no other content type is set first.
    let mut response = Response::new(axum::body::Body::from(reply.0));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}

/// A JSON-RPC 2.0 request, as documented for `/openapi.json` (the gateway reads
/// any JSON and checks it itself; `params` may also be an object, `id` a string).
#[derive(ToSchema)]
#[allow(dead_code)]
pub(crate) struct JsonRpcRequest {
    #[schema(pattern = "^2\\.0$")]
    jsonrpc: String,
    #[schema(min_length = 1, example = "eth_blockNumber")]
    method: String,
    #[schema(nullable = false)]
    params: Option<Vec<serde_json::Value>>,
    #[schema(nullable = false)]
    id: Option<u64>,
}

/// One request or a batch of 1 to `max_batch` (1000 by default), as documented.
pub(crate) struct JsonRpcBody;

impl utoipa::PartialSchema for JsonRpcBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let single = utoipa::openapi::Ref::from_schema_name("JsonRpcRequest");
        let batch = openapi::bounded_list(
            "JsonRpcRequest",
            latch_core::constants::CONSTANTS.rpc.batch_size as usize,
        );
        utoipa::openapi::schema::OneOfBuilder::new()
            .item(single)
            .item(batch)
            .into()
    }
}

impl ToSchema for JsonRpcBody {}

/// The chains the gateway serves.
#[derive(Serialize, ToSchema)]
pub(crate) struct SupportedChains {
    /// CAIP-2 ids served over HTTP.
    pub http: Vec<String>,
    /// CAIP-2 ids served over WebSocket.
    pub ws: Vec<String>,
}

/// `GET /v1/supported-chains`.
#[utoipa::path(get, path = "/v1/supported-chains", tag = "rpc", security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SupportedChains), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(crate) async fn supported_chains(State(state): State<AppState>, _caller: Caller) -> impl IntoResponse {
    let http = state.gateway.chain_ids().map(String::from).collect();
    (
        [(header::CACHE_CONTROL, "public, max-age=60")],
        Json(SupportedChains {
            http,
            ws: state.gateway.ws_chain_ids().map(String::from).collect(),
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `chainId` read by hand, and as serde_urlencoded reads it.
    async fn both(query: &str) -> (Option<String>, Result<Option<String>, String>) {
        let uri: Uri = format!("/v1/?{query}").parse().unwrap();
        let decoded = axum::extract::Query::<DecodedQuery>::try_from_uri(&uri)
            .map(|q| q.0.chain_id)
            .map_err(|e| e.body_text());
        let (mut parts, ()) = axum::http::Request::builder().uri(uri).body(()).unwrap().into_parts();
        let ours = RpcQuery::from_request_parts(&mut parts, &())
            .await
            .map(|q| q.chain_id().map(str::to_owned));
        let ours = ours.map_err(|e| e.to_string());
        assert_eq!(ours, decoded, "{query}");
        (ours.ok().flatten(), decoded)
    }

    #[tokio::test]
    async fn chain_id_read_in_place_as_serde_urlencoded_reads_it() {
        for query in [
            "chainId=eip155:1&projectId=demo",
            "projectId=demo&chainId=eip155:1",
            "chainId=eip155%3A1",
            "chainId=a+b",
            "chainId",
            "chainId=",
            "&&chainId=x&&",
            "chainId=a=b",
            "chainIds=x&xchainId=y",
            "chainId=a&chainId=b",
            "chain%49d=x",
            "projectId=demo",
            "",
            "chainId=%ff",
        ] {
            let _ = both(query).await;
        }
        assert_eq!(
            both("chainId=eip155:1&projectId=demo").await.0.as_deref(),
            Some("eip155:1")
        );
        assert_eq!(both("chainId=eip155%3A1").await.0.as_deref(), Some("eip155:1"));
        assert!(both("chainId=a&chainId=b")
            .await
            .1
            .unwrap_err()
            .contains("duplicate field"));
        assert!(matches!(
            locate_chain_id("projectId=demo&chainId=eip155:1"),
            Ok(Some(range)) if range == (23..31)
        ));
    }

    proptest::proptest! {
        /// Any query made of the pieces that matter (keys, separators, escapes) reads
        /// the same in place as through serde_urlencoded (`both` asserts it).
        #[test]
        fn chain_id_in_place_agrees_with_serde_urlencoded(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "chainId", "=", "&", "%3A", "%", "+", "a", "eip155:1", "projectId", "%ff", "chain", "Id",
                ]),
                0..12,
            )
        ) {
            let query = pieces.concat();
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let _ = runtime.block_on(both(&query));
        }
    }
}
