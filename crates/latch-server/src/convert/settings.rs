//! Configuration of swaps: per-chain markets and aggregator plug-ins, checked at startup.

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret};

/// Most base tokens per chain: each adds a two-hop path (two pools) to every quote.
pub const MAX_BASE_TOKENS: usize = 8;

/// A Uniswap V2-style market on one eip155 chain.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SwapConfig {
    /// CAIP-2 id of the chain (a gateway chain).
    pub chain: String,
    /// The factory that knows the pools (`getPair`).
    pub uniswap_v2_factory: String,
    /// The Router02 built swaps go through (and the spender of approvals).
    pub router: String,
    /// The wrapped native coin (WETH); native swaps trade through it.
    pub wrapped_native: String,
    /// Tokens two-hop routes may pass through besides the wrapped native coin (e.g. USDC).
    #[serde(default)]
    pub base_tokens: Vec<String>,
}

/// Which aggregator API a plug-in speaks.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AggregatorKind {
    /// 0x Swap API v2 (`/swap/allowance-holder/quote`).
    #[serde(rename = "0x")]
    ZeroEx,
    /// 1inch Swap API v6 (`/swap/v6.0/{chain}/swap`).
    #[serde(rename = "1inch")]
    OneInch,
}

/// An aggregator asked for quotes besides the chain's pools.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AggregatorConfig {
    /// Which API.
    pub kind: AggregatorKind,
    /// Its base URL (`https://…`).
    pub url: String,
    /// The API key (sent as the API's key header; never logged).
    pub api_key: Secret,
}

/// Swap markets on served chains with valid addresses, one per chain;
/// aggregators with an http(s) URL and a key.
pub fn check(
    swap: &[SwapConfig],
    aggregators: &[AggregatorConfig],
    served: &dyn Fn(&str, &str) -> Result<(), ConfigError>,
    address: &dyn Fn(&str, &str) -> Result<(), ConfigError>,
) -> Result<(), ConfigError> {
    for (i, market) in swap.iter().enumerate() {
        let what = format!("swap for {}", market.chain);
        served(&market.chain, &what)?;
        if !market.chain.starts_with("eip155:") {
            return Err(ConfigError::Invalid(format!("{what}: swaps are on eip155 chains")));
        }
        if swap[..i].iter().any(|m| m.chain == market.chain) {
            return Err(ConfigError::Invalid(format!("{what}: configured twice")));
        }
        for value in [&market.uniswap_v2_factory, &market.router, &market.wrapped_native] {
            address(value, &what)?;
        }
        if market.base_tokens.len() > MAX_BASE_TOKENS {
            return Err(ConfigError::Invalid(format!(
                "{what}: at most {MAX_BASE_TOKENS} base_tokens"
            )));
        }
        for token in &market.base_tokens {
            address(token, &what)?;
        }
    }
    for aggregator in aggregators {
        let what = format!("swap_aggregators {:?}", aggregator.kind);
        let url = url::Url::parse(&aggregator.url).map_err(|e| ConfigError::Invalid(format!("{what}: url: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") || aggregator.api_key.0.trim().is_empty() {
            return Err(ConfigError::Invalid(format!("{what}: an http(s) url and an api_key")));
        }
    }
    Ok(())
}
