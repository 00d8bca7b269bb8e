//! The chain RPC gateway (spec §7 "Chain RPC"): JSON-RPC 2.0, single or
//! batch, forwarded to a chain's upstreams in order with fallback.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use latch_core::caip::CaipNetworkId;
use latch_core::transport::{rank_transports, Sample, RANK_INTERVAL_MS, RANK_SAMPLES};
use serde_json::Value;

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::outbound::redact_url;

/// JSON-RPC error codes that mean "this upstream, not this request": try the next one.
/// -32005 is the de facto "limit exceeded"; -32603 an upstream internal error.
const RETRYABLE_RPC_CODES: [i64; 2] = [-32005, -32603];

/// One served chain.
#[derive(Debug, Clone)]
pub struct Chain {
    /// Its CAIP-2 id.
    pub id: CaipNetworkId,
    /// Endpoints, in configured order.
    pub upstreams: Vec<String>,
    /// The same, parsed once rather than on every forwarded call.
    upstream_urls: Vec<reqwest::Url>,
    /// WebSocket endpoints, in configured order.
    pub ws_upstreams: Vec<String>,
    /// Whether upstreams are re-ordered by measured latency and stability.
    pub rank: bool,
    /// Indices into `upstreams` in the order they are tried.
    order: Arc<RwLock<Vec<usize>>>,
    /// Recent probes per upstream, when ranked.
    samples: Arc<Mutex<Vec<VecDeque<Sample>>>>,
}

impl Chain {
    /// Indices into `upstreams` in the order they are tried now.
    fn order(&self) -> Vec<usize> {
        self.order.read().unwrap_or_else(|e| e.into_inner()).clone()
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

/// Forwards JSON-RPC to the configured chains.
#[derive(Debug, Clone)]
pub struct Gateway {
    chains: BTreeMap<String, Chain>,
    http: reqwest::Client,
    max_batch: usize,
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
                        upstream_urls: c
                            .upstreams
                            .iter()
                            .map(|u| {
                                reqwest::Url::parse(u).map_err(|e| anyhow::anyhow!("upstream {}: {e}", redact_url(u)))
                            })
                            .collect::<anyhow::Result<_>>()?,
                        ws_upstreams: c.ws_upstreams.clone(),
                        rank: c.rank,
                        order: Arc::new(RwLock::new((0..c.upstreams.len()).collect())),
                        samples: Arc::new(Mutex::new(vec![VecDeque::new(); c.upstreams.len()])),
                    },
                ))
            })
            .collect::<anyhow::Result<_>>()?;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(config.upstream_timeout_ms))
            .connect_timeout(Duration::from_millis(config.upstream_timeout_ms.min(3_000)))
            // Upstreams are configured addresses: an environment proxy would see their API keys.
            .no_proxy()
            .build()?;
        Ok(Self {
            chains,
            http,
            max_batch: config.max_batch,
        })
    }

    /// Probes every upstream of every ranked chain once and re-orders them
    /// (spec §7: latency 0.3, stability 0.7, last 10 samples).
    pub async fn rank_once(&self) {
        for chain in self.chains.values().filter(|c| c.rank) {
            let Some(probe) = chain.probe_request() else { continue };
            let mut probes = tokio::task::JoinSet::new();
            for (index, upstream) in chain.upstreams.iter().enumerate() {
                let request = self
                    .http
                    .post(upstream)
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(probe);
                probes.spawn(async move {
                    let started = Instant::now();
                    let ok = match request.send().await {
                        Ok(r) if r.status().is_success() => {
                            r.json::<Value>().await.is_ok_and(|body| body.get("result").is_some())
                        }
                        _ => false,
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
            *chain.order.write().unwrap_or_else(|e| e.into_inner()) = ranked;
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
        Some(chain.order().into_iter().map(|i| chain.upstreams[i].clone()).collect())
    }

    /// The CAIP-2 ids served over HTTP, sorted.
    pub fn chain_ids(&self) -> impl Iterator<Item = &str> {
        self.chains.keys().map(String::as_str)
    }

    /// The chain `chain_id` names, checked: required, a CAIP-2 id, served here.
    pub fn chain(&self, chain_id: Option<&str>) -> ApiResult<&Chain> {
        let chain_id = chain_id
            .filter(|c| !c.is_empty())
            .ok_or(ApiError::bad("chainId", "chainId is required, e.g. ?chainId=eip155:1"))?;
        CaipNetworkId::parse(chain_id).map_err(|e| ApiError::bad("chainId", e.to_string()))?;
        self.chains
            .get(chain_id)
            .ok_or_else(|| ApiError::UnsupportedChain(chain_id.to_owned()))
    }

    /// Checks a JSON-RPC request or batch for `chain`; `Ok(Some(answer))` when
    /// the chain id alone answers it, `Ok(None)` when it must go upstream.
    pub fn check(&self, chain: &Chain, body: &[u8]) -> ApiResult<Option<Value>> {
        let request: Value =
            serde_json::from_slice(body).map_err(|e| ApiError::UnprocessableBody(format!("body is not JSON: {e}")))?;
        match &request {
            Value::Array(batch) => {
                if batch.is_empty() || batch.len() > self.max_batch {
                    return Err(ApiError::bad(
                        "body",
                        format!("a batch holds 1 to {} requests, not {}", self.max_batch, batch.len()),
                    ));
                }
                for (index, item) in batch.iter().enumerate() {
                    check_request(item).map_err(|why| ApiError::bad("body", format!("request {index}: {why}")))?;
                }
                Ok(None)
            }
            single => {
                check_request(single).map_err(|e| ApiError::bad("body", e))?;
                Ok(answer_locally(&chain.id, single))
            }
        }
    }

    /// Validates `body` and answers it from the chain `chain_id`.
    pub async fn call(&self, chain_id: Option<&str>, body: &Bytes) -> ApiResult<RpcReply> {
        let chain = self.chain(chain_id)?;
        if let Some(reply) = self.check(chain, body)? {
            return Ok(RpcReply(Bytes::from(reply.to_string())));
        }
        self.forward(chain, body.clone()).await
    }

    /// The CAIP-2 ids served over WebSocket, sorted.
    pub fn ws_chain_ids(&self) -> impl Iterator<Item = &str> {
        self.chains
            .iter()
            .filter(|(_, c)| !c.ws_upstreams.is_empty())
            .map(|(id, _)| id.as_str())
    }

    async fn forward(&self, chain: &Chain, body: Bytes) -> ApiResult<RpcReply> {
        let mut last_rpc_error = None;
        for index in chain.order() {
            // Upstream URLs carry API keys: logs name the host only, errors lose their URL.
            let upstream = redact_url(&chain.upstreams[index]);
            let response = self
                .http
                .post(chain.upstream_urls[index].clone())
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone())
                .send()
                .await;
            let response = match response {
                Ok(r) if r.status().is_success() => r,
                Ok(r) => {
                    tracing::warn!(chain = %chain.id, %upstream, status = %r.status(), "upstream refused");
                    continue;
                }
                Err(error) => {
                    let error = error.without_url();
                    tracing::warn!(chain = %chain.id, %upstream, %error, "upstream unreachable");
                    continue;
                }
            };
            let reply = match response.bytes().await {
                Ok(bytes) => bytes,
                Err(error) => {
                    let error = error.without_url();
                    tracing::warn!(chain = %chain.id, %upstream, %error, "upstream reply cut short");
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

/// JSON-RPC 2.0 request shape; `Err` says what is wrong.
fn check_request(request: &Value) -> Result<(), String> {
    let Value::Object(fields) = request else {
        return Err("a JSON-RPC request is an object".into());
    };
    if fields.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err("\"jsonrpc\" must be \"2.0\"".into());
    }
    match fields.get("method") {
        Some(Value::String(m)) if !m.is_empty() => {}
        _ => return Err("\"method\" must be a non-empty string".into()),
    }
    if !matches!(fields.get("params"), None | Some(Value::Array(_) | Value::Object(_))) {
        return Err("\"params\" must be an array or an object".into());
    }
    if !matches!(
        fields.get("id"),
        None | Some(Value::String(_) | Value::Number(_) | Value::Null)
    ) {
        return Err("\"id\" must be a string, a number or null".into());
    }
    Ok(())
}

/// Answers what the chain id alone determines, sparing an upstream round trip.
fn answer_locally(chain: &CaipNetworkId, request: &Value) -> Option<Value> {
    if chain.namespace != "eip155" {
        return None;
    }
    let chain_number: u64 = chain.reference.parse().ok()?;
    let result = match request.get("method")?.as_str()? {
        "eth_chainId" => format!("0x{chain_number:x}"),
        "net_version" => chain_number.to_string(),
        _ => return None,
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    Some(serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": result }))
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
    use serde_json::json;

    #[test]
    fn request_shape() {
        assert!(check_request(&json!({"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"})).is_ok());
        assert!(check_request(&json!({"jsonrpc":"2.0","id":"a","method":"x","params":{}})).is_ok());
        assert!(check_request(&json!({"jsonrpc":"1.0","id":1,"method":"x"}))
            .unwrap_err()
            .contains("jsonrpc"));
        assert!(check_request(&json!({"jsonrpc":"2.0","id":1}))
            .unwrap_err()
            .contains("method"));
        assert!(check_request(&json!({"jsonrpc":"2.0","id":1,"method":"x","params":3}))
            .unwrap_err()
            .contains("params"));
        assert!(check_request(&json!({"jsonrpc":"2.0","id":[1],"method":"x"}))
            .unwrap_err()
            .contains("id"));
        assert!(check_request(&json!("eth_call")).is_err());
    }

    #[test]
    fn chain_id_answered_locally() {
        let chain = CaipNetworkId::parse("eip155:31337").unwrap();
        let reply = answer_locally(&chain, &json!({"jsonrpc":"2.0","id":7,"method":"eth_chainId"})).unwrap();
        assert_eq!(reply, json!({"jsonrpc":"2.0","id":7,"result":"0x7a69"}));
        let reply = answer_locally(&chain, &json!({"jsonrpc":"2.0","id":"n","method":"net_version"})).unwrap();
        assert_eq!(reply["result"], "31337");
        assert!(answer_locally(&chain, &json!({"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"})).is_none());
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
}
