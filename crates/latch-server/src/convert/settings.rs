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
    /// Concentrated-liquidity pools (Uniswap V3-style) quoted through their QuoterV2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uniswap_v3: Option<UniswapV3Config>,
}

/// Most fee tiers per chain: each adds a direct path and multiplies the two-hop ones.
pub const MAX_FEE_TIERS: usize = 4;

/// A Uniswap V3-style market beside the V2 one: its pools quoted by QuoterV2, swaps built
/// for its SwapRouter (which approvals then name when one of its routes wins).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UniswapV3Config {
    /// The factory (pool addresses are derived from it, to read their prices).
    pub factory: String,
    /// QuoterV2 (`quoteExactInput`).
    pub quoter: String,
    /// SwapRouter (`exactInput`, `multicall`, `unwrapWETH9`).
    pub router: String,
    /// Fee tiers asked, hundredths of a basis point (default 500, 3000, 10000).
    #[serde(default = "default_fee_tiers")]
    pub fee_tiers: Vec<u32>,
    /// keccak256 of the pool creation code, `0x`-hex; default Uniswap's (forks differ).
    #[serde(default)]
    pub pool_init_code_hash: Option<String>,
}

fn default_fee_tiers() -> Vec<u32> {
    latch_core::swap::v3::DEFAULT_FEE_TIERS.to_vec()
}

impl UniswapV3Config {
    /// The pool init code hash, configured or Uniswap's; `None` when configured malformed.
    pub fn init_code_hash(&self) -> Option<alloy_primitives::B256> {
        match &self.pool_init_code_hash {
            None => Some(latch_core::swap::v3::UNISWAP_POOL_INIT_CODE_HASH),
            Some(hex) => hex.parse().ok(),
        }
    }
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
        if let Some(v3) = &market.uniswap_v3 {
            let what = format!("{what}: uniswap_v3");
            for value in [&v3.factory, &v3.quoter, &v3.router] {
                address(value, &what)?;
            }
            let fee = latch_core::swap::v3::FEE_DENOMINATOR;
            if v3.fee_tiers.is_empty()
                || v3.fee_tiers.len() > MAX_FEE_TIERS
                || v3.fee_tiers.iter().any(|f| *f == 0 || *f >= fee)
            {
                return Err(ConfigError::Invalid(format!(
                    "{what}: 1 to {MAX_FEE_TIERS} fee_tiers, each above 0 and below {fee}"
                )));
            }
            if v3.init_code_hash().is_none() {
                return Err(ConfigError::Invalid(format!(
                    "{what}: pool_init_code_hash must be 32 bytes of 0x-hex"
                )));
            }
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
