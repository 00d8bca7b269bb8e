//! The public JSON-RPC endpoint (`POST /v1/`) and the chains it serves: the
//! HTTP side of [`crate::gateway::Gateway`], which decides what is forwarded.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::{openapi, AppState};

#[derive(Deserialize)]
pub(crate) struct RpcQuery {
    #[serde(rename = "chainId")]
    pub(crate) chain_id: Option<String>,
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
    ApiQuery(query): ApiQuery<RpcQuery>,
    body: Bytes,
) -> ApiResult<Response> {
    answer(&state, &caller, query, &body).await
}

/// The gateway's answer to `body` for `caller` (`POST /v1/` and the frame's `POST /v1/embedded/rpc`).
pub(crate) async fn answer(state: &AppState, caller: &Caller, query: RpcQuery, body: &Bytes) -> ApiResult<Response> {
    let chain = state.gateway.chain(query.chain_id.as_deref())?;
    let plan = state.gateway.plan(chain, body)?;
    // Every call of a batch counts against the rate limits, refused ones too.
    caller.charge(state, plan.len().saturating_sub(1)).await?;
    let reply = state.gateway.answer(chain, plan, body).await?;
    if reply.0.iter().all(u8::is_ascii_whitespace) {
        // Only notifications: JSON-RPC answers nothing at all, which HTTP says as 204.
        return Ok(axum::http::StatusCode::NO_CONTENT.into_response());
    }
    Ok(([(header::CONTENT_TYPE, "application/json")], reply.0).into_response())
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
