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
        // On a tie the plug-in configured first wins.
        .fold(None::<(&'static str, AggregatorQuote)>, |best, (name, q)| match best {
            Some(b) if b.1.to_amount >= q.to_amount => Some(b),
            _ => Some((name, q)),
        });
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

    use super::*;
    use crate::config::Secret;

    type Seen = Arc<Mutex<Vec<(String, String, String)>>>;

    /// A stand-in on a free port: 0x's price answer, 1inch's quote answer, or 500 when `fail`.
    async fn stand_in(buy: &'static str, fail: bool) -> (String, Seen) {
        let seen: Seen = Arc::default();
        let (a, b) = (seen.clone(), seen.clone());
        let app = axum::Router::new()
            .route(
                "/swap/allowance-holder/price",
                get(move |headers: HeaderMap, RawQuery(q): RawQuery| async move {
                    let key = headers
                        .get("0x-api-key")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned();
                    a.lock().unwrap().push(("0x".into(), key, q.unwrap_or_default()));
                    if fail {
                        return Err(axum::http::StatusCode::INTERNAL_SERVER_ERROR);
                    }
                    Ok(axum::Json(
                        serde_json::json!({"liquidityAvailable": true, "buyAmount": buy, "sellAmount": "1"}),
                    ))
                }),
            )
            .route(
                "/swap/v6.0/{chain}/quote",
                get(
                    move |Path(chain): Path<String>, headers: HeaderMap, RawQuery(q): RawQuery| async move {
                        let key = headers
                            .get("authorization")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or("")
                            .to_owned();
                        b.lock()
                            .unwrap()
                            .push((format!("1inch:{chain}"), key, q.unwrap_or_default()));
                        axum::Json(serde_json::json!({"dstAmount": buy}))
                    },
                ),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (url, seen)
    }

    fn input() -> SwapInput {
        SwapInput {
            pair: SwapPair {
                chain_id: 1,
                from: SwapToken::Native,
                to: SwapToken::Erc20(address!("A0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")),
            },
            amount: U256::from(1_000u64),
            user: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
        }
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
            spender: String::new(),
            gas: "0".into(),
            gas_price: "0".into(),
            network_fee: "0".into(),
            network_fee_usd: None,
            block: 7,
        }
    }

    fn plug_ins(url: &str) -> Vec<Box<dyn Aggregator>> {
        from_config(&[
            AggregatorConfig {
                kind: AggregatorKind::ZeroEx,
                url: url.into(),
                api_key: Secret("zx-key".into()),
            },
            AggregatorConfig {
                kind: AggregatorKind::OneInch,
                url: url.into(),
                api_key: Secret("oi-key".into()),
            },
        ])
    }

    #[tokio::test]
    async fn requests_follow_the_documented_shapes_and_the_best_quote_wins() {
        let (url, seen) = stand_in("5000", false).await;
        let best = best(&plug_ins(&url), &input(), chain_quote("4000")).await;
        assert_eq!(
            (
                best.source.as_str(),
                best.to_amount.as_str(),
                best.to_amount_min.as_str()
            ),
            ("0x", "5000", "4950")
        );
        let mut seen = seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(seen[0].0, "0x");
        assert_eq!(seen[0].1, "zx-key");
        assert_eq!(
            seen[0].2,
            "chainId=1&sellToken=0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee&buyToken=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&sellAmount=1000&taker=0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        );
        assert_eq!(seen[1].0, "1inch:1");
        assert_eq!(seen[1].1, "Bearer oi-key");
        assert_eq!(
            seen[1].2,
            "src=0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee&dst=0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48&amount=1000"
        );
    }

    #[tokio::test]
    async fn a_worse_or_failing_plug_in_leaves_the_chain_route() {
        let (url, _) = stand_in("3000", false).await;
        assert_eq!(
            best(&plug_ins(&url), &input(), chain_quote("4000")).await.source,
            "uniswap-v2"
        );
        let (url, _) = stand_in("9000", true).await;
        // 0x fails (500); 1inch answers 9000 and wins.
        let answer = best(&plug_ins(&url), &input(), chain_quote("4000")).await;
        assert_eq!((answer.source.as_str(), answer.to_amount.as_str()), ("1inch", "9000"));
        let only_zero_ex = from_config(&[AggregatorConfig {
            kind: AggregatorKind::ZeroEx,
            url,
            api_key: Secret("k".into()),
        }]);
        assert_eq!(
            best(&only_zero_ex, &input(), chain_quote("4000")).await.source,
            "uniswap-v2"
        );
        let nobody = from_config(&[AggregatorConfig {
            kind: AggregatorKind::OneInch,
            url: format!("http://127.0.0.1:{}", 1),
            api_key: Secret("k".into()),
        }]);
        assert_eq!(best(&nobody, &input(), chain_quote("4000")).await.source, "uniswap-v2");
    }
}
