//! Swaps (behaviour 5.8 "Swap tokens", behaviour 5.8 Swap view, behaviour 6.7 `/v1/convert/*`, behaviour 7.7
//! slippage 1 %): routes over Uniswap V2-style pools computed exactly as the
//! contracts do, the router and ERC-20 calldata, the Multicall3 batch that
//! reads the pools, and the convert API's input parsers. The server reads the
//! chain and calls these; nothing here does IO. Concentrated-liquidity (Uniswap V3)
//! routes are `v3`'s.

pub mod abi;
pub mod form;
pub mod math;
pub mod query;
pub mod v3;

pub use abi::SwapKind;
pub use math::{best_route, candidate_paths, get_amount_out, get_amounts_out, minimum_received, Reserves, Route};
pub use query::{parse_swap_pair, SwapPair, SwapToken, TokenId, NATIVE_PLACEHOLDER};

/// Default slippage tolerance in basis points (behaviour 7.7: 1 %).
pub const DEFAULT_SLIPPAGE_BPS: u32 = 100;

/// Seconds a built swap stays valid (the router's `deadline`): long enough to
/// confirm in a wallet, short enough that a forgotten request cannot run days later.
pub const DEADLINE_SECONDS: u64 = 20 * 60;

/// The EIP-155 chain ids swaps are offered on (behaviour 7.7), besides configured ones.
pub const SWAP_CHAINS: [u64; 12] = [1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554];

#[cfg(test)]
mod tests;
