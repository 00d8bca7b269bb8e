//! Names (behaviour 5.12 "Name registration", behaviour 6.9 profile endpoints): a name under the
//! configured zone registered with a signed message, resolved forward and
//! reverse, and suggested.
//!
//! `POST /v1/profile/account` checks, in this order (each its own answer):
//! the message parses (422); the name's label and zone (400); the coin type
//! is an EVM chain this gateway serves (400); the name is free (400); the
//! message's timestamp is within ±10 s (400); only `bio` (at most 255 characters) and `avatar`
//! (at most 1024) attributes (400); the signature (401): EIP-191 from the address
//! itself, ERC-1271 `isValidSignature` when the address is a contract on
//! that chain, or ERC-6492 when it is a smart account not deployed yet.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::NameRecord;
use crate::AppState;

/// How far a registration message's timestamp may be from the server's clock.
pub(crate) const TIMESTAMP_TOLERANCE_S: i64 = 10;
/// Longest `bio` attribute.
pub(crate) const MAX_BIO_CHARS: usize = 255;
/// Longest `avatar` attribute (a URL).
pub(crate) const MAX_AVATAR_CHARS: usize = 1024;
/// Suggestions returned (exact name first).
const SUGGESTIONS: usize = 5;

/// `POST /v1/profile/account` body.
#[derive(Deserialize, ToSchema)]
pub(crate) struct Registration {
    /// JSON text `{"name":"alice.<zone>","attributes":{"bio":"…"},"timestamp":<unix s>}`.
    message: String,
    /// `personal_sign` of `message` by `address` (65 bytes hex), or the contract wallet's signature (ERC-1271; ERC-6492-wrapped for a wallet not deployed yet).
    signature: String,
    /// ENSIP-11 coin type of the chain `address` lives on (60 = Ethereum, `0x80000000 | chainId` otherwise).
    coin_type: u32,
    /// The registering address.
    address: String,
}

/// The signed message's content.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Message {
    name: String,
    #[serde(default)]
    attributes: BTreeMap<String, String>,
    timestamp: i64,
}

/// One address of a name.
#[derive(Serialize, ToSchema)]
pub(crate) struct NameAddress {
    /// The address.
    pub address: String,
    /// Unix seconds it was added.
    pub created_at: i64,
}

/// A name and its addresses (the original service's `NameAndAddresses`, snake case throughout).
#[derive(Serialize, ToSchema)]
pub(crate) struct NameAndAddresses {
    /// The full name.
    pub name: String,
    /// Unix seconds.
    pub registered_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
    /// Attributes, e.g. `bio`.
    pub attributes: BTreeMap<String, String>,
    /// Addresses by coin type (as text).
    pub addresses: BTreeMap<String, NameAddress>,
}

impl From<NameRecord> for NameAndAddresses {
    fn from(record: NameRecord) -> Self {
        Self {
            attributes: serde_json::from_str(&record.attributes).unwrap_or_default(),
            addresses: record
                .addresses
                .into_iter()
                .map(|(coin_type, address, created_at)| (coin_type.to_string(), NameAddress { address, created_at }))
                .collect(),
            name: record.name,
            registered_at: record.registered_at,
            updated_at: record.updated_at,
        }
    }
}

/// `label.<zone>` lower-cased, or why not. A name under the legacy suffix registers as the primary
/// zone's (behaviour 7.10): both are one name, so a visitor holding an old-style name cannot split
/// it from its owner's record.
fn full_name(config: &crate::config::Config, name: &str) -> ApiResult<String> {
    let name = name.to_ascii_lowercase();
    let label = zone_labels(config, &name)
        .next()
        .ok_or_else(|| ApiError::bad("name", format!("a name ends in .{}", config.name_zone)))?;
    // latch-core's rule, the one the modal checks as the visitor types.
    let label = latch_core::validate::validate_name(label).map_err(|e| ApiError::bad("name", e.to_string()))?;
    Ok(format!("{label}.{}", config.name_zone))
}

/// The zone's full name for `name`, a single label under the primary or the legacy suffix
/// (behaviour 7.10: `alice.<legacy>` is `alice.<zone>`); `None` outside both.
pub(crate) fn zone_name(config: &crate::config::Config, name: &str) -> Option<String> {
    zone_labels(config, name)
        .find(|label| !label.is_empty() && !label.contains('.'))
        .map(|label| format!("{label}.{}", config.name_zone))
}

/// What precedes `.<zone>` in `name`, for the primary zone then the legacy one (where it ends so).
fn zone_labels<'a>(config: &'a crate::config::Config, name: &'a str) -> impl Iterator<Item = &'a str> {
    std::iter::once(&config.name_zone)
        .chain(config.name_legacy_zone.as_ref())
        .filter_map(move |zone| name.strip_suffix(zone.as_str())?.strip_suffix('.'))
}

/// A name under the legacy suffix as the primary zone's; any other name as it is.
fn primary_name(config: &crate::config::Config, name: &str) -> String {
    zone_name(config, name).unwrap_or_else(|| name.to_owned())
}

/// `POST /v1/profile/account`: registers a name.
#[utoipa::path(post, path = "/v1/profile/account", tag = "names", request_body = Registration,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = NameAndAddresses), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub(crate) async fn register(
    State(state): State<AppState>,
    _caller: Caller,
    body: Bytes,
) -> ApiResult<Json<NameAndAddresses>> {
    let request: Registration = crate::error::json_body(&body)?;
    let message: Message =
        serde_json::from_str(&request.message).map_err(|e| ApiError::UnprocessableBody(format!("message: {e}")))?;
    let name = full_name(&state.config, &message.name)?;
    let chain_id = latch_core::validate::coin_type_to_evm_chain_id(request.coin_type).map_err(|_| {
        ApiError::bad(
            "coin_type",
            format!("coin type {} is not an EVM chain", request.coin_type),
        )
    })?;
    let chain = format!("eip155:{chain_id}");
    if state.gateway.chain(Some(&chain)).is_err() {
        return Err(ApiError::bad(
            "coin_type",
            format!("chain {chain} (coin type {}) is not served here", request.coin_type),
        ));
    }
    let owner = latch_core::address::parse_evm_address(&request.address)
        .map_err(|e| ApiError::bad("address", e.to_string()))?;
    if state
        .store
        .name(&name)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .is_some()
    {
        return Err(ApiError::bad("name", format!("{name} is already registered")));
    }
    let now = crate::now_ms() / 1000;
    if (message.timestamp - now).abs() > TIMESTAMP_TOLERANCE_S {
        return Err(ApiError::bad(
            "message",
            format!("timestamp must be within {TIMESTAMP_TOLERANCE_S} s of now"),
        ));
    }
    if let Some(other) = message
        .attributes
        .keys()
        .find(|k| !["bio", "avatar"].contains(&k.as_str()))
    {
        return Err(ApiError::bad(
            "message",
            format!("unknown attribute {other:?}; only bio and avatar are kept"),
        ));
    }
    // The avatar is served as the name's ENS `avatar` text record (ENSIP-12: a URL or NFT URI).
    if message
        .attributes
        .get("avatar")
        .is_some_and(|avatar| avatar.chars().count() > MAX_AVATAR_CHARS)
    {
        return Err(ApiError::bad(
            "message",
            format!("avatar is at most {MAX_AVATAR_CHARS} characters"),
        ));
    }
    if message
        .attributes
        .get("bio")
        .is_some_and(|bio| bio.chars().count() > MAX_BIO_CHARS)
    {
        return Err(ApiError::bad(
            "message",
            format!("bio is at most {MAX_BIO_CHARS} characters"),
        ));
    }
    if !crate::signatures::evm_signed_by(&state, &chain, owner, &request.message, &request.signature).await? {
        return Err(ApiError::BadSignature(format!("the signature is not {owner}'s")));
    }
    let record = NameRecord {
        name: name.clone(),
        attributes: serde_json::to_string(&message.attributes).map_err(|e| ApiError::Internal(e.into()))?,
        registered_at: now,
        updated_at: now,
        addresses: vec![(i64::from(request.coin_type), owner.to_string(), now)],
    };
    // Two registrations racing past the check above: the store keeps the first.
    if !state
        .store
        .add_name(&record)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
    {
        return Err(ApiError::bad("name", format!("{name} is already registered")));
    }
    // The address's identity now has a name: the next read must not serve the cached one.
    state.chain_data.forget_identity(&owner.to_string());
    Ok(Json(record.into()))
}

/// `apiVersion` and `sender`, accepted for compatibility.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProfileQuery {
    /// The client's API version (2).
    #[allow(dead_code)]
    api_version: Option<String>,
    /// The asking address.
    #[allow(dead_code)]
    sender: Option<String>,
}

/// `GET /v1/profile/account/{name}`: the name and its addresses; a name Latch did not register is
/// resolved forward on the configured ENS deployment; 404 when neither knows it.
#[utoipa::path(get, path = "/v1/profile/account/{name}", tag = "names",
    params(("name" = String, Path, description = "A full name, e.g. alice.latch or alice.eth"), ProfileQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = NameAndAddresses), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(crate) async fn lookup(
    State(state): State<AppState>,
    _caller: Caller,
    Path(name): Path<String>,
    ApiQuery(_query): ApiQuery<ProfileQuery>,
) -> ApiResult<Json<NameAndAddresses>> {
    let name = primary_name(&state.config, &name.to_ascii_lowercase());
    let record = state
        .store
        .name(&name)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    if let Some(record) = record {
        return Ok(Json(record.into()));
    }
    // Not a Latch name: an ENS name (`alice.eth`) resolves forward through the configured ENS
    // deployment, so a send form can take either. Its `addr` is the ENSIP-9 coin type 60 record.
    if !name.contains('.') || name.len() > MAX_ENS_NAME_LENGTH {
        return Err(ApiError::NotFound);
    }
    let (address, avatar) = state.chain_data.resolve_name(&name).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(NameAndAddresses {
        name,
        registered_at: 0,
        updated_at: 0,
        attributes: avatar.map(|avatar| ("avatar".to_owned(), avatar)).into_iter().collect(),
        addresses: BTreeMap::from([(
            latch_core::validate::ETHEREUM_COIN_TYPE.to_string(),
            NameAddress {
                address: address.to_checksum(None),
                created_at: 0,
            },
        )]),
    }))
}

/// Longest name resolved on ENS (DNS's 253 characters); longer ones cannot exist.
const MAX_ENS_NAME_LENGTH: usize = 253;

/// `GET /v1/profile/reverse/{address}`: the names holding this address (`[]` when none).
#[utoipa::path(get, path = "/v1/profile/reverse/{address}", tag = "names",
    params(("address" = String, Path, description = "An address"), ProfileQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Vec<NameAndAddresses>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(crate) async fn reverse(
    State(state): State<AppState>,
    _caller: Caller,
    Path(address): Path<String>,
    ApiQuery(_query): ApiQuery<ProfileQuery>,
) -> ApiResult<Json<Vec<NameAndAddresses>>> {
    let records = state
        .store
        .names_of(&address)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Json(records.into_iter().map(Into::into).collect()))
}

/// `GET /v1/profile/suggestions/{name}` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct SuggestionQuery {
    /// The zone (must be this server's).
    zone: Option<String>,
}

/// A suggested name.
#[derive(Serialize, ToSchema)]
pub(crate) struct Suggestion {
    /// The full name.
    pub name: String,
    /// Whether it is taken.
    pub registered: bool,
}

/// Suggestions for a wanted name.
#[derive(Serialize, ToSchema)]
pub(crate) struct Suggestions {
    /// The name itself first, then free variants; five in all.
    pub suggestions: Vec<Suggestion>,
}

/// `GET /v1/profile/suggestions/{name}`: the exact name, then free variants of it.
#[utoipa::path(get, path = "/v1/profile/suggestions/{name}", tag = "names",
    params(("name" = String, Path, description = "The wanted label (with or without the zone)"), SuggestionQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Suggestions), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub(crate) async fn suggestions(
    State(state): State<AppState>,
    _caller: Caller,
    Path(name): Path<String>,
    ApiQuery(query): ApiQuery<SuggestionQuery>,
) -> ApiResult<Json<Suggestions>> {
    let zone = &state.config.name_zone;
    if let Some(asked) = query.zone.as_deref().filter(|z| z != zone) {
        return Err(ApiError::bad(
            "zone",
            format!("this server registers names in {zone}, not {asked}"),
        ));
    }
    let label = name
        .to_ascii_lowercase()
        .strip_suffix(&format!(".{zone}"))
        .map_or_else(|| name.to_ascii_lowercase(), str::to_owned);
    let wanted = full_name(&state.config, &format!("{label}.{zone}"))?;
    let taken = |candidate: String| {
        let store = state.store.clone();
        async move {
            let registered = store
                .name(&candidate)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?
                .is_some();
            Ok::<_, ApiError>(Suggestion {
                name: candidate,
                registered,
            })
        }
    };
    let mut suggestions = vec![taken(wanted).await?];
    // Variants in a fixed order (so the same name gets the same list), keeping the free ones.
    let variants = ["app", "eth", "web3", "dev", "xyz", "hq", "labs"]
        .iter()
        .map(|suffix| format!("{label}{suffix}.{zone}"))
        .chain((1..=99).map(|n| format!("{label}{n}.{zone}")));
    for candidate in variants {
        if suggestions.len() == SUGGESTIONS {
            break;
        }
        let suggestion = taken(candidate).await?;
        if !suggestion.registered {
            suggestions.push(suggestion);
        }
    }
    Ok(Json(Suggestions { suggestions }))
}
