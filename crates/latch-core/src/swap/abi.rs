//! The calldata a swap needs, ABI-encoded by hand for the handful of functions
//! involved (Uniswap V2 factory, pair and Router02; ERC-20 `approve` and
//! `allowance`; Multicall3 `aggregate3`). Decoding is bounds-checked: an
//! upstream's answer is input like any other and never panics.

use alloy_primitives::{Address, U256};

/// `getPair(address,address)` on the factory.
pub const GET_PAIR: [u8; 4] = [0xe6, 0xa4, 0x39, 0x05];
/// `getReserves()` on a pair.
pub const GET_RESERVES: [u8; 4] = [0x09, 0x02, 0xf1, 0xac];
/// `swapExactETHForTokens(uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_ETH_FOR_TOKENS: [u8; 4] = [0x7f, 0xf3, 0x6a, 0xb5];
/// `swapExactTokensForETH(uint256,uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_TOKENS_FOR_ETH: [u8; 4] = [0x18, 0xcb, 0xaf, 0xe5];
/// `swapExactTokensForTokens(uint256,uint256,address[],address,uint256)` on Router02.
pub const SWAP_EXACT_TOKENS_FOR_TOKENS: [u8; 4] = [0x38, 0xed, 0x17, 0x39];
/// `getAmountsOut(uint256,address[])` on Router02.
pub const GET_AMOUNTS_OUT: [u8; 4] = [0xd0, 0x6c, 0xa6, 0x1f];
/// ERC-20 `approve(address,uint256)`.
pub const APPROVE: [u8; 4] = [0x09, 0x5e, 0xa7, 0xb3];
/// ERC-20 `allowance(address,address)`.
pub const ALLOWANCE: [u8; 4] = [0xdd, 0x62, 0xed, 0x3e];
/// Multicall3 `aggregate3((address,bool,bytes)[])`.
pub const AGGREGATE3: [u8; 4] = [0x82, 0xad, 0x56, 0xcb];

fn word_u256(value: U256) -> [u8; 32] {
    value.to_be_bytes::<32>()
}

fn word_address(address: Address) -> [u8; 32] {
    let mut word = [0u8; 32];
    word[12..].copy_from_slice(address.as_slice());
    word
}

fn word_usize(value: usize) -> [u8; 32] {
    word_u256(U256::from(value))
}

/// A `selector` call whose arguments are all static words.
fn call(selector: [u8; 4], words: &[[u8; 32]]) -> Vec<u8> {
    let mut data = Vec::with_capacity(4 + 32 * words.len());
    data.extend_from_slice(&selector);
    for word in words {
        data.extend_from_slice(word);
    }
    data
}

/// `getPair(a, b)`.
pub fn get_pair_data(a: Address, b: Address) -> Vec<u8> {
    call(GET_PAIR, &[word_address(a), word_address(b)])
}

/// `getReserves()`.
pub fn get_reserves_data() -> Vec<u8> {
    GET_RESERVES.to_vec()
}

/// ERC-20 `approve(spender, amount)`.
pub fn approve_data(spender: Address, amount: U256) -> Vec<u8> {
    call(APPROVE, &[word_address(spender), word_u256(amount)])
}

/// ERC-20 `allowance(owner, spender)`.
pub fn allowance_data(owner: Address, spender: Address) -> Vec<u8> {
    call(ALLOWANCE, &[word_address(owner), word_address(spender)])
}

/// A router call: static `head` words, then `path` as the dynamic
/// `address[]`, then `tail` words.
fn router_call(selector: [u8; 4], head: &[[u8; 32]], path: &[Address], tail: &[[u8; 32]]) -> Vec<u8> {
    let args = head.len() + 1 + tail.len();
    let mut words: Vec<[u8; 32]> = head.to_vec();
    words.push(word_usize(32 * args));
    words.extend_from_slice(tail);
    words.push(word_usize(path.len()));
    words.extend(path.iter().map(|a| word_address(*a)));
    call(selector, &words)
}

/// `getAmountsOut(amountIn, path)`: what the router itself quotes (tests compare with it).
pub fn get_amounts_out_data(amount_in: U256, path: &[Address]) -> Vec<u8> {
    router_call(GET_AMOUNTS_OUT, &[word_u256(amount_in)], path, &[])
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
    let tail = [word_address(to), word_u256(U256::from(deadline))];
    match kind {
        SwapKind::ExactEthForTokens => (
            router_call(SWAP_EXACT_ETH_FOR_TOKENS, &[word_u256(amount_out_min)], path, &tail),
            amount_in,
        ),
        SwapKind::ExactTokensForEth => (
            router_call(
                SWAP_EXACT_TOKENS_FOR_ETH,
                &[word_u256(amount_in), word_u256(amount_out_min)],
                path,
                &tail,
            ),
            U256::ZERO,
        ),
        SwapKind::ExactTokensForTokens => (
            router_call(
                SWAP_EXACT_TOKENS_FOR_TOKENS,
                &[word_u256(amount_in), word_u256(amount_out_min)],
                path,
                &tail,
            ),
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

fn pad32(len: usize) -> usize {
    len.div_ceil(32) * 32
}

/// `aggregate3(calls)` with `allowFailure` on every call.
pub fn aggregate3_data(calls: &[Call3]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&AGGREGATE3);
    out.extend_from_slice(&word_usize(32));
    out.extend_from_slice(&word_usize(calls.len()));
    // Each tuple is dynamic: offsets from the start of the offsets block.
    let mut offset = 32 * calls.len();
    for call in calls {
        out.extend_from_slice(&word_usize(offset));
        offset += 32 * 4 + pad32(call.data.len());
    }
    for call in calls {
        out.extend_from_slice(&word_address(call.target));
        out.extend_from_slice(&word_usize(1));
        out.extend_from_slice(&word_usize(96));
        out.extend_from_slice(&word_usize(call.data.len()));
        out.extend_from_slice(&call.data);
        out.resize(out.len() + pad32(call.data.len()) - call.data.len(), 0);
    }
    out
}

/// The 32-byte word at `at`, if the data holds it.
fn word(data: &[u8], at: usize) -> Option<&[u8]> {
    data.get(at..at.checked_add(32)?)
}

/// A word read as an offset or length: must fit comfortably in `usize`.
fn read_usize(data: &[u8], at: usize) -> Option<usize> {
    let w = word(data, at)?;
    if w[..24].iter().any(|b| *b != 0) {
        return None;
    }
    usize::try_from(u64::from_be_bytes(w[24..].try_into().ok()?)).ok()
}

/// A word read as a `uint256`.
pub fn read_u256(data: &[u8], at: usize) -> Option<U256> {
    word(data, at).map(U256::from_be_slice)
}

/// A word read as an `address` (the upper 12 bytes must be zero).
pub fn read_address(data: &[u8], at: usize) -> Option<Address> {
    let w = word(data, at)?;
    w[..12].iter().all(|b| *b == 0).then(|| Address::from_slice(&w[12..]))
}

/// The results of `aggregate3`: per call, its return data, or `None` when it reverted.
pub fn decode_aggregate3(data: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
    let array = read_usize(data, 0)?;
    let count = read_usize(data, array)?;
    let base = array.checked_add(32)?;
    // Each result takes at least three words: a count beyond that is malformed.
    if count > data.len() / 96 {
        return None;
    }
    (0..count)
        .map(|i| {
            let at = base.checked_add(read_usize(data, base.checked_add(32 * i)?)?)?;
            let success = read_u256(data, at)?;
            let bytes_at = at.checked_add(read_usize(data, at.checked_add(32)?)?)?;
            let len = read_usize(data, bytes_at)?;
            let start = bytes_at.checked_add(32)?;
            let bytes = data.get(start..start.checked_add(len)?)?.to_vec();
            Some((!success.is_zero()).then_some(bytes))
        })
        .collect()
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
    let at = read_usize(data, 0)?;
    let count = read_usize(data, at)?;
    if count > data.len() / 32 {
        return None;
    }
    (0..count)
        .map(|i| read_u256(data, at.checked_add(32)?.checked_add(32 * i)?))
        .collect()
}
