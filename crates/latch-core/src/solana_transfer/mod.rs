//! Solana sends (behaviour 5.5 "Solana send needs amount and receiver"): SOL and SPL
//! token transfers as unsigned legacy transactions, the bytes a Wallet Standard
//! wallet signs (`solana:signAndSendTransaction`, `solana:signTransaction`).
//!
//! A SOL send is one System `Transfer`. A token send is the Associated Token
//! program's `CreateIdempotent` for the receiver's associated token account
//! (when the caller asks: it is a no-op on an existing account, but costs
//! compute, so callers that saw the account leave it out) followed by the
//! token program's `TransferChecked` from the sender's associated token account.

mod amount;
mod decode;
mod message;
mod pda;

pub use amount::{format_amount, parse_amount};
pub use decode::{decode_message, AddressTableLookup, CompiledInstruction, Message, MessageHeader};
pub use message::{
    compile_legacy_message, parse_transaction, push_compact_u16, read_compact_u16, unsigned_transaction, AccountMeta,
    Instruction, WireTransaction,
};
pub use pda::{
    associated_token_address, create_program_address, find_program_address, is_on_curve, ASSOCIATED_TOKEN_PROGRAM_ID,
    SYSTEM_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID,
};
use serde::Deserialize;

use crate::address::parse_solana_address;
use crate::{Error, Result};

/// SOL has 9 decimals: 1 SOL is 10^9 lamports.
pub const SOL_DECIMALS: u8 = 9;

/// Behaviour 5.5's message for a send without a usable amount or receiver.
const INCOMPLETE: &str = "Please enter a valid amount and receiver address";

/// A send as the app describes it (JS `buildSolanaTransfer`'s argument).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SolanaTransferRequest {
    /// The sender: base58 address, fee payer and only signer.
    pub from: String,
    /// The receiver's wallet address (for a token, its owner, not a token account).
    pub to: String,
    /// The amount as the user typed it, in whole tokens ("1.5").
    pub amount: String,
    /// The token's decimals; required with `mint`, 9 (or absent) for SOL.
    #[serde(default)]
    pub decimals: Option<u8>,
    /// The SPL mint; absent for SOL.
    #[serde(default)]
    pub mint: Option<String>,
    /// The mint's program: Token (the default) or Token-2022.
    #[serde(default)]
    pub token_program: Option<String>,
    /// Whether to create the receiver's associated token account first
    /// (idempotently); default `true`, the choice that cannot fail for a
    /// missing account.
    #[serde(default)]
    pub create_receiver_account: Option<bool>,
    /// A recent blockhash (base58), from `getLatestBlockhash`.
    pub recent_blockhash: String,
}

fn invalid(reason: &str) -> Error {
    Error::InvalidInput {
        what: "Solana transfer",
        reason: reason.to_owned(),
    }
}

/// The System program's `Transfer` of `lamports` from `from` to `to`.
pub fn system_transfer(from: &[u8; 32], to: &[u8; 32], lamports: u64) -> Instruction {
    let mut data = 2u32.to_le_bytes().to_vec();
    data.extend_from_slice(&lamports.to_le_bytes());
    Instruction {
        program_id: SYSTEM_PROGRAM_ID,
        accounts: vec![AccountMeta::writable(*from, true), AccountMeta::writable(*to, false)],
        data,
    }
}

/// The Associated Token program's `CreateIdempotent` (instruction 1): `payer`
/// funds `owner`'s account for `mint` if it does not exist yet.
pub fn create_associated_token_account_idempotent(
    payer: &[u8; 32],
    owner: &[u8; 32],
    mint: &[u8; 32],
    token_program: &[u8; 32],
) -> Instruction {
    Instruction {
        program_id: ASSOCIATED_TOKEN_PROGRAM_ID,
        accounts: vec![
            AccountMeta::writable(*payer, true),
            AccountMeta::writable(associated_token_address(owner, mint, token_program), false),
            AccountMeta::readonly(*owner, false),
            AccountMeta::readonly(*mint, false),
            AccountMeta::readonly(SYSTEM_PROGRAM_ID, false),
            AccountMeta::readonly(*token_program, false),
        ],
        data: vec![1],
    }
}

/// The token program's `TransferChecked` (instruction 12: amount u64 LE,
/// decimals): the program refuses it when `decimals` is not the mint's.
pub fn transfer_checked(
    source: &[u8; 32],
    mint: &[u8; 32],
    destination: &[u8; 32],
    owner: &[u8; 32],
    amount: u64,
    decimals: u8,
    token_program: &[u8; 32],
) -> Instruction {
    let mut data = vec![12];
    data.extend_from_slice(&amount.to_le_bytes());
    data.push(decimals);
    Instruction {
        program_id: *token_program,
        accounts: vec![
            AccountMeta::writable(*source, false),
            AccountMeta::readonly(*mint, false),
            AccountMeta::writable(*destination, false),
            AccountMeta::readonly(*owner, true),
        ],
        data,
    }
}

/// The token program named by `text`: Token when absent; only Token and
/// Token-2022 have the instructions a send uses.
pub fn token_program(text: Option<&str>) -> Result<[u8; 32]> {
    let Some(text) = text else { return Ok(TOKEN_PROGRAM_ID) };
    let id = parse_solana_address(text)?;
    if id == TOKEN_PROGRAM_ID || id == TOKEN_2022_PROGRAM_ID {
        Ok(id)
    } else {
        Err(invalid("tokenProgram must be the Token or the Token-2022 program"))
    }
}

/// The base58 associated token account of `owner` for `mint` (JS
/// `solanaAssociatedTokenAddress`); `token_program` as in [`token_program`].
pub fn associated_token_address_text(owner: &str, mint: &str, token_program_id: Option<&str>) -> Result<String> {
    let address = associated_token_address(
        &parse_solana_address(owner)?,
        &parse_solana_address(mint)?,
        &token_program(token_program_id)?,
    );
    Ok(bs58::encode(address).into_string())
}

/// The wire bytes of `request` as an unsigned legacy transaction, one empty
/// signature slot for the sender. Errors: behaviour 5.5's `Please enter a valid amount and
/// receiver address` for a blank amount or receiver, `Invalid amount: …` for
/// an amount that is not positive, too precise or too large, `Invalid Solana
/// address` for a malformed address, `Invalid Solana transfer: …` for
/// decimals, token program or blockhash.
pub fn build_transfer(request: &SolanaTransferRequest) -> Result<Vec<u8>> {
    if request.amount.trim().is_empty() || request.to.trim().is_empty() {
        return Err(Error::IncompleteSendDraft { reason: INCOMPLETE });
    }
    let from = parse_solana_address(&request.from)?;
    let to = parse_solana_address(request.to.trim())?;
    let blockhash = bs58::decode(&request.recent_blockhash)
        .into_vec()
        .ok()
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| invalid("recentBlockhash must be a base58 hash of 32 bytes"))?;
    let instructions = match &request.mint {
        None => {
            if request.token_program.is_some() || request.create_receiver_account.is_some() {
                return Err(invalid("tokenProgram and createReceiverAccount need a mint"));
            }
            if request.decimals.is_some_and(|d| d != SOL_DECIMALS) {
                return Err(invalid("SOL has 9 decimals"));
            }
            vec![system_transfer(
                &from,
                &to,
                parse_amount(&request.amount, SOL_DECIMALS)?,
            )]
        }
        Some(mint) => {
            let mint = parse_solana_address(mint)?;
            let program = token_program(request.token_program.as_deref())?;
            let decimals = request
                .decimals
                .ok_or_else(|| invalid("a token transfer needs the mint's decimals"))?;
            let amount = parse_amount(&request.amount, decimals)?;
            let source = associated_token_address(&from, &mint, &program);
            let destination = associated_token_address(&to, &mint, &program);
            let mut instructions = Vec::with_capacity(2);
            if request.create_receiver_account.unwrap_or(true) {
                instructions.push(create_associated_token_account_idempotent(&from, &to, &mint, &program));
            }
            instructions.push(transfer_checked(
                &source,
                &mint,
                &destination,
                &from,
                amount,
                decimals,
                &program,
            ));
            instructions
        }
    };
    let (message, signers) = compile_legacy_message(&from, &instructions, &blockhash);
    Ok(unsigned_transaction(&message, signers))
}

#[cfg(test)]
mod tests;
