//! `GET /v1/identity/{address}` (behaviour 6.5): the ENS name an address claims
//! (reverse record), trusted only when the name resolves back to the address,
//! and the name's `avatar` text record; through the classic registry →
//! resolver flow, so it works on any chain with an ENS registry. Without an
//! ENS name, the first name registered with `latch` for the address is shown.

use alloy_primitives::{Address, B256};
use alloy_sol_types::SolCall;
use axum::extract::{Path, State};
use axum::Json;
use latch_core::ens::{namehash, reverse_name};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::evm::{addrCall, decode, multicall, nameCall, resolverCall, textCall, Call};
use super::ChainData;
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::AppState;

/// An address's public identity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// The verified primary name, if any.
    pub name: Option<String>,
    /// The name's avatar (URL or ENSIP-12 URI), if any.
    pub avatar: Option<String>,
    /// When this was read, unix seconds.
    pub resolved_at: u64,
}

/// `GET /v1/identity/{address}` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IdentityQuery {
    /// The asking address (accepted for compatibility; not used).
    #[allow(dead_code)]
    sender: Option<String>,
}

impl ChainData {
    /// Resolves `owner`'s identity on the ENS chain: two multicalls (reverse
    /// resolver + forward resolver, then the records).
    async fn resolve(&self, owner: Address) -> ApiResult<(Option<String>, Option<String>)> {
        let Some((chain, registry)) = &self.ens else {
            return Ok((None, None));
        };
        let reverse = B256::from(namehash(
            &reverse_name(&owner.to_string()).map_err(|e| ApiError::Internal(e.into()))?,
        ));
        let lookup = |node: B256| Call {
            target: *registry,
            data: resolverCall { node }.abi_encode(),
        };
        let first = multicall(&self.gateway, chain, vec![lookup(reverse)]).await?;
        let Some(reverse_resolver) = decode::<resolverCall>(&first[0]).filter(|a| !a.is_zero()) else {
            return Ok((None, None));
        };
        let claimed = multicall(
            &self.gateway,
            chain,
            vec![Call {
                target: reverse_resolver,
                data: nameCall { node: reverse }.abi_encode(),
            }],
        )
        .await?;
        let Some(name) = decode::<nameCall>(&claimed[0]).filter(|n| !n.is_empty()) else {
            return Ok((None, None));
        };
        // A reverse record anyone can set proves nothing until the name points back.
        match self.forward_records(chain, *registry, &name).await? {
            Some((address, avatar)) if address == owner => Ok((Some(name), avatar)),
            _ => Ok((None, None)),
        }
    }

    /// `name`'s resolver on the ENS chain, then its `addr` and `avatar` text in one
    /// multicall; `None` when the name has no resolver.
    async fn forward_records(
        &self,
        chain: &str,
        registry: Address,
        name: &str,
    ) -> ApiResult<Option<(Address, Option<String>)>> {
        let node = B256::from(namehash(name));
        let found = multicall(
            &self.gateway,
            chain,
            vec![Call {
                target: registry,
                data: resolverCall { node }.abi_encode(),
            }],
        )
        .await?;
        let Some(resolver) = decode::<resolverCall>(&found[0]).filter(|a| !a.is_zero()) else {
            return Ok(None);
        };
        let records = multicall(
            &self.gateway,
            chain,
            vec![
                Call {
                    target: resolver,
                    data: addrCall { node }.abi_encode(),
                },
                Call {
                    target: resolver,
                    data: textCall {
                        node,
                        key: "avatar".into(),
                    }
                    .abi_encode(),
                },
            ],
        )
        .await?;
        let address = decode::<addrCall>(&records[0]).unwrap_or(Address::ZERO);
        Ok(Some((
            address,
            decode::<textCall>(&records[1]).filter(|a| !a.is_empty()),
        )))
    }
}

impl ChainData {
    /// Resolves an ENS `name` forward on the ENS chain (registry → resolver →
    /// `addr` and the `avatar` text): the address it points to, or `None` when
    /// no ENS is configured, the name has no resolver or no address.
    pub async fn resolve_name(&self, name: &str) -> ApiResult<Option<(Address, Option<String>)>> {
        let Some((chain, registry)) = &self.ens else {
            return Ok(None);
        };
        Ok(self
            .forward_records(chain, *registry, name)
            .await?
            .filter(|(address, _)| !address.is_zero()))
    }
}

/// `GET /v1/identity/{address}`.
#[utoipa::path(get, path = "/v1/identity/{address}", tag = "chain data",
    params(("address" = String, Path, description = "An EVM address (0x…); other namespaces have no identity"), IdentityQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Identity), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn identity(
    State(state): State<AppState>,
    _caller: Caller,
    Path(address): Path<String>,
    ApiQuery(_query): ApiQuery<IdentityQuery>,
) -> ApiResult<Json<Identity>> {
    let now = (crate::now_ms() / 1000) as u64;
    // Solana (and other) addresses have no ENS identity: an empty one, as the original answers.
    if latch_core::address::is_solana_address(&address) {
        return Ok(Json(Identity {
            resolved_at: now,
            ..Identity::default()
        }));
    }
    let owner =
        latch_core::address::parse_evm_address(&address).map_err(|e| ApiError::bad("address", e.to_string()))?;
    let data = &state.chain_data;
    let key = owner.to_string();
    if let Some(hit) = data.identities.get(&key) {
        return Ok(Json(hit));
    }
    let (mut name, avatar) = data.resolve(owner).await?;
    if name.is_none() {
        // No verified ENS name: the first Latch name holding the address, if any.
        let names = state
            .store
            .names_of(&key)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        name = names.into_iter().next().map(|record| record.name);
    }
    let identity = Identity {
        name,
        avatar,
        resolved_at: now,
    };
    data.identities.put(key, identity.clone());
    Ok(Json(identity))
}
