//! The name zone as an EIP-3668 (CCIP-Read) gateway, in the ENS offchain-resolver scheme: an
//! offchain resolver for the zone reverts with `OffchainLookup`, the client asks here, and the
//! signed answer goes back to the resolver's `resolveWithProof`, which checks the signer. So any
//! ENS-aware library resolves Latch names through the chain (`addr`, `addr` by coin type,
//! `text`, e.g. `avatar`).
//!
//! The request and answer rules (DNS names, the resolver calls, the digest) are
//! `latch_core::ccip`; here are the two URL forms EIP-3668 clients use, the records from the
//! store, the clock and the key. Names under the legacy suffix answer as the primary zone's.
//! No project is asked for: ENS clients call the resolver's URL as it is, and names are public;
//! each answer costs a store read and a signature, so the client's per-IP budget applies.

use std::collections::BTreeMap;

use alloy_primitives::{hex, Address};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::Json;
use latch_core::ccip::{self, NameRecords};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::project::Visitor;
use crate::AppState;

/// How long a signed answer stays valid (the resolver refuses it afterwards).
pub(crate) const ANSWER_TTL_S: u64 = 300;

/// The gateway's answer.
#[derive(Serialize, ToSchema)]
pub(crate) struct Answer {
    /// `abi.encode(bytes result, uint64 expires, bytes sig)`, `0x`-hex.
    pub data: String,
}

/// `POST /ccip` body (EIP-3668's POST form).
#[derive(Deserialize, ToSchema)]
pub(crate) struct Lookup {
    /// The resolver that reverted (`OffchainLookup`'s `sender`).
    sender: String,
    /// Its `callData`: `resolve(bytes name, bytes data)`, `0x`-hex.
    data: String,
}

/// `GET /ccip/{sender}/{data}.json`: EIP-3668's GET form.
#[utoipa::path(get, path = "/ccip/{sender}/{data}", tag = "names",
    params(("sender" = String, Path, description = "The resolver contract"),
        ("data" = String, Path, description = "The call data, 0x-hex, followed by .json")),
    responses((status = 200, body = Answer), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub(crate) async fn get_lookup(
    State(state): State<AppState>,
    _visitor: Visitor,
    Path((sender, data)): Path<(String, String)>,
) -> ApiResult<Json<Answer>> {
    let data = data.strip_suffix(".json").unwrap_or(&data);
    answer(&state, &sender, data).await
}

/// `POST /ccip`: EIP-3668's POST form, `{"sender","data"}`.
#[utoipa::path(post, path = "/ccip", tag = "names", request_body = Lookup,
    responses((status = 200, body = Answer), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub(crate) async fn post_lookup(
    State(state): State<AppState>,
    _visitor: Visitor,
    body: Bytes,
) -> ApiResult<Json<Answer>> {
    let lookup: Lookup = crate::error::json_body(&body)?;
    answer(&state, &lookup.sender, &lookup.data).await
}

/// The signing key of the configured gateway, or why there is none.
fn signing_key(state: &AppState) -> ApiResult<[u8; 32]> {
    let key = state.config.ccip_signing_key.as_ref().ok_or_else(|| {
        ApiError::UpstreamUnavailable("the CCIP-Read gateway has no ccip_signing_key configured".into())
    })?;
    // The key was checked when the configuration was read.
    parse_key(&key.0).map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))
}

/// A secp256k1 secret key as 32 bytes of hex (with or without `0x`).
pub(crate) fn parse_key(text: &str) -> Result<[u8; 32], String> {
    let bytes = hex::decode(text.trim()).map_err(|_| "ccip_signing_key is not hex".to_owned())?;
    let key: [u8; 32] = bytes
        .try_into()
        .map_err(|_| "ccip_signing_key is not 32 bytes".to_owned())?;
    ccip::signer_address(&key).map_err(|e| e.to_string())?;
    Ok(key)
}

async fn records(state: &AppState, name: &str) -> ApiResult<Option<NameRecords>> {
    let Some(full) = crate::names::zone_name(&state.config, name) else {
        return Ok(None);
    };
    let Some(record) = state
        .store
        .name(&full)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
    else {
        return Ok(None);
    };
    let addresses = record
        .addresses
        .iter()
        .filter_map(|(coin, address, _)| Some((u64::try_from(*coin).ok()?, address.parse::<Address>().ok()?)))
        .collect();
    let texts: BTreeMap<String, String> = serde_json::from_str(&record.attributes).unwrap_or_default();
    Ok(Some(NameRecords { addresses, texts }))
}

async fn answer(state: &AppState, sender: &str, data: &str) -> ApiResult<Json<Answer>> {
    let resolver =
        latch_core::address::parse_evm_address(sender).map_err(|e| ApiError::bad("sender", e.to_string()))?;
    let call_data = hex::decode(data).map_err(|_| ApiError::bad("data", "data is not 0x-hex"))?;
    let request = ccip::parse_resolve_request(&call_data).map_err(|e| ApiError::bad("data", e.to_string()))?;
    let key = signing_key(state)?;
    // An unknown name (or one outside the zone) gets the resolver's "no record" answer, signed
    // like any other, as the public resolver answers for a name without records.
    let records = records(state, &request.name).await?;
    let result = ccip::query_result(&request.query, records.as_ref());
    let expires = (crate::now_ms() / 1000) as u64 + ANSWER_TTL_S;
    let response = ccip::sign_response(&key, resolver, expires, &call_data, &result)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    Ok(Json(Answer {
        data: format!("0x{}", hex::encode(response)),
    }))
}
