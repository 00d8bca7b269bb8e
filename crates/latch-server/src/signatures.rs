//! Who signed a message, for every endpoint that takes signatures (names,
//! sign-in): EIP-191 recovery for accounts, ERC-1271 `isValidSignature`
//! through the gateway for contract wallets.

use alloy_primitives::{Address, Bytes as AbiBytes, FixedBytes};
use alloy_sol_types::{sol, SolCall};
use axum::body::Bytes;
use serde_json::{json, Value};

use crate::chaindata::evm;
use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// ERC-1271's "valid signature" answer.
const ERC1271_MAGIC: [u8; 4] = [0x16, 0x26, 0xba, 0x7e];

sol! {
    function isValidSignature(bytes32 hash, bytes signature) returns (bytes4 magicValue);
}

/// Whether `signature` over `message` is `owner`'s on `chain`: EIP-191 recovery
/// first (no chain read: the common case of an account's own key), then, when
/// this gateway serves `chain` and `owner` holds code there, ERC-1271.
pub async fn evm_signed_by(
    state: &AppState,
    chain: &str,
    owner: Address,
    message: &str,
    signature: &str,
) -> ApiResult<bool> {
    if latch_core::siwx::recover_personal_sign_address(message, signature)
        .is_ok_and(|signer| signer.eq_ignore_ascii_case(&owner.to_string()))
    {
        return Ok(true);
    }
    if state.gateway.chain(Some(chain)).is_err() {
        return Ok(false);
    }
    let code = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getCode", "params": [owner.to_string(), "latest"]});
    let reply = state.gateway.call(Some(chain), &Bytes::from(code.to_string())).await?;
    let reply: Value = serde_json::from_slice(&reply.0).map_err(|e| ApiError::Internal(e.into()))?;
    let holds_code = reply["result"].as_str().is_some_and(|c| c.len() > 2);
    if !holds_code {
        return Ok(false);
    }
    let Ok(bytes) = hex::decode(signature.trim_start_matches("0x")) else {
        return Ok(false);
    };
    let hash = alloy_primitives::eip191_hash_message(message);
    let call = isValidSignatureCall {
        hash,
        signature: AbiBytes::from(bytes),
    };
    // A contract that reverts or answers anything else has not approved the signature.
    Ok(
        match evm::eth_call(&state.gateway, chain, owner, call.abi_encode()).await {
            Ok(answer) => {
                isValidSignatureCall::abi_decode_returns(&answer).is_ok_and(|m| m == FixedBytes(ERC1271_MAGIC))
            }
            Err(ApiError::UpstreamUnavailable(chain)) => return Err(ApiError::UpstreamUnavailable(chain)),
            Err(_) => false,
        },
    )
}
