//! The Solana account's signatures: `solana:signMessage` (ed25519 over the
//! bytes) and `solana:signTransaction` (ed25519 over the message, placed in
//! this account's slot; the other signers' slots are left as they came).

use ed25519_dalek::{Signer, SigningKey};
use latch_core::embedded::solana::{answer, parse_request, SignRequest};
use latch_core::solana_transfer::parse_transaction;

use crate::Error;

/// The account's address (base58 of the public key).
pub fn address(key: &SigningKey) -> String {
    bs58::encode(key.verifying_key().as_bytes()).into_string()
}

/// `solana:signMessage`: the 64-byte signature of `message`.
pub fn sign_message(key: &SigningKey, message: &[u8]) -> [u8; 64] {
    key.sign(message).to_bytes()
}

/// `solana:signTransaction`: the wire transaction with this account's
/// signature in its slot. Refused when the account is not a required signer.
pub fn sign_transaction(key: &SigningKey, wire: &[u8]) -> Result<Vec<u8>, Error> {
    let parsed = parse_transaction(wire).map_err(|e| Error::InvalidSolanaTransaction(e.to_string()))?;
    let public = key.verifying_key().to_bytes();
    let slot = parsed
        .signers
        .iter()
        .position(|signer| *signer == public)
        .ok_or_else(|| Error::InvalidSolanaTransaction("this account is not a signer".to_owned()))?;
    let signature = key.sign(parsed.message).to_bytes();
    let mut out = wire.to_vec();
    // The slots follow the shortvec count, which is as long as the count needs.
    let start = wire.len() - parsed.message.len() - 64 * parsed.signatures.len() + 64 * slot;
    out[start..start + 64].copy_from_slice(&signature);
    Ok(out)
}

/// A Solana sign method's params, read by latch-core for this key's account, signed: each
/// transaction in this account's slot, or the message. The answer is latch-core's shape.
pub fn sign_request(
    key: &SigningKey,
    method: &str,
    params: &latch_core::json::Value,
) -> Result<latch_core::json::Value, Error> {
    let public = key.verifying_key().to_bytes();
    let request =
        parse_request(method, params, &public).map_err(|error| Error::InvalidSolanaRequest(error.to_string()))?;
    match &request {
        SignRequest::Message(bytes) => Ok(answer(&request, &[sign_message(key, bytes)], &[])),
        SignRequest::Transactions { wires, .. } => {
            let mut signatures = Vec::with_capacity(wires.len());
            let mut signed = Vec::with_capacity(wires.len());
            for wire in wires {
                let done = sign_transaction(key, wire)?;
                let split = parse_transaction(&done).map_err(|e| Error::InvalidSolanaTransaction(e.to_string()))?;
                // parse_request checked that this account signs; its slot holds the new signature.
                let slot = split
                    .signers
                    .iter()
                    .position(|signer| *signer == public)
                    .unwrap_or_default();
                signatures.push(split.signatures.get(slot).copied().unwrap_or([0; 64]));
                signed.push(done);
            }
            Ok(answer(&request, &signatures, &signed))
        }
    }
}
