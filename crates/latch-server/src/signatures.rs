//! Who signed a message, for every endpoint that takes signatures (names,
//! sign-in): EIP-191 recovery for accounts, ERC-1271 `isValidSignature`
//! through the gateway for contract wallets, and ERC-6492 for contract
//! wallets not deployed yet (counterfactual accounts).
//!
//! An ERC-6492 signature for an account without code is checked with the
//! ERC's own `ValidateSigOffchain` helper, run as a deployless `eth_call` (its
//! creation code plus constructor arguments; nothing is deployed): inside that
//! one call it runs the factory call, then `isValidSignature`, and returns one
//! byte. We chose it over a Multicall3 batch (factory call, then
//! `isValidSignature`) because it is the ERC's audited reference code, the
//! same check wallet libraries run, and needs no contract on the chain, so it
//! works on every chain the gateway reaches. Source and licence (CC0):
//! `crates/latch-server/contracts/`.

use alloy_primitives::{Address, Bytes as AbiBytes, FixedBytes, B256};
use alloy_sol_types::{sol, SolCall, SolValue};
use axum::body::Bytes;
use serde_json::{json, Value};

use crate::chaindata::evm;
use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// ERC-1271's "valid signature" answer.
const ERC1271_MAGIC: [u8; 4] = [0x16, 0x26, 0xba, 0x7e];

/// ERC-6492's `magicBytes`: a signature ending in them is a wrapped one.
pub const ERC6492_SUFFIX: [u8; 32] = [
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64,
    0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
];

/// `ValidateSigOffchain`'s creation code, built by `scripts/build-contracts`.
const VALIDATOR_CODE: &str = include_str!("../contracts/ValidateSigOffchain.hex");

sol! {
    function isValidSignature(bytes32 hash, bytes signature) returns (bytes4 magicValue);
}

/// An ERC-6492 signature, unwrapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterfactual {
    /// The contract to call first (the account's factory, or a "prepare" target).
    pub factory: Address,
    /// What to call it with (e.g. `createAccount(owner, salt)`).
    pub factory_calldata: Vec<u8>,
    /// The ERC-1271 signature the account will check once it exists.
    pub signature: Vec<u8>,
}

impl Counterfactual {
    /// The ERC-6492 form: `abi.encode(factory, factoryCalldata, signature) ‖ magicBytes`.
    pub fn wrap(&self) -> Vec<u8> {
        let mut wrapped = (
            self.factory,
            AbiBytes::copy_from_slice(&self.factory_calldata),
            AbiBytes::copy_from_slice(&self.signature),
        )
            .abi_encode_params();
        wrapped.extend_from_slice(&ERC6492_SUFFIX);
        wrapped
    }

    /// `signature` unwrapped when it ends in ERC-6492's magic bytes and what
    /// precedes them decodes; `None` for any other signature.
    pub fn unwrap(signature: &[u8]) -> Option<Self> {
        let body = signature.strip_suffix(&ERC6492_SUFFIX)?;
        let (factory, factory_calldata, signature) = <(Address, AbiBytes, AbiBytes)>::abi_decode_params(body).ok()?;
        Some(Self {
            factory,
            factory_calldata: factory_calldata.to_vec(),
            signature: signature.to_vec(),
        })
    }
}

/// Whether `signature` over `message` is `owner`'s on `chain`: EIP-191 recovery
/// first (no chain read: the common case of an account's own key); then, when
/// this gateway serves `chain`, ERC-6492 for a wrapped signature (ERC-1271
/// with the inner signature when the account already has code, else the
/// deployless validator) and ERC-1271 when `owner` holds code.
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
    let Ok(bytes) = hex::decode(signature.trim_start_matches("0x")) else {
        return Ok(false);
    };
    let hash = alloy_primitives::eip191_hash_message(message);
    let wrapped = Counterfactual::unwrap(&bytes);
    let deployed = holds_code(state, chain, owner).await?;
    match (wrapped, deployed) {
        (None, false) => Ok(false),
        (None, true) => erc1271(state, chain, owner, hash, bytes).await,
        // Deployed since it signed: the account itself decides, with the inner
        // signature. Failing that, the ERC says the wrapper may be a "prepare"
        // call (an account that must migrate before it can check), which the
        // validator runs before asking again.
        (Some(unwrapped), true) => Ok(erc1271(state, chain, owner, hash, unwrapped.signature).await?
            || validate_deployless(state, chain, owner, hash, bytes).await?),
        (Some(_), false) => validate_deployless(state, chain, owner, hash, bytes).await,
    }
}

/// Whether `address` has contract code on `chain`.
async fn holds_code(state: &AppState, chain: &str, address: Address) -> ApiResult<bool> {
    let code = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getCode", "params": [address.to_string(), "latest"]});
    let reply = state
        .gateway
        .call_internal(chain, Bytes::from(code.to_string()))
        .await?;
    let reply: Value = serde_json::from_slice(&reply.0).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(reply["result"].as_str().is_some_and(|c| c.len() > 2))
}

/// ERC-1271 on the deployed `owner`.
async fn erc1271(state: &AppState, chain: &str, owner: Address, hash: B256, signature: Vec<u8>) -> ApiResult<bool> {
    let call = isValidSignatureCall {
        hash,
        signature: AbiBytes::from(signature),
    };
    approved(
        evm::eth_call(&state.gateway, chain, owner, call.abi_encode()).await,
        |answer| isValidSignatureCall::abi_decode_returns(answer).is_ok_and(|m| m == FixedBytes(ERC1271_MAGIC)),
    )
}

/// ERC-6492's `ValidateSigOffchain(owner, hash, signature)` in one deployless
/// `eth_call`; it returns the single byte 0x01 for a valid signature.
async fn validate_deployless(
    state: &AppState,
    chain: &str,
    owner: Address,
    hash: B256,
    signature: Vec<u8>,
) -> ApiResult<bool> {
    let mut code = hex::decode(VALIDATOR_CODE.trim().trim_start_matches("0x"))
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("ValidateSigOffchain.hex: {e}")))?;
    code.extend((owner, hash, AbiBytes::from(signature)).abi_encode_params());
    approved(evm::deployless_call(&state.gateway, chain, code).await, |answer| {
        answer == [1]
    })
}

/// A contract's answer judged by `valid`: one that reverts or answers anything
/// else has not approved the signature; only an unreachable chain is an error.
fn approved(answer: ApiResult<Vec<u8>>, valid: impl FnOnce(&[u8]) -> bool) -> ApiResult<bool> {
    match answer {
        Ok(answer) => Ok(valid(&answer)),
        Err(ApiError::UpstreamUnavailable(chain)) => Err(ApiError::UpstreamUnavailable(chain)),
        Err(_) => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_validator_code_is_hex() {
        let code = hex::decode(VALIDATOR_CODE.trim().trim_start_matches("0x")).unwrap();
        assert!(code.len() > 1000, "{} bytes", code.len());
    }

    #[test]
    fn plain_signatures_are_not_wrapped() {
        assert_eq!(Counterfactual::unwrap(&[0x11; 65]), None);
        assert_eq!(Counterfactual::unwrap(&ERC6492_SUFFIX), None, "the suffix alone");
        let mut junk = vec![0xff; 40];
        junk.extend_from_slice(&ERC6492_SUFFIX);
        assert_eq!(Counterfactual::unwrap(&junk), None, "the suffix after non-ABI bytes");
    }

    proptest! {
        #[test]
        fn wrap_then_unwrap_round_trips(
            factory in any::<[u8; 20]>(),
            factory_calldata in proptest::collection::vec(any::<u8>(), 0..200),
            signature in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let counterfactual = Counterfactual { factory: Address::from(factory), factory_calldata, signature };
            prop_assert_eq!(Counterfactual::unwrap(&counterfactual.wrap()), Some(counterfactual));
        }

        #[test]
        fn unwrap_never_panics(body in proptest::collection::vec(any::<u8>(), 0..400), suffixed in any::<bool>()) {
            let mut signature = body;
            if suffixed {
                signature.extend_from_slice(&ERC6492_SUFFIX);
            }
            let _ = Counterfactual::unwrap(&signature);
        }
    }
}
