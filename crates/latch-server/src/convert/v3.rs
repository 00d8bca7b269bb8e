//! Concentrated-liquidity quotes read from the chain: every candidate path's
//! QuoterV2 answer and its pools' prices in one Multicall3 batch per block
//! (`allowFailure`: a fee tier with no pool reverts and simply drops out),
//! remembered for that block like the V2 reserves. Paths, calldata and the
//! choice are latch-core's (`latch_core::swap::v3`).

use std::collections::HashSet;

use alloy_primitives::{Address, U256};
use latch_core::swap::v3::{self, V3Path, V3Route};

use super::market::{BlockView, Head, Market, PoolCache, V3Market};
use crate::chaindata::evm::{self, Call};
use crate::error::ApiResult;
use crate::gateway::Gateway;

/// Quotes kept per block before the map starts over (made-up amounts cannot grow memory).
const QUOTE_CAPACITY: usize = 10_000;

impl PoolCache {
    /// The best V3 route for `amount_in` between `ends` at `head`; `None` when no candidate
    /// path has a pool with liquidity at any configured fee tier.
    pub(super) async fn v3_route(
        &self,
        gateway: &Gateway,
        market: &Market,
        v3: &V3Market,
        (from, to): (Address, Address),
        amount_in: U256,
        head: &Head,
    ) -> ApiResult<Option<V3Route>> {
        let paths = v3::candidate_paths(from, to, market.wrapped_native, &market.bases, &v3.fee_tiers);
        let pool = |(a, b, fee): (Address, Address, u32)| v3::pool_address(v3.factory, v3.init_code_hash, a, b, fee);
        let keys: Vec<(Vec<u8>, U256)> = paths.iter().map(|p| (p.encode(), amount_in)).collect();
        let pools: Vec<Address> = {
            let mut seen = HashSet::new();
            paths
                .iter()
                .flat_map(|p| p.pools().map(pool).collect::<Vec<_>>())
                .filter(|a| seen.insert(*a))
                .collect()
        };
        let (missing_quotes, missing_prices): (Vec<usize>, Vec<Address>) = {
            let blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
            let view = blocks.get(&market.chain).filter(|v| v.is(head));
            (
                (0..paths.len())
                    .filter(|i| view.is_none_or(|v| !v.v3_quotes.contains_key(&keys[*i])))
                    .collect(),
                pools
                    .iter()
                    .copied()
                    .filter(|a| view.is_none_or(|v| !v.v3_prices.contains_key(a)))
                    .collect(),
            )
        };
        if !missing_quotes.is_empty() || !missing_prices.is_empty() {
            let calls: Vec<Call> = missing_quotes
                .iter()
                .map(|i| Call {
                    target: v3.quoter,
                    data: v3::quote_exact_input_data(&paths[*i], amount_in),
                })
                .chain(missing_prices.iter().map(|a| Call {
                    target: *a,
                    data: v3::slot0_data(),
                }))
                .collect();
            let results = evm::multicall(gateway, &market.chain, calls).await?;
            let (quotes, prices) = results.split_at(missing_quotes.len().min(results.len()));
            let mut blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
            let view = BlockView::at(&mut blocks, &market.chain, head);
            if view.v3_quotes.len() + missing_quotes.len() > QUOTE_CAPACITY {
                view.v3_quotes.clear();
            }
            for (i, result) in missing_quotes.iter().zip(quotes) {
                let out = result.as_deref().and_then(v3::decode_quote_exact_input);
                view.v3_quotes.insert(keys[*i].clone(), out);
            }
            for (address, result) in missing_prices.iter().zip(prices) {
                view.v3_prices
                    .insert(*address, result.as_deref().and_then(v3::decode_slot0));
            }
        }
        let blocks = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        let Some(view) = blocks.get(&market.chain) else {
            return Ok(None);
        };
        let candidates: Vec<(V3Path, Option<U256>, Option<Vec<U256>>)> = paths
            .into_iter()
            .zip(&keys)
            .map(|(path, key)| {
                let out = view.v3_quotes.get(key).copied().flatten();
                let prices = path
                    .pools()
                    .map(|p| view.v3_prices.get(&pool(p)).copied().flatten())
                    .collect::<Option<Vec<U256>>>();
                (path, out, prices)
            })
            .collect();
        Ok(v3::best_route(amount_in, candidates))
    }
}
