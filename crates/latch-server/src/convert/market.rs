//! Routes read from the chain: the pools a quote needs, looked up through the
//! factory once (pool addresses never change) and their reserves read in one
//! Multicall3 batch per block through the same path chain data uses; the
//! route math itself is latch-core's.

use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::Mutex;

use alloy_primitives::{Address, U256};
use latch_core::swap::{abi, math, Reserves, Route};
use serde_json::json;

use crate::chaindata::evm::{self, Call};
use crate::error::{ApiError, ApiResult};
use crate::gateway::Gateway;

/// A configured market, addresses parsed.
#[derive(Clone, Debug)]
pub struct Market {
    /// CAIP-2 chain id.
    pub chain: String,
    /// Uniswap V2 factory.
    pub factory: Address,
    /// Router02: builds go through it and approvals name it.
    pub router: Address,
    /// The wrapped native coin.
    pub wrapped_native: Address,
    /// Base tokens of two-hop routes.
    pub bases: Vec<Address>,
}

/// What one block of a chain showed: reserves of the pools read so far and the gas price.
#[derive(Default)]
struct BlockView {
    block: u64,
    hash: String,
    reserves: HashMap<(Address, Address), Reserves>,
    gas_price: Option<U256>,
}

/// A chain's latest block: its number and hash ([`evm::head`]).
pub type Head = (u64, String);

/// Pools and per-block reads, shared by every request.
#[derive(Default)]
pub struct PoolCache {
    /// Sorted token pair → its pool (`None`: the factory has none), per chain.
    pairs: Mutex<HashMap<(String, Address, Address), Option<Address>>>,
    /// Per chain: the last block read and what it showed.
    blocks: Mutex<HashMap<String, BlockView>>,
}

/// Entries kept before the pair cache starts over (made-up tokens cannot grow memory).
const PAIR_CAPACITY: usize = 20_000;

impl PoolCache {
    /// The best route for `amount_in` from `from` to `to` (pool tokens) on `market` at the
    /// latest block, and that block (for [`Self::gas_price_at`], so a request reads the head
    /// once); `NO_ROUTE` when no candidate path has liquidity.
    pub async fn route(
        &self,
        gateway: &Gateway,
        market: &Market,
        from: Address,
        to: Address,
        amount_in: U256,
    ) -> ApiResult<(Route, Head)> {
        let paths = math::candidate_paths(from, to, market.wrapped_native, &market.bases);
        let wanted = math::pools_of(&paths);
        let head = evm::head(gateway, &market.chain).await?;
        let reserves = self.reserves(gateway, market, &wanted, &head).await?;
        let route = math::best_route(amount_in, &paths, &reserves).ok_or_else(|| ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "NO_ROUTE",
            field: "to",
            description: "No route: no pool on this network holds enough liquidity for this pair and amount".into(),
        })?;
        Ok((route, head))
    }

    /// Reserves of the `wanted` pools at `head`: from memory when this block was read already.
    async fn reserves(
        &self,
        gateway: &Gateway,
        market: &Market,
        wanted: &[(Address, Address)],
        head: &Head,
    ) -> ApiResult<HashMap<(Address, Address), Reserves>> {
        let pools = self.pools(gateway, market, wanted).await?;
        let missing: Vec<((Address, Address), Address)> = {
            let blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
            let view = blocks.get(&market.chain).filter(|v| v.is(head));
            pools
                .iter()
                .filter(|(key, _)| view.is_none_or(|v| !v.reserves.contains_key(key)))
                .copied()
                .collect()
        };
        if !missing.is_empty() {
            let calls = missing
                .iter()
                .map(|(_, pool)| Call {
                    target: *pool,
                    data: abi::get_reserves_data(),
                })
                .collect();
            let results = evm::multicall(gateway, &market.chain, calls).await?;
            let mut blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
            let view = BlockView::at(&mut blocks, &market.chain, head);
            for ((key, _), result) in missing.iter().zip(&results) {
                if let Some((reserve0, reserve1)) = result.as_deref().and_then(abi::decode_get_reserves) {
                    view.reserves.insert(*key, Reserves { reserve0, reserve1 });
                }
            }
        }
        let blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        let view = blocks.get(&market.chain);
        Ok(pools
            .iter()
            .filter_map(|(key, _)| Some((*key, *view?.reserves.get(key)?)))
            .collect())
    }

    /// The pools among `wanted` that exist (looked up once per pair, then kept).
    async fn pools(
        &self,
        gateway: &Gateway,
        market: &Market,
        wanted: &[(Address, Address)],
    ) -> ApiResult<Vec<((Address, Address), Address)>> {
        let key = |(a, b): (Address, Address)| (market.chain.clone(), a, b);
        let missing: Vec<(Address, Address)> = {
            let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            wanted
                .iter()
                .copied()
                .filter(|p| !known.contains_key(&key(*p)))
                .collect()
        };
        if !missing.is_empty() {
            let calls = missing
                .iter()
                .map(|(a, b)| Call {
                    target: market.factory,
                    data: abi::get_pair_data(*a, *b),
                })
                .collect();
            let results = evm::multicall(gateway, &market.chain, calls).await?;
            let mut known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            if known.len() + missing.len() > PAIR_CAPACITY {
                known.clear();
            }
            for (pair, result) in missing.iter().zip(&results) {
                known.insert(key(*pair), result.as_deref().and_then(abi::decode_get_pair));
            }
        }
        let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        Ok(wanted
            .iter()
            .filter_map(|p| Some((*p, (*known.get(&key(*p))?)?)))
            .collect())
    }

    /// The chain's gas price at its head (one read per block).
    pub async fn gas_price(&self, gateway: &Gateway, chain: &str) -> ApiResult<U256> {
        let head = evm::head(gateway, chain).await?;
        self.gas_price_at(gateway, chain, &head).await
    }

    /// The chain's gas price at `head`, a head this request already read (one read per block).
    pub async fn gas_price_at(&self, gateway: &Gateway, chain: &str, head: &Head) -> ApiResult<U256> {
        if let Some(price) = self
            .blocks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(chain)
            .filter(|v| v.is(head))
            .and_then(|v| v.gas_price)
        {
            return Ok(price);
        }
        let price = evm::quantity(gateway, chain, "eth_gasPrice", json!([])).await?;
        let mut blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        BlockView::at(&mut blocks, chain, head).gas_price = Some(price);
        Ok(price)
    }
}

impl BlockView {
    fn is(&self, (number, hash): &Head) -> bool {
        self.block == *number && self.hash == *hash
    }

    /// `chain`'s view of `head`, started over when the head moved (or was reorganised).
    fn at<'a>(blocks: &'a mut HashMap<String, BlockView>, chain: &str, head: &Head) -> &'a mut BlockView {
        let view = blocks.entry(chain.to_owned()).or_default();
        if !view.is(head) {
            *view = BlockView {
                block: head.0,
                hash: head.1.clone(),
                ..BlockView::default()
            };
        }
        view
    }
}
