//! The EVM account's signatures for the not-safe methods (behaviour 5.18):
//! `personal_sign` (EIP-191), `eth_signTypedData_v4` (EIP-712, latch-core's
//! `eip712`) and `eth_sendTransaction` (legacy EIP-155 and
//! EIP-1559, encoded by latch-core's `evm_tx`).

use alloy_primitives::{eip191_hash_message, Address, B256, U256};
use k256::ecdsa::SigningKey;
use latch_core::evm_tx::{Eip1559Tx, LegacyTx};
use latch_core::json::{Object, Value};

use crate::Error;

/// A 65-byte `r ‖ s ‖ v` signature (v = 27 or 28), as wallets return from
/// `personal_sign` and `eth_signTypedData_v4`.
fn sign_hash(key: &SigningKey, hash: &B256) -> Result<([u8; 32], [u8; 32], bool), Error> {
    // k256 signs with RFC 6979 nonces and returns low-s signatures.
    let (signature, recovery) = key
        .sign_prehash_recoverable(hash.as_slice())
        .map_err(|_| Error::SigningFailed)?;
    let bytes = signature.to_bytes();
    let mut r = [0u8; 32];
    let mut s = [0u8; 32];
    r.copy_from_slice(&bytes[..32]);
    s.copy_from_slice(&bytes[32..]);
    Ok((r, s, recovery.is_y_odd()))
}

fn rsv(key: &SigningKey, hash: &B256) -> Result<[u8; 65], Error> {
    let (r, s, odd) = sign_hash(key, hash)?;
    let mut out = [0u8; 65];
    out[..32].copy_from_slice(&r);
    out[32..64].copy_from_slice(&s);
    out[64] = 27 + u8::from(odd);
    Ok(out)
}

/// The account's address.
pub fn address(key: &SigningKey) -> Address {
    Address::from_public_key(key.verifying_key())
}

/// The bytes `personal_sign` signs for its first parameter: `0x`-hex is
/// decoded (as MetaMask does), anything else is the text's UTF-8.
pub fn personal_message_bytes(message: &str) -> Vec<u8> {
    if let Some(digits) = message.strip_prefix("0x") {
        if let Ok(bytes) = alloy_primitives::hex::decode(digits) {
            return bytes;
        }
    }
    message.as_bytes().to_vec()
}

/// EIP-191 version 0x45 signature of `message` bytes.
pub fn personal_sign(key: &SigningKey, message: &[u8]) -> Result<[u8; 65], Error> {
    rsv(key, &eip191_hash_message(message))
}

/// The EIP-712 digest of `eth_signTypedData_v4`'s JSON (domain, types,
/// primaryType, message).
pub fn typed_data_hash(json: &str) -> Result<B256, Error> {
    latch_core::eip712::signing_hash(json).map_err(|e| Error::InvalidTypedData(e.to_string()))
}

/// Signs `eth_signTypedData_v4`'s JSON.
pub fn sign_typed_data(key: &SigningKey, json: &str) -> Result<[u8; 65], Error> {
    rsv(key, &typed_data_hash(json)?)
}

fn tx_error(reason: impl Into<String>) -> Error {
    Error::InvalidTransaction(reason.into())
}

/// A field, `null` read as absent.
fn get<'a>(fields: &'a Object, name: &str) -> Option<&'a Value> {
    fields.get(name).filter(|value| !value.is_null())
}

/// A JSON-RPC quantity: `0x` and hex digits (a JSON integer is taken too).
fn quantity(fields: &Object, name: &'static str) -> Result<Option<U256>, Error> {
    match get(fields, name) {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(|n| Some(U256::from(n)))
            .ok_or_else(|| tx_error(format!("{name} is not a quantity"))),
        Some(Value::String(text)) => match text.strip_prefix("0x") {
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit()) => {
                U256::from_str_radix(digits, 16)
                    .map(Some)
                    .map_err(|_| tx_error(format!("{name} does not fit in 256 bits")))
            }
            _ => Err(tx_error(format!("{name} is not a quantity"))),
        },
        Some(_) => Err(tx_error(format!("{name} is not a quantity"))),
    }
}

fn required(fields: &Object, name: &'static str) -> Result<U256, Error> {
    quantity(fields, name)?.ok_or_else(|| tx_error(format!("{name} is required")))
}

fn text<'a>(value: &'a Value, name: &str) -> Result<&'a str, Error> {
    value.as_str().ok_or_else(|| tx_error(format!("{name} is a string")))
}

fn address_field(value: &Value, name: &str) -> Result<Address, Error> {
    text(value, name)?
        .parse()
        .map_err(|_| tx_error(format!("{name} is not an address")))
}

fn data(fields: &Object, name: &str) -> Result<Option<Vec<u8>>, Error> {
    get(fields, name)
        .map(|value| {
            text(value, name)?
                .strip_prefix("0x")
                .and_then(|digits| alloy_primitives::hex::decode(digits).ok())
                .ok_or_else(|| tx_error(format!("{name} is not 0x-hex bytes")))
        })
        .transpose()
}

fn access_list(value: &Value) -> Result<Vec<(Address, Vec<B256>)>, Error> {
    let bad = || tx_error("accessList is a list of {address, storageKeys}");
    let Value::Array(entries) = value else {
        return Err(bad());
    };
    entries
        .iter()
        .map(|entry| {
            let (Some(entry_address), Some(Value::Array(keys))) = (entry.get("address"), entry.get("storageKeys"))
            else {
                return Err(bad());
            };
            let keys = keys
                .iter()
                .map(|key| {
                    text(key, "storageKeys")?
                        .parse::<B256>()
                        .map_err(|_| tx_error("a storage key is 32 bytes of 0x-hex"))
                })
                .collect::<Result<_, _>>()?;
            Ok((address_field(entry_address, "accessList address")?, keys))
        })
        .collect()
}

fn small(value: U256, field: &'static str) -> Result<u64, Error> {
    u64::try_from(value).map_err(|_| Error::InvalidTransaction(format!("{field} does not fit in 64 bits")))
}

/// A transaction ready to sign, read from its JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transaction {
    /// Type 0, EIP-155.
    Legacy(LegacyTx),
    /// Type 2.
    Eip1559(Eip1559Tx),
}

impl Transaction {
    /// Reads the JSON, requiring every field a signature commits to: type 0
    /// needs `gasPrice` (and a `to`: latch-core's legacy encoding has no
    /// creation), type 2 both fee caps; a missing `type` is read from which
    /// fees are given.
    pub fn parse(json: &str, account: Address) -> Result<Transaction, Error> {
        let Ok(Value::Object(fields)) = Value::parse(json) else {
            return Err(tx_error("a transaction is a JSON object"));
        };
        if let Some(from) = get(&fields, "from") {
            if address_field(from, "from")? != account {
                return Err(tx_error("from is not this account"));
            }
        }
        let data = match (data(&fields, "data")?, data(&fields, "input")?) {
            (Some(data), Some(input)) if data != input => return Err(tx_error("data and input differ")),
            (data, input) => data.or(input).unwrap_or_default(),
        };
        let to = get(&fields, "to").map(|to| address_field(to, "to")).transpose()?;
        let gas_price = quantity(&fields, "gasPrice")?;
        let max_fee_per_gas = quantity(&fields, "maxFeePerGas")?;
        let max_priority_fee_per_gas = quantity(&fields, "maxPriorityFeePerGas")?;
        let access = get(&fields, "accessList").map(access_list).transpose()?;
        let chain_id = small(required(&fields, "chainId")?, "chainId")?;
        let nonce = small(required(&fields, "nonce")?, "nonce")?;
        let gas = small(required(&fields, "gas")?, "gas")?;
        let value = quantity(&fields, "value")?.unwrap_or_default();
        let kind = match quantity(&fields, "type")? {
            Some(kind) => small(kind, "type")?,
            None if gas_price.is_some() => 0,
            None => 2,
        };
        match kind {
            0 => {
                if access.is_some() || max_fee_per_gas.is_some() {
                    return Err(Error::InvalidTransaction(
                        "a type 0 transaction has gasPrice only".to_owned(),
                    ));
                }
                let gas_price = gas_price.ok_or_else(|| tx_error("gasPrice is required"))?;
                let to = to.ok_or_else(|| tx_error("a type 0 transaction needs to"))?;
                Ok(Transaction::Legacy(LegacyTx {
                    nonce,
                    gas_price,
                    gas,
                    to,
                    value,
                    data,
                    chain_id,
                }))
            }
            2 => {
                if gas_price.is_some() {
                    return Err(Error::InvalidTransaction(
                        "a type 2 transaction has no gasPrice".to_owned(),
                    ));
                }
                let (Some(max_fee_per_gas), Some(max_priority_fee_per_gas)) =
                    (max_fee_per_gas, max_priority_fee_per_gas)
                else {
                    return Err(Error::InvalidTransaction(
                        "maxFeePerGas and maxPriorityFeePerGas are required".to_owned(),
                    ));
                };
                Ok(Transaction::Eip1559(Eip1559Tx {
                    chain_id,
                    nonce,
                    max_priority_fee_per_gas,
                    max_fee_per_gas,
                    gas,
                    to,
                    value,
                    data,
                    access_list: access.unwrap_or_default(),
                }))
            }
            _ => Err(Error::InvalidTransaction("type is 0x0 or 0x2".to_owned())),
        }
    }

    /// The hash the key signs.
    pub fn signing_hash(&self) -> B256 {
        match self {
            Transaction::Legacy(tx) => tx.signing_hash(),
            Transaction::Eip1559(tx) => tx.signing_hash(),
        }
    }
}

/// The raw signed transaction `eth_sendRawTransaction` takes.
pub fn sign_transaction(key: &SigningKey, tx: &Transaction) -> Result<Vec<u8>, Error> {
    let (r, s, odd) = sign_hash(key, &tx.signing_hash())?;
    let (r, s) = (U256::from_be_bytes(r), U256::from_be_bytes(s));
    Ok(match tx {
        Transaction::Legacy(tx) => tx.encode_signed(r, s, odd),
        Transaction::Eip1559(tx) => tx.encode_signed(r, s, odd),
    })
}
