//! The chain RPC gateway (behaviour 6.15 "Chain RPC"): JSON-RPC 2.0, single or
//! batch, forwarded to a chain's upstreams in order with fallback.
//!
//! The public path ([`Gateway::plan`] then [`Gateway::answer`]) forwards only
//! the methods the chain's policy allows (`latch_core::policy`): a refused
//! single call is a 403 `RPC_METHOD_NOT_ALLOWED`; a refused call inside a batch
//! is answered with a JSON-RPC error (-32601) for that item while the allowed
//! items go upstream, which is what JSON-RPC clients expect of a batch. The
//! server's own reads use [`Gateway::call_internal`], which skips the policy.

use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use latch_core::caip::CaipNetworkId;
use latch_core::policy::{GatewayMethodPolicy, GatewayVerdict};
use latch_core::transport::{rank_transports, Sample, RANK_INTERVAL_MS, RANK_SAMPLES};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::outbound::redact_url;
use crate::subscriptions::SocketSlots;
use crate::upstream::{Endpoint, UpstreamClient, UpstreamError};

/// JSON-RPC error codes that mean "this upstream, not this request": try the next one.
/// -32005 is the de facto "limit exceeded"; -32603 an upstream internal error.
const RETRYABLE_RPC_CODES: [i64; 2] = [-32005, -32603];
/// JSON-RPC "method not found": what a refused method inside a batch (or on the
/// WebSocket) is answered with, as a node without the method would.
pub(crate) const METHOD_NOT_ALLOWED_CODE: i64 = -32601;
/// Longest method name echoed back in a refusal; the rest is cut.
const ECHOED_METHOD_CHARS: usize = 64;

/// One served chain.
#[derive(Debug, Clone)]
pub struct Chain {
    /// Its CAIP-2 id.
    pub id: CaipNetworkId,
    /// Endpoints, in configured order.
    pub upstreams: Vec<String>,
    /// The same, parsed once rather than on every forwarded call.
    endpoints: Vec<Endpoint>,
    /// The same as logs name them (`scheme://host[:port]`: URLs carry API keys), made once.
    upstream_names: Vec<String>,
    /// WebSocket endpoints, in configured order.
    pub ws_upstreams: Vec<String>,
    /// Whether upstreams are re-ordered by measured latency and stability.
    pub rank: bool,
    /// Indices into `upstreams` in the order they are tried.
    order: Arc<Order>,
    /// Recent probes per upstream, when ranked.
    samples: Arc<Mutex<Vec<VecDeque<Sample>>>>,
    /// The operator's changes to the methods the public path forwards.
    policy: GatewayMethodPolicy,
}

impl Chain {
    /// Indices into `upstreams` in the order they are tried now.
    fn order(&self) -> OrderIter {
        self.order.snapshot().of_len(self.upstreams.len())
    }

    /// The JSON-RPC call that tells whether an upstream of this chain is alive.
    fn probe_request(&self) -> Option<&'static str> {
        match self.id.namespace.as_str() {
            "eip155" => Some(r#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}"#),
            "solana" => Some(r#"{"jsonrpc":"2.0","id":1,"method":"getSlot","params":[]}"#),
            _ => None,
        }
    }
}

/// Upstreams packed into one word at most: 4 bits an index.
const PACKED_UPSTREAMS: usize = 16;
/// Upstream HTTP clients at most (one per core; see [`Gateway::http`]).
const MAX_CLIENTS: usize = 64;

/// The order a chain's upstreams are tried in, read on every forwarded call
/// and written by ranking every 4 s. Up to [`PACKED_UPSTREAMS`] upstreams it is
/// one atomic word (4 bits an index, first tried in the low bits), so reading
/// it takes no lock and allocates nothing; more upstreams fall back to a lock.
#[derive(Debug)]
enum Order {
    Packed(AtomicU64),
    Listed(RwLock<Vec<usize>>),
}

impl Order {
    /// The configured order, `0..len`.
    fn new(len: usize) -> Self {
        if len <= PACKED_UPSTREAMS {
            Order::Packed(AtomicU64::new(pack(0..len)))
        } else {
            Order::Listed(RwLock::new((0..len).collect()))
        }
    }

    fn snapshot(&self) -> OrderIter {
        match self {
            Order::Packed(word) => OrderIter::Packed {
                word: word.load(Ordering::Acquire),
                left: 0,
            },
            Order::Listed(list) => {
                OrderIter::Listed(list.read().unwrap_or_else(|e| e.into_inner()).clone().into_iter())
            }
        }
    }

    /// Replaces the order by `order` (a permutation of `0..len`, as ranking gives).
    fn set(&self, order: Vec<usize>) {
        match self {
            Order::Packed(word) => word.store(pack(order.into_iter()), Ordering::Release),
            Order::Listed(list) => *list.write().unwrap_or_else(|e| e.into_inner()) = order,
        }
    }
}

/// Indices below 16 in one word, 4 bits each, the first tried in the low bits
/// (how many there are is the chain's upstream count).
fn pack(order: impl Iterator<Item = usize>) -> u64 {
    order
        .enumerate()
        .fold(0, |word, (slot, index)| word | ((index as u64 & 0xF) << (4 * slot)))
}

/// A snapshot of an [`Order`], walked once per forwarded call.
enum OrderIter {
    Packed { word: u64, left: usize },
    Listed(std::vec::IntoIter<usize>),
}

impl OrderIter {
    /// Bounds a packed snapshot to the chain's `len` upstreams.
    fn of_len(self, len: usize) -> Self {
        match self {
            OrderIter::Packed { word, .. } => OrderIter::Packed { word, left: len },
            listed => listed,
        }
    }
}

impl Iterator for OrderIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            OrderIter::Packed { left: 0, .. } => None,
            OrderIter::Packed { word, left } => {
                let index = (*word & 0xF) as usize;
                *word >>= 4;
                *left -= 1;
                Some(index)
            }
            OrderIter::Listed(list) => list.next(),
        }
    }
}

/// Forwards JSON-RPC to the configured chains.
#[derive(Debug, Clone)]
pub struct Gateway {
    chains: BTreeMap<String, Chain>,
    /// One client (and so one connection pool) per core: a single client's pool
    /// is one mutex that every forwarded call takes twice, which worker threads
    /// would contend for. Each thread uses its own (see [`crate::shard`]).
    clients: Arc<[UpstreamClient]>,
    max_batch: usize,
    /// Open `/v1` WebSockets per client IP.
    pub(crate) ws_slots: SocketSlots,
}

/// The result of a forwarded call: the upstream's JSON body.
#[derive(Debug)]
pub struct RpcReply(pub Bytes);

impl Gateway {
    /// A gateway for `config`'s chains (already validated by `Config::validated`).
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let chains = config
            .chains
            .iter()
            .map(|c| {
                Ok((
                    c.id.clone(),
                    Chain {
                        id: CaipNetworkId::parse(&c.id)?,
                        upstreams: c.upstreams.clone(),
                        endpoints: c
                            .upstreams
                            .iter()
                            .map(|u| Endpoint::parse(u))
                            .collect::<Result<_, UpstreamError>>()?,
                        upstream_names: c.upstreams.iter().map(|u| redact_url(u)).collect(),
                        ws_upstreams: c.ws_upstreams.clone(),
                        rank: c.rank,
                        order: Arc::new(Order::new(c.upstreams.len())),
                        samples: Arc::new(Mutex::new(vec![VecDeque::new(); c.upstreams.len()])),
                        policy: c.methods.clone(),
                    },
                ))
            })
            .collect::<anyhow::Result<_>>()?;
        // Upstreams are configured addresses: this client reads no environment
        // proxy, which would see their API keys.
        let timeout = Duration::from_millis(config.upstream_timeout_ms);
        let clients = (0..crate::shard::per_core(MAX_CLIENTS))
            .map(|_| UpstreamClient::new(timeout))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            chains,
            clients,
            max_batch: config.max_batch,
            ws_slots: SocketSlots::new(config.rpc_ws.max_sockets_per_ip),
        })
    }

    /// The calling thread's upstream client.
    fn http(&self) -> &UpstreamClient {
        &self.clients[crate::shard::thread_index() % self.clients.len()]
    }

    /// Probes every upstream of every ranked chain once and re-orders them
    /// (behaviour 6.16: latency 0.3, stability 0.7, last 10 samples).
    pub async fn rank_once(&self) {
        for chain in self.chains.values().filter(|c| c.rank) {
            let Some(probe) = chain.probe_request() else { continue };
            let mut probes = tokio::task::JoinSet::new();
            for (index, endpoint) in chain.endpoints.iter().enumerate() {
                let (client, endpoint) = (self.http().clone(), endpoint.clone());
                probes.spawn(async move {
                    let started = Instant::now();
                    let ok = match client.post_json(&endpoint, Bytes::from_static(probe.as_bytes())).await {
                        Ok(body) => {
                            serde_json::from_slice::<Value>(&body).is_ok_and(|body| body.get("result").is_some())
                        }
                        Err(_) => false,
                    };
                    (
                        index,
                        Sample {
                            latency_ms: started.elapsed().as_secs_f64() * 1000.0,
                            ok,
                        },
                    )
                });
            }
            let results = probes.join_all().await;
            let ranked = {
                let mut samples = chain.samples.lock().unwrap_or_else(|e| e.into_inner());
                for (index, sample) in results {
                    let recent = &mut samples[index];
                    if recent.len() == RANK_SAMPLES {
                        recent.pop_front();
                    }
                    recent.push_back(sample);
                }
                let snapshot: Vec<Vec<Sample>> = samples.iter().map(|s| s.iter().copied().collect()).collect();
                rank_transports(&snapshot)
            };
            chain.order.set(ranked);
        }
    }

    /// Ranks ranked chains every 4 s for as long as the runtime lives.
    pub fn spawn_ranking(self: &Arc<Self>) {
        if !self.chains.values().any(|c| c.rank) {
            return;
        }
        let gateway = Arc::clone(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(RANK_INTERVAL_MS));
            loop {
                tick.tick().await;
                gateway.rank_once().await;
            }
        });
    }

    /// The upstreams of `chain_id` in the order they are tried now.
    pub fn upstream_order(&self, chain_id: &str) -> Option<Vec<String>> {
        let chain = self.chains.get(chain_id)?;
        Some(chain.order().map(|i| chain.upstreams[i].clone()).collect())
    }

    /// The CAIP-2 ids served over HTTP, sorted.
    pub fn chain_ids(&self) -> impl Iterator<Item = &str> {
        self.chains.keys().map(String::as_str)
    }

    /// The chain `chain_id` names, checked: required, a CAIP-2 id, served here.
    pub fn chain(&self, chain_id: Option<&str>) -> ApiResult<&Chain> {
        let chain_id = chain_id
            .filter(|c| !c.is_empty())
            .ok_or_else(|| ApiError::bad("chainId", "chainId is required, e.g. ?chainId=eip155:1"))?;
        // Served ids were checked at start: only an id not served is parsed, for its error.
        if let Some(chain) = self.chains.get(chain_id) {
            return Ok(chain);
        }
        CaipNetworkId::parse(chain_id).map_err(|e| ApiError::bad("chainId", e.to_string()))?;
        self.chains
            .get(chain_id)
            .ok_or_else(|| ApiError::UnsupportedChain(chain_id.to_owned()))
    }

    /// Reads a JSON-RPC request or batch for `chain` and decides each call by
    /// the chain's method policy. Shape errors refuse the whole body (400/422).
    ///
    /// One pass over the body: a single call's envelope is read straight from
    /// it (which also checks that nothing follows), a batch's items as raw text
    /// and then each one's envelope; `params` is never parsed into a tree. Only
    /// a body those reads refuse is read again, to say what is wrong with it.
    pub fn plan<'a>(&self, chain: &Chain, body: &'a [u8]) -> ApiResult<Plan<'a>> {
        let text = std::str::from_utf8(body)
            .map_err(|e| ApiError::UnprocessableBody(format!("body is not JSON: not UTF-8 ({e})")))?;
        let trimmed = text.trim_matches(is_json_whitespace);
        if trimmed.starts_with('[') {
            if let Ok(raw) = serde_json::from_str::<Vec<&'a RawValue>>(text) {
                return self.plan_batch(chain, raw);
            }
        } else if trimmed.starts_with('{') {
            if let Ok(envelope) = serde_json::from_str::<Envelope<'a>>(text) {
                let call = Call::of(chain, trimmed, envelope).map_err(|e| ApiError::bad("body", e))?;
                return Ok(Plan {
                    calls: vec![call],
                    batch: false,
                });
            }
        }
        // Not JSON (422), or JSON that is not a request: not an object, or an
        // object whose members do not fit the envelope (one repeated, say).
        serde_json::from_str::<&RawValue>(text)
            .map_err(|e| ApiError::UnprocessableBody(format!("body is not JSON: {e}")))?;
        Err(ApiError::bad("body", NOT_AN_OBJECT))
    }

    /// The calls of a batch whose items are `raw`.
    fn plan_batch<'a>(&self, chain: &Chain, raw: Vec<&'a RawValue>) -> ApiResult<Plan<'a>> {
        if raw.is_empty() || raw.len() > self.max_batch {
            return Err(ApiError::bad(
                "body",
                format!("a batch holds 1 to {} requests, not {}", self.max_batch, raw.len()),
            ));
        }
        let calls = raw
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                Call::read(chain, item.get()).map_err(|why| ApiError::bad("body", format!("request {index}: {why}")))
            })
            .collect::<ApiResult<_>>()?;
        Ok(Plan { calls, batch: true })
    }

    /// Answers a checked plan (the public path) of `body`: refused and local
    /// calls here, the others from the chain's upstreams. An empty reply means
    /// only notifications were sent.
    pub async fn answer(&self, chain: &Chain, plan: Plan<'_>, body: &Bytes) -> ApiResult<RpcReply> {
        if !plan.batch {
            let call = &plan.calls[0];
            return match &call.outcome {
                // The call's own bytes, shared with the body rather than copied.
                Outcome::Forward => self.forward(chain, shared(body, call.raw)).await,
                Outcome::Refuse => Err(ApiError::RpcMethodNotAllowed(echoed(&call.method))),
                Outcome::Local(_) | Outcome::Error(..) => {
                    Ok(RpcReply(Bytes::from(call.local_answer().unwrap_or_default())))
                }
            };
        }
        let mut answers: Vec<String> = plan.calls.iter().filter_map(Call::local_answer).collect();
        if let Some(forwarded) = plan.forwarded_batch() {
            let reply = self.forward(chain, Bytes::from(forwarded)).await?;
            if answers.is_empty() {
                return Ok(reply);
            }
            splice_reply(&mut answers, &reply.0);
        }
        if answers.is_empty() {
            return Ok(RpcReply(Bytes::new()));
        }
        Ok(RpcReply(Bytes::from(format!("[{}]", answers.join(",")))))
    }

    /// Validates `body` and answers it from the chain `chain_id` (the public path).
    pub async fn call(&self, chain_id: Option<&str>, body: &Bytes) -> ApiResult<RpcReply> {
        let chain = self.chain(chain_id)?;
        let plan = self.plan(chain, body)?;
        self.answer(chain, plan, body).await
    }

    /// Sends the server's own `body` (a request or batch it built) to `chain_id`'s
    /// upstreams as is: no method policy, so a policy change never breaks
    /// signature checks, chain data or the indexer.
    pub async fn call_internal(&self, chain_id: &str, body: Bytes) -> ApiResult<RpcReply> {
        let chain = self
            .chains
            .get(chain_id)
            .ok_or_else(|| ApiError::UnsupportedChain(chain_id.to_owned()))?;
        self.forward(chain, body).await
    }

    /// How many `/v1` WebSockets `ip` holds open now.
    pub fn open_sockets(&self, ip: std::net::IpAddr) -> usize {
        self.ws_slots.open(ip)
    }

    /// The CAIP-2 ids served over WebSocket, sorted.
    pub fn ws_chain_ids(&self) -> impl Iterator<Item = &str> {
        self.chains
            .iter()
            .filter(|(_, c)| !c.ws_upstreams.is_empty())
            .map(|(id, _)| id.as_str())
    }

    /// Sends `body` to `chain`'s upstreams in order until one answers.
    pub(crate) async fn forward(&self, chain: &Chain, body: Bytes) -> ApiResult<RpcReply> {
        let mut last_rpc_error = None;
        for index in chain.order() {
            // Upstream URLs carry API keys: logs name the host only, errors lose their URL.
            let upstream = &chain.upstream_names[index];
            let reply = match self.http().post_json(&chain.endpoints[index], body.clone()).await {
                Ok(reply) => reply,
                Err(UpstreamError::Refused(status)) => {
                    tracing::warn!(chain = %chain.id, %upstream, %status, "upstream refused");
                    continue;
                }
                Err(error @ UpstreamError::CutShort(_)) => {
                    tracing::warn!(chain = %chain.id, %upstream, %error, "upstream reply cut short");
                    continue;
                }
                Err(error @ UpstreamError::TooLarge) => {
                    tracing::warn!(chain = %chain.id, %upstream, %error, "upstream reply too large");
                    continue;
                }
                Err(error) => {
                    tracing::warn!(chain = %chain.id, %upstream, %error, "upstream unreachable");
                    continue;
                }
            };
            if is_retryable_reply(&reply) {
                tracing::warn!(chain = %chain.id, %upstream, "upstream answered a retryable error");
                last_rpc_error = Some(reply);
                continue;
            }
            return Ok(RpcReply(reply));
        }
        // A JSON-RPC error is still an answer the client can read; only when no
        // upstream answered at all is the chain unavailable.
        last_rpc_error
            .map(RpcReply)
            .ok_or_else(|| ApiError::UpstreamUnavailable(chain.id.to_string()))
    }
}

/// What the gateway does with one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Sent upstream.
    Forward,
    /// Answered here with this result (`eth_chainId`, `net_version`, `eth_accounts`).
    Local(Value),
    /// Refused by the method policy.
    Refuse,
    /// Refused by another limit (the WebSocket's subscription cap): this JSON-RPC error.
    Error(i64, String),
}

/// One checked call of a request or batch.
#[derive(Debug)]
pub struct Call<'a> {
    /// The call as the client sent it (its JSON text).
    pub raw: &'a str,
    /// Its method.
    pub method: Cow<'a, str>,
    /// Its id as raw JSON; `None` for a notification, which gets no answer.
    pub id: Option<&'a RawValue>,
    /// Its `params`, raw.
    pub params: Option<&'a RawValue>,
    /// What the gateway does with it.
    pub outcome: Outcome,
}

/// The JSON-RPC 2.0 envelope, typed; every member kept raw so that its shape
/// is checked here and `params` is never parsed into a tree.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
}

/// A member that is present, even as `null` (an `id` of `null` is a call, not a notification).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

impl<'a> Call<'a> {
    /// Checks `raw`'s JSON-RPC 2.0 shape and decides it by `chain`'s policy; `Err` says what is wrong.
    fn read(chain: &Chain, raw: &'a str) -> Result<Self, String> {
        let envelope: Envelope<'a> = serde_json::from_str(raw).map_err(|_| NOT_AN_OBJECT.to_owned())?;
        Self::of(chain, raw, envelope)
    }

    /// The call `raw`, whose envelope is `envelope`, checked and decided.
    fn of(chain: &Chain, raw: &'a str, envelope: Envelope<'a>) -> Result<Self, String> {
        if envelope.jsonrpc.map(RawValue::get) != Some("\"2.0\"") {
            return Err("\"jsonrpc\" must be \"2.0\"".into());
        }
        let method = envelope
            .method
            .and_then(json_string)
            .filter(|m| !m.is_empty())
            .ok_or("\"method\" must be a non-empty string")?;
        if !envelope.params.is_none_or(|p| p.get().starts_with(['[', '{'])) {
            return Err("\"params\" must be an array or an object".into());
        }
        let id_ok = envelope.id.is_none_or(|id| {
            let id = id.get();
            id == "null" || id.starts_with(['"', '-']) || id.starts_with(|c: char| c.is_ascii_digit())
        });
        if !id_ok {
            return Err("\"id\" must be a string, a number or null".into());
        }
        let outcome = match chain.policy.verdict(&chain.id.namespace, &method) {
            GatewayVerdict::Refuse => Outcome::Refuse,
            GatewayVerdict::NoAccounts => Outcome::Local(Value::Array(Vec::new())),
            GatewayVerdict::Forward => answer_locally(&chain.id, &method).map_or(Outcome::Forward, Outcome::Local),
        };
        Ok(Call {
            raw,
            method,
            id: envelope.id,
            params: envelope.params,
            outcome,
        })
    }

    /// The JSON-RPC answer the gateway gives this call itself, if any
    /// (notifications get none).
    pub fn local_answer(&self) -> Option<String> {
        let id = self.id?.get();
        match &self.outcome {
            Outcome::Forward => None,
            Outcome::Local(result) => Some(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)),
            Outcome::Refuse => Some(rpc_error(
                id,
                METHOD_NOT_ALLOWED_CODE,
                &ApiError::RpcMethodNotAllowed(echoed(&self.method)).to_string(),
            )),
            Outcome::Error(code, message) => Some(rpc_error(id, *code, message)),
        }
    }
}

/// A JSON-RPC error answer for the call with raw `id`.
pub(crate) fn rpc_error(id: &str, code: i64, message: &str) -> String {
    let message = Value::from(message);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}}}}}"#)
}

/// A checked request or batch.
#[derive(Debug)]
pub struct Plan<'a> {
    /// Its calls, in order.
    pub calls: Vec<Call<'a>>,
    /// Whether it was a batch (its answer is then an array).
    pub batch: bool,
}

impl Plan<'_> {
    /// How many calls it holds (what rate limits charge).
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether it holds no call (never, once read).
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// The batch of the calls to forward, as JSON text; `None` when none is.
    pub fn forwarded_batch(&self) -> Option<String> {
        let forwarded: Vec<&str> = self
            .calls
            .iter()
            .filter(|c| c.outcome == Outcome::Forward)
            .map(|c| c.raw)
            .collect();
        (!forwarded.is_empty()).then(|| format!("[{}]", forwarded.join(",")))
    }
}

/// `method` as echoed in a refusal: at most [`ECHOED_METHOD_CHARS`] characters.
fn echoed(method: &str) -> String {
    match method.char_indices().nth(ECHOED_METHOD_CHARS) {
        Some((cut, _)) => format!("{}…", &method[..cut]),
        None => method.to_owned(),
    }
}

/// What a request that is JSON but not a JSON-RPC request object is refused with.
const NOT_AN_OBJECT: &str = "a JSON-RPC request is an object";

/// JSON's whitespace (what may surround a value).
fn is_json_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// The string a raw JSON value holds, if it is one: borrowed from the text
/// unless it has escapes to undo.
fn json_string(raw: &RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    // A checked JSON string with no backslash is its own contents between the quotes.
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains('\\') => Some(Cow::Borrowed(inner)),
        Some(_) => serde_json::from_str::<String>(text).ok().map(Cow::Owned),
        None => None,
    }
}

/// `part` of `body` (text read from it) as `Bytes` sharing `body`'s memory;
/// a copy when it is not from `body`.
fn shared(body: &Bytes, part: &str) -> Bytes {
    let (start, end) = (body.as_ptr() as usize, body.as_ptr() as usize + body.len());
    let at = part.as_ptr() as usize;
    if start <= at && at + part.len() <= end {
        body.slice_ref(part.as_bytes())
    } else {
        Bytes::copy_from_slice(part.as_bytes())
    }
}

/// Adds the upstream's batch `reply` to `answers`: its items when it is an
/// array, else the reply itself (a node's error for the whole batch).
fn splice_reply(answers: &mut Vec<String>, reply: &[u8]) {
    let text = String::from_utf8_lossy(reply);
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    match serde_json::from_str::<Vec<&RawValue>>(text) {
        Ok(items) => answers.extend(items.into_iter().map(|i| i.get().to_owned())),
        // Anything but JSON from a node is left out rather than breaking the array.
        Err(_) if serde_json::from_str::<&RawValue>(text).is_ok() => answers.push(text.to_owned()),
        Err(_) => tracing::warn!("upstream answered a batch with something that is not JSON"),
    }
}

/// Answers what the chain id alone determines, sparing an upstream round trip.
fn answer_locally(chain: &CaipNetworkId, method: &str) -> Option<Value> {
    if chain.namespace != "eip155" {
        return None;
    }
    let chain_number: u64 = chain.reference.parse().ok()?;
    match method {
        "eth_chainId" => Some(Value::from(format!("0x{chain_number:x}"))),
        "net_version" => Some(Value::from(chain_number.to_string())),
        _ => None,
    }
}

fn is_retryable_reply(reply: &[u8]) -> bool {
    // Most replies are results; only a reply mentioning an error is worth parsing.
    if !reply.windows(7).any(|w| w == b"\"error\"") {
        return false;
    }
    let Ok(Value::Object(fields)) = serde_json::from_slice::<Value>(reply) else {
        return false;
    };
    let code = fields.get("error").and_then(|e| e.get("code")).and_then(Value::as_i64);
    code.is_some_and(|c| RETRYABLE_RPC_CODES.contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ChainConfig;
    use proptest::prelude::*;
    use serde_json::json;

    fn gateway(methods: GatewayMethodPolicy) -> Gateway {
        let config = Config {
            chains: vec![
                ChainConfig {
                    id: "eip155:31337".into(),
                    upstreams: vec!["http://127.0.0.1:9".into()],
                    methods: methods.clone(),
                    ..ChainConfig::default()
                },
                ChainConfig {
                    id: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into(),
                    upstreams: vec!["http://127.0.0.1:9".into()],
                    methods,
                    ..ChainConfig::default()
                },
            ],
            ..Config::default()
        };
        Gateway::new(&config).unwrap()
    }

    fn plan_of(gateway: &Gateway, chain: &str, body: &Value) -> Result<Vec<Outcome>, String> {
        let chain = gateway.chain(Some(chain)).unwrap();
        let body = body.to_string();
        gateway
            .plan(chain, body.as_bytes())
            .map(|p| p.calls.into_iter().map(|c| c.outcome).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn request_shape() {
        let g = gateway(GatewayMethodPolicy::default());
        let evm = "eip155:31337";
        assert!(plan_of(&g, evm, &json!({"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"})).is_ok());
        assert!(plan_of(&g, evm, &json!({"jsonrpc":"2.0","id":"a","method":"x","params":{}})).is_ok());
        assert!(plan_of(&g, evm, &json!({"jsonrpc":"2.0","id":null,"method":"x","params":[]})).is_ok());
        for (body, why) in [
            (json!({"jsonrpc":"1.0","id":1,"method":"x"}), "jsonrpc"),
            (json!({"jsonrpc":"2.0","id":1}), "method"),
            (json!({"jsonrpc":"2.0","id":1,"method":""}), "method"),
            (json!({"jsonrpc":"2.0","id":1,"method":7}), "method"),
            (json!({"jsonrpc":"2.0","id":1,"method":"x","params":3}), "params"),
            (json!({"jsonrpc":"2.0","id":[1],"method":"x"}), "id"),
            (json!({"jsonrpc":"2.0","id":true,"method":"x"}), "id"),
            (json!("eth_call"), "object"),
            (
                json!([{"jsonrpc":"2.0","id":1,"method":"x"}, 5]),
                "request 1: a JSON-RPC request is an object",
            ),
            (json!([]), "1 to 1000 requests, not 0"),
        ] {
            let error = plan_of(&g, evm, &body).unwrap_err();
            assert!(error.contains(why), "{body}: {error}");
        }
        let chain = g.chain(Some(evm)).unwrap();
        assert!(matches!(g.plan(chain, b"{oops"), Err(ApiError::UnprocessableBody(_))));
        assert!(matches!(
            g.plan(chain, b"\xff\xfe"),
            Err(ApiError::UnprocessableBody(_))
        ));
    }

    #[test]
    fn chain_id_and_accounts_answered_locally() {
        let g = gateway(GatewayMethodPolicy::default());
        let chain = g.chain(Some("eip155:31337")).unwrap();
        let body = br#"[{"jsonrpc":"2.0","id":7,"method":"eth_chainId"},{"jsonrpc":"2.0","id":"n","method":"net_version"},
            {"jsonrpc":"2.0","id":8,"method":"eth_accounts","params":[]},{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}]"#;
        let plan = g.plan(chain, body).unwrap();
        let answers: Vec<Value> = plan
            .calls
            .iter()
            .filter_map(Call::local_answer)
            .map(|a| serde_json::from_str(&a).unwrap())
            .collect();
        assert_eq!(
            answers,
            [
                json!({"jsonrpc":"2.0","id":7,"result":"0x7a69"}),
                json!({"jsonrpc":"2.0","id":"n","result":"31337"}),
                json!({"jsonrpc":"2.0","id":8,"result":[]}),
            ]
        );
        assert_eq!(
            plan.forwarded_batch().unwrap(),
            r#"[{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}]"#
        );
        // A Solana node answers its own methods; eth_* is not one of them.
        let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
        assert_eq!(
            plan_of(&g, solana, &json!({"jsonrpc":"2.0","id":1,"method":"eth_chainId"})).unwrap(),
            [Outcome::Refuse]
        );
    }

    #[test]
    fn policy_refuses_per_call() {
        let g = gateway(GatewayMethodPolicy::default());
        let chain = g.chain(Some("eip155:31337")).unwrap();
        let body = br#"[{"jsonrpc":"2.0","id":1,"method":"anvil_setCode","params":["0x00","0x00"]},
            {"jsonrpc":"2.0","id":2,"method":"eth_getCode","params":["0x00","latest"]},
            {"jsonrpc":"2.0","method":"evm_mine"}]"#;
        let plan = g.plan(chain, body).unwrap();
        let outcomes: Vec<_> = plan.calls.iter().map(|c| c.outcome.clone()).collect();
        assert_eq!(outcomes, [Outcome::Refuse, Outcome::Forward, Outcome::Refuse]);
        let refusal: Value = serde_json::from_str(&plan.calls[0].local_answer().unwrap()).unwrap();
        assert_eq!(refusal["id"], 1);
        assert_eq!(refusal["error"]["code"], METHOD_NOT_ALLOWED_CODE);
        assert!(refusal["error"]["message"].as_str().unwrap().contains("anvil_setCode"));
        assert_eq!(plan.calls[2].local_answer(), None, "a notification gets no answer");
        assert_eq!(plan.len(), 3);
        // An operator's allow list opens a method for one chain's public path.
        let open = gateway(GatewayMethodPolicy {
            allow: vec!["requestAirdrop".into()],
            deny: vec![],
        });
        let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
        let airdrop = json!({"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["x",1]});
        assert_eq!(plan_of(&open, solana, &airdrop).unwrap(), [Outcome::Forward]);
        assert_eq!(plan_of(&g, solana, &airdrop).unwrap(), [Outcome::Refuse]);
    }

    #[test]
    fn one_pass_reads_keep_every_answer() {
        let g = gateway(GatewayMethodPolicy::default());
        let chain = g.chain(Some("eip155:31337")).unwrap();
        let body = Bytes::from_static(b" \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_\\u0062lockNumber\"}\t\r\n");
        let plan = g.plan(chain, &body).unwrap();
        let call = &plan.calls[0];
        assert_eq!(call.raw, r#"{"jsonrpc":"2.0","id":1,"method":"eth_\u0062lockNumber"}"#);
        assert_eq!(
            (call.method.as_ref(), &call.outcome),
            ("eth_blockNumber", &Outcome::Forward)
        );
        // What is forwarded is the call's own bytes, not a copy.
        let forwarded = shared(&body, call.raw);
        assert_eq!(forwarded, call.raw.as_bytes());
        assert_eq!(forwarded.as_ptr(), body[2..].as_ptr());
        assert_eq!(shared(&body, "{}"), "{}".as_bytes());
        let plain = g
            .plan(chain, br#"{"jsonrpc":"2.0","id":1,"method":"eth_call"}"#)
            .unwrap();
        assert!(matches!(plain.calls[0].method, Cow::Borrowed("eth_call")));
        for (body, unprocessable, why) in [
            (
                &br#"{"jsonrpc":"2.0","id":1,"method":"x","method":"y"}"#[..],
                false,
                NOT_AN_OBJECT,
            ),
            (br#""eth_call" "#, false, NOT_AN_OBJECT),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"x"} x"#,
                true,
                "trailing characters",
            ),
            (b"5 x", true, "trailing characters"),
            (br#"[{"jsonrpc":"2.0","id":1,"method":"x"}"#, true, "EOF"),
            (br#"{"jsonrpc":"2.0","id":1,"method":"x""#, true, "EOF"),
            (br#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#, false, "params"),
        ] {
            let error = g.plan(chain, body).unwrap_err();
            assert_eq!(
                matches!(error, ApiError::UnprocessableBody(_)),
                unprocessable,
                "{}: {error}",
                String::from_utf8_lossy(body)
            );
            assert!(
                error.to_string().contains(why),
                "{}: {error}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn upstream_order_is_kept_packed_or_listed() {
        for len in [1, 2, 15, 16, 17, 40] {
            let order = Order::new(len);
            assert_eq!(matches!(order, Order::Packed(_)), len <= PACKED_UPSTREAMS);
            assert_eq!(
                order.snapshot().of_len(len).collect::<Vec<_>>(),
                (0..len).collect::<Vec<_>>()
            );
            let reversed: Vec<usize> = (0..len).rev().collect();
            order.set(reversed.clone());
            assert_eq!(order.snapshot().of_len(len).collect::<Vec<_>>(), reversed);
        }
    }

    #[test]
    fn refusals_echo_a_bounded_method() {
        assert_eq!(echoed("eth_sign"), "eth_sign");
        let long = "é".repeat(1000);
        assert_eq!(echoed(&long).chars().count(), ECHOED_METHOD_CHARS + 1);
    }

    #[test]
    fn upstream_batch_replies_are_spliced() {
        let mut answers = vec!["{\"id\":1}".to_owned()];
        splice_reply(&mut answers, br#" [{"id":2},{"id":3}] "#);
        splice_reply(&mut answers, br#"{"error":{"code":-32600}}"#);
        splice_reply(&mut answers, b"<html>");
        splice_reply(&mut answers, b"");
        assert_eq!(
            answers,
            [
                "{\"id\":1}",
                "{\"id\":2}",
                "{\"id\":3}",
                "{\"error\":{\"code\":-32600}}"
            ]
        );
    }

    #[test]
    fn retryable_codes() {
        assert!(is_retryable_reply(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit"}}"#
        ));
        assert!(!is_retryable_reply(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":3,"message":"execution reverted"}}"#
        ));
        assert!(!is_retryable_reply(br#"{"jsonrpc":"2.0","id":1,"result":"0x1"}"#));
        assert!(!is_retryable_reply(b"not json"));
    }

    proptest! {
        #[test]
        fn plan_never_panics(body in proptest::collection::vec(any::<u8>(), 0..256), method in "\\PC+", id in "\\PC*") {
            let g = gateway(GatewayMethodPolicy::default());
            let chain = g.chain(Some("eip155:31337")).unwrap();
            let _ = g.plan(chain, &body);
            let call = json!({"jsonrpc":"2.0","id":id,"method":method,"params":[]}).to_string();
            let plan = g.plan(chain, call.as_bytes()).unwrap();
            if let Some(answer) = plan.calls[0].local_answer() {
                prop_assert!(serde_json::from_str::<Value>(&answer).is_ok());
            }
            let batch = format!("[{call},{call}]");
            let plan = g.plan(chain, batch.as_bytes()).unwrap();
            if let Some(forwarded) = plan.forwarded_batch() {
                prop_assert!(serde_json::from_str::<Vec<Value>>(&forwarded).is_ok());
            }
        }
    }
}
