//! What the wallet frame shows in ApproveTransaction before it signs (behaviour 5.18, 5.19),
//! and the transaction it signs once the user confirms.
//!
//! [`summarize`] reads a not-safe request's params into a readable summary — a message's text,
//! typed data's domain and fields, a transaction's receiver, value and data with an ERC-20
//! `transfer` decoded — and the exact value the key signs, so what is shown is what is signed.
//! [`prepare_transaction`] fills an `eth_sendTransaction` object with the nonce, gas and
//! EIP-1559 fees the frame read from the gateway, for latch-vault's `sign_transaction`.

use crate::json;
use crate::json::{Object, Value};
use alloy_primitives::{hex, Address, U256};

use crate::address::parse_evm_address;
use crate::eip712::TypedData;
use crate::send::ERC20_TRANSFER_SELECTOR;
use crate::{Error, Result};

pub(super) fn invalid(what: &'static str, reason: impl Into<String>) -> Error {
    Error::InvalidInput {
        what,
        reason: reason.into(),
    }
}

/// One line of a summary: a name and its value as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The member's name.
    pub name: String,
    /// Its value: text as given, numbers in decimal, anything nested as compact JSON.
    pub value: String,
}

/// An ERC-20 `transfer(to, amount)` read from a transaction's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenTransfer {
    /// The token's receiver (EIP-55).
    pub to: String,
    /// The amount in the token's base units, decimal (its decimals are the token's to say).
    pub amount: String,
}

/// What ApproveTransaction shows for one request. As JSON ([`Approval::to_json`]) it is tagged
/// by `kind` (`message`, `typedData`, `transaction`) with camelCase members; written by hand
/// because derived serializers would cost the frame's wasm module kilobytes of its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Summary {
    /// `personal_sign`.
    Message {
        /// The message as UTF-8 text when it is printable, else its `0x` hex.
        text: String,
        /// Whether `text` is hex (the bytes are not printable text).
        is_hex: bool,
    },
    /// `eth_signTypedData_v4`.
    TypedData {
        /// The primary type's name.
        primary_type: String,
        /// The domain's members (name, version, chainId, verifyingContract, salt).
        domain: Vec<Field>,
        /// The message's top-level members.
        fields: Vec<Field>,
    },
    /// `eth_sendTransaction`.
    Transaction {
        /// The receiver or contract (EIP-55); none for a contract creation.
        to: Option<String>,
        /// Wei sent, decimal.
        value: String,
        /// The same in ether, exact.
        value_ether: String,
        /// The call data, `0x` hex.
        data: String,
        /// The data read as an ERC-20 `transfer`, when it is one.
        transfer: Option<TokenTransfer>,
    },
    /// `wallet_sendCalls` (EIP-5792): its calls in order, each shown as a transaction.
    Calls {
        /// One [`Summary::Transaction`] per call.
        calls: Vec<Summary>,
    },
    /// `solana_signTransaction`, `solana_signAllTransactions`, `solana_signAndSendTransaction`
    /// (`solana_signMessage` is a [`Summary::Message`]).
    SolanaTransactions {
        /// Whether the frame sends it after signing (`solana_signAndSendTransaction`).
        send: bool,
        /// Each transaction, in order.
        transactions: Vec<super::solana::TransactionSummary>,
    },
}

/// A not-safe request, read: what to show and what the key signs.
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    /// The request's method.
    pub method: String,
    /// What ApproveTransaction shows.
    pub summary: Summary,
    /// What the frame hands the key: the message (`personal_sign`), the typed data as JSON
    /// text (`eth_signTypedData_v4`), or the transaction `{from, to, value, data}` that
    /// [`prepare_transaction`] completes (`eth_sendTransaction`, also the `eth_estimateGas` call).
    pub sign: Value,
}

fn fields_json(fields: &[Field]) -> Value {
    Value::Array(
        fields
            .iter()
            .map(|field| json!({"name": field.name, "value": field.value}))
            .collect(),
    )
}

impl Summary {
    fn to_json(&self) -> Value {
        match self {
            Summary::Message { text, is_hex } => json!({"kind": "message", "text": text, "isHex": is_hex}),
            Summary::TypedData {
                primary_type,
                domain,
                fields,
            } => {
                json!({"kind": "typedData", "primaryType": primary_type, "domain": fields_json(domain), "fields": fields_json(fields)})
            }
            Summary::Transaction {
                to,
                value,
                value_ether,
                data,
                transfer,
            } => json!({
                "kind": "transaction", "to": to, "value": value, "valueEther": value_ether, "data": data,
                "transfer": transfer.as_ref().map(|t| json!({"to": t.to, "amount": t.amount})),
            }),
            Summary::Calls { calls } => {
                json!({"kind": "calls", "calls": Value::Array(calls.iter().map(Summary::to_json).collect())})
            }
            Summary::SolanaTransactions { send, transactions } => json!({
                "kind": "solanaTransactions", "send": send,
                "transactions": Value::Array(transactions.iter().map(super::solana::TransactionSummary::to_json).collect()),
            }),
        }
    }
}

impl Approval {
    /// `{method, summary: {kind, …}, sign}`, what the frame reads.
    pub fn to_json(&self) -> Value {
        json!({"method": self.method, "summary": self.summary.to_json(), "sign": self.sign})
    }
}

/// The EVM methods the frame signs after approval; the Solana ones are
/// [`super::solana::SOLANA_METHODS`]. The other approval methods of behaviour 5.18 (permissions,
/// user operations) are refused with a clear error until the frame runs them.
pub const SIGNED_METHODS: [&str; 4] = [
    "personal_sign",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "wallet_sendCalls",
];

/// Reads `params` of a not-safe `method` for `account`: the embedded wallet's EVM address, or its
/// Solana address for the Solana methods. A request naming another account, or malformed, is
/// refused with a clear error.
pub fn summarize(method: &str, params: &Value, account: &str) -> Result<Approval> {
    if super::solana::SOLANA_METHODS.contains(&method) {
        return super::solana::summarize(method, params, account);
    }
    let account = parse_evm_address(account)?;
    let params = match params {
        Value::Array(items) => items.as_slice(),
        Value::Null => &[],
        _ => return Err(invalid("params", "params are a list")),
    };
    let (summary, sign) = match method {
        "personal_sign" => {
            let Some(Value::String(message)) = params.first() else {
                return Err(invalid("params", "personal_sign's first parameter is the message"));
            };
            if let Some(address) = params.get(1) {
                same_account(address, account)?;
            }
            (message_summary(message), Value::String(message.clone()))
        }
        "eth_signTypedData_v4" => {
            let address = params
                .first()
                .ok_or_else(|| invalid("params", "the account is required"))?;
            same_account(address, account)?;
            let typed = match params.get(1) {
                Some(Value::String(text)) => Value::parse(text).map_err(|e| invalid("typed data", e.to_string()))?,
                Some(object @ Value::Object(_)) => object.clone(),
                _ => return Err(invalid("params", "the typed data is required")),
            };
            let parsed = TypedData::from_value(typed.clone())?;
            let summary = Summary::TypedData {
                primary_type: parsed.primary_type().to_owned(),
                domain: fields(parsed.domain()),
                fields: parsed.message().as_object().map(fields).unwrap_or_default(),
            };
            // The request's own typed data (text or object): the frame hands it to the key as JSON.
            (summary, params[1].clone())
        }
        "eth_sendTransaction" => {
            let Some(Value::Object(tx)) = params.first() else {
                return Err(invalid("transaction", "eth_sendTransaction's parameter is an object"));
            };
            transaction(tx, account)?
        }
        "wallet_sendCalls" => {
            let Some(Value::Object(batch)) = params.first() else {
                return Err(invalid("calls", "wallet_sendCalls's parameter is an object"));
            };
            super::calls::summarize_calls(batch, account)?
        }
        other if crate::policy::classify_rpc_method(other) == crate::policy::RpcMethodClass::Approval => {
            return Err(invalid(
                "method",
                format!("{other} is not supported by the embedded wallet yet"),
            ));
        }
        other => {
            return Err(Error::RpcMethodNotAllowed {
                method: other.to_owned(),
            })
        }
    };
    Ok(Approval {
        method: method.to_owned(),
        summary,
        sign,
    })
}

pub(super) fn same_account(value: &Value, account: Address) -> Result<()> {
    let Value::String(text) = value else {
        return Err(invalid("params", "the account is an address"));
    };
    if parse_evm_address(text)? != account {
        return Err(invalid("params", "the request names another account"));
    }
    Ok(())
}

/// `0x` hex bytes shown as text when they are printable UTF-8; any other string is the text.
fn message_summary(message: &str) -> Summary {
    let Some(digits) = message.strip_prefix("0x") else {
        return Summary::Message {
            text: message.to_owned(),
            is_hex: false,
        };
    };
    match hex::decode(digits) {
        Ok(bytes) => message_text(&bytes),
        Err(_) => Summary::Message {
            text: message.to_ascii_lowercase(),
            is_hex: true,
        },
    }
}

/// Message bytes as text when they are printable UTF-8, else as `0x` hex.
pub(super) fn message_text(bytes: &[u8]) -> Summary {
    match std::str::from_utf8(bytes) {
        Ok(text) if printable(text) => Summary::Message {
            text: text.to_owned(),
            is_hex: false,
        },
        _ => Summary::Message {
            text: hex::encode_prefixed(bytes),
            is_hex: true,
        },
    }
}

/// Text a person can read: no control characters but line breaks and tabs (which could hide
/// or reorder what is shown), and not empty.
fn printable(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
}

fn fields(object: &Object) -> Vec<Field> {
    object
        .iter()
        .map(|(name, value)| Field {
            name: name.clone(),
            value: match value {
                Value::String(text) => text.clone(),
                other => compact(other),
            },
        })
        .collect()
}

/// Compact JSON text of a nested value, for display only (escaping only quotes and backslashes,
/// and numbers as integers, as it was shown when serde_json read the typed data).
fn compact(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        // EIP-712 has no fractions; formatting floats would cost the frame's module kilobytes.
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.to_string(),
            (None, Some(i)) => i.to_string(),
            _ => "(not an integer)".to_owned(),
        },
        Value::String(text) => format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
        Value::Array(items) => format!("[{}]", items.iter().map(compact).collect::<Vec<_>>().join(",")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(key, item)| format!("{}:{}", compact(&Value::String(key.clone())), compact(item)))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

fn hex_bytes(fields: &Object) -> Result<Vec<u8>> {
    let read = |key: &str| -> Result<Option<Vec<u8>>> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => text
                .strip_prefix("0x")
                .and_then(|digits| hex::decode(digits).ok())
                .map(Some)
                .ok_or_else(|| invalid("transaction", format!("{key} is 0x hex"))),
            Some(_) => Err(invalid("transaction", format!("{key} is 0x hex"))),
        }
    };
    match (read("data")?, read("input")?) {
        (Some(data), Some(input)) if data != input => Err(invalid("transaction", "data and input differ")),
        (data, input) => Ok(data.or(input).unwrap_or_default()),
    }
}

/// A JSON-RPC quantity (`0x` hex) or a JSON number.
pub(super) fn quantity(fields: &Object, key: &'static str) -> Result<Option<U256>> {
    let bad = || invalid("transaction", format!("{key} is a 0x quantity"));
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => match text.strip_prefix("0x") {
            Some(digits) if !digits.is_empty() => U256::from_str_radix(digits, 16).map(Some).map_err(|_| bad()),
            _ => Err(bad()),
        },
        Some(Value::Number(n)) => n.as_u64().map(|n| Some(U256::from(n))).ok_or_else(bad),
        Some(_) => Err(bad()),
    }
}

/// `value` in decimal. Schoolbook division of the bytes: U256's own decimal formatting would
/// cost the frame's module kilobytes.
fn decimal(value: U256) -> String {
    let mut bytes = value.to_be_bytes::<32>();
    let mut digits = Vec::new();
    loop {
        let mut rest = 0u32;
        let mut zero = true;
        for byte in bytes.iter_mut() {
            let current = (rest << 8) | u32::from(*byte);
            *byte = (current / 10) as u8;
            rest = current % 10;
            zero &= *byte == 0;
        }
        digits.push(char::from(b'0' + rest as u8));
        if zero {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// Wei as ether, exact, without trailing zeros: `1500000000000000000` → `1.5`.
fn ether(value: U256) -> String {
    let digits = format!("{:0>19}", decimal(value));
    let (int, frac) = digits.split_at(digits.len() - 18);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    }
}

pub(super) fn quantity_hex(value: U256) -> String {
    format!("{value:#x}")
}

pub(super) fn transaction(tx: &Object, account: Address) -> Result<(Summary, Value)> {
    if let Some(from) = tx.get("from").filter(|v| !v.is_null()) {
        same_account(from, account).map_err(|_| invalid("transaction", "from is not this account"))?;
    }
    let to = match tx.get("to") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(parse_evm_address(text)?),
        Some(_) => return Err(invalid("transaction", "to is an address")),
    };
    let value = quantity(tx, "value")?.unwrap_or_default();
    let data = hex_bytes(tx)?;
    let transfer = to.and(erc20_transfer(&data));
    let data_hex = hex::encode_prefixed(&data);
    let summary = Summary::Transaction {
        to: to.map(|to| to.to_checksum(None)),
        value: decimal(value),
        value_ether: ether(value),
        data: data_hex.clone(),
        transfer,
    };
    let mut call = Object::new();
    call.insert("from".into(), account.to_checksum(None).into());
    if let Some(to) = to {
        call.insert("to".into(), to.to_checksum(None).into());
    }
    call.insert("value".into(), quantity_hex(value).into());
    call.insert("data".into(), data_hex.into());
    // What the request fixed itself is kept; prepare_transaction fills the rest.
    for key in [
        "nonce",
        "gas",
        "gasPrice",
        "maxFeePerGas",
        "maxPriorityFeePerGas",
        "chainId",
    ] {
        if let Some(given) = quantity(tx, key)? {
            call.insert(key.into(), quantity_hex(given).into());
        }
    }
    Ok((summary, Value::Object(call)))
}

/// `transfer(address,uint256)` calldata, exactly: the selector and two words, the first an address.
fn erc20_transfer(data: &[u8]) -> Option<TokenTransfer> {
    if data.len() != 4 + 64 || data[..4] != ERC20_TRANSFER_SELECTOR || data[4..16].iter().any(|b| *b != 0) {
        return None;
    }
    let to = Address::from_slice(&data[16..36]);
    let amount = U256::from_be_slice(&data[36..68]);
    Some(TokenTransfer {
        to: to.to_checksum(None),
        amount: decimal(amount),
    })
}

/// What the frame read from the gateway before signing (JSON-RPC quantities).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainState<'a> {
    /// The chain, CAIP-2 (`eip155:<id>`).
    pub chain_id: &'a str,
    /// `eth_getTransactionCount(account, "pending")`.
    pub nonce: &'a str,
    /// `eth_estimateGas(call)`.
    pub gas: &'a str,
    /// The latest block's `baseFeePerGas`.
    pub base_fee: &'a str,
    /// `eth_maxPriorityFeePerGas`.
    pub priority_fee: &'a str,
}

/// The transaction latch-vault signs: [`Approval::sign`] of an `eth_sendTransaction`, with what
/// it left out filled from `chain`. Fees are EIP-1559's: a cap of twice the base fee plus the tip
/// (room for six full blocks of base-fee rises) unless the request gave `gasPrice` (a legacy
/// transaction) or its own caps. A request for another chain is refused.
pub fn prepare_transaction(call: &Value, chain: &ChainState) -> Result<Value> {
    let Value::Object(call) = call else {
        return Err(invalid("transaction", "a transaction is an object"));
    };
    let chain_id = chain
        .chain_id
        .strip_prefix("eip155:")
        .and_then(|id| id.parse::<u64>().ok())
        .ok_or_else(|| invalid("chainId", "the frame's chain is not an EVM chain"))?;
    if let Some(asked) = quantity(call, "chainId")? {
        if asked != U256::from(chain_id) {
            return Err(invalid("transaction", "chainId is not the wallet's current chain"));
        }
    }
    let read = |text: &str, what: &'static str| -> Result<U256> {
        let mut map = Object::new();
        map.insert(what.into(), Value::String(text.to_owned()));
        quantity(&map, what)?.ok_or_else(|| invalid("transaction", format!("{what} is required")))
    };
    let mut out = call.clone();
    out.insert("chainId".into(), quantity_hex(U256::from(chain_id)).into());
    if !out.contains_key("nonce") {
        out.insert("nonce".into(), quantity_hex(read(chain.nonce, "nonce")?).into());
    }
    if !out.contains_key("gas") {
        out.insert("gas".into(), quantity_hex(read(chain.gas, "gas")?).into());
    }
    if out.contains_key("gasPrice") {
        out.insert("type".into(), json!("0x0"));
        return Ok(Value::Object(out));
    }
    let tip = match quantity(call, "maxPriorityFeePerGas")? {
        Some(tip) => tip,
        None => read(chain.priority_fee, "maxPriorityFeePerGas")?,
    };
    let cap = match quantity(call, "maxFeePerGas")? {
        Some(cap) => cap,
        None => read(chain.base_fee, "baseFeePerGas")?
            .saturating_mul(U256::from(2))
            .saturating_add(tip),
    };
    if tip > cap {
        return Err(invalid("transaction", "maxPriorityFeePerGas is above maxFeePerGas"));
    }
    out.insert("maxPriorityFeePerGas".into(), quantity_hex(tip).into());
    out.insert("maxFeePerGas".into(), quantity_hex(cap).into());
    out.insert("type".into(), json!("0x2"));
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests;
