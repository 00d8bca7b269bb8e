//! The Swap view's checks (behaviour 5.8 Swap, behaviour 5.8): the typed amount in base units,
//! whether it exceeds the balance, whether the router's allowance covers it.
//! Exact integer arithmetic: the view must ask for what it shows.

use alloy_primitives::U256;
use serde::{Deserialize, Serialize};

use crate::format::NumberInput;
use crate::send::{parse_units, parse_units_floor};
use crate::{Error, Result};

/// What the Swap form holds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SwapAmountInput {
    /// Whole units as typed.
    pub amount: NumberInput,
    /// The sold token's decimals.
    pub decimals: u8,
    /// Whole units held (the balance), when known.
    #[serde(default)]
    pub balance: Option<NumberInput>,
    /// Base units the router may spend (the allowance), when known; absent for the native coin.
    #[serde(default)]
    pub allowance: Option<String>,
}

/// The form's amount, read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SwapAmount {
    /// Base units, decimal text (it may exceed 2^53).
    pub units: String,
    /// Above the balance.
    pub exceeds_balance: bool,
    /// The allowance is known and below the amount: approve first.
    pub needs_approval: bool,
}

/// Reads the Swap form's amount: above zero, no more decimals than the token has.
pub fn swap_amount(input: &SwapAmountInput) -> Result<SwapAmount> {
    let units = parse_units(&input.amount.to_decimal()?, input.decimals)?;
    if units.is_zero() {
        return Err(Error::InvalidAmount {
            reason: "expected an amount above zero",
        });
    }
    let exceeds_balance = match &input.balance {
        Some(balance) => units > parse_units_floor(&balance.to_decimal()?, input.decimals)?,
        None => false,
    };
    let needs_approval = match input.allowance.as_deref() {
        Some(allowance) => {
            let allowance = U256::from_str_radix(allowance.trim(), 10).map_err(|_| Error::InvalidInput {
                what: "allowance",
                reason: "expected base units".to_owned(),
            })?;
            allowance < units
        }
        None => false,
    };
    Ok(SwapAmount {
        units: units.to_string(),
        exceeds_balance,
        needs_approval,
    })
}
