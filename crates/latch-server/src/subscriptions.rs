//! JSON-RPC over WebSocket (behaviour 6.15 Chain RPC, "WebSocket upgrade for
//! `eth_subscribe` passthrough"): `GET /v1/?chainId=…` upgraded to a WebSocket
//! is joined to one of the chain's `ws_upstreams`, so subscriptions
//! (`eth_subscribe` / `eth_unsubscribe` and their notifications) reach the client.
//!
//! Every client message is checked like an HTTP call (shape, batch size,
//! the chain's method policy, `eth_chainId` answered locally) before it goes
//! upstream; a bad or refused one is answered with a JSON-RPC error and the
//! connection stays open. The upstream socket is opened before the upgrade, so
//! "no upstream" is an HTTP 503 the client can read rather than a socket that
//! closes at once.
//!
//! Each socket holds an upstream connection, so each is bounded
//! (`config.rpc_ws`): open sockets per client IP (429 `TOO_MANY_SOCKETS` at the
//! upgrade), message size (close 1009), requests per second (JSON-RPC error
//! -32005), open subscriptions (JSON-RPC error -32005), and idleness (close
//! 1000 after `idle_timeout_secs` without a request while holding no
//! subscription, or without any frame, pongs included).

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use std::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message as UpstreamMessage;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use latch_core::policy::{is_subscribe_method, is_unsubscribe_method};
use serde_json::value::RawValue;

use crate::config::RpcWsConfig;
use crate::error::{ApiError, ApiResult};
use crate::gateway::{rpc_error, Chain, Gateway, Outcome, Plan};
use crate::project::Caller;
use crate::ratelimit::RateLimiter;
use crate::rpc::RpcQuery;
use crate::AppState;

type Upstream = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Close code when the upstream goes away: "going away", so clients reconnect
/// (and re-subscribe: subscriptions live on the upstream connection).
const UPSTREAM_GONE: u16 = 1001;
/// Close code for a frame we do not accept (binary): "unsupported data".
const UNSUPPORTED_DATA: u16 = 1003;
/// Close code for a message above `max_message_bytes`: "message too big".
const MESSAGE_TOO_BIG: u16 = 1009;
/// Close code for an idle socket: a normal closure, nothing went wrong.
const IDLE: u16 = 1000;
/// JSON-RPC "limit exceeded": the socket's rate or subscription cap.
const LIMIT_EXCEEDED: i64 = -32005;
/// The key of a socket's own rate bucket (one limiter per socket).
const SOCKET_KEY: &str = "socket";

/// Open sockets per client IP, capped (clones share the counts).
#[derive(Debug, Clone)]
pub(crate) struct SocketSlots {
    cap: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One open socket's place; dropping it frees the place.
#[derive(Debug)]
pub(crate) struct SocketSlot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl SocketSlots {
    /// At most `cap` sockets per IP.
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            cap,
            open: Arc::default(),
        }
    }

    /// A place for one more socket from `ip`, or `TooManySockets`.
    pub(crate) fn take(&self, ip: IpAddr) -> ApiResult<SocketSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= self.cap {
            return Err(ApiError::TooManySockets(self.cap));
        }
        *count += 1;
        Ok(SocketSlot {
            ip,
            open: Arc::clone(&self.open),
        })
    }

    /// How many sockets `ip` holds open now.
    pub(crate) fn open(&self, ip: IpAddr) -> usize {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&ip)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// `GET /v1/?chainId=…` with `Upgrade: websocket`.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    caller: Caller,
    query: RpcQuery,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let upgrade = upgrade.map_err(|rejection| {
        ApiError::bad(
            "upgrade",
            format!("GET here opens a WebSocket ({rejection}); send JSON-RPC over HTTP with POST"),
        )
    })?;
    let chain = state.gateway.chain(query.chain_id())?.clone();
    if chain.ws_upstreams.is_empty() {
        return Err(ApiError::bad(
            "chainId",
            format!("chain {} is served over HTTP only", chain.id),
        ));
    }
    // Taken before the upstream is dialled, so a flood of upgrades from one
    // address costs no upstream connections past the cap.
    let slot = caller.ip.map(|ip| state.gateway.ws_slots.take(ip)).transpose()?;
    let upstream = connect(&chain, Duration::from_millis(state.config.upstream_timeout_ms)).await?;
    let limits = state.config.rpc_ws;
    Ok(upgrade
        .max_message_size(limits.max_message_bytes)
        .max_frame_size(limits.max_message_bytes)
        .on_upgrade(move |client| async move {
            let _slot = slot;
            relay(client, upstream, state.gateway.clone(), chain, limits).await;
        }))
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

/// What one socket has subscribed, so its cap counts real subscriptions.
#[derive(Debug, Default)]
struct Subscriptions {
    /// Subscription ids the upstream gave (raw JSON).
    open: HashSet<String>,
    /// Ids (raw JSON) of subscribe calls awaiting the upstream's answer.
    pending: HashSet<String>,
}

impl Subscriptions {
    fn held(&self) -> usize {
        self.open.len().saturating_add(self.pending.len())
    }

    /// Applies the cap to `plan`'s (un)subscribe calls: a subscribe past
    /// `cap`, without an id, or reusing a pending id is answered here.
    fn admit(&mut self, plan: &mut Plan<'_>, cap: usize) {
        for call in plan.calls.iter_mut().filter(|c| c.outcome == Outcome::Forward) {
            if is_unsubscribe_method(&call.method) {
                let first = call
                    .params
                    .and_then(|p| serde_json::from_str::<Vec<&RawValue>>(p.get()).ok())
                    .and_then(|p| p.first().map(|id| id.get().to_owned()));
                if let Some(id) = first {
                    self.open.remove(&id);
                }
                continue;
            }
            if !is_subscribe_method(&call.method) {
                continue;
            }
            let id = call.id.map(|id| id.get().to_owned());
            let why = match &id {
                None => Some((-32600, "a subscription request needs an id".to_owned())),
                Some(id) if self.pending.contains(id) => {
                    Some((-32600, format!("id {id} already awaits a subscription")))
                }
                Some(_) if self.held() >= cap => Some((
                    LIMIT_EXCEEDED,
                    format!("this socket holds {cap} subscriptions, the most it may; unsubscribe first"),
                )),
                Some(id) => {
                    self.pending.insert(id.clone());
                    None
                }
            };
            if let Some((code, message)) = why {
                call.outcome = Outcome::Error(code, message);
            }
        }
    }

    /// Reads the upstream's `message` for answers to pending subscribe calls.
    fn settle(&mut self, message: &str) {
        if self.pending.is_empty() {
            return;
        }
        #[derive(serde::Deserialize)]
        struct Answer<'a> {
            #[serde(borrow)]
            id: Option<&'a RawValue>,
            #[serde(borrow)]
            result: Option<&'a RawValue>,
        }
        let answers: Vec<Answer<'_>> = if message.trim_start().starts_with('[') {
            serde_json::from_str(message).unwrap_or_default()
        } else {
            serde_json::from_str(message).map(|a| vec![a]).unwrap_or_default()
        };
        for answer in answers {
            let Some(id) = answer.id else { continue };
            if self.pending.remove(id.get()) {
                if let Some(subscription) = answer.result.filter(|r| r.get() != "null") {
                    self.open.insert(subscription.get().to_owned());
                }
            }
        }
    }
}

/// What a socket's loop does with one client message.
enum Step {
    /// Send this text to the upstream.
    Upstream(String),
    /// Answer the client with this text.
    Client(String),
    /// Both.
    Both(String, String),
    /// Nothing (only notifications were refused).
    Nothing,
}

/// Decides one client text message under the socket's limits.
fn step(
    gateway: &Gateway,
    chain: &Chain,
    text: &str,
    limiter: &RateLimiter,
    subscriptions: &mut Subscriptions,
    limits: &RpcWsConfig,
) -> Step {
    let mut plan = match gateway.plan(chain, text.as_bytes()) {
        Ok(plan) => plan,
        Err(error) => return Step::Client(refusal(text, &error)),
    };
    let cost = u32::try_from(plan.len()).unwrap_or(u32::MAX);
    if let Err(wait) = limiter.check_n(SOCKET_KEY, cost, Instant::now()) {
        let message = ApiError::RateLimited(wait).to_string();
        let id = if plan.batch { None } else { plan.calls[0].id };
        return Step::Client(rpc_error(id.map_or("null", RawValue::get), LIMIT_EXCEEDED, &message));
    }
    subscriptions.admit(&mut plan, limits.max_subscriptions);
    let mut answers: Vec<String> = plan.calls.iter().filter_map(|c| c.local_answer()).collect();
    let forwarded = if plan.batch {
        plan.forwarded_batch()
    } else {
        plan.calls
            .iter()
            .find(|c| c.outcome == Outcome::Forward)
            .map(|c| c.raw.to_owned())
    };
    // A batch's own answers go out as one array and the upstream's as another:
    // clients match answers by id.
    let answer = match answers.len() {
        0 => None,
        1 if !plan.batch => answers.pop(),
        _ => Some(format!("[{}]", answers.join(","))),
    };
    match (forwarded, answer) {
        (Some(up), Some(answer)) => Step::Both(up, answer),
        (Some(up), None) => Step::Upstream(up),
        (None, Some(answer)) => Step::Client(answer),
        (None, None) => Step::Nothing,
    }
}

/// Pumps messages both ways until either side closes or a limit ends the socket.
async fn relay(client: WebSocket, upstream: Upstream, gateway: Arc<Gateway>, chain: Chain, limits: RpcWsConfig) {
    let (mut to_client, mut from_client) = client.split();
    let (mut to_upstream, mut from_upstream) = upstream.split();
    let limiter = RateLimiter::new(limits.rate_limit);
    let mut subscriptions = Subscriptions::default();
    let idle_after = Duration::from_secs(limits.idle_timeout_secs);
    let mut ping = tokio::time::interval(idle_after / 2);
    ping.tick().await;
    let mut last_request = Instant::now();
    let mut last_frame = Instant::now();
    loop {
        tokio::select! {
            message = from_client.next() => {
                if matches!(message, Some(Ok(_))) {
                    last_frame = Instant::now();
                }
                match message {
                    Some(Ok(Message::Text(text))) => {
                        last_request = Instant::now();
                        let (up, down) = match step(&gateway, &chain, text.as_str(), &limiter, &mut subscriptions, &limits) {
                            Step::Upstream(up) => (Some(up), None),
                            Step::Client(down) => (None, Some(down)),
                            Step::Both(up, down) => (Some(up), Some(down)),
                            Step::Nothing => (None, None),
                        };
                        if let Some(down) = down {
                            if to_client.send(Message::text(down)).await.is_err() {
                                break;
                            }
                        }
                        if let Some(up) = up {
                            if to_upstream.send(UpstreamMessage::text(up)).await.is_err() {
                                break;
                            }
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let frame = CloseFrame { code: UNSUPPORTED_DATA, reason: "JSON-RPC is sent as text".into() };
                        let _ = to_client.send(Message::Close(Some(frame))).await;
                        break;
                    }
                    // Pings are answered by axum; pongs only show the client is there.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Err(error)) => {
                        if is_capacity_error(&error) {
                            let reason = format!("a message holds at most {} bytes", limits.max_message_bytes);
                            let frame = CloseFrame { code: MESSAGE_TOO_BIG, reason: reason.into() };
                            let _ = to_client.send(Message::Close(Some(frame))).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Close(_))) | None => break,
                }
            },
            message = from_upstream.next() => match message {
                Some(Ok(UpstreamMessage::Text(text))) => {
                    subscriptions.settle(text.as_str());
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
            _ = ping.tick() => {
                let idle = subscriptions.held() == 0 && last_request.elapsed() >= idle_after;
                if idle || last_frame.elapsed() >= idle_after {
                    let reason = format!("idle for {} s", limits.idle_timeout_secs);
                    let _ = to_client.send(Message::Close(Some(CloseFrame { code: IDLE, reason: reason.into() }))).await;
                    await_close_reply(&mut from_client).await;
                    break;
                }
                if to_client.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = to_upstream.close().await;
}

/// How long a close the server starts waits for the client's answering Close frame: dropping
/// the connection at once can reset it while the client still has frames to read, and the
/// client then never learns the close code.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// Reads (and drops) what the client still sends until its Close frame, at most [`CLOSE_GRACE`].
async fn await_close_reply(from_client: &mut futures_util::stream::SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        while let Some(Ok(message)) = from_client.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Whether a client socket error is a message or frame above the size cap.
fn is_capacity_error(error: &axum::Error) -> bool {
    use std::error::Error as _;
    let mut source: Option<&(dyn std::error::Error + 'static)> = error.source();
    while let Some(current) = source {
        if let Some(tungstenite) = current.downcast_ref::<tokio_tungstenite::tungstenite::Error>() {
            return matches!(tungstenite, tokio_tungstenite::tungstenite::Error::Capacity(_));
        }
        source = current.source();
    }
    false
}
