//! Constant-product routing (Uniswap V2): the amounts a route yields, exactly
//! as `UniswapV2Library` computes them on chain (0.3 % fee as 997/1000, U256,
//! floor division), the best route over the candidate paths, its price impact
//! and the minimum received at a slippage. A different rounding than the
//! contract's would quote an amount the router refuses.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};

/// `UniswapV2Library.getAmountOut`: what `amount_in` buys from a pool with
/// these reserves. `None` where the contract reverts: a zero input, an empty
/// pool, or an overflow of its checked arithmetic.
pub fn get_amount_out(amount_in: U256, reserve_in: U256, reserve_out: U256) -> Option<U256> {
    if amount_in.is_zero() || reserve_in.is_zero() || reserve_out.is_zero() {
        return None;
    }
    let with_fee = amount_in.checked_mul(U256::from(997u64))?;
    let numerator = with_fee.checked_mul(reserve_out)?;
    let denominator = reserve_in.checked_mul(U256::from(1000u64))?.checked_add(with_fee)?;
    Some(numerator / denominator)
}

/// `UniswapV2Library.getAmountsOut` over pools given as `(reserve_in,
/// reserve_out)` per hop: the amount after each hop, `amount_in` first.
pub fn get_amounts_out(amount_in: U256, hops: &[(U256, U256)]) -> Option<Vec<U256>> {
    if hops.is_empty() {
        return None;
    }
    let mut amounts = Vec::with_capacity(hops.len() + 1);
    amounts.push(amount_in);
    let mut amount = amount_in;
    for &(reserve_in, reserve_out) in hops {
        amount = get_amount_out(amount, reserve_in, reserve_out)?;
        amounts.push(amount);
    }
    Some(amounts)
}

/// The pair key of two tokens as the factory sorts them (`token0 < token1`);
/// `getReserves` answers in that order.
pub fn sort_tokens(a: Address, b: Address) -> (Address, Address) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The paths worth asking the chain about: the direct pool, then one hop
/// through the wrapped native coin and each base token (neither end, no repeats).
pub fn candidate_paths(from: Address, to: Address, wrapped_native: Address, bases: &[Address]) -> Vec<Vec<Address>> {
    let mut paths = vec![vec![from, to]];
    for middle in std::iter::once(&wrapped_native).chain(bases) {
        let path = vec![from, *middle, to];
        if *middle != from && *middle != to && !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

/// Every pool the `paths` cross, each once, sorted: what to look up with `getPair`.
pub fn pools_of(paths: &[Vec<Address>]) -> Vec<(Address, Address)> {
    let mut pools: Vec<(Address, Address)> = paths
        .iter()
        .flat_map(|p| p.windows(2).map(|w| sort_tokens(w[0], w[1])))
        .collect();
    pools.sort();
    pools.dedup();
    pools
}

/// A pool's reserves in sorted-token order (`reserve0` belongs to the lower address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reserves {
    /// Reserve of the lower-addressed token.
    pub reserve0: U256,
    /// Reserve of the higher-addressed token.
    pub reserve1: U256,
}

/// The best route found: its path and the amount after each hop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Tokens from input to output.
    pub path: Vec<Address>,
    /// `amounts[0]` is the input, the last is the output.
    pub amounts: Vec<U256>,
    /// `(reserve_in, reserve_out)` of each hop, for the price impact.
    pub hops: Vec<(U256, U256)>,
}

impl Route {
    /// What the route yields.
    pub fn amount_out(&self) -> U256 {
        self.amounts.last().copied().unwrap_or_default()
    }

    /// How far the trade moves the price, in basis points rounded up: one
    /// minus the product over hops of `1000·r_in / (1000·r_in + 997·in)`, the
    /// output against what the same input would buy at the pools' current
    /// price (the 0.3 % fee excluded).
    pub fn price_impact_bps(&self) -> u32 {
        let mut kept = 1.0f64;
        for (&(reserve_in, _), &amount) in self.hops.iter().zip(&self.amounts) {
            let reserve = to_f64(reserve_in) * 1000.0;
            let added = to_f64(amount) * 997.0;
            if reserve + added > 0.0 {
                kept *= reserve / (reserve + added);
            }
        }
        let impact = ((1.0 - kept) * 10_000.0).ceil();
        // Display value only (a warning): exact integer math would need more than 256 bits.
        impact.clamp(0.0, 10_000.0) as u32
    }
}

fn to_f64(value: U256) -> f64 {
    value.to_string().parse().unwrap_or(f64::MAX)
}

/// The hops of `path` from the known pools; `None` when one is missing or empty.
fn hops_of(path: &[Address], pools: &HashMap<(Address, Address), Reserves>) -> Option<Vec<(U256, U256)>> {
    path.windows(2)
        .map(|w| {
            let key = sort_tokens(w[0], w[1]);
            let r = pools.get(&key)?;
            Some(if w[0] == key.0 {
                (r.reserve0, r.reserve1)
            } else {
                (r.reserve1, r.reserve0)
            })
        })
        .collect()
}

/// The path among `paths` that yields the most for `amount_in` (the first on
/// a tie, so the direct pool wins an equal two-hop); `None` when no path has
/// liquidity for it.
pub fn best_route(
    amount_in: U256,
    paths: &[Vec<Address>],
    pools: &HashMap<(Address, Address), Reserves>,
) -> Option<Route> {
    let mut best: Option<Route> = None;
    for path in paths {
        let Some(hops) = hops_of(path, pools) else { continue };
        let Some(amounts) = get_amounts_out(amount_in, &hops) else {
            continue;
        };
        let out = *amounts.last()?;
        if out.is_zero() {
            continue;
        }
        if best.as_ref().is_none_or(|b| out > b.amount_out()) {
            best = Some(Route {
                path: path.clone(),
                amounts,
                hops,
            });
        }
    }
    best
}

/// The least `amount_out` the swap may yield at `slippage_bps` (basis points,
/// at most 10 000): `amount_out · (10 000 − slippage) / 10 000`, floored, exact.
pub fn minimum_received(amount_out: U256, slippage_bps: u32) -> U256 {
    let keep = U256::from(10_000u32.saturating_sub(slippage_bps));
    // amount_out ≤ 2^256 − 1 may overflow once multiplied: split it instead.
    let whole = amount_out / U256::from(10_000u32);
    let rest = amount_out % U256::from(10_000u32);
    whole * keep + rest * keep / U256::from(10_000u32)
}
