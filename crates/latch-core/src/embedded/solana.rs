//! The embedded wallet's four Solana sign methods (behaviour 5.18, 5.19), in the WalletConnect
//! Solana RPC shapes the modal and dapps send:
//!
//! - `solana_signMessage` `{message, pubkey?}`, the message base58 → `{signature}` (base58);
//! - `solana_signTransaction` `{transaction}`, the wire transaction in standard base64 →
//!   `{signature, transaction}`;
//! - `solana_signAllTransactions` `{transactions: […]}` → `{transactions: […]}`;
//! - `solana_signAndSendTransaction` `{transaction, sendOptions?}` → `{signature}`, once the
//!   gateway's `sendTransaction` took it. The send options are the spec's (§5): `skipPreflight`,
//!   `preflightCommitment`, `maxRetries`, `minContextSlot`; other members are dropped, as the
//!   spec's schema drops them.
//!
//! [`summarize`] reads a request into what the approval panel shows (a message's text; each
//! transaction's fee payer, blockhash and instructions, System transfers and SPL token transfers
//! decoded), and [`parse_request`] into what the key signs. [`answer`] shapes the signed result.

use crate::json;
use crate::json::{Object, Value};

use super::approval::{invalid, message_text, Approval, Summary};
use crate::address::parse_solana_address;
use crate::solana_transfer::{
    decode_message, format_amount, parse_transaction, Message, SOL_DECIMALS, SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID,
    TOKEN_PROGRAM_ID,
};
use crate::{Error, Result};

/// The four methods, as the frame and the policy name them.
pub const SOLANA_METHODS: [&str; 4] = [
    "solana_signMessage",
    "solana_signTransaction",
    "solana_signAllTransactions",
    "solana_signAndSendTransaction",
];

/// Solana's packet limit: no node takes a larger transaction.
pub const MAX_TRANSACTION_BYTES: usize = 1232;
/// At most this many transactions in one `solana_signAllTransactions` (one panel shows them all).
pub const MAX_TRANSACTIONS: usize = 16;
/// A message to sign is at most this long (what one panel can show).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// `sendTransaction`'s commitment levels.
const COMMITMENTS: [&str; 3] = ["processed", "confirmed", "finalized"];

/// The spec's Solana send options (§5), checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SendOptions {
    /// Skip the node's simulation.
    pub skip_preflight: Option<bool>,
    /// The commitment the simulation runs at.
    pub preflight_commitment: Option<String>,
    /// How often the node re-sends before giving up.
    pub max_retries: Option<u64>,
    /// The slot the node must have reached.
    pub min_context_slot: Option<u64>,
}

impl SendOptions {
    /// Reads `sendOptions`: an object (or absent/null); the four members typed, others dropped.
    pub fn parse(value: Option<&Value>) -> Result<SendOptions> {
        let object = match value {
            None | Some(Value::Null) => return Ok(SendOptions::default()),
            Some(Value::Object(object)) => object,
            Some(_) => return Err(invalid("sendOptions", "sendOptions is an object")),
        };
        let present = |key: &str| object.get(key).filter(|v| !v.is_null());
        let count = |key: &'static str| -> Result<Option<u64>> {
            present(key)
                .map(|v| {
                    v.as_u64()
                        .ok_or_else(|| invalid("sendOptions", format!("{key} is a whole number")))
                })
                .transpose()
        };
        let skip_preflight = present("skipPreflight")
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| invalid("sendOptions", "skipPreflight is true or false"))
            })
            .transpose()?;
        let preflight_commitment = present("preflightCommitment")
            .map(|v| match v.as_str() {
                Some(level) if COMMITMENTS.contains(&level) => Ok(level.to_owned()),
                _ => Err(invalid(
                    "sendOptions",
                    "preflightCommitment is processed, confirmed or finalized",
                )),
            })
            .transpose()?;
        Ok(SendOptions {
            skip_preflight,
            preflight_commitment,
            max_retries: count("maxRetries")?,
            min_context_slot: count("minContextSlot")?,
        })
    }

    /// The options as JSON (only those given).
    pub fn to_json(&self) -> Object {
        let mut out = Object::new();
        if let Some(skip) = self.skip_preflight {
            out.insert("skipPreflight".into(), skip.into());
        }
        if let Some(level) = &self.preflight_commitment {
            out.insert("preflightCommitment".into(), level.clone().into());
        }
        if let Some(retries) = self.max_retries {
            out.insert("maxRetries".into(), retries.into());
        }
        if let Some(slot) = self.min_context_slot {
            out.insert("minContextSlot".into(), slot.into());
        }
        out
    }
}

/// A Solana sign request, read and checked: what the key signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignRequest {
    /// `solana_signMessage`: the message's bytes.
    Message(Vec<u8>),
    /// The transaction methods: each wire transaction (signature slots and message); the send
    /// options only for `solana_signAndSendTransaction`.
    Transactions {
        /// Which of the three methods.
        method: &'static str,
        /// The wire transactions, as given.
        wires: Vec<Vec<u8>>,
        /// `solana_signAndSendTransaction`'s options.
        send: Option<SendOptions>,
    },
}

/// One instruction as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstructionSummary {
    /// The System program's `Transfer`.
    SystemTransfer {
        /// The payer (base58).
        from: String,
        /// The receiver (base58).
        to: String,
        /// Lamports, decimal.
        lamports: String,
        /// The same in SOL, exact.
        sol: String,
    },
    /// The Token (or Token-2022) program's `Transfer` or `TransferChecked`.
    TokenTransfer {
        /// The source token account (base58).
        source: String,
        /// The destination token account (base58).
        destination: String,
        /// The source's owner, who signs (base58).
        owner: String,
        /// The mint, for `TransferChecked`.
        mint: Option<String>,
        /// The amount in base units, decimal.
        amount: String,
        /// `TransferChecked`'s decimals.
        decimals: Option<u8>,
    },
    /// Any other call: what the panel can say without knowing the program.
    Other {
        /// The program (base58).
        program_id: String,
        /// How many accounts it is given.
        accounts: usize,
        /// Its input's length in bytes.
        data_length: usize,
    },
}

/// One transaction as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionSummary {
    /// `legacy` or `0`.
    pub version: String,
    /// The fee payer (base58).
    pub fee_payer: String,
    /// The recent blockhash (base58).
    pub recent_blockhash: String,
    /// The calls, in order.
    pub instructions: Vec<InstructionSummary>,
    /// v0: how many address lookup tables the transaction loads accounts from.
    pub lookup_tables: usize,
}

fn base58(bytes: &[u8]) -> String {
    bs58::encode(bytes).into_string()
}

fn u64_le(bytes: &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.try_into().ok()?))
}

/// An instruction decoded where its program is known and its accounts are static keys.
fn instruction_summary(message: &Message, index: usize) -> InstructionSummary {
    let instruction = &message.instructions[index];
    let program = message.static_key(instruction.program_index).unwrap_or_default();
    let key = |i: usize| {
        instruction
            .accounts
            .get(i)
            .and_then(|index| message.static_key(*index))
            .map(|key| base58(&key))
    };
    let data = instruction.data.as_slice();
    let known = if program == SYSTEM_PROGRAM_ID && data.len() == 12 && data[..4] == 2u32.to_le_bytes() {
        let lamports = u64_le(&data[4..]).unwrap_or_default();
        key(0).zip(key(1)).map(|(from, to)| InstructionSummary::SystemTransfer {
            from,
            to,
            lamports: lamports.to_string(),
            sol: format_amount(lamports, SOL_DECIMALS),
        })
    } else if program == TOKEN_PROGRAM_ID || program == TOKEN_2022_PROGRAM_ID {
        match data {
            // Transfer: source, destination, owner.
            [3, amount @ ..] if amount.len() == 8 => {
                key(0)
                    .zip(key(1))
                    .zip(key(2))
                    .map(|((source, destination), owner)| InstructionSummary::TokenTransfer {
                        source,
                        destination,
                        owner,
                        mint: None,
                        amount: u64_le(amount).unwrap_or_default().to_string(),
                        decimals: None,
                    })
            }
            // TransferChecked: source, mint, destination, owner.
            [12, rest @ ..] if rest.len() == 9 => {
                key(0)
                    .zip(key(1))
                    .zip(key(2))
                    .zip(key(3))
                    .map(
                        |(((source, mint), destination), owner)| InstructionSummary::TokenTransfer {
                            source,
                            destination,
                            owner,
                            mint: Some(mint),
                            amount: u64_le(&rest[..8]).unwrap_or_default().to_string(),
                            decimals: Some(rest[8]),
                        },
                    )
            }
            _ => None,
        }
    } else {
        None
    };
    known.unwrap_or_else(|| InstructionSummary::Other {
        program_id: base58(&program),
        accounts: instruction.accounts.len(),
        data_length: data.len(),
    })
}

/// Reads a wire transaction for `account`: it must be one of the signers the message requires.
pub fn summarize_transaction(wire: &[u8], account: &[u8; 32]) -> Result<TransactionSummary> {
    if wire.len() > MAX_TRANSACTION_BYTES {
        return Err(invalid("Solana transaction", "a transaction is at most 1232 bytes"));
    }
    let split = parse_transaction(wire)?;
    if !split.signers.contains(account) {
        return Err(invalid(
            "Solana transaction",
            "the transaction does not need this account's signature",
        ));
    }
    let message = decode_message(split.message)?;
    Ok(TransactionSummary {
        version: message.version.map_or_else(|| "legacy".to_owned(), |v| v.to_string()),
        fee_payer: base58(&message.fee_payer()),
        recent_blockhash: base58(&message.recent_blockhash),
        instructions: (0..message.instructions.len())
            .map(|index| instruction_summary(&message, index))
            .collect(),
        lookup_tables: message.lookups.len(),
    })
}

/// The params object: WalletConnect sends an object; a one-item list holding it is read too.
fn params_object<'a>(method: &str, params: &'a Value) -> Result<&'a Object> {
    match params {
        Value::Object(object) => Ok(object),
        Value::Array(items) if items.len() == 1 => match &items[0] {
            Value::Object(object) => Ok(object),
            _ => Err(invalid("params", format!("{method}'s parameter is an object"))),
        },
        _ => Err(invalid("params", format!("{method}'s parameter is an object"))),
    }
}

fn wire(value: Option<&Value>) -> Result<Vec<u8>> {
    let bad = || invalid("Solana transaction", "a transaction is a base64 wire transaction");
    let text = value.and_then(Value::as_str).ok_or_else(bad)?;
    // Base64 of the largest transaction; longer text is refused before it is decoded.
    if text.len() > MAX_TRANSACTION_BYTES.div_ceil(3) * 4 {
        return Err(invalid("Solana transaction", "a transaction is at most 1232 bytes"));
    }
    crate::base64::decode(text).ok_or_else(bad)
}

/// Reads `params` of a Solana sign `method` for `account` (the embedded wallet's public key).
/// A malformed request, or one naming another account, is refused with a clear error.
pub fn parse_request(method: &str, params: &Value, account: &[u8; 32]) -> Result<SignRequest> {
    let Some(method) = SOLANA_METHODS.iter().copied().find(|m| *m == method) else {
        return Err(Error::RpcMethodNotAllowed {
            method: method.to_owned(),
        });
    };
    let object = params_object(method, params)?;
    if let Some(pubkey) = object.get("pubkey").filter(|v| !v.is_null()) {
        let named = pubkey.as_str().map(parse_solana_address).transpose()?;
        if named.as_ref() != Some(account) {
            return Err(invalid("params", "the request names another account"));
        }
    }
    let request = match method {
        "solana_signMessage" => {
            let text = object
                .get("message")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid("params", "solana_signMessage's message is base58 text"))?;
            if text.len() > MAX_MESSAGE_BYTES * 2 {
                return Err(invalid("params", "the message is too long"));
            }
            let bytes = bs58::decode(text)
                .into_vec()
                .map_err(|_| invalid("params", "solana_signMessage's message is base58 text"))?;
            if bytes.is_empty() || bytes.len() > MAX_MESSAGE_BYTES {
                return Err(invalid("params", "the message is 1 to 4096 bytes"));
            }
            SignRequest::Message(bytes)
        }
        "solana_signAllTransactions" => {
            let items = object
                .get("transactions")
                .and_then(Value::as_array)
                .ok_or_else(|| invalid("params", "transactions is a list"))?;
            if items.is_empty() || items.len() > MAX_TRANSACTIONS {
                return Err(invalid("params", "transactions holds 1 to 16 transactions"));
            }
            SignRequest::Transactions {
                method,
                wires: items.iter().map(|item| wire(Some(item))).collect::<Result<_>>()?,
                send: None,
            }
        }
        _ => SignRequest::Transactions {
            method,
            wires: vec![wire(object.get("transaction"))?],
            send: (method == "solana_signAndSendTransaction")
                .then(|| SendOptions::parse(object.get("sendOptions").or_else(|| object.get("options"))))
                .transpose()?,
        },
    };
    if let SignRequest::Transactions { wires, .. } = &request {
        for wire in wires {
            summarize_transaction(wire, account)?;
        }
    }
    Ok(request)
}

impl SignRequest {
    /// The request as params again (what [`parse_request`] reads): the frame hands this back to
    /// the key after the user approved, and the key reads it anew.
    pub fn to_params(&self) -> Value {
        match self {
            SignRequest::Message(bytes) => json!({"message": base58(bytes)}),
            SignRequest::Transactions { method, wires, send } => {
                let mut out = Object::new();
                if *method == "solana_signAllTransactions" {
                    let all = wires.iter().map(|w| Value::String(crate::base64::encode(w))).collect();
                    out.insert("transactions".into(), Value::Array(all));
                } else if let Some(wire) = wires.first() {
                    out.insert("transaction".into(), crate::base64::encode(wire).into());
                }
                if let Some(options) = send {
                    out.insert("sendOptions".into(), Value::Object(options.to_json()));
                }
                Value::Object(out)
            }
        }
    }
}

/// Reads a Solana sign request into what ApproveTransaction shows and what the key signs.
pub fn summarize(method: &str, params: &Value, account: &str) -> Result<Approval> {
    let key = parse_solana_address(account)?;
    let request = parse_request(method, params, &key)?;
    let summary = match &request {
        SignRequest::Message(bytes) => message_text(bytes),
        SignRequest::Transactions { wires, send, .. } => Summary::SolanaTransactions {
            send: send.is_some(),
            transactions: wires
                .iter()
                .map(|wire| summarize_transaction(wire, &key))
                .collect::<Result<_>>()?,
        },
    };
    Ok(Approval {
        method: method.to_owned(),
        summary,
        sign: request.to_params(),
    })
}

/// The answer to `request` once signed: `signature` is the message's signature, or for
/// transactions `signed` holds each signed wire transaction and `signatures` this account's
/// signature in each. `solana_signAndSendTransaction`'s answer also holds `sendParams`, the
/// gateway's `sendTransaction` params; the frame answers `{signature}` once the node took it.
pub fn answer(request: &SignRequest, signatures: &[[u8; 64]], signed: &[Vec<u8>]) -> Value {
    let first = signatures.first().map(|s| base58(s)).unwrap_or_default();
    match request {
        SignRequest::Message(_) => json!({"signature": first}),
        SignRequest::Transactions { method, send, .. } => {
            let transactions: Vec<String> = signed.iter().map(|w| crate::base64::encode(w)).collect();
            match (*method, send) {
                ("solana_signAllTransactions", _) => json!({"transactions": transactions}),
                (_, Some(options)) => {
                    let mut config = options.to_json();
                    config.insert("encoding".into(), "base64".into());
                    json!({"signature": first, "sendParams": [transactions.first(), config]})
                }
                _ => json!({"signature": first, "transaction": transactions.first()}),
            }
        }
    }
}

impl InstructionSummary {
    fn to_json(&self) -> Value {
        match self {
            InstructionSummary::SystemTransfer {
                from,
                to,
                lamports,
                sol,
            } => {
                json!({"kind": "systemTransfer", "from": from, "to": to, "lamports": lamports, "sol": sol})
            }
            InstructionSummary::TokenTransfer {
                source,
                destination,
                owner,
                mint,
                amount,
                decimals,
            } => json!({
                "kind": "tokenTransfer", "source": source, "destination": destination, "owner": owner,
                "mint": mint, "amount": amount, "decimals": decimals,
            }),
            InstructionSummary::Other {
                program_id,
                accounts,
                data_length,
            } => json!({"kind": "other", "programId": program_id, "accounts": accounts, "dataLength": data_length}),
        }
    }
}

impl TransactionSummary {
    /// `{version, feePayer, recentBlockhash, instructions: [{kind, …}], lookupTables}`.
    pub fn to_json(&self) -> Value {
        json!({
            "version": self.version, "feePayer": self.fee_payer, "recentBlockhash": self.recent_blockhash,
            "instructions": Value::Array(self.instructions.iter().map(InstructionSummary::to_json).collect()),
            "lookupTables": self.lookup_tables,
        })
    }
}

#[cfg(test)]
mod tests;
