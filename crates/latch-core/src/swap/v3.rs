//! Concentrated-liquidity routes (Uniswap V3): the packed paths its quoter and
//! router take, the candidate paths per fee tier, pool addresses (CREATE2, so
//! a pool's price can be read without asking the factory), the QuoterV2 and
//! SwapRouter calldata, and the price impact of a quoted route. The amounts
//! themselves come from the chain's QuoterV2 (tick math is the pool's, not
//! repeated here); nothing here does IO.

use alloy_primitives::{b256, keccak256, Address, B256, U256};
use alloy_sol_types::{SolCall, SolValue};

use super::abi::SwapKind;
use crate::{Error, Result};

use self::sol::*;

#[allow(unreachable_pub)]
mod sol {
    alloy_sol_types::sol! {
        function quoteExactInput(bytes path, uint256 amountIn) returns (uint256 amountOut,
            uint160[] sqrtPriceX96AfterList, uint32[] initializedTicksCrossedList, uint256 gasEstimate);
        function slot0() returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex,
            uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked);
        struct ExactInputParams { bytes path; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; }
        function exactInput(ExactInputParams params) returns (uint256 amountOut);
        function unwrapWETH9(uint256 amountMinimum, address recipient);
        function multicall(bytes[] data) returns (bytes[] results);
    }
}

/// `PoolAddress.POOL_INIT_CODE_HASH` of Uniswap's v3-periphery: the keccak of the pool's creation code.
pub const UNISWAP_POOL_INIT_CODE_HASH: B256 = b256!("e34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54");

/// Fee tiers asked when none are configured: Uniswap's 0.05 %, 0.3 % and 1 %.
pub const DEFAULT_FEE_TIERS: [u32; 3] = [500, 3000, 10_000];

/// Fees are hundredths of a basis point below 100 %: a `uint24` under 1 000 000.
pub const FEE_DENOMINATOR: u32 = 1_000_000;

/// Longest path accepted when decoding (a route of this kit has at most two hops; a router's
/// paths seldom exceed four).
pub const MAX_HOPS: usize = 4;

/// `exactInput(...)` on SwapRouter.
pub const EXACT_INPUT: [u8; 4] = exactInputCall::SELECTOR;
/// `multicall(bytes[])` on SwapRouter.
pub const MULTICALL: [u8; 4] = multicallCall::SELECTOR;
/// `unwrapWETH9(uint256,address)` on SwapRouter.
pub const UNWRAP_WETH9: [u8; 4] = unwrapWETH9Call::SELECTOR;
/// `quoteExactInput(bytes,uint256)` on QuoterV2.
pub const QUOTE_EXACT_INPUT: [u8; 4] = quoteExactInputCall::SELECTOR;

fn invalid(reason: impl Into<String>) -> Error {
    Error::InvalidInput {
        what: "path",
        reason: reason.into(),
    }
}

/// Tokens and the fee tier of the pool between each two: what `exactInput` and
/// `quoteExactInput` take, packed as `token (20) fee (3) token (20) …`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct V3Path {
    tokens: Vec<Address>,
    fees: Vec<u32>,
}

impl V3Path {
    /// A path of `tokens` with `fees[i]` between `tokens[i]` and `tokens[i + 1]`.
    pub fn new(tokens: Vec<Address>, fees: Vec<u32>) -> Result<Self> {
        if tokens.len() < 2 || tokens.len() != fees.len() + 1 {
            return Err(invalid("a path needs n + 1 tokens for n ≥ 1 fees"));
        }
        if fees.len() > MAX_HOPS {
            return Err(invalid(format!("at most {MAX_HOPS} hops")));
        }
        if let Some(fee) = fees.iter().find(|f| **f >= FEE_DENOMINATOR) {
            return Err(invalid(format!("fee {fee} is not below {FEE_DENOMINATOR}")));
        }
        Ok(Self { tokens, fees })
    }

    /// Tokens from input to output.
    pub fn tokens(&self) -> &[Address] {
        &self.tokens
    }

    /// Fee tier of each hop.
    pub fn fees(&self) -> &[u32] {
        &self.fees
    }

    /// Pools crossed.
    pub fn hops(&self) -> usize {
        self.fees.len()
    }

    /// Each hop as `(token_in, token_out, fee)`.
    pub fn pools(&self) -> impl Iterator<Item = (Address, Address, u32)> + '_ {
        self.tokens
            .windows(2)
            .zip(&self.fees)
            .map(|(w, fee)| (w[0], w[1], *fee))
    }

    /// The packed bytes (`abi.encodePacked(token, uint24 fee, token, …)`).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(20 + 23 * self.fees.len());
        out.extend_from_slice(self.tokens[0].as_slice());
        for (fee, token) in self.fees.iter().zip(&self.tokens[1..]) {
            out.extend_from_slice(&fee.to_be_bytes()[1..]);
            out.extend_from_slice(token.as_slice());
        }
        out
    }

    /// The path packed in `bytes`; an error for a length that is not `20 + 23·n` (n ≥ 1),
    /// too many hops or a fee of 100 % or more.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 43 || (bytes.len() - 20) % 23 != 0 {
            return Err(invalid(format!("{} bytes is not 20 + 23·n", bytes.len())));
        }
        let hops = (bytes.len() - 20) / 23;
        if hops > MAX_HOPS {
            return Err(invalid(format!("at most {MAX_HOPS} hops")));
        }
        let mut tokens = vec![Address::from_slice(&bytes[..20])];
        let mut fees = Vec::with_capacity(hops);
        for hop in bytes[20..].chunks_exact(23) {
            fees.push(u32::from_be_bytes([0, hop[0], hop[1], hop[2]]));
            tokens.push(Address::from_slice(&hop[3..]));
        }
        Self::new(tokens, fees)
    }
}

/// The paths worth quoting: the direct pool at each fee tier, then every fee pair through
/// the wrapped native coin and each base token (neither end, no repeats).
pub fn candidate_paths(
    from: Address,
    to: Address,
    wrapped_native: Address,
    bases: &[Address],
    fee_tiers: &[u32],
) -> Vec<V3Path> {
    let mut paths = Vec::new();
    let mut push = |tokens: Vec<Address>, fees: Vec<u32>| {
        if let Ok(path) = V3Path::new(tokens, fees) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    };
    for fee in fee_tiers {
        push(vec![from, to], vec![*fee]);
    }
    for middle in std::iter::once(&wrapped_native).chain(bases) {
        if *middle == from || *middle == to {
            continue;
        }
        for first in fee_tiers {
            for second in fee_tiers {
                push(vec![from, *middle, to], vec![*first, *second]);
            }
        }
    }
    paths
}

/// The pool of `a` and `b` at `fee` made by `factory` (CREATE2 with the salt
/// `keccak256(abi.encode(token0, token1, fee))`), whether or not it exists yet.
pub fn pool_address(factory: Address, init_code_hash: B256, a: Address, b: Address, fee: u32) -> Address {
    let (token0, token1) = super::math::sort_tokens(a, b);
    let salt = keccak256((token0, token1, U256::from(fee)).abi_encode());
    factory.create2(salt, init_code_hash)
}

/// `quoteExactInput(path, amountIn)` on QuoterV2.
pub fn quote_exact_input_data(path: &V3Path, amount_in: U256) -> Vec<u8> {
    quoteExactInputCall {
        path: path.encode().into(),
        amountIn: amount_in,
    }
    .abi_encode()
}

/// QuoterV2's `amountOut`; `None` when malformed.
pub fn decode_quote_exact_input(data: &[u8]) -> Option<U256> {
    quoteExactInputCall::abi_decode_returns(data).ok().map(|r| r.amountOut)
}

/// `slot0()` on a pool.
pub fn slot0_data() -> Vec<u8> {
    slot0Call {}.abi_encode()
}

/// A pool's `sqrtPriceX96` from `slot0`; `None` when malformed or zero (no pool: an address
/// without code answers nothing; an uninitialised pool, zero).
pub fn decode_slot0(data: &[u8]) -> Option<U256> {
    let price = U256::from_be_slice(data.get(..32)?);
    (data.len() >= 7 * 32 && !price.is_zero() && price.bit_len() <= 160).then_some(price)
}

/// A quoted concentrated-liquidity route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V3Route {
    /// Its path.
    pub path: V3Path,
    /// Input, base units.
    pub amount_in: U256,
    /// What the quoter says it yields.
    pub amount_out: U256,
    /// Each hop's pool `sqrtPriceX96` before the trade.
    pub sqrt_prices: Vec<U256>,
}

fn to_f64(value: U256) -> f64 {
    value.to_string().parse().unwrap_or(f64::MAX)
}

impl V3Route {
    /// How far the trade moves the price, in basis points rounded up: the output against what
    /// the input would buy at the pools' prices before the trade, fees excluded (as for V2).
    pub fn price_impact_bps(&self) -> u32 {
        let q96 = 2f64.powi(96);
        let mut spot = to_f64(self.amount_in);
        for ((token_in, token_out, fee), sqrt_price) in self.path.pools().zip(&self.sqrt_prices) {
            let root = to_f64(*sqrt_price) / q96;
            // sqrtPriceX96² is token1 per token0.
            let price = root * root;
            let rate = if token_in < token_out { price } else { 1.0 / price };
            spot *= rate * (1.0 - f64::from(fee) / f64::from(FEE_DENOMINATOR));
        }
        if !(spot.is_finite() && spot > 0.0) {
            return 0;
        }
        let impact = ((1.0 - to_f64(self.amount_out) / spot) * 10_000.0).ceil();
        // Display value only (a warning), as V2's.
        impact.clamp(0.0, 10_000.0) as u32
    }
}

/// The candidate that yields the most (the first on a tie); candidates are `(path, quoted
/// output, pools' sqrt prices)`, `None` for a path whose quote or pool read failed (no pool at
/// that fee tier, no liquidity).
pub fn best_route(amount_in: U256, candidates: Vec<(V3Path, Option<U256>, Option<Vec<U256>>)>) -> Option<V3Route> {
    let mut best: Option<V3Route> = None;
    for (path, out, prices) in candidates {
        let (Some(out), Some(sqrt_prices)) = (out, prices) else {
            continue;
        };
        if out.is_zero() || sqrt_prices.len() != path.hops() {
            continue;
        }
        if best.as_ref().is_none_or(|b| out > b.amount_out) {
            best = Some(V3Route {
                path,
                amount_in,
                amount_out: out,
                sqrt_prices,
            });
        }
    }
    best
}

/// SwapRouter calldata of a swap of `amount_in` along `path` paying at least `amount_out_min`
/// to `to` before `deadline`, and the value sent with it. The native coin goes in as value
/// (the router wraps exactly that much); out, the router receives the wrapped coin and
/// unwraps it to `to` in the same `multicall`, checking the minimum again.
pub fn swap_data(
    kind: SwapKind,
    router: Address,
    path: &V3Path,
    amount_in: U256,
    amount_out_min: U256,
    to: Address,
    deadline: u64,
) -> (Vec<u8>, U256) {
    let swap = |recipient| {
        exactInputCall {
            params: ExactInputParams {
                path: path.encode().into(),
                recipient,
                deadline: U256::from(deadline),
                amountIn: amount_in,
                amountOutMinimum: amount_out_min,
            },
        }
        .abi_encode()
    };
    match kind {
        SwapKind::ExactEthForTokens => (swap(to), amount_in),
        SwapKind::ExactTokensForTokens => (swap(to), U256::ZERO),
        SwapKind::ExactTokensForEth => {
            let unwrap = unwrapWETH9Call {
                amountMinimum: amount_out_min,
                recipient: to,
            }
            .abi_encode();
            let data = multicallCall {
                data: vec![swap(router).into(), unwrap.into()],
            }
            .abi_encode();
            (data, U256::ZERO)
        }
    }
}

#[cfg(test)]
#[path = "v3_tests.rs"]
mod tests;
