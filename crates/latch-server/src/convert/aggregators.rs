//! Aggregator plug-ins (0x, 1inch) behind one trait, asked only when the
//! operator configures a key. The best of the chain's route and the plug-ins'
//! quotes wins; a plug-in that fails or is slow is skipped, so the chain's
//! route always answers. Written to the vendors' documented request and answer
//! shapes (0x Swap API v2 `price`/`quote`, 1inch Swap API v6 `quote`/`swap`).
//!
//! A plug-in's route is offered only when it can run now: the native coin, or a
//! token its spender may already spend. Approvals (`build-approve`) go to the
//! chain's router, so a visitor approves once and a plug-in never asks for a
//! second approval mid-swap; one approved elsewhere still competes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use alloy_primitives::{hex, Address, U256};
use latch_core::swap::{math, query, SwapToken, DEFAULT_SLIPPAGE_BPS, NATIVE_PLACEHOLDER};
use serde::Deserialize;

use super::handlers::{Quote, SwapInput};
use super::settings::{AggregatorConfig, AggregatorKind};

/// How long a plug-in may take before the chain's route answers alone.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The most an answer may weigh: a quote with its calldata is a few kB.
const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// A plug-in's JSON answer, refused when it is not 2xx, too large or not the expected shape.
async fn answer<T: serde::de::DeserializeOwned>(request: reqwest::RequestBuilder) -> anyhow::Result<T> {
    let response = request.send().await?.error_for_status()?;
    let body = crate::outbound::read_at_most(response, MAX_ANSWER_BYTES)
        .await
        .ok_or_else(|| anyhow::anyhow!("answer unreadable or over {MAX_ANSWER_BYTES} bytes"))?;
    Ok(serde_json::from_slice(&body)?)
}

/// An aggregator's quote: what `input` buys through it.
#[derive(Debug, PartialEq, Eq)]
pub struct AggregatorQuote {
    /// Output in base units.
    pub to_amount: U256,
    /// The contract a token input is spent by, when the plug-in names it.
    pub spender: Option<Address>,
}

/// An aggregator's swap, ready for the wallet.
#[derive(Debug, PartialEq, Eq)]
pub struct AggregatorSwap {
    /// Expected output, base units.
    pub to_amount: U256,
    /// The least output the transaction accepts (the slippage applied).
    pub to_amount_min: U256,
    /// The contract called.
    pub to: Address,
    /// Calldata.
    pub data: Vec<u8>,
    /// Wei sent.
    pub value: U256,
    /// The plug-in's gas estimate, when it gives one.
    pub gas: Option<U256>,
}

/// A swap aggregator.
#[async_trait::async_trait]
pub trait Aggregator: Send + Sync {
    /// Its name in quotes' `source`.
    fn name(&self) -> &'static str;
    /// Its quote for `input`; an error when it cannot fill it now (no liquidity, no allowance).
    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote>;
    /// Its transaction for `input` at `slippage_bps`.
    async fn build(&self, input: &SwapInput, slippage_bps: u32) -> anyhow::Result<AggregatorSwap>;
}

/// A plug-in per configured aggregator.
pub fn from_config(configs: &[AggregatorConfig]) -> Vec<Box<dyn Aggregator>> {
    configs
        .iter()
        .map(|c| -> Box<dyn Aggregator> {
            let http = crate::outbound::configured_client(TIMEOUT);
            let base = c.url.trim_end_matches('/').to_owned();
            match c.kind {
                AggregatorKind::ZeroEx => Box::new(ZeroEx {
                    http,
                    base,
                    key: c.api_key.0.clone(),
                }),
                AggregatorKind::OneInch => Box::new(OneInch {
                    http,
                    base,
                    key: c.api_key.0.clone(),
                    spenders: Mutex::default(),
                }),
            }
        })
        .collect()
}

/// Every plug-in's answer to `ask`, within the timeout; failures logged and dropped.
async fn answers<'a, T, F>(aggregators: &'a [Box<dyn Aggregator>], ask: F) -> Vec<(&'static str, T)>
where
    F: Fn(&'a dyn Aggregator) -> futures_util::future::BoxFuture<'a, anyhow::Result<T>>,
{
    let asks = aggregators.iter().map(|a| {
        let answer = ask(a.as_ref());
        async move {
            match tokio::time::timeout(TIMEOUT, answer).await {
                Ok(Ok(answer)) => Some((a.name(), answer)),
                Ok(Err(e)) => {
                    tracing::warn!(aggregator = a.name(), error = %e, "aggregator failed; chain route used");
                    None
                }
                Err(_) => None,
            }
        }
    });
    futures_util::future::join_all(asks)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// The answer paying most (on a tie the plug-in configured first).
fn most<T>(answers: Vec<(&'static str, T)>, out: impl Fn(&T) -> U256) -> Option<(&'static str, T)> {
    answers.into_iter().fold(None, |best, (name, answer)| match best {
        Some(b) if out(&b.1) >= out(&answer) => Some(b),
        _ => Some((name, answer)),
    })
}

/// `chain_quote`, or a plug-in's quote where one pays more.
pub async fn best(aggregators: &[Box<dyn Aggregator>], input: &SwapInput, chain_quote: Quote) -> Quote {
    let chain_out = U256::from_str_radix(&chain_quote.to_amount, 10).unwrap_or_default();
    let quotes = answers(aggregators, |a| a.quote(input)).await;
    let better = quotes.into_iter().filter(|(_, q)| q.to_amount > chain_out).collect();
    match most(better, |q| q.to_amount) {
        Some((name, q)) => Quote {
            id: format!("{name}:{}", chain_quote.block),
            to_amount: q.to_amount.to_string(),
            to_amount_min: math::minimum_received(q.to_amount, DEFAULT_SLIPPAGE_BPS).to_string(),
            source: name.into(),
            path: vec![chain_quote.from_account.clone(), chain_quote.to_account.clone()],
            spender: q.spender.map_or(chain_quote.spender.clone(), |s| s.to_checksum(None)),
            ..chain_quote
        },
        None => chain_quote,
    }
}

/// A plug-in's swap that pays more than the chain's route (`chain_out`) and still guarantees
/// `floor` (the minimum the visitor was shown, or the chain route's); `None`: build on the chain.
pub async fn best_swap(
    aggregators: &[Box<dyn Aggregator>],
    input: &SwapInput,
    slippage_bps: u32,
    chain_out: U256,
    floor: U256,
) -> Option<(&'static str, AggregatorSwap)> {
    if aggregators.is_empty() {
        return None;
    }
    let swaps = answers(aggregators, |a| a.build(input, slippage_bps)).await;
    let better = swaps
        .into_iter()
        .filter(|(_, s)| s.to_amount > chain_out && s.to_amount_min >= floor)
        .collect();
    most(better, |s| s.to_amount)
}

/// A token as aggregators name it: the contract, or the `0xeeee…` placeholder.
fn token(t: SwapToken) -> String {
    match t {
        SwapToken::Native => NATIVE_PLACEHOLDER.to_owned(),
        SwapToken::Erc20(a) => a.to_checksum(None),
    }
}

fn amount(field: &'static str, text: &str) -> anyhow::Result<U256> {
    query::parse_base_units(field, text).map_err(|e| anyhow::anyhow!("{e}"))
}

/// A transaction's wei or gas: zero allowed, decimal (or `0x`-hex, as some answers write it).
fn quantity(field: &str, text: &str) -> anyhow::Result<U256> {
    text.parse().map_err(|e| anyhow::anyhow!("{field}: {e}"))
}

fn address(field: &str, text: &str) -> anyhow::Result<Address> {
    text.parse().map_err(|e| anyhow::anyhow!("{field}: {e}"))
}

fn calldata(text: &str) -> anyhow::Result<Vec<u8>> {
    hex::decode(text).map_err(|e| anyhow::anyhow!("data: {e}"))
}

/// A slippage in basis points as the percent 1inch takes (`100` → `1`, `50` → `0.5`).
fn percent(bps: u32) -> String {
    let text = format!("{}.{:02}", bps / 100, bps % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// 0x Swap API v2.
pub struct ZeroEx {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl ZeroEx {
    /// The documented request on the AllowanceHolder flow: `price` (indicative) or `quote`
    /// (firm, with the transaction), with `0x-api-key` and `0x-version: v2` headers.
    pub fn request(&self, endpoint: &str, input: &SwapInput) -> reqwest::RequestBuilder {
        self.http
            .get(format!("{}/swap/allowance-holder/{endpoint}", self.base))
            .header("0x-api-key", &self.key)
            .header("0x-version", "v2")
            .query(&[
                ("chainId", input.pair.chain_id.to_string()),
                ("sellToken", token(input.pair.from)),
                ("buyToken", token(input.pair.to)),
                ("sellAmount", input.amount.to_string()),
                ("taker", input.user.to_checksum(None)),
            ])
    }
}

/// The parts of 0x's `price` and `quote` answers used here.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ZeroExAnswer {
    liquidity_available: bool,
    buy_amount: Option<String>,
    min_buy_amount: Option<String>,
    #[serde(default)]
    issues: ZeroExIssues,
    transaction: Option<ZeroExTransaction>,
}

#[derive(Default, Deserialize)]
struct ZeroExIssues {
    /// Set when the taker has not approved `spender` for the sell amount.
    allowance: Option<ZeroExAllowance>,
}

#[derive(Deserialize)]
struct ZeroExAllowance {
    spender: String,
}

#[derive(Deserialize)]
struct ZeroExTransaction {
    to: String,
    data: String,
    value: String,
    gas: Option<String>,
}

impl ZeroExAnswer {
    /// The bought amount, or why 0x cannot fill the swap now.
    fn fillable(&self) -> anyhow::Result<U256> {
        if let Some(short) = &self.issues.allowance {
            anyhow::bail!("the taker has not approved 0x's spender {}", short.spender);
        }
        match (self.liquidity_available, &self.buy_amount) {
            (true, Some(buy)) => amount("buyAmount", buy),
            _ => anyhow::bail!("0x has no liquidity for this pair"),
        }
    }
}

#[async_trait::async_trait]
impl Aggregator for ZeroEx {
    fn name(&self) -> &'static str {
        "0x"
    }

    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote> {
        let answer: ZeroExAnswer = answer(self.request("price", input)).await?;
        Ok(AggregatorQuote {
            to_amount: answer.fillable()?,
            spender: None,
        })
    }

    async fn build(&self, input: &SwapInput, slippage_bps: u32) -> anyhow::Result<AggregatorSwap> {
        let answer: ZeroExAnswer = answer(self.request("quote", input).query(&[("slippageBps", slippage_bps)])).await?;
        let to_amount = answer.fillable()?;
        let (Some(min), Some(tx)) = (&answer.min_buy_amount, &answer.transaction) else {
            anyhow::bail!("0x's quote has no transaction");
        };
        Ok(AggregatorSwap {
            to_amount,
            to_amount_min: amount("minBuyAmount", min)?,
            to: address("transaction.to", &tx.to)?,
            data: calldata(&tx.data)?,
            value: quantity("transaction.value", &tx.value)?,
            gas: tx.gas.as_deref().map(|g| quantity("transaction.gas", g)).transpose()?,
        })
    }
}

/// How long 1inch's router address (`approve/spender`) is reused per chain: it changes only
/// with a new router version, and asking it again with every quote for a token spent one of the
/// operator's rate-limited requests each time.
const SPENDER_TTL: Duration = Duration::from_secs(3600);

/// 1inch Swap API v6.
pub struct OneInch {
    http: reqwest::Client,
    base: String,
    key: String,
    /// The router per chain id, with when it was asked.
    spenders: Mutex<HashMap<u64, (Address, Instant)>>,
}

impl OneInch {
    /// The documented request `GET /swap/v6.0/{chain}/{endpoint}` with a bearer key.
    pub fn request(&self, endpoint: &str, input: &SwapInput) -> reqwest::RequestBuilder {
        self.http
            .get(format!("{}/swap/v6.0/{}/{endpoint}", self.base, input.pair.chain_id))
            .bearer_auth(&self.key)
    }

    fn pair(input: &SwapInput) -> [(&'static str, String); 3] {
        [
            ("src", token(input.pair.from)),
            ("dst", token(input.pair.to)),
            ("amount", input.amount.to_string()),
        ]
    }

    /// For a token input, 1inch's router (the spender), after checking it may spend the amount.
    async fn spender(&self, input: &SwapInput) -> anyhow::Result<Option<Address>> {
        let SwapToken::Erc20(sold) = input.pair.from else {
            return Ok(None);
        };
        let chain = input.pair.chain_id;
        let cached = self
            .spenders
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&chain)
            .filter(|(_, asked)| asked.elapsed() < SPENDER_TTL)
            .map(|(spender, _)| *spender);
        let spender = async {
            if let Some(spender) = cached {
                return Ok(spender);
            }
            let answer = answer::<OneInchSpender>(self.request("approve/spender", input)).await?;
            let spender = address("address", &answer.address)?;
            self.spenders
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(chain, (spender, Instant::now()));
            Ok(spender)
        };
        let allowance = answer::<OneInchAllowance>(self.request("approve/allowance", input).query(&[
            ("tokenAddress", sold.to_checksum(None)),
            ("walletAddress", input.user.to_checksum(None)),
        ]));
        let (spender, allowance) = tokio::try_join!(spender, allowance)?;
        if amount("allowance", &allowance.allowance)? < input.amount {
            anyhow::bail!("the wallet has not approved 1inch's router {spender}");
        }
        Ok(Some(spender))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OneInchQuote {
    dst_amount: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OneInchSwap {
    dst_amount: String,
    tx: OneInchTransaction,
}

#[derive(Deserialize)]
struct OneInchTransaction {
    to: String,
    data: String,
    value: String,
    gas: Option<u64>,
}

#[derive(Deserialize)]
struct OneInchSpender {
    address: String,
}

#[derive(Deserialize)]
struct OneInchAllowance {
    allowance: String,
}

#[async_trait::async_trait]
impl Aggregator for OneInch {
    fn name(&self) -> &'static str {
        "1inch"
    }

    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote> {
        let quote = async {
            let answer: OneInchQuote = answer(self.request("quote", input).query(&Self::pair(input))).await?;
            amount("dstAmount", &answer.dst_amount)
        };
        let (to_amount, spender) = tokio::try_join!(quote, self.spender(input))?;
        Ok(AggregatorQuote { to_amount, spender })
    }

    async fn build(&self, input: &SwapInput, slippage_bps: u32) -> anyhow::Result<AggregatorSwap> {
        self.spender(input).await?;
        let user = input.user.to_checksum(None);
        let answer: OneInchSwap = answer(self.request("swap", input).query(&Self::pair(input)).query(&[
            ("from", user.as_str()),
            ("origin", user.as_str()),
            ("slippage", &percent(slippage_bps)),
        ]))
        .await?;
        let to_amount = amount("dstAmount", &answer.dst_amount)?;
        Ok(AggregatorSwap {
            to_amount,
            to_amount_min: math::minimum_received(to_amount, slippage_bps),
            to: address("tx.to", &answer.tx.to)?,
            data: calldata(&answer.tx.data)?,
            value: quantity("tx.value", &answer.tx.value)?,
            gas: answer.tx.gas.map(U256::from),
        })
    }
}

/// The vendors' APIs cannot be reached from here: these tests check request building and answer
/// parsing against a stand-in local server that answers in the vendors' documented shapes.
#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use alloy_primitives::address;
    use axum::extract::{Path, RawQuery};
    use axum::http::HeaderMap;
    use axum::routing::get;
    use latch_core::swap::SwapPair;
    use serde_json::{json, Value};

    use super::*;
    use crate::config::Secret;

    type Seen = Arc<Mutex<Vec<(String, String, String)>>>;

    const USDC: Address = address!("A0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48");
    const ROUTER: &str = "0x111111125421cA6dc452d289314280a0f8842A65";
    const ALLOWANCE_HOLDER: &str = "0x0000000000001fF3684f28c67538d4D072C22734";

    /// What the stand-in answers.
    #[derive(Clone, Copy)]
    struct Answers {
        /// Bought amount, both vendors.
        buy: &'static str,
        /// Every call answers 500.
        fail: bool,
        /// 0x reports the allowance short; 1inch's allowance answer is 0.
        short: bool,
    }

    const GOOD: Answers = Answers {
        buy: "5000",
        fail: false,
        short: false,
    };

    fn seen_call(seen: &Seen, who: String, headers: &HeaderMap, key: &str, query: Option<String>) {
        let key = headers.get(key).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        seen.lock().unwrap().push((who, key, query.unwrap_or_default()));
    }

    /// A stand-in on a free port for 0x's price/quote and 1inch's quote/swap/approve answers.
    async fn stand_in(answers: Answers) -> (String, Seen) {
        let seen: Seen = Arc::default();
        let zero_ex = {
            let seen = seen.clone();
            move |Path(endpoint): Path<String>, headers: HeaderMap, RawQuery(q): RawQuery| async move {
                seen_call(&seen, format!("0x:{endpoint}"), &headers, "0x-api-key", q);
                if answers.fail {
                    return Err(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
                }
                let mut body = json!({"liquidityAvailable": true, "buyAmount": answers.buy, "sellAmount": "1000",
                    "minBuyAmount": "4950", "issues": {"allowance": null, "balance": null, "simulationIncomplete": false}});
                if answers.short {
                    body["issues"]["allowance"] = json!({"actual": "0", "spender": ALLOWANCE_HOLDER});
                }
                if endpoint == "quote" {
                    body["transaction"] = json!({"to": ALLOWANCE_HOLDER, "data": "0x2213bc0b", "value": "1000", "gas": "210000", "gasPrice": "1"});
                }
                Ok(axum::Json(body))
            }
        };
        let one_inch = {
            let seen = seen.clone();
            move |Path((chain, endpoint)): Path<(String, String)>, headers: HeaderMap, RawQuery(q): RawQuery| async move {
                seen_call(&seen, format!("1inch:{chain}:{endpoint}"), &headers, "authorization", q);
                if answers.fail {
                    return Err(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
                }
                let body: Value = match endpoint.as_str() {
                    "quote" => json!({"dstAmount": answers.buy}),
                    "swap" => {
                        json!({"dstAmount": answers.buy, "tx": {"from": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
                        "to": ROUTER, "data": "0x07ed2379", "value": "0", "gas": 180000, "gasPrice": "1"}})
                    }
                    _ => return Err(axum::http::StatusCode::NOT_FOUND),
                };
                Ok(axum::Json(body))
            }
        };
        let approve = {
            let seen = seen.clone();
            move |Path((chain, endpoint)): Path<(String, String)>, headers: HeaderMap, RawQuery(q): RawQuery| async move {
                seen_call(
                    &seen,
                    format!("1inch:{chain}:approve/{endpoint}"),
                    &headers,
                    "authorization",
                    q,
                );
                match endpoint.as_str() {
                    "spender" => axum::Json(json!({"address": ROUTER})),
                    _ => axum::Json(json!({"allowance": if answers.short { "0" } else { "1000" }})),
                }
            }
        };
        let app = axum::Router::new()
            .route("/swap/allowance-holder/{endpoint}", get(zero_ex))
            .route("/swap/v6.0/{chain}/{endpoint}", get(one_inch))
            .route("/swap/v6.0/{chain}/approve/{endpoint}", get(approve));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (url, seen)
    }

    fn input(from: SwapToken, to: SwapToken) -> SwapInput {
        SwapInput {
            pair: SwapPair { chain_id: 1, from, to },
            amount: U256::from(1_000u64),
            user: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
        }
    }

    fn native_to_usdc() -> SwapInput {
        input(SwapToken::Native, SwapToken::Erc20(USDC))
    }

    fn chain_quote(to_amount: &str) -> Quote {
        Quote {
            id: "uniswap-v2:eip155:1:7".into(),
            from_amount: "1000".into(),
            from_account: "eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee".into(),
            to_amount: to_amount.into(),
            to_account: "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48".into(),
            to_amount_min: "0".into(),
            slippage: 1.0,
            price_impact: 0.1,
            source: "uniswap-v2".into(),
            path: vec![],
            spender: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D".into(),
            gas: "0".into(),
            gas_price: "0".into(),
            network_fee: "0".into(),
            network_fee_usd: None,
            block: 7,
        }
    }

    fn plug_in(kind: AggregatorKind, url: &str, key: &str) -> AggregatorConfig {
        AggregatorConfig {
            kind,
            url: url.into(),
            api_key: Secret(key.into()),
        }
    }

    fn plug_ins(url: &str) -> Vec<Box<dyn Aggregator>> {
        from_config(&[
            plug_in(AggregatorKind::ZeroEx, url, "zx-key"),
            plug_in(AggregatorKind::OneInch, url, "oi-key"),
        ])
    }

    fn sorted(seen: &Seen) -> Vec<(String, String, String)> {
        let mut seen = seen.lock().unwrap().clone();
        seen.sort();
        seen
    }

    #[tokio::test]
    async fn requests_follow_the_documented_shapes_and_the_best_quote_wins() {
        let (url, seen) = stand_in(GOOD).await;
        let best = best(&plug_ins(&url), &native_to_usdc(), chain_quote("4000")).await;
        assert_eq!(
            (
                best.source.as_str(),
                best.to_amount.as_str(),
                best.to_amount_min.as_str()
            ),
            ("0x", "5000", "4950")
        );
        let seen = sorted(&seen);
        assert_eq!(
            seen,
            [
                (
                    "0x:price".to_owned(),
                    "zx-key".to_owned(),
                    "chainId=1&sellToken=0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee&buyToken=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&sellAmount=1000&taker=0x70997970C51812dc3A010C7d01b50e0d17dc79C8".to_owned()
                ),
                (
                    "1inch:1:quote".to_owned(),
                    "Bearer oi-key".to_owned(),
                    "src=0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee&dst=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&amount=1000".to_owned()
                ),
            ],
            "the native coin needs no allowance check"
        );
    }

    #[tokio::test]
    async fn a_worse_or_failing_plug_in_leaves_the_chain_route() {
        let (url, _) = stand_in(Answers { buy: "3000", ..GOOD }).await;
        assert_eq!(
            best(&plug_ins(&url), &native_to_usdc(), chain_quote("4000"))
                .await
                .source,
            "uniswap-v2"
        );
        let (failing, _) = stand_in(Answers { fail: true, ..GOOD }).await;
        let (good, _) = stand_in(Answers { buy: "9000", ..GOOD }).await;
        // 0x fails (500); 1inch answers 9000 and wins.
        let mixed = from_config(&[
            plug_in(AggregatorKind::ZeroEx, &failing, "k"),
            plug_in(AggregatorKind::OneInch, &good, "k"),
        ]);
        let answer = best(&mixed, &native_to_usdc(), chain_quote("4000")).await;
        assert_eq!((answer.source.as_str(), answer.to_amount.as_str()), ("1inch", "9000"));
        let nobody = from_config(&[plug_in(AggregatorKind::OneInch, "http://127.0.0.1:1", "k")]);
        assert_eq!(
            best(&nobody, &native_to_usdc(), chain_quote("4000")).await.source,
            "uniswap-v2"
        );
    }

    #[tokio::test]
    async fn a_token_input_counts_only_with_the_plug_ins_allowance() {
        let usdc_to_native = input(SwapToken::Erc20(USDC), SwapToken::Native);
        let (url, seen) = stand_in(GOOD).await;
        let only_one_inch = from_config(&[plug_in(AggregatorKind::OneInch, &url, "oi-key")]);
        let answer = best(&only_one_inch, &usdc_to_native, chain_quote("4000")).await;
        assert_eq!(
            (answer.source.as_str(), answer.spender.as_str()),
            ("1inch", ROUTER),
            "the approval the quote names is 1inch's router"
        );
        let calls: Vec<_> = sorted(&seen).into_iter().map(|(who, _, query)| (who, query)).collect();
        assert_eq!(
            calls[0],
            (
                "1inch:1:approve/allowance".to_owned(),
                "tokenAddress=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&walletAddress=0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
                    .to_owned()
            )
        );
        assert_eq!(calls[1].0, "1inch:1:approve/spender");

        // The router is asked once per chain: a second quote asks only the allowance.
        let before = sorted(&seen).len();
        best(&only_one_inch, &usdc_to_native, chain_quote("4000")).await;
        let again: Vec<_> = sorted(&seen).into_iter().map(|(who, _, _)| who).collect();
        assert_eq!(again.len() - before, 2, "{again:?}");
        assert_eq!(again.iter().filter(|who| *who == "1inch:1:approve/spender").count(), 1);
        assert_eq!(
            again.iter().filter(|who| *who == "1inch:1:approve/allowance").count(),
            2
        );

        // Without the allowance neither plug-in's route is offered, nor built.
        let (url, _) = stand_in(Answers { short: true, ..GOOD }).await;
        let answer = best(&plug_ins(&url), &usdc_to_native, chain_quote("4000")).await;
        assert_eq!(answer.source, "uniswap-v2");
        assert_eq!(
            best_swap(&plug_ins(&url), &usdc_to_native, 100, U256::from(4000), U256::ZERO).await,
            None
        );
    }

    #[tokio::test]
    async fn a_build_takes_the_plug_ins_transaction_when_it_pays_more_and_keeps_the_minimum() {
        let (url, seen) = stand_in(GOOD).await;
        let (name, swap) = best_swap(
            &plug_ins(&url),
            &native_to_usdc(),
            50,
            U256::from(4000),
            U256::from(4900),
        )
        .await
        .expect("0x pays more");
        assert_eq!(
            (name, swap),
            (
                "0x",
                AggregatorSwap {
                    to_amount: U256::from(5000),
                    to_amount_min: U256::from(4950),
                    to: ALLOWANCE_HOLDER.parse().unwrap(),
                    data: vec![0x22, 0x13, 0xbc, 0x0b],
                    value: U256::from(1000),
                    gas: Some(U256::from(210_000)),
                }
            ),
            "on a tie the plug-in configured first wins"
        );
        let seen = sorted(&seen);
        assert_eq!(seen[0].0, "0x:quote");
        assert!(
            seen[0]
                .2
                .ends_with("&taker=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&slippageBps=50"),
            "{}",
            seen[0].2
        );
        assert_eq!(seen[1].0, "1inch:1:swap");
        assert_eq!(
            seen[1].2,
            "src=0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee&dst=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&amount=1000&from=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&origin=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&slippage=0.5"
        );

        // 1inch alone: its minimum is its output at the slippage.
        let only_one_inch = from_config(&[plug_in(AggregatorKind::OneInch, &url, "k")]);
        let (_, swap) = best_swap(&only_one_inch, &native_to_usdc(), 100, U256::from(4000), U256::ZERO)
            .await
            .unwrap();
        assert_eq!(
            (swap.to_amount_min, swap.gas),
            (U256::from(4950), Some(U256::from(180_000)))
        );

        // A minimum below what the visitor was shown, or no gain over the chain: the chain builds.
        assert_eq!(
            best_swap(
                &plug_ins(&url),
                &native_to_usdc(),
                100,
                U256::from(4000),
                U256::from(4951)
            )
            .await,
            None
        );
        assert_eq!(
            best_swap(&plug_ins(&url), &native_to_usdc(), 100, U256::from(5000), U256::ZERO).await,
            None
        );
        assert_eq!(
            best_swap(&[], &native_to_usdc(), 100, U256::ZERO, U256::ZERO).await,
            None
        );
    }

    #[tokio::test]
    async fn an_answer_over_the_size_bound_is_refused_and_the_chain_route_answers() {
        // A well-formed, better quote padded past the bound: refused by size, not by shape.
        let padding = "x".repeat(MAX_ANSWER_BYTES);
        let body = json!({"liquidityAvailable": true, "buyAmount": "9000", "padding": padding}).to_string();
        let app = axum::Router::new().route("/swap/allowance-holder/{endpoint}", get(move || async move { body }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let zero_ex = from_config(&[plug_in(AggregatorKind::ZeroEx, &url, "k")]);
        let error = zero_ex[0].quote(&native_to_usdc()).await.unwrap_err();
        assert!(error.to_string().contains("over 262144 bytes"), "{error}");
        assert_eq!(
            best(&zero_ex, &native_to_usdc(), chain_quote("4000")).await.source,
            "uniswap-v2"
        );
    }

    #[test]
    fn slippage_reads_as_1inch_percent() {
        assert_eq!(
            [1, 50, 100, 150, 300, 5000].map(percent),
            ["0.01", "0.5", "1", "1.5", "3", "50"]
        );
    }
}
