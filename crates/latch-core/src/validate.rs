//! Validation rules of behaviour 5.5 (with the messages of behaviour 5.11): names, coin types,
//! send drafts, gas, token lists, wallet assets, expirer targets, sign-in and
//! project configuration, and the e-mail login cooldown (behaviour 5.16, 7.1).

use std::borrow::Borrow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

use crate::constants::CONSTANTS;
use crate::format::{Decimal, NumberInput};
use crate::{Error, Result};

/// Shortest name that may be registered (behaviour 5.11 "at least 4 characters").
pub const MIN_NAME_LENGTH: usize = 4;
/// Longest name (one DNS label).
pub const MAX_NAME_LENGTH: usize = 63;
/// The ENSIP-11 coin type of Ethereum mainnet (SLIP-44 60).
pub const ETHEREUM_COIN_TYPE: u32 = 60;
/// ENSIP-11: an EVM chain's coin type is this bit OR its chain id.
const EVM_COIN_TYPE_FLAG: u32 = 0x8000_0000;
/// Largest integer a JS `number` holds exactly: ids above it would change on the way to JS.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Reads a structured input from any serde source (JSON, a JS object), with
/// an error naming `what` and the missing or mistyped field.
pub fn deserialize_input<'de, T: Deserialize<'de>, D: Deserializer<'de>>(what: &'static str, input: D) -> Result<T> {
    T::deserialize(input).map_err(|e| Error::InvalidInput {
        what,
        reason: e.to_string(),
    })
}

/// Checks the label of a name to register (behaviour 5.11: at least 4 characters,
/// letters, digits, hyphen only) and returns it in lower case, the form names
/// are registered and resolved in (ENS normalisation lower-cases ASCII, so
/// `Alice` and `alice` are one name and typing either is fine). Letters are
/// ASCII: the name service does not register other scripts. The zone suffix
/// (`.<zone>`) is not part of the label.
pub fn validate_name(name: &str) -> Result<String> {
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Error::InvalidName {
            reason: "Name can only contain letters, digits and hyphens",
        });
    }
    if name.len() < MIN_NAME_LENGTH {
        return Err(Error::InvalidName {
            reason: "Name must be at least 4 characters",
        });
    }
    // A name is a DNS label under the zone (the CCIP-Read gateway serves it as one), so it
    // also keeps DNS's shape: one label of at most 63 octets, no hyphen at either end.
    if name.len() > MAX_NAME_LENGTH {
        return Err(Error::InvalidName {
            reason: "Name must be at most 63 characters",
        });
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(Error::InvalidName {
            reason: "Name cannot start or end with a hyphen",
        });
    }
    Ok(name.to_ascii_lowercase())
}

/// The ENSIP-11 coin type of an EVM chain: 60 for Ethereum mainnet, else
/// `0x80000000 | chain_id`; ids at or above 2^31 have none (behaviour 5.11 "Invalid chainId").
pub fn evm_chain_id_to_coin_type(chain_id: u64) -> Result<u32> {
    match u32::try_from(chain_id) {
        Ok(1) => Ok(ETHEREUM_COIN_TYPE),
        Ok(id) if id < EVM_COIN_TYPE_FLAG => Ok(EVM_COIN_TYPE_FLAG | id),
        _ => Err(Error::InvalidChainId),
    }
}

/// The EVM chain id an ENSIP-11 coin type stands for: 60 → 1, `0x80000000 | id` → `id`;
/// other coin types (Bitcoin's 0, Solana's 501, …) are not EVM chains.
pub fn coin_type_to_evm_chain_id(coin_type: u32) -> Result<u64> {
    match coin_type {
        ETHEREUM_COIN_TYPE => Ok(1),
        flagged if flagged & EVM_COIN_TYPE_FLAG != 0 => Ok(u64::from(flagged & !EVM_COIN_TYPE_FLAG)),
        _ => Err(Error::InvalidChainId),
    }
}

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

/// A wallet asset as `wallet_getAssets` reports it (behaviour 5.3). Deserializing
/// one is the validity check of behaviour 5.3: address and balance strings, type
/// `ERC20` or `NATIVE`, and the metadata types below.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WalletAsset {
    /// Token contract address (the native token has a placeholder).
    pub address: String,
    /// Balance in base units, hex text.
    pub balance: String,
    /// `ERC20` or `NATIVE`.
    #[serde(rename = "type")]
    pub kind: WalletAssetKind,
    /// How to show it.
    pub metadata: WalletAssetMetadata,
}

/// The two asset types behaviour 5.3 names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum WalletAssetKind {
    /// A token contract.
    #[serde(rename = "ERC20")]
    Erc20,
    /// The chain's own currency.
    #[serde(rename = "NATIVE")]
    Native,
}

/// A wallet asset's `metadata`. Behaviour 5.3 lists `value` without a type rule in behaviour 5.3 and
/// wallets omit it when they have no price source, so it alone is optional.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletAssetMetadata {
    /// Token name.
    pub name: String,
    /// Token symbol.
    pub symbol: String,
    /// Token decimals. Held as a byte: decimals that are not a whole number
    /// 0–255 cannot format an amount, so such an asset is not valid.
    pub decimals: u8,
    /// USD price of one token.
    pub price: f64,
    /// Icon URL.
    pub icon_url: String,
    /// USD value of the balance, when the wallet knows it.
    #[serde(default)]
    pub value: Option<f64>,
}

/// Behaviour 5.3 "Wallet asset valid only if address and balance are strings, type ERC20
/// or NATIVE, metadata types as stated"; anything else, including not an object, is invalid.
pub fn is_valid_wallet_asset<'de, D: Deserializer<'de>>(asset: D) -> bool {
    WalletAsset::deserialize(asset).is_ok()
}

/// What a pairing expirer watches: a session topic or a JSON-RPC request id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpirerTarget {
    /// `topic:<string>`: a pairing or session topic.
    Topic(String),
    /// `id:<number>`: a request id, a whole number JS holds exactly.
    Id(u64),
}

impl FromStr for ExpirerTarget {
    type Err = Error;

    /// `topic:<non-empty text>` or `id:<digits>` (at most 2^53 - 1), else
    /// `Invalid target, expected id:number or topic:string` (behaviour 2.8). Everything
    /// after the first colon is the value, so topics may contain colons.
    fn from_str(target: &str) -> Result<Self> {
        let invalid = || Error::InvalidExpirerTarget {
            input: target.to_owned(),
        };
        match target.split_once(':') {
            Some(("topic", topic)) if !topic.is_empty() => Ok(ExpirerTarget::Topic(topic.to_owned())),
            Some(("id", id)) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => id
                .parse()
                .ok()
                .filter(|id| *id <= MAX_SAFE_INTEGER)
                .map(ExpirerTarget::Id)
                .ok_or_else(invalid),
            _ => Err(invalid()),
        }
    }
}

impl fmt::Display for ExpirerTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpirerTarget::Topic(topic) => write!(f, "topic:{topic}"),
            ExpirerTarget::Id(id) => write!(f, "id:{id}"),
        }
    }
}

/// A value handed to [`ExpirerTarget::build`], typed as JS typed it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetValue<'a> {
    /// A JS string.
    Text(&'a str),
    /// A JS number.
    Number(f64),
    /// Anything else.
    Other,
}

impl ExpirerTarget {
    /// The typed builder: `topic` takes text, `id` a whole number, else behaviour 2.8
    /// `Value must be "string" for expirer target type: topic` (or the number /
    /// id equivalent). A fractional or out-of-range id, an empty topic or
    /// another kind is not a target: `Invalid target…`.
    pub fn build(kind: &str, value: TargetValue<'_>) -> Result<Self> {
        match (kind, value) {
            ("topic", TargetValue::Text(topic)) => format!("topic:{topic}").parse(),
            ("topic", _) => Err(Error::ExpirerValueType {
                kind: "topic",
                expected: "string",
            }),
            ("id", TargetValue::Number(n)) if n.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(&n) => {
                Ok(ExpirerTarget::Id(n as u64))
            }
            ("id", TargetValue::Number(n)) => Err(Error::InvalidExpirerTarget {
                input: format!("id:{n}"),
            }),
            ("id", _) => Err(Error::ExpirerValueType {
                kind: "id",
                expected: "number",
            }),
            (kind, _) => Err(Error::InvalidExpirerTarget {
                input: format!("{kind}:"),
            }),
        }
    }
}

/// Behaviour 4.2: "siweConfig and siwx cannot both be set".
pub fn check_siwx_options(has_siwe_config: bool, has_siwx: bool) -> Result<()> {
    if has_siwe_config && has_siwx {
        return Err(Error::SiwxConflict);
    }
    Ok(())
}

/// Behaviour 6.2 "A project id is required, else the alert Project ID Not Configured":
/// missing, empty or blank.
pub fn check_project_id(project_id: Option<&str>) -> Result<()> {
    match project_id {
        Some(id) if !id.trim().is_empty() => Ok(()),
        _ => Err(Error::ProjectIdNotConfigured),
    }
}

/// Behaviour 5.16 "E-mail login is blocked within 30 s of the last attempt", with behaviour 5.16's
/// message giving the whole seconds left, rounded up. No last attempt, or one
/// dated in the future (a device clock moved back; trusting it could lock the
/// user out for as long), does not block: the server enforces the real limit.
pub fn check_email_cooldown(last_attempt_ms: Option<i64>, now_ms: i64) -> Result<()> {
    let Some(last) = last_attempt_ms else { return Ok(()) };
    let elapsed = now_ms.saturating_sub(last);
    if !(0..(CONSTANTS.cooldowns.email_login_ms as i64)).contains(&elapsed) {
        return Ok(());
    }
    let remaining = (CONSTANTS.cooldowns.email_login_ms as i64) - elapsed;
    Err(Error::EmailCooldown {
        seconds: remaining.unsigned_abs().div_ceil(1_000),
    })
}

/// The behaviour 5.16 throttle message while the cooldown lasts, else `None`.
pub fn email_cooldown_message(last_attempt_ms: Option<i64>, now_ms: i64) -> Option<String> {
    check_email_cooldown(last_attempt_ms, now_ms)
        .err()
        .map(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
        deserialize_input("test input", value).unwrap()
    }

    // Behaviour 5.11: "Name validation: at least 4 characters, letters, digits, hyphen only."
    #[test]
    fn names() {
        assert_eq!(validate_name("alice").unwrap(), "alice");
        assert_eq!(validate_name("Web3-Fan").unwrap(), "web3-fan");
        assert_eq!(validate_name("a-1b").unwrap(), "a-1b");
        for (bad, message) in [
            ("abc", "Name must be at least 4 characters"),
            ("", "Name must be at least 4 characters"),
            ("alice.eth", "Name can only contain letters, digits and hyphens"),
            ("al ice", "Name can only contain letters, digits and hyphens"),
            ("al_ice", "Name can only contain letters, digits and hyphens"),
            ("ålice", "Name can only contain letters, digits and hyphens"),
            ("-alice", "Name cannot start or end with a hyphen"),
            ("alice-", "Name cannot start or end with a hyphen"),
            (&"a".repeat(64), "Name must be at most 63 characters"),
        ] {
            assert_eq!(validate_name(bad).unwrap_err().to_string(), message, "{bad:?}");
        }
    }

    // Behaviour 5.11: "EVM chain id to coin type rejects ids at or above 2^31 with 'Invalid chainId'."
    #[test]
    fn coin_types() {
        assert_eq!(evm_chain_id_to_coin_type(1).unwrap(), 60);
        for id in [1u64, 10, 8453, 31337, (1 << 31) - 1] {
            assert_eq!(
                coin_type_to_evm_chain_id(evm_chain_id_to_coin_type(id).unwrap()),
                Ok(id)
            );
        }
        assert_eq!(coin_type_to_evm_chain_id(0), Err(Error::InvalidChainId));
        assert_eq!(coin_type_to_evm_chain_id(501), Err(Error::InvalidChainId));
        assert_eq!(evm_chain_id_to_coin_type(0).unwrap(), 0x8000_0000);
        assert_eq!(evm_chain_id_to_coin_type(10).unwrap(), 2_147_483_658);
        assert_eq!(evm_chain_id_to_coin_type(8453).unwrap(), 2_147_492_101);
        assert_eq!(evm_chain_id_to_coin_type((1 << 31) - 1).unwrap(), u32::MAX);
        for bad in [1 << 31, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(evm_chain_id_to_coin_type(bad), Err(Error::InvalidChainId));
        }
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

    // Behaviour 5.3: "Wallet asset valid only if address and balance are strings, type ERC20 or NATIVE, metadata types as stated."
    #[test]
    fn wallet_assets() {
        let valid = json!({
            "address": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "balance": "0x5f5e100", "type": "ERC20",
            "metadata": {"name": "USD Coin", "symbol": "USDC", "decimals": 6, "price": 1.0, "iconUrl": "https://x/usdc.png", "value": 100}
        });
        assert!(is_valid_wallet_asset(&valid));
        let with = |path: &[&str], value: Value| {
            let mut asset = valid.clone();
            let (last, parents) = path.split_last().unwrap();
            let target = parents.iter().fold(&mut asset, |v, key| &mut v[*key]);
            if value.is_null() {
                target.as_object_mut().unwrap().remove(*last);
            } else {
                target[*last] = value;
            }
            is_valid_wallet_asset(&asset)
        };
        assert!(with(&["type"], json!("NATIVE")));
        assert!(with(&["metadata", "value"], Value::Null));
        assert!(!with(&["type"], json!("ERC721")));
        assert!(!with(&["address"], json!(42)));
        assert!(!with(&["balance"], Value::Null));
        assert!(!with(&["metadata", "decimals"], json!("6")));
        assert!(!with(&["metadata", "price"], json!("1.00")));
        assert!(!with(&["metadata", "iconUrl"], Value::Null));
        assert!(!with(&["metadata", "symbol"], json!(5)));
        assert!(!with(&["metadata"], json!("USDC")));
        assert!(!is_valid_wallet_asset(json!(null)));
        assert!(!is_valid_wallet_asset(json!("asset")));
    }

    // Behaviour 2.8: "Expirer targets must be topic:string or id:number, else 'Invalid target, expected id:number or topic:string'."
    #[test]
    fn expirer_targets() {
        assert_eq!("topic:abc".parse(), Ok(ExpirerTarget::Topic("abc".to_owned())));
        assert_eq!("topic:a:b".parse(), Ok(ExpirerTarget::Topic("a:b".to_owned())));
        assert_eq!(
            "id:1700000000000123".parse(),
            Ok(ExpirerTarget::Id(1_700_000_000_000_123))
        );
        for bad in [
            "topic:",
            "id:",
            "id:-1",
            "id:1.5",
            "id:9007199254740992",
            "id:x",
            "pairing:abc",
            "abc",
            "",
        ] {
            let err = bad.parse::<ExpirerTarget>().unwrap_err();
            assert_eq!(
                err.to_string(),
                "Invalid target, expected id:number or topic:string",
                "{bad:?}"
            );
        }
        assert_eq!(
            ExpirerTarget::build("topic", TargetValue::Text("abc")),
            Ok(ExpirerTarget::Topic("abc".to_owned()))
        );
        assert_eq!(
            ExpirerTarget::build("id", TargetValue::Number(42.0)),
            Ok(ExpirerTarget::Id(42))
        );
        let message = |kind, value| ExpirerTarget::build(kind, value).unwrap_err().to_string();
        assert_eq!(
            message("topic", TargetValue::Number(1.0)),
            "Value must be \"string\" for expirer target type: topic"
        );
        assert_eq!(
            message("id", TargetValue::Text("1")),
            "Value must be \"number\" for expirer target type: id"
        );
        assert_eq!(
            message("id", TargetValue::Other),
            "Value must be \"number\" for expirer target type: id"
        );
        assert_eq!(
            message("id", TargetValue::Number(1.5)),
            "Invalid target, expected id:number or topic:string"
        );
        assert_eq!(
            message("other", TargetValue::Text("x")),
            "Invalid target, expected id:number or topic:string"
        );
    }

    // Behaviour 4.2: "siweConfig and siwx cannot both be set… A project id is required, else the alert Project ID Not Configured."
    #[test]
    fn configuration() {
        assert!(check_siwx_options(true, false).is_ok());
        assert!(check_siwx_options(false, true).is_ok());
        assert!(check_siwx_options(false, false).is_ok());
        assert_eq!(
            check_siwx_options(true, true).unwrap_err().to_string(),
            "Cannot set both `siweConfig` and `siwx` options"
        );
        assert!(check_project_id(Some("c4f79cc8")).is_ok());
        for bad in [None, Some(""), Some("  ")] {
            assert_eq!(check_project_id(bad), Err(Error::ProjectIdNotConfigured));
        }
    }

    // Behaviour 5.16: "E-mail login is blocked within 30 s of the last attempt"; behaviour 5.16 "Please try again after {n} seconds".
    #[test]
    fn email_cooldown() {
        let now = 1_700_000_000_000;
        for (ago, message) in [
            (0, Some("Please try again after 30 seconds")),
            (1, Some("Please try again after 30 seconds")),
            (999, Some("Please try again after 30 seconds")),
            (1_000, Some("Please try again after 29 seconds")),
            (29_001, Some("Please try again after 1 seconds")),
            (30_000, None),
            (90_000, None),
            (-5_000, None),
        ] {
            assert_eq!(
                email_cooldown_message(Some(now - ago), now).as_deref(),
                message,
                "{ago} ms ago"
            );
        }
        assert_eq!(email_cooldown_message(None, now), None);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", n in any::<u64>(), f in any::<f64>(), a in any::<i64>(), b in any::<i64>()) {
            let _ = validate_name(&s);
            let _ = evm_chain_id_to_coin_type(n);
            let _ = s.parse::<ExpirerTarget>();
            let _ = ExpirerTarget::build(&s, TargetValue::Number(f));
            let _ = ExpirerTarget::build("id", TargetValue::Number(f));
            let _ = email_cooldown_message(Some(a), b);
        }

        // Every target prints back to the text it was parsed from.
        #[test]
        fn expirer_target_round_trips(topic in "\\PC+", id in 0u64..=MAX_SAFE_INTEGER) {
            for target in [ExpirerTarget::Topic(topic.clone()), ExpirerTarget::Id(id)] {
                prop_assert_eq!(target.to_string().parse::<ExpirerTarget>(), Ok(target));
            }
        }

        #[test]
        fn valid_names_are_lower_case(name in "[a-zA-Z0-9][a-zA-Z0-9-]{2,38}[a-zA-Z0-9]") {
            let valid = validate_name(&name).unwrap();
            prop_assert_eq!(validate_name(&valid).unwrap(), valid.clone());
            prop_assert!(!valid.chars().any(|c| c.is_ascii_uppercase()));
        }

        // Coin types are injective below 2^31 and never collide with mainnet's 60.
        #[test]
        fn coin_type_keeps_the_chain_id(id in 2u64..(1 << 31)) {
            prop_assert_eq!(u64::from(evm_chain_id_to_coin_type(id).unwrap() & 0x7fff_ffff), id);
        }
    }
}
