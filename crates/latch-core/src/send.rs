//! EVM sends (behaviour 5.6 "Send", behaviour 5.5 send rules): an amount typed in whole units
//! turned into base units exactly, the transaction a wallet is asked to send
//! (native value or an ERC-20 `transfer`), the Max amount that leaves the gas
//! cost for a native send, and the gas cost in the native coin and in USD.
//! Exact integer and decimal arithmetic throughout: a float would send a
//! different amount than the one shown.

use alloy_primitives::{Address, U256};
use serde::{Deserialize, Serialize};

use crate::address::parse_evm_address;
use crate::format::{format_units, parse_integer, Decimal, NumberInput};
use crate::validate::null_as_false;
use crate::{Error, Result};

/// `transfer(address,uint256)`: the first four bytes of its keccak-256 (ERC-20).
pub const ERC20_TRANSFER_SELECTOR: [u8; 4] = [0xa9, 0x05, 0x9c, 0xbb];

/// `amount` (whole units, e.g. `1.5`) in base units for a token of `decimals`
/// (`1.5`, 6 → 1500000). Refuses negatives, more fraction digits than the
/// token has (they cannot be sent, and rounding would send another amount),
/// and amounts beyond 2^256 − 1.
pub fn parse_units(amount: &Decimal, decimals: u8) -> Result<U256> {
    if amount.is_negative() {
        return Err(Error::InvalidAmount {
            reason: "expected an amount of zero or more",
        });
    }
    let (int, frac) = split(amount);
    if frac.len() > usize::from(decimals) {
        return Err(Error::InvalidAmount {
            reason: "more decimal places than the token has",
        });
    }
    base_units(&int, &frac, decimals)
}

/// Like [`parse_units`], but digits beyond the token's decimals are dropped:
/// for a balance, which must never be read as more than it is.
pub(crate) fn parse_units_floor(amount: &Decimal, decimals: u8) -> Result<U256> {
    if amount.is_negative() {
        return Ok(U256::ZERO);
    }
    let (int, mut frac) = split(amount);
    frac.truncate(usize::from(decimals));
    base_units(&int, &frac, decimals)
}

/// A normalised decimal's integer and fraction digits (from its plain notation).
fn split(amount: &Decimal) -> (String, String) {
    let text = amount.to_string();
    let text = text.trim_start_matches('-');
    match text.split_once('.') {
        Some((int, frac)) => (int.to_owned(), frac.to_owned()),
        None => (text.to_owned(), String::new()),
    }
}

/// Integer and fraction digits (at most `decimals` of them) as base units.
pub(crate) fn base_units(int: &str, frac: &str, decimals: u8) -> Result<U256> {
    let digits = format!("{int}{frac:0<width$}", width = usize::from(decimals));
    U256::from_str_radix(&digits, 10).map_err(|_| Error::InvalidAmount {
        reason: "larger than 2^256 - 1",
    })
}

/// ERC-20 `transfer(to, amount)` calldata: the selector, then both arguments
/// as 32-byte words, `0x`-prefixed lower-case hex.
pub fn erc20_transfer_data(to: Address, amount: U256) -> String {
    let mut data = Vec::with_capacity(4 + 64);
    data.extend_from_slice(&ERC20_TRANSFER_SELECTOR);
    data.extend_from_slice(&[0u8; 12]);
    data.extend_from_slice(to.as_slice());
    data.extend_from_slice(&amount.to_be_bytes::<32>());
    alloy_primitives::hex::encode_prefixed(data)
}

/// What the send form asks for.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    /// The receiver's EVM address (a name is resolved before this).
    pub receiver_address: String,
    /// The amount in whole units, as typed.
    pub amount: NumberInput,
    /// The token's decimals.
    pub decimals: u8,
    /// The token contract (plain or CAIP-10); absent or empty for the native coin.
    #[serde(default)]
    pub token_address: Option<String>,
    /// The balance held in whole units; when given, a larger amount is refused.
    #[serde(default)]
    pub balance: Option<NumberInput>,
}

/// An `eth_sendTransaction` request's payload, JSON-RPC quantities in hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TransactionRequest {
    /// The receiver for a native send, the token contract for a token send (EIP-55).
    pub to: String,
    /// Wei sent, `0x`-hex (`0x0` for a token send).
    pub value: String,
    /// `0x` for a native send, the `transfer` calldata for a token send.
    pub data: String,
}

/// The transaction for `request`: a native send moves `value` to the
/// receiver; a token send calls the token's `transfer` with no value. The
/// amount must be above zero and, when the balance is given, within it.
pub fn build_send_transaction(request: &SendRequest) -> Result<TransactionRequest> {
    let receiver = parse_evm_address(request.receiver_address.trim())?;
    let amount = parse_units(&request.amount.to_decimal()?, request.decimals)?;
    if amount.is_zero() {
        return Err(Error::InvalidAmount {
            reason: "expected an amount above zero",
        });
    }
    if let Some(balance) = &request.balance {
        if amount > parse_units_floor(&balance.to_decimal()?, request.decimals)? {
            return Err(Error::AmountExceedsBalance);
        }
    }
    let token = request
        .token_address
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    Ok(match token {
        None => TransactionRequest {
            to: receiver.to_checksum(None),
            value: format!("0x{amount:x}"),
            data: "0x".to_owned(),
        },
        Some(token) => TransactionRequest {
            to: token_contract(token)?.to_checksum(None),
            value: "0x0".to_owned(),
            data: erc20_transfer_data(receiver, amount),
        },
    })
}

/// The contract of a token address written plain (`0x…`) or as CAIP-10 (`eip155:1:0x…`).
fn token_contract(token: &str) -> Result<Address> {
    let parts: Vec<&str> = token.split(':').collect();
    match parts.as_slice() {
        [address] => parse_evm_address(address),
        ["eip155", reference, address] if !reference.is_empty() => parse_evm_address(address),
        _ => Err(Error::InvalidCaip10Address {
            input: token.to_owned(),
        }),
    }
}

/// The gas limit times the gas price, in wei; both integers, decimal or `0x`-hex.
pub fn gas_fee(gas_limit: &str, gas_price: &str) -> Result<U256> {
    parse_integer(gas_limit)?
        .checked_mul(parse_integer(gas_price)?)
        .ok_or(Error::InvalidAmount {
            reason: "larger than 2^256 - 1",
        })
}

/// The inputs of [`max_send_amount`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MaxSendInput {
    /// The balance held, in whole units.
    pub balance: NumberInput,
    /// The token's decimals.
    pub decimals: u8,
    /// Whether the token is the chain's native coin, which also pays the gas.
    #[serde(default, deserialize_with = "null_as_false")]
    pub is_native: bool,
    /// The send's gas limit (`eth_estimateGas`), decimal or `0x`-hex.
    #[serde(default)]
    pub gas_limit: Option<String>,
    /// The gas price in wei (`eth_gasPrice`), decimal or `0x`-hex.
    #[serde(default)]
    pub gas_price: Option<String>,
}

/// The most that can be sent, in whole units: a token's whole balance; for
/// the native coin the balance less gas limit × gas price, never below zero.
/// A native Max needs both gas figures (behaviour 5.5: no native send without a gas price).
pub fn max_send_amount(input: &MaxSendInput) -> Result<String> {
    let balance = parse_units_floor(&input.balance.to_decimal()?, input.decimals)?;
    let max = if input.is_native {
        let (Some(limit), Some(price)) = (&input.gas_limit, &input.gas_price) else {
            return Err(Error::IncompleteSendDraft {
                reason: "Gas price is not available yet, please try again",
            });
        };
        balance.saturating_sub(gas_fee(limit, price)?)
    } else {
        balance
    };
    format_units(&max.to_string(), input.decimals)
}

/// The inputs of [`gas_cost`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GasCostInput {
    /// The send's gas limit, decimal or `0x`-hex.
    pub gas_limit: String,
    /// The gas price in wei, decimal or `0x`-hex.
    pub gas_price: String,
    /// The native coin's decimals (18 on every EVM chain Latch knows).
    pub native_decimals: u8,
    /// USD price of one native coin; missing or null counts as unknown (zero).
    #[serde(default)]
    pub native_price_usd: Option<Decimal>,
}

/// A send's gas cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GasCost {
    /// In the native coin, whole units, exact (`0.000021`).
    pub fee: String,
    /// In USD, exact (`0.0525`); `0` when the price is unknown.
    pub fee_usd: String,
}

/// Gas limit × gas price in the native coin and, at `native_price_usd`, in USD
/// (the "gas price in USD" of the send draft, behaviour 5.4, that behaviour 5.5's rule compares).
pub fn gas_cost(input: &GasCostInput) -> Result<GasCost> {
    let fee = format_units(
        &gas_fee(&input.gas_limit, &input.gas_price)?.to_string(),
        input.native_decimals,
    )?;
    let price = input.native_price_usd.clone().unwrap_or_default();
    let fee_usd = fee.parse::<Decimal>()?.mul(&price);
    Ok(GasCost {
        fee,
        fee_usd: fee_usd.to_string(),
    })
}

/// An amount's fiat value at a unit price, exact (the network balance in USD, behaviour 5.4).
pub fn fiat_value(amount: &Decimal, price: &Decimal) -> Decimal {
    amount.mul(price)
}

#[cfg(test)]
mod tests;
