//! Routes read from the chain: the pools a quote needs, looked up through the
//! factory once (pool addresses never change) and their reserves read in one
//! Multicall3 batch per block through the same path chain data uses; the
//! route math itself is latch-core's. Where a chain has a Uniswap V3-style
//! market, its quoter's answers join in (`super::v3`) and the best of both wins.

use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::Mutex;

use alloy_primitives::{Address, B256, U256};
use latch_core::swap::v3::V3Route;
use latch_core::swap::{abi, math, v3, Reserves, Route, SwapKind};
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
    /// The concentrated-liquidity market, where configured.
    pub v3: Option<V3Market>,
}

/// A Uniswap V3-style market, addresses parsed.
#[derive(Clone, Debug)]
pub struct V3Market {
    /// The factory pool addresses derive from.
    pub factory: Address,
    /// QuoterV2.
    pub quoter: Address,
    /// SwapRouter: builds of its routes go through it and their approvals name it.
    pub router: Address,
    /// Fee tiers asked.
    pub fee_tiers: Vec<u32>,
    /// keccak256 of the pool creation code.
    pub init_code_hash: B256,
}

/// The best route on the chain: through constant-product or concentrated-liquidity pools.
#[derive(Clone, Debug)]
pub enum ChainRoute {
    /// Uniswap V2-style pools (amounts computed here).
    V2(Route),
    /// Uniswap V3-style pools (amount from the quoter).
    V3(V3Route),
}

impl ChainRoute {
    /// What the route yields.
    pub fn amount_out(&self) -> U256 {
        match self {
            Self::V2(r) => r.amount_out(),
            Self::V3(r) => r.amount_out,
        }
    }

    /// Tokens from input to output.
    pub fn tokens(&self) -> &[Address] {
        match self {
            Self::V2(r) => &r.path,
            Self::V3(r) => r.path.tokens(),
        }
    }

    /// Price impact, basis points.
    pub fn price_impact_bps(&self) -> u32 {
        match self {
            Self::V2(r) => r.price_impact_bps(),
            Self::V3(r) => r.price_impact_bps(),
        }
    }

    /// The quote's `source`.
    pub fn source(&self) -> &'static str {
        match self {
            Self::V2(_) => "uniswap-v2",
            Self::V3(_) => "uniswap-v3",
        }
    }

    /// The router the swap goes through: the spender its approval names.
    pub fn router(&self, market: &Market) -> Address {
        match (self, &market.v3) {
            (Self::V3(_), Some(v3)) => v3.router,
            _ => market.router,
        }
    }

    /// Gas the swap typically takes (a fee shown before the wallet estimates).
    pub fn typical_gas(&self, kind: SwapKind) -> U256 {
        let hops = self.tokens().len().saturating_sub(1);
        match self {
            Self::V2(_) => super::typical_swap_gas(hops),
            Self::V3(_) => super::typical_v3_swap_gas(hops, kind == SwapKind::ExactTokensForEth),
        }
    }

    /// The router calldata of this route and the value sent with it.
    pub fn swap_data(
        &self,
        market: &Market,
        kind: SwapKind,
        amount_in: U256,
        amount_out_min: U256,
        to: Address,
        deadline: u64,
    ) -> (Vec<u8>, U256) {
        match self {
            Self::V2(r) => abi::swap_data(kind, amount_in, amount_out_min, &r.path, to, deadline),
            Self::V3(r) => v3::swap_data(
                kind,
                self.router(market),
                &r.path,
                amount_in,
                amount_out_min,
                to,
                deadline,
            ),
        }
    }
}

/// What one block of a chain showed: reserves of the pools read so far and the gas price.
#[derive(Default)]
pub(super) struct BlockView {
    block: u64,
    hash: String,
    reserves: HashMap<(Address, Address), Reserves>,
    gas_price: Option<U256>,
    /// Quoter answers by (packed path, amount in); `None`: the quote reverted.
    pub(super) v3_quotes: HashMap<(Vec<u8>, U256), Option<U256>>,
    /// V3 pools' `sqrtPriceX96`; `None`: no pool there.
    pub(super) v3_prices: HashMap<Address, Option<U256>>,
}

/// A chain's latest block: its number and hash ([`evm::head`]).
pub type Head = (u64, String);

/// Pools and per-block reads, shared by every request.
#[derive(Default)]
pub struct PoolCache {
    /// Sorted token pair → its pool (`None`: the factory has none), per chain.
    pairs: Mutex<HashMap<(String, Address, Address), Option<Address>>>,
    /// Per chain: the last block read and what it showed.
    pub(super) blocks: Mutex<HashMap<String, BlockView>>,
}

/// Entries kept before the pair cache starts over (made-up tokens cannot grow memory).
const PAIR_CAPACITY: usize = 20_000;

impl PoolCache {
    /// The best route for `amount_in` from `from` to `to` (pool tokens) on `market` at the
    /// latest block, and that block (for [`Self::gas_price_at`], so a request reads the head
    /// once); `NO_ROUTE` when no candidate path has liquidity. V2 and V3 pools are read at
    /// once; V3 wins only when it pays strictly more.
    pub async fn route(
        &self,
        gateway: &Gateway,
        market: &Market,
        from: Address,
        to: Address,
        amount_in: U256,
    ) -> ApiResult<(ChainRoute, Head)> {
        let paths = math::candidate_paths(from, to, market.wrapped_native, &market.bases);
        let wanted = math::pools_of(&paths);
        let head = evm::head(gateway, &market.chain).await?;
        let v2 = async {
            let reserves = self.reserves(gateway, market, &wanted, &head).await?;
            ApiResult::Ok(math::best_route(amount_in, &paths, &reserves))
        };
        let v3 = async {
            match &market.v3 {
                Some(v3) => self.v3_route(gateway, market, v3, (from, to), amount_in, &head).await,
                None => Ok(None),
            }
        };
        let (v2, v3) = tokio::try_join!(v2, v3)?;
        let route = match (v2, v3) {
            (Some(v2), Some(v3)) if v3.amount_out > v2.amount_out() => ChainRoute::V3(v3),
            (Some(v2), _) => ChainRoute::V2(v2),
            (None, Some(v3)) => ChainRoute::V3(v3),
            (None, None) => {
                return Err(ApiError::Refused {
                    status: StatusCode::BAD_REQUEST,
                    code: "NO_ROUTE",
                    field: "to",
                    description: "No route: no pool on this network holds enough liquidity for this pair and amount"
                        .into(),
                })
            }
        };
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
    pub(super) fn is(&self, (number, hash): &Head) -> bool {
        self.block == *number && self.hash == *hash
    }

    /// `chain`'s view of `head`, started over when the head moved (or was reorganised).
    pub(super) fn at<'a>(blocks: &'a mut HashMap<String, BlockView>, chain: &str, head: &Head) -> &'a mut BlockView {
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
