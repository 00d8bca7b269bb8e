//! The calldata a swap needs (Uniswap V2 factory, pair and Router02; ERC-20
//! `approve` and `allowance`; Multicall3 `aggregate3`), encoded and decoded by
//! alloy's ABI coder from the functions' Solidity signatures. Decoding never
//! panics: an upstream's answer is input like any other.

use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;

use self::sol::*;

// Private: callers use the functions below, not the generated call types.
#[allow(unreachable_pub)]
mod sol {
    alloy_sol_types::sol! {
        function getPair(address tokenA, address tokenB) returns (address pair);
        function getReserves() returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
        function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)
            returns (uint256[] amounts);
        function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)
            returns (uint256[] amounts);
        function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)
            returns (uint256[] amounts);
        function getAmountsOut(uint256 amountIn, address[] path) returns (uint256[] amounts);
        function approve(address spender, uint256 amount) returns (bool);
        function allowance(address owner, address spender) returns (uint256);
        struct Multicall3Call { address target; bool allowFailure; bytes callData; }
        struct Multicall3Result { bool success; bytes returnData; }
        function aggregate3(Multicall3Call[] calls) returns (Multicall3Result[] returnData);
    }
}

/// `getPair(address,address)` on the factory.
pub const GET_PAIR: [u8; 4] = getPairCall::SELECTOR;
/// `getReserves()` on a pair.
pub const GET_RESERVES: [u8; 4] = getReservesCall::SELECTOR;
/// `swapExactETHForTokens(uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_ETH_FOR_TOKENS: [u8; 4] = swapExactETHForTokensCall::SELECTOR;
/// `swapExactTokensForETH(uint256,uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_TOKENS_FOR_ETH: [u8; 4] = swapExactTokensForETHCall::SELECTOR;
/// `swapExactTokensForTokens(uint256,uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_TOKENS_FOR_TOKENS: [u8; 4] = swapExactTokensForTokensCall::SELECTOR;
/// `getAmountsOut(uint256,address[])` on Router02.
pub const GET_AMOUNTS_OUT: [u8; 4] = getAmountsOutCall::SELECTOR;
/// ERC-20 `approve(address,uint256)`.
pub const APPROVE: [u8; 4] = approveCall::SELECTOR;
/// ERC-20 `allowance(address,address)`.
pub const ALLOWANCE: [u8; 4] = allowanceCall::SELECTOR;
/// Multicall3 `aggregate3((address,bool,bytes)[])`.
pub const AGGREGATE3: [u8; 4] = aggregate3Call::SELECTOR;

/// `getPair(a, b)`.
pub fn get_pair_data(a: Address, b: Address) -> Vec<u8> {
    getPairCall { tokenA: a, tokenB: b }.abi_encode()
}

/// `getReserves()`.
pub fn get_reserves_data() -> Vec<u8> {
    getReservesCall {}.abi_encode()
}

/// ERC-20 `approve(spender, amount)`.
pub fn approve_data(spender: Address, amount: U256) -> Vec<u8> {
    approveCall { spender, amount }.abi_encode()
}

/// ERC-20 `allowance(owner, spender)`.
pub fn allowance_data(owner: Address, spender: Address) -> Vec<u8> {
    allowanceCall { owner, spender }.abi_encode()
}

/// `getAmountsOut(amountIn, path)`: what the router itself quotes (tests compare with it).
pub fn get_amounts_out_data(amount_in: U256, path: &[Address]) -> Vec<u8> {
    getAmountsOutCall {
        amountIn: amount_in,
        path: path.to_vec(),
    }
    .abi_encode()
}

/// What a swap sends in and how: the native coin as value, or a token the router pulls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapKind {
    /// Native coin in (`path[0]` is the wrapped native coin).
    ExactEthForTokens,
    /// Native coin out (`path` ends with the wrapped native coin).
    ExactTokensForEth,
    /// Token to token.
    ExactTokensForTokens,
}

/// The Router02 calldata of a swap of `amount_in` along `path` paying at least
/// `amount_out_min` to `to` before `deadline` (unix seconds), and the value
/// sent with it (the input for a native-in swap, zero otherwise).
pub fn swap_data(
    kind: SwapKind,
    amount_in: U256,
    amount_out_min: U256,
    path: &[Address],
    to: Address,
    deadline: u64,
) -> (Vec<u8>, U256) {
    let (path, deadline) = (path.to_vec(), U256::from(deadline));
    match kind {
        SwapKind::ExactEthForTokens => (
            swapExactETHForTokensCall {
                amountOutMin: amount_out_min,
                path,
                to,
                deadline,
            }
            .abi_encode(),
            amount_in,
        ),
        SwapKind::ExactTokensForEth => (
            swapExactTokensForETHCall {
                amountIn: amount_in,
                amountOutMin: amount_out_min,
                path,
                to,
                deadline,
            }
            .abi_encode(),
            U256::ZERO,
        ),
        SwapKind::ExactTokensForTokens => (
            swapExactTokensForTokensCall {
                amountIn: amount_in,
                amountOutMin: amount_out_min,
                path,
                to,
                deadline,
            }
            .abi_encode(),
            U256::ZERO,
        ),
    }
}

/// One call of a Multicall3 batch, failure allowed (a missing pool must not fail the rest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call3 {
    /// The contract.
    pub target: Address,
    /// Its calldata.
    pub data: Vec<u8>,
}

/// `aggregate3(calls)` with `allowFailure` on every call.
pub fn aggregate3_data(calls: &[Call3]) -> Vec<u8> {
    aggregate3Call {
        calls: calls
            .iter()
            .map(|c| Multicall3Call {
                target: c.target,
                allowFailure: true,
                callData: c.data.clone().into(),
            })
            .collect(),
    }
    .abi_encode()
}

/// The 32-byte word at `at`, if the data holds it.
fn word(data: &[u8], at: usize) -> Option<&[u8]> {
    data.get(at..at.checked_add(32)?)
}

/// A word read as a `uint256`.
fn read_u256(data: &[u8], at: usize) -> Option<U256> {
    word(data, at).map(U256::from_be_slice)
}

/// A word read as an `address` (the upper 12 bytes must be zero).
pub fn read_address(data: &[u8], at: usize) -> Option<Address> {
    let w = word(data, at)?;
    w[..12].iter().all(|b| *b == 0).then(|| Address::from_slice(&w[12..]))
}

/// The results of `aggregate3`: per call, its return data, or `None` when it reverted.
pub fn decode_aggregate3(data: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
    let results = aggregate3Call::abi_decode_returns(data).ok()?;
    Some(
        results
            .into_iter()
            .map(|r| r.success.then(|| r.returnData.to_vec()))
            .collect(),
    )
}

/// `getPair`'s answer; `None` when malformed or the zero address (no pool).
pub fn decode_get_pair(data: &[u8]) -> Option<Address> {
    read_address(data, 0).filter(|a| !a.is_zero())
}

/// `getReserves`'s `(reserve0, reserve1)`; `None` when malformed.
pub fn decode_get_reserves(data: &[u8]) -> Option<(U256, U256)> {
    Some((read_u256(data, 0)?, read_u256(data, 32)?))
}

/// A single `uint256` answer (`allowance`, `balanceOf`).
pub fn decode_u256(data: &[u8]) -> Option<U256> {
    read_u256(data, 0)
}

/// `getAmountsOut`'s `uint256[]`.
pub fn decode_u256_array(data: &[u8]) -> Option<Vec<U256>> {
    getAmountsOutCall::abi_decode_returns(data).ok()
}
