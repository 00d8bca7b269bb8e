//! The send form, gas and token lists (behaviour 5.1, 5.4, 5.5).

use std::borrow::Borrow;

use serde::{Deserialize, Deserializer};

use crate::format::{Decimal, NumberInput};
use crate::{Error, Result};
/// The send form's state (behaviour 5.4 "Send draft"), reduced to what validation reads.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendDraft {
    /// Namespace of the active network: `eip155` or `solana` have a send flow.
    pub chain_namespace: String,
    /// The token to send; its `address` is absent for the native token.
    #[serde(default)]
    pub token: Option<TokenBalance>,
    /// The amount, as the form holds it (number or text).
    #[serde(default)]
    pub send_token_amount: Option<NumberInput>,
    /// Where to send it.
    #[serde(default)]
    pub receiver_address: Option<String>,
    /// Whether a gas price is known; its value (a JS `bigint` in the kit) is not read here.
    #[serde(default, rename = "gasPrice", deserialize_with = "is_present")]
    pub has_gas_price: bool,
}

fn is_present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(Option::<serde::de::IgnoredAny>::deserialize(deserializer)?.is_some())
}

/// A token balance (behaviour 5.1), reduced to what the rules read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TokenBalance {
    /// CAIP-10 address of the token contract; absent for the native token.
    #[serde(default)]
    pub address: Option<String>,
    /// How much is held and with how many decimals.
    #[serde(default)]
    pub quantity: Option<TokenQuantity>,
}

/// A token balance's `quantity`: decimals and amount, both as text.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TokenQuantity {
    /// The token's decimals, e.g. `"18"`.
    #[serde(default)]
    pub decimals: Option<String>,
}

impl TokenBalance {
    /// behaviour 5.1 "Token balances hide entries with decimals quantity 0 (low quality)":
    /// the balance API reports spam and unpriced tokens with decimals `"0"`.
    pub fn is_low_quality(&self) -> bool {
        self.decimals() == Some("0")
    }

    fn decimals(&self) -> Option<&str> {
        self.quantity
            .as_ref()?
            .decimals
            .as_deref()
            .filter(|d| !d.trim().is_empty())
    }
}

/// The balances the Tokens tab lists: all but the low-quality ones, in order.
pub fn filter_low_quality_tokens<T: Borrow<TokenBalance>>(balances: Vec<T>) -> Vec<T> {
    balances.into_iter().filter(|b| !b.borrow().is_low_quality()).collect()
}

/// Behaviour 5.5 / 5.5: the message when a send lacks its amount or its receiver.
const MISSING_AMOUNT_OR_RECEIVER: &str = "Please enter a valid amount and receiver address";

/// Whether the draft can be sent (behaviour 5.5). Solana needs an amount and a receiver;
/// EVM needs a token, an amount and a receiver, and for the native token (no
/// token address) also a gas price and the token's decimals. An amount is
/// valid when it is a number above zero; a receiver when it is not blank. The
/// address format itself is the address rules' concern. Other namespaces have
/// no send flow: `Unsupported chain` (behaviour 5.5).
pub fn validate_send_draft(draft: &SendDraft) -> Result<()> {
    let incomplete = |reason| Err(Error::IncompleteSendDraft { reason });
    let has_amount = draft
        .send_token_amount
        .as_ref()
        .and_then(|amount| amount.to_decimal().ok())
        .is_some_and(|amount| !amount.is_zero() && !amount.is_negative());
    let has_receiver = draft.receiver_address.as_deref().is_some_and(|r| !r.trim().is_empty());
    match draft.chain_namespace.as_str() {
        "solana" if !has_amount || !has_receiver => incomplete(MISSING_AMOUNT_OR_RECEIVER),
        "solana" => Ok(()),
        "eip155" => {
            let Some(token) = &draft.token else {
                return incomplete("Please select a token");
            };
            if !has_amount || !has_receiver {
                return incomplete(MISSING_AMOUNT_OR_RECEIVER);
            }
            let is_native = token.address.as_deref().is_none_or(str::is_empty);
            if is_native && !draft.has_gas_price {
                return incomplete("Gas price is not available yet, please try again");
            }
            if is_native && token.decimals().is_none() {
                return incomplete("Token decimals are not available, please select the token again");
            }
            Ok(())
        }
        namespace => Err(Error::UnsupportedSendChain {
            namespace: namespace.to_owned(),
        }),
    }
}

/// The inputs of the insufficient-gas rule (behaviour 5.5).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GasCheck {
    /// The native balance in USD; missing counts as zero.
    #[serde(default)]
    pub network_balance_usd: Option<Decimal>,
    /// The send's gas cost in USD; missing counts as zero.
    #[serde(default)]
    pub gas_price_usd: Option<Decimal>,
    /// Smart accounts have gas sponsored, so the rule exempts them.
    #[serde(default, deserialize_with = "null_as_false")]
    pub is_smart_account: bool,
}

/// A flag JS may leave `null`: `null` means unset, as a missing key does.
pub(crate) fn null_as_false<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(Option::<bool>::deserialize(deserializer)?.unwrap_or(false))
}

/// Behaviour 5.5 "Insufficient gas: network balance in USD is 0 or below gas price in
/// USD; smart accounts exempt". Exact decimal comparison.
pub fn is_insufficient_gas(check: &GasCheck) -> bool {
    if check.is_smart_account {
        return false;
    }
    let zero = Decimal::default();
    let balance = check.network_balance_usd.as_ref().unwrap_or(&zero);
    let gas = check.gas_price_usd.as_ref().unwrap_or(&zero);
    balance.is_zero() || balance < gas
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    use crate::validate::deserialize_input;

    fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
        deserialize_input("test input", value).unwrap()
    }

    // Behaviour 5.5: "Solana send needs amount and receiver, else 'Please enter a valid amount and
    // receiver address'. EVM send needs token, amount, receiver; native also needs gas price and decimals."
    #[test]
    fn send_drafts() {
        let erc20 = json!({"address": "eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "quantity": {"decimals": "6", "numeric": "10"}});
        let native = json!({"quantity": {"decimals": "18", "numeric": "1"}});
        let check = |draft: Value| validate_send_draft(&from_json(draft)).map_err(|e| e.to_string());
        let ok = Ok(());
        let missing = Err(MISSING_AMOUNT_OR_RECEIVER.to_owned());
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": 1, "receiverAddress": "x"})),
            ok
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": "0.5", "receiverAddress": "x"})),
            ok
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "receiverAddress": "x"})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": 0, "receiverAddress": "x"})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": "abc", "receiverAddress": "x"})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": -1, "receiverAddress": "x"})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "solana", "sendTokenAmount": 1, "receiverAddress": "  "})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "eip155", "sendTokenAmount": 1, "receiverAddress": "0x1"})),
            Err("Please select a token".to_owned())
        );
        assert_eq!(
            check(json!({"chainNamespace": "eip155", "token": erc20, "sendTokenAmount": 1})),
            missing
        );
        assert_eq!(
            check(json!({"chainNamespace": "eip155", "token": erc20, "sendTokenAmount": 1, "receiverAddress": "0x1"})),
            ok
        );
        assert_eq!(
            check(json!({"chainNamespace": "eip155", "token": native, "sendTokenAmount": 1, "receiverAddress": "0x1"})),
            Err("Gas price is not available yet, please try again".to_owned())
        );
        assert_eq!(
            check(
                json!({"chainNamespace": "eip155", "token": native, "sendTokenAmount": 1, "receiverAddress": "0x1", "gasPrice": 1_000_000_000u64})
            ),
            ok
        );
        assert_eq!(
            check(
                json!({"chainNamespace": "eip155", "token": {}, "sendTokenAmount": 1, "receiverAddress": "0x1", "gasPrice": "1"})
            ),
            Err("Token decimals are not available, please select the token again".to_owned())
        );
        assert_eq!(
            check(json!({"chainNamespace": "polkadot", "sendTokenAmount": 1, "receiverAddress": "x"})),
            Err("Unsupported chain".to_owned())
        );
        let no_namespace = deserialize_input::<SendDraft, _>("send draft", json!({})).unwrap_err();
        assert_eq!(
            no_namespace.to_string(),
            "Invalid send draft: missing field `chainNamespace`"
        );
    }

    // Behaviour 5.5: "Insufficient gas: network balance in USD is 0 or below gas price in USD; smart accounts exempt."
    #[test]
    fn insufficient_gas() {
        let check = |input: Value| is_insufficient_gas(&from_json(input));
        assert!(check(json!({"networkBalanceUsd": "0", "gasPriceUsd": 0})));
        assert!(check(json!({})));
        assert!(check(json!({"networkBalanceUsd": "0.5", "gasPriceUsd": 0.51})));
        assert!(!check(json!({"networkBalanceUsd": "0.51", "gasPriceUsd": 0.51})));
        assert!(!check(json!({"networkBalanceUsd": 12.3, "gasPriceUsd": "0.01"})));
        assert!(!check(json!({"networkBalanceUsd": 3})));
        assert!(!check(
            json!({"networkBalanceUsd": "0", "gasPriceUsd": 1, "isSmartAccount": true})
        ));
        assert!(check(json!({"networkBalanceUsd": "0", "isSmartAccount": null})));
        let bad = deserialize_input::<GasCheck, _>("gas check", json!({"networkBalanceUsd": "lots"})).unwrap_err();
        assert_eq!(
            bad.to_string(),
            "Invalid gas check: Invalid amount: expected a decimal number like -1234.5"
        );
    }

    // Behaviour 5.1: "Token balances hide entries with decimals quantity 0 (low quality)."
    #[test]
    fn low_quality_tokens() {
        let balances: Vec<TokenBalance> = from_json(json!([
            {"quantity": {"decimals": "18", "numeric": "1"}},
            {"quantity": {"decimals": "0", "numeric": "1000000"}},
            {"quantity": {"decimals": "6"}},
            {}
        ]));
        let kept = filter_low_quality_tokens(balances.iter().collect());
        assert_eq!(kept, [&balances[0], &balances[2], &balances[3]]);
    }
}
