//! JSON-RPC over WebSocket (spec §7 Chain RPC, "WebSocket upgrade for
//! `eth_subscribe` passthrough"): `GET /v1/?chainId=…` upgraded to a WebSocket
//! is joined to one of the chain's `ws_upstreams`, so subscriptions
//! (`eth_subscribe` / `eth_unsubscribe` and their notifications) reach the client.
//!
//! Every client message is checked like an HTTP call (shape, batch size,
//! `eth_chainId` answered locally) before it goes upstream; a bad one is
//! answered with a JSON-RPC error and the connection stays open. The upstream
//! socket is opened before the upgrade, so "no upstream" is an HTTP 503 the
//! client can read rather than a socket that closes at once.

use std::time::Duration;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message as UpstreamMessage;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::error::{ApiError, ApiQuery, ApiResult};
use crate::gateway::{Chain, Gateway};
use crate::project::Caller;
use crate::{AppState, RpcQuery};

type Upstream = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Close code when the upstream goes away: "going away", so clients reconnect
/// (and re-subscribe: subscriptions live on the upstream connection).
const UPSTREAM_GONE: u16 = 1001;
/// Close code for a frame we do not accept (binary): "unsupported data".
const UNSUPPORTED_DATA: u16 = 1003;

/// `GET /v1/?chainId=…` with `Upgrade: websocket`.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(query): ApiQuery<RpcQuery>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|rejection| {
        ApiError::bad(
            "upgrade",
            format!("GET here opens a WebSocket ({rejection}); send JSON-RPC over HTTP with POST"),
        )
    })?;
    let chain = state.gateway.chain(query.chain_id.as_deref())?.clone();
    if chain.ws_upstreams.is_empty() {
        return Err(ApiError::bad(
            "chainId",
            format!("chain {} is served over HTTP only", chain.id),
        ));
    }
    let upstream = connect(&chain, Duration::from_millis(state.config.upstream_timeout_ms)).await?;
    let limit = state.config.max_body_bytes;
    Ok(upgrade
        .max_message_size(limit)
        .on_upgrade(move |client| relay(client, upstream, state.gateway.clone(), chain)))
}

/// The first of `chain`'s WebSocket upstreams that accepts within `timeout`.
async fn connect(chain: &Chain, timeout: Duration) -> ApiResult<Upstream> {
    for url in &chain.ws_upstreams {
        match tokio::time::timeout(timeout, tokio_tungstenite::connect_async(url.as_str())).await {
            Ok(Ok((socket, _))) => return Ok(socket),
            Ok(Err(error)) => {
                tracing::warn!(chain = %chain.id, upstream = %crate::outbound::redact_url(url), %error, "ws upstream unreachable")
            }
            Err(_) => {
                tracing::warn!(chain = %chain.id, upstream = %crate::outbound::redact_url(url), "ws upstream timed out")
            }
        }
    }
    Err(ApiError::UpstreamUnavailable(chain.id.to_string()))
}

/// The JSON-RPC error answer for a refused client message.
fn refusal(message: &str, error: &ApiError) -> String {
    let id = serde_json::from_str::<Value>(message)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(Value::Null);
    let code = match error {
        ApiError::UnprocessableBody(_) => -32700,
        _ => -32600,
    };
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": error.to_string()}}).to_string()
}

/// Pumps messages both ways until either side closes.
async fn relay(client: WebSocket, upstream: Upstream, gateway: std::sync::Arc<Gateway>, chain: Chain) {
    let (mut to_client, mut from_client) = client.split();
    let (mut to_upstream, mut from_upstream) = upstream.split();
    loop {
        tokio::select! {
            message = from_client.next() => match message {
                Some(Ok(Message::Text(text))) => match gateway.check(&chain, text.as_bytes()) {
                    Ok(None) => {
                        if to_upstream.send(UpstreamMessage::text(text.as_str())).await.is_err() {
                            break;
                        }
                    }
                    Ok(Some(answer)) => {
                        if to_client.send(Message::text(answer.to_string())).await.is_err() {
                            break;
                        }
                    }
                    Err(error) => {
                        if to_client.send(Message::text(refusal(&text, &error))).await.is_err() {
                            break;
                        }
                    }
                },
                Some(Ok(Message::Binary(_))) => {
                    let frame = CloseFrame { code: UNSUPPORTED_DATA, reason: "JSON-RPC is sent as text".into() };
                    let _ = to_client.send(Message::Close(Some(frame))).await;
                    break;
                }
                // Pings are answered by axum; pongs need nothing.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            message = from_upstream.next() => match message {
                Some(Ok(UpstreamMessage::Text(text))) => {
                    if to_client.send(Message::text(text.as_str())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(UpstreamMessage::Binary(_) | UpstreamMessage::Ping(_) | UpstreamMessage::Pong(_) | UpstreamMessage::Frame(_))) => {}
                Some(Ok(UpstreamMessage::Close(_)) | Err(_)) | None => {
                    let frame = CloseFrame { code: UPSTREAM_GONE, reason: "upstream closed".into() };
                    let _ = to_client.send(Message::Close(Some(frame))).await;
                    break;
                }
            },
        }
    }
    let _ = to_upstream.close().await;
}
