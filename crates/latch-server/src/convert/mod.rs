//! `/v1/convert/*` (behaviour 6.7, 7.7): swaps quoted and built from the chain's own
//! pools (Uniswap V2-style markets configured per chain, the devnet's from its
//! fixture), so a self-hosted team needs no third-party key; aggregator
//! plug-ins join in when configured (`aggregators`). The route math, calldata
//! and input parsing are latch-core's (`latch_core::swap`); this module reads
//! the chain and answers in the documented shapes.

pub mod aggregators;
mod handlers;
pub mod market;
pub mod settings;
mod v3;

use axum::http::StatusCode;
use std::collections::HashMap;

use alloy_primitives::{Address, U256};
use latch_core::swap::{SwapPair, SWAP_CHAINS};

use crate::config::Config;
use crate::error::{ApiError, ApiResult};

pub use handlers::*;
use market::{Market, PoolCache, V3Market};

/// The documented words for a chain swaps are not offered on.
pub const UNSUPPORTED: &str = "Network not supported for Gas Price or Swaps";

/// Swap markets and caches, built once from the configuration.
pub struct Convert {
    markets: HashMap<String, Market>,
    cache: PoolCache,
    aggregators: Vec<Box<dyn aggregators::Aggregator>>,
}

fn parse(value: &str) -> anyhow::Result<Address> {
    Ok(latch_core::address::parse_evm_address(value)?)
}

impl Convert {
    /// The markets of `config` (already validated).
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let markets = config
            .swap
            .iter()
            .map(|m| {
                Ok((
                    m.chain.clone(),
                    Market {
                        chain: m.chain.clone(),
                        factory: parse(&m.uniswap_v2_factory)?,
                        router: parse(&m.router)?,
                        wrapped_native: parse(&m.wrapped_native)?,
                        bases: m.base_tokens.iter().map(|t| parse(t)).collect::<anyhow::Result<_>>()?,
                        v3: m
                            .uniswap_v3
                            .as_ref()
                            .map(|v3| {
                                anyhow::Ok(V3Market {
                                    factory: parse(&v3.factory)?,
                                    quoter: parse(&v3.quoter)?,
                                    router: parse(&v3.router)?,
                                    fee_tiers: v3.fee_tiers.clone(),
                                    init_code_hash: v3
                                        .init_code_hash()
                                        .ok_or_else(|| anyhow::anyhow!("uniswap_v3.pool_init_code_hash"))?,
                                })
                            })
                            .transpose()?,
                    },
                ))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self {
            markets,
            cache: PoolCache::default(),
            aggregators: aggregators::from_config(&config.swap_aggregators),
        })
    }

    /// Whether swaps and gas prices are offered on EIP-155 chain `id`: the documented
    /// twelve networks and every chain with a configured market.
    pub fn is_swap_network(&self, id: u64) -> bool {
        SWAP_CHAINS.contains(&id) || self.markets.contains_key(&format!("eip155:{id}"))
    }

    /// The CAIP-2 id of swap network `id`, or the documented refusal.
    fn network(&self, id: u64, field: &'static str) -> ApiResult<String> {
        if self.is_swap_network(id) {
            Ok(format!("eip155:{id}"))
        } else {
            Err(ApiError::Refused {
                status: StatusCode::BAD_REQUEST,
                code: "UNSUPPORTED_SWAP_NETWORK",
                field,
                description: UNSUPPORTED.into(),
            })
        }
    }

    /// The market quotes and builds go through on `pair`'s chain.
    fn market(&self, pair: &SwapPair) -> ApiResult<&Market> {
        let chain = self.network(pair.chain_id, "from")?;
        self.markets.get(&chain).ok_or_else(|| ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "NO_ROUTE",
            field: "from",
            description: format!("No route: this server has no swap market configured for {chain}"),
        })
    }
}

/// Gas a Uniswap V2 swap takes, for a fee shown before the wallet estimates
/// (measured on the devnet router: ~110k for one pool, ~60k per further pool).
pub fn typical_swap_gas(hops: usize) -> U256 {
    U256::from(120_000u64 + 65_000 * hops.saturating_sub(1) as u64)
}

/// Gas a Uniswap V3 swap through SwapRouter typically takes, for the fee shown before the wallet
/// estimates: a generous figure per pool crossed (QuoterV2 reports ~95k for one pool and ~190k
/// for two on the devnet) and more to unwrap the native coin out; built transactions are
/// estimated by the node unless `disableEstimate`.
pub fn typical_v3_swap_gas(hops: usize, unwraps: bool) -> U256 {
    U256::from(140_000u64 + 90_000 * hops.saturating_sub(1) as u64 + if unwraps { 40_000 } else { 0 })
}

/// Gas an ERC-20 `approve` takes, for the same purpose.
pub const TYPICAL_APPROVE_GAS: u64 = 60_000;
