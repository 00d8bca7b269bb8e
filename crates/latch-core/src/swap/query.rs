//! The convert API's inputs (behaviour 6.7 `/v1/convert/*`): CAIP-10 token ids with
//! the native-coin placeholder, amounts in base units, the slippage in percent.
//! Every parser answers bad input with an error naming the field; none panics
//! (a fuzz target runs them on arbitrary text).

use alloy_primitives::{Address, U256};

use super::abi::SwapKind;
use crate::address::parse_evm_address;
use crate::{Error, Result};

/// The address clients use for a chain's native coin (the original service's placeholder).
pub const NATIVE_PLACEHOLDER: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/// Longest input read: a CAIP-10 id is far shorter; bounds the work on hostile text.
const MAX_FIELD: usize = 200;

/// The native coin or an ERC-20 contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwapToken {
    /// The chain's native coin (`0xeeee…eeee`).
    Native,
    /// An ERC-20 token.
    Erc20(Address),
}

/// A token on an eip155 chain, from its CAIP-10 id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenId {
    /// The EIP-155 chain id.
    pub chain_id: u64,
    /// Which token.
    pub token: SwapToken,
}

impl TokenId {
    /// Its CAIP-10 id (`eip155:<chain>:<address>`, EIP-55, the placeholder for the native coin).
    pub fn caip10(&self) -> String {
        match self.token {
            SwapToken::Native => format!("eip155:{}:{NATIVE_PLACEHOLDER}", self.chain_id),
            SwapToken::Erc20(a) => format!("eip155:{}:{}", self.chain_id, a.to_checksum(None)),
        }
    }
}

fn invalid(what: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidInput {
        what,
        reason: reason.into(),
    }
}

fn bounded<'a>(what: &'static str, input: &'a str) -> Result<&'a str> {
    let input = input.trim();
    if input.is_empty() {
        return Err(invalid(what, "missing"));
    }
    if input.len() > MAX_FIELD {
        return Err(invalid(what, "too long"));
    }
    Ok(input)
}

/// A chain id written `eip155:<n>` or `<n>` (decimal, no leading zeros, above zero).
pub fn parse_chain_id(what: &'static str, input: &str) -> Result<u64> {
    let input = bounded(what, input)?;
    let digits = input.strip_prefix("eip155:").unwrap_or(input);
    let valid = !digits.is_empty()
        && digits.len() <= 20
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0');
    digits
        .parse::<u64>()
        .ok()
        .filter(|_| valid)
        .ok_or_else(|| invalid(what, "expected an eip155 chain id"))
}

/// A CAIP-10 token id `eip155:<chain>:<address>`; the placeholder address is the native coin.
pub fn parse_token_id(what: &'static str, input: &str) -> Result<TokenId> {
    let input = bounded(what, input)?;
    let mut parts = input.split(':');
    let (Some("eip155"), Some(reference), Some(address), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(invalid(what, "expected a CAIP-10 token id eip155:<chain>:<address>"));
    };
    let chain_id = parse_chain_id(what, reference)?;
    let token = if address.eq_ignore_ascii_case(NATIVE_PLACEHOLDER) {
        SwapToken::Native
    } else {
        SwapToken::Erc20(parse_evm_address(address).map_err(|_| invalid(what, "invalid token address"))?)
    };
    Ok(TokenId { chain_id, token })
}

/// An EVM address (a user, a token) written plain or as CAIP-10.
pub fn parse_account(what: &'static str, input: &str) -> Result<Address> {
    let input = bounded(what, input)?;
    let address = input.rsplit(':').next().unwrap_or(input);
    if input.contains(':') {
        parse_token_id(what, input).map_err(|_| invalid(what, "invalid address"))?;
    }
    parse_evm_address(address).map_err(|_| invalid(what, "invalid address"))
}

/// An amount in base units: decimal digits, above zero, below 2^256.
pub fn parse_base_units(what: &'static str, input: &str) -> Result<U256> {
    let input = bounded(what, input)?;
    if !input.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(what, "expected an integer amount in base units"));
    }
    let amount = U256::from_str_radix(input, 10).map_err(|_| invalid(what, "larger than 2^256 - 1"))?;
    if amount.is_zero() {
        return Err(invalid(what, "expected an amount above zero"));
    }
    Ok(amount)
}

/// Most slippage accepted: beyond it a swap is a gift to whoever front-runs it.
pub const MAX_SLIPPAGE_BPS: u32 = 5_000;

/// The slippage in percent (behaviour 7.7: 1), at most two decimals, above 0 and at
/// most 50; in basis points.
pub fn parse_slippage_bps(input: &str) -> Result<u32> {
    const WHAT: &str = "eip155.slippage";
    let input = bounded(WHAT, input)?;
    let (int, frac) = input.split_once('.').unwrap_or((input, "0"));
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let sizes_ok = !int.is_empty() && int.len() <= 3 && !frac.is_empty() && frac.len() <= 2;
    if !sizes_ok || !digits_ok(int) || !digits_ok(frac) {
        return Err(invalid(WHAT, "expected a percentage such as 1 or 0.5"));
    }
    let whole: u32 = int.parse().map_err(|_| invalid(WHAT, "expected a percentage"))?;
    let cents: u32 = format!("{frac:0<2}")
        .parse()
        .map_err(|_| invalid(WHAT, "expected a percentage"))?;
    let bps = whole * 100 + cents;
    if bps == 0 || bps > MAX_SLIPPAGE_BPS {
        return Err(invalid(WHAT, "expected a percentage above 0 and at most 50"));
    }
    Ok(bps)
}

/// A swap's two tokens, read from `from` and `to`: on the same chain and different.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapPair {
    /// The EIP-155 chain id.
    pub chain_id: u64,
    /// What is sold.
    pub from: SwapToken,
    /// What is bought.
    pub to: SwapToken,
}

/// Parses and checks the `from`/`to` pair of a convert call.
pub fn parse_swap_pair(from: &str, to: &str) -> Result<SwapPair> {
    let from = parse_token_id("from", from)?;
    let to = parse_token_id("to", to)?;
    if from.chain_id != to.chain_id {
        return Err(invalid("to", "must be on the same chain as from"));
    }
    if from.token == to.token {
        return Err(invalid("to", "must differ from from"));
    }
    Ok(SwapPair {
        chain_id: from.chain_id,
        from: from.token,
        to: to.token,
    })
}

impl SwapPair {
    /// The pool tokens at either end (the native coin trades as its wrapped
    /// token) and the router function that swaps them; wrapping or
    /// unwrapping alone is not a swap.
    pub fn ends(&self, wrapped_native: Address) -> Result<(Address, Address, SwapKind)> {
        let (from, to, kind) = match (self.from, self.to) {
            (SwapToken::Native, SwapToken::Erc20(to)) => (wrapped_native, to, SwapKind::ExactEthForTokens),
            (SwapToken::Erc20(from), SwapToken::Native) => (from, wrapped_native, SwapKind::ExactTokensForEth),
            (SwapToken::Erc20(from), SwapToken::Erc20(to)) => (from, to, SwapKind::ExactTokensForTokens),
            (SwapToken::Native, SwapToken::Native) => return Err(invalid("to", "must differ from from")),
        };
        if from == to {
            return Err(invalid("to", "wrapping the native coin is not a swap"));
        }
        Ok((from, to, kind))
    }
}
