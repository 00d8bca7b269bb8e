//! Aggregator plug-ins (0x, 1inch) behind one trait, asked only when the
//! operator configures a key. The best of the chain's route and the plug-ins'
//! quotes wins; a plug-in that fails or is slow is skipped, so the chain's
//! route always answers. Written to the vendors' documented request and answer
//! shapes (0x Swap API v2 `price`, 1inch Swap API v6 `quote`).

use std::time::Duration;

use alloy_primitives::U256;
use latch_core::swap::{math, query, SwapToken, DEFAULT_SLIPPAGE_BPS, NATIVE_PLACEHOLDER};
use serde::Deserialize;

use super::handlers::{Quote, SwapInput};
use super::settings::{AggregatorConfig, AggregatorKind};

/// How long a plug-in may take before the chain's route answers alone.
const TIMEOUT: Duration = Duration::from_secs(2);

/// An aggregator's quote: what `input` buys through it.
#[derive(Debug, PartialEq, Eq)]
pub struct AggregatorQuote {
    /// Output in base units.
    pub to_amount: U256,
}

/// A swap aggregator.
#[async_trait::async_trait]
pub trait Aggregator: Send + Sync {
    /// Its name in quotes' `source`.
    fn name(&self) -> &'static str;
    /// Its quote for `input`.
    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote>;
}

/// A plug-in per configured aggregator.
pub fn from_config(configs: &[AggregatorConfig]) -> Vec<Box<dyn Aggregator>> {
    configs
        .iter()
        .map(|c| -> Box<dyn Aggregator> {
            let http = reqwest::Client::builder().timeout(TIMEOUT).build().unwrap_or_default();
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
                }),
            }
        })
        .collect()
}

/// `chain_quote`, or a plug-in's quote where one pays more.
pub async fn best(aggregators: &[Box<dyn Aggregator>], input: &SwapInput, chain_quote: Quote) -> Quote {
    let asks = aggregators.iter().map(|a| async move {
        let answer = tokio::time::timeout(TIMEOUT, a.quote(input)).await;
        match answer {
            Ok(Ok(quote)) => Some((a.name(), quote)),
            Ok(Err(e)) => {
                tracing::warn!(aggregator = a.name(), error = %e, "aggregator quote failed; chain route used");
                None
            }
            Err(_) => None,
        }
    });
    let answers = futures_util::future::join_all(asks).await;
    let chain_out = U256::from_str_radix(&chain_quote.to_amount, 10).unwrap_or_default();
    let best = answers
        .into_iter()
        .flatten()
        .filter(|(_, q)| q.to_amount > chain_out)
        .max_by_key(|(_, q)| q.to_amount);
    match best {
        Some((name, q)) => Quote {
            id: format!("{name}:{}", chain_quote.block),
            to_amount: q.to_amount.to_string(),
            to_amount_min: math::minimum_received(q.to_amount, DEFAULT_SLIPPAGE_BPS).to_string(),
            source: name.into(),
            path: vec![chain_quote.from_account.clone(), chain_quote.to_account.clone()],
            ..chain_quote
        },
        None => chain_quote,
    }
}

/// A token as aggregators name it: the contract, or the `0xeeee…` placeholder.
fn token(t: SwapToken) -> String {
    match t {
        SwapToken::Native => NATIVE_PLACEHOLDER.to_owned(),
        SwapToken::Erc20(a) => a.to_checksum(None),
    }
}

fn amount(text: &str) -> anyhow::Result<U256> {
    query::parse_base_units("buyAmount", text).map_err(|e| anyhow::anyhow!("{e}"))
}

/// 0x Swap API v2.
pub struct ZeroEx {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl ZeroEx {
    /// The documented price request: `GET /swap/allowance-holder/price` with
    /// `0x-api-key` and `0x-version: v2` headers.
    pub fn request(&self, input: &SwapInput) -> reqwest::RequestBuilder {
        self.http
            .get(format!("{}/swap/allowance-holder/price", self.base))
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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ZeroExPrice {
    liquidity_available: bool,
    buy_amount: Option<String>,
}

#[async_trait::async_trait]
impl Aggregator for ZeroEx {
    fn name(&self) -> &'static str {
        "0x"
    }

    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote> {
        let answer: ZeroExPrice = self.request(input).send().await?.error_for_status()?.json().await?;
        match (answer.liquidity_available, answer.buy_amount) {
            (true, Some(buy)) => Ok(AggregatorQuote {
                to_amount: amount(&buy)?,
            }),
            _ => anyhow::bail!("0x has no liquidity for this pair"),
        }
    }
}

/// 1inch Swap API v6.
pub struct OneInch {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl OneInch {
    /// The documented quote request: `GET /swap/v6.0/{chain}/quote` with a bearer key.
    pub fn request(&self, input: &SwapInput) -> reqwest::RequestBuilder {
        self.http
            .get(format!("{}/swap/v6.0/{}/quote", self.base, input.pair.chain_id))
            .bearer_auth(&self.key)
            .query(&[
                ("src", token(input.pair.from)),
                ("dst", token(input.pair.to)),
                ("amount", input.amount.to_string()),
            ])
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OneInchQuote {
    dst_amount: String,
}

#[async_trait::async_trait]
impl Aggregator for OneInch {
    fn name(&self) -> &'static str {
        "1inch"
    }

    async fn quote(&self, input: &SwapInput) -> anyhow::Result<AggregatorQuote> {
        let answer: OneInchQuote = self.request(input).send().await?.error_for_status()?.json().await?;
        Ok(AggregatorQuote {
            to_amount: amount(&answer.dst_amount)?,
        })
    }
}
