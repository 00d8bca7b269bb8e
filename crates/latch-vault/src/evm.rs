//! The EVM account's signatures for the not-safe methods (spec §6):
//! `personal_sign` (EIP-191), `eth_signTypedData_v4` (EIP-712, latch-core's
//! `eip712`) and `eth_sendTransaction` (legacy EIP-155 and
//! EIP-1559, encoded by latch-core's `evm_tx`).

use alloy_primitives::{eip191_hash_message, Address, B256, U256};
use k256::ecdsa::SigningKey;
use latch_core::evm_tx::{Eip1559Tx, LegacyTx};
use serde::Deserialize;

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

/// One entry of an EIP-2930 access list.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AccessEntry {
    address: Address,
    storage_keys: Vec<B256>,
}

/// `eth_sendTransaction`'s object once the frame has filled nonce, gas and
/// fees (JSON-RPC form: hex quantities). `from` is checked against the
/// account when present.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TxRequest {
    #[serde(rename = "type")]
    kind: Option<U256>,
    chain_id: U256,
    nonce: U256,
    gas: U256,
    from: Option<Address>,
    to: Option<Address>,
    value: Option<U256>,
    data: Option<alloy_primitives::Bytes>,
    input: Option<alloy_primitives::Bytes>,
    gas_price: Option<U256>,
    max_fee_per_gas: Option<U256>,
    max_priority_fee_per_gas: Option<U256>,
    access_list: Option<Vec<AccessEntry>>,
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
        let request: TxRequest = serde_json::from_str(json).map_err(|e| Error::InvalidTransaction(e.to_string()))?;
        if let Some(from) = request.from {
            if from != account {
                return Err(Error::InvalidTransaction("from is not this account".to_owned()));
            }
        }
        let data = match (request.data, request.input) {
            (Some(data), Some(input)) if data != input => {
                return Err(Error::InvalidTransaction("data and input differ".to_owned()))
            }
            (data, input) => data.or(input).unwrap_or_default().to_vec(),
        };
        let chain_id = small(request.chain_id, "chainId")?;
        let nonce = small(request.nonce, "nonce")?;
        let gas = small(request.gas, "gas")?;
        let value = request.value.unwrap_or_default();
        let kind = match request.kind {
            Some(kind) => small(kind, "type")?,
            None if request.gas_price.is_some() => 0,
            None => 2,
        };
        match kind {
            0 => {
                if request.access_list.is_some() || request.max_fee_per_gas.is_some() {
                    return Err(Error::InvalidTransaction(
                        "a type 0 transaction has gasPrice only".to_owned(),
                    ));
                }
                let gas_price = request
                    .gas_price
                    .ok_or_else(|| Error::InvalidTransaction("gasPrice is required".to_owned()))?;
                let to = request
                    .to
                    .ok_or_else(|| Error::InvalidTransaction("a type 0 transaction needs to".to_owned()))?;
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
                if request.gas_price.is_some() {
                    return Err(Error::InvalidTransaction(
                        "a type 2 transaction has no gasPrice".to_owned(),
                    ));
                }
                let (Some(max_fee_per_gas), Some(max_priority_fee_per_gas)) =
                    (request.max_fee_per_gas, request.max_priority_fee_per_gas)
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
                    to: request.to,
                    value,
                    data,
                    access_list: request
                        .access_list
                        .unwrap_or_default()
                        .into_iter()
                        .map(|entry| (entry.address, entry.storage_keys))
                        .collect(),
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
