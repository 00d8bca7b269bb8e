//! What an authenticated session can do: read its user, sign out, store and
//! read the wallet's opaque key material, change its e-mail.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use latch_core::embedded as rules;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::login::{check_code, check_limits, send_code, take_code};
use super::{internal, refused, schema, user_info, Authenticated, UserInfo};
use crate::error::{json_body, ApiResult, ErrorBody};
use crate::store::embedded::EmbeddedWallet;
use crate::{now_ms, AppState};

const UPDATE_PRIMARY: &str = "update-primary";
const UPDATE_SECONDARY: &str = "update-secondary";

/// `GET /v1/embedded/user`: the session's user (behaviour 5.14).
#[utoipa::path(get, path = "/v1/embedded/user", tag = "embedded",
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = UserInfo), (status = 401, body = ErrorBody, description = "SESSION_INVALID")))]
pub async fn user(State(state): State<AppState>, auth: Authenticated) -> ApiResult<Json<UserInfo>> {
    Ok(Json(user_info(&state, &auth.user).await?))
}

/// `POST /v1/embedded/signout`: ends the session (its token is refused from now on).
#[utoipa::path(post, path = "/v1/embedded/signout", tag = "embedded",
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 204, description = "signed out"), (status = 401, body = ErrorBody)))]
pub async fn sign_out(State(state): State<AppState>, auth: Authenticated) -> ApiResult<StatusCode> {
    state
        .store
        .embedded_remove_session(&auth.session.token_hash)
        .await
        .map_err(internal)?;
    Ok(StatusCode::NO_CONTENT)
}

/// The wallet's key material as the server keeps it (nothing that signs alone).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WalletShares {
    /// The auth share: `0x02` + 64 lowercase hex.
    #[serde(default)]
    auth_share: String,
    /// At most two recovery envelopes (`kind` `password` or `passkey`), each at most 2 KiB of JSON, opaque here.
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    envelopes: Vec<serde_json::Value>,
    /// The accounts by namespace: `eip155` (EIP-55 or lowercase hex) and `solana` (base58).
    #[serde(default)]
    accounts: BTreeMap<String, String>,
}

/// `PUT /v1/embedded/wallet`: stores the user's wallet once (409 `WALLET_EXISTS` after).
#[utoipa::path(put, path = "/v1/embedded/wallet", tag = "embedded", request_body = WalletShares,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 201, body = UserInfo), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "WALLET_EXISTS")))]
pub async fn put_wallet(
    State(state): State<AppState>,
    auth: Authenticated,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<UserInfo>)> {
    let request: WalletShares = json_body(&body)?;
    rules::validate_auth_share(&request.auth_share).map_err(schema)?;
    rules::validate_envelopes(&request.envelopes).map_err(schema)?;
    let bad_account = || {
        schema(rules::SchemaError {
            field: "accounts",
            message: "Invalid input",
        })
    };
    let mut evm_address = None;
    let mut solana_address = None;
    for (namespace, address) in &request.accounts {
        match namespace.as_str() {
            "eip155" => {
                evm_address = Some(latch_core::address::to_checksum_address(address).map_err(|_| bad_account())?);
            }
            "solana" if latch_core::address::is_solana_address(address) => solana_address = Some(address.clone()),
            _ => return Err(bad_account()),
        }
    }
    if evm_address.is_none() {
        return Err(schema(rules::SchemaError {
            field: "accounts",
            message: "Required",
        }));
    }
    let stored = state
        .store
        .embedded_put_wallet(&EmbeddedWallet {
            user_id: auth.user.id.clone(),
            auth_share: request.auth_share,
            envelopes: serde_json::to_string(&request.envelopes).map_err(internal)?,
            evm_address,
            solana_address,
            created_at: now_ms(),
        })
        .await
        .map_err(internal)?;
    if !stored {
        return Err(refused(
            StatusCode::CONFLICT,
            "WALLET_EXISTS",
            "authShare",
            "this user has a wallet already",
        ));
    }
    Ok((StatusCode::CREATED, Json(user_info(&state, &auth.user).await?)))
}

/// `GET /v1/embedded/wallet`: the auth share, envelopes and accounts, to the user's session only.
#[utoipa::path(get, path = "/v1/embedded/wallet", tag = "embedded",
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = WalletShares), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody, description = "NO_WALLET")))]
pub async fn wallet(State(state): State<AppState>, auth: Authenticated) -> ApiResult<Json<WalletShares>> {
    wallet_shares(&state, &auth).await
}

fn no_wallet() -> crate::error::ApiError {
    refused(
        StatusCode::NOT_FOUND,
        "NO_WALLET",
        "authorization",
        "this user has no wallet yet",
    )
}

async fn wallet_shares(state: &AppState, auth: &Authenticated) -> ApiResult<Json<WalletShares>> {
    let wallet = state
        .store
        .embedded_wallet(&auth.user.id)
        .await
        .map_err(internal)?
        .ok_or_else(no_wallet)?;
    let envelopes = serde_json::from_str(&wallet.envelopes).map_err(internal)?;
    let mut accounts = BTreeMap::new();
    if let Some(address) = wallet.evm_address {
        accounts.insert("eip155".to_owned(), address);
    }
    if let Some(address) = wallet.solana_address {
        accounts.insert("solana".to_owned(), address);
    }
    Ok(Json(WalletShares {
        auth_share: wallet.auth_share,
        envelopes,
        accounts,
    }))
}

/// `POST /v1/embedded/wallet/envelope` body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewEnvelope {
    /// The sealed recovery share (`kind` `password` or `passkey`, at most 2 KiB of JSON), opaque here.
    #[serde(default)]
    #[schema(value_type = Object)]
    envelope: serde_json::Value,
}

/// How often a lost compare-and-set race is retried before giving up (two tabs sealing at once).
const ENVELOPE_TRIES: usize = 3;

/// `POST /v1/embedded/wallet/envelope`: adds a recovery envelope to the session's wallet, or
/// replaces the one of the same `kind` (a new password). The frame seals the recovery share after
/// the wallet is made, so the password never waits on the wallet's creation. The server cannot
/// check the seal (it never sees the password): only the shape, size and kind.
#[utoipa::path(post, path = "/v1/embedded/wallet/envelope", tag = "embedded", request_body = NewEnvelope,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = WalletShares), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "NO_WALLET"), (status = 409, body = ErrorBody, description = "ENVELOPE_CONFLICT")))]
pub async fn put_envelope(
    State(state): State<AppState>,
    auth: Authenticated,
    body: Bytes,
) -> ApiResult<Json<WalletShares>> {
    let request: NewEnvelope = json_body(&body)?;
    if request.envelope.is_null() {
        return Err(schema(rules::SchemaError {
            field: "envelope",
            message: "Required",
        }));
    }
    let rename = |e: rules::SchemaError| schema(rules::SchemaError { field: "envelope", ..e });
    rules::validate_envelopes(std::slice::from_ref(&request.envelope)).map_err(rename)?;
    let kind = request.envelope.get("kind").and_then(serde_json::Value::as_str);
    for _ in 0..ENVELOPE_TRIES {
        let wallet = state
            .store
            .embedded_wallet(&auth.user.id)
            .await
            .map_err(internal)?
            .ok_or_else(no_wallet)?;
        let mut envelopes: Vec<serde_json::Value> = serde_json::from_str(&wallet.envelopes).map_err(internal)?;
        envelopes.retain(|old| old.get("kind").and_then(serde_json::Value::as_str) != kind);
        envelopes.push(request.envelope.clone());
        rules::validate_envelopes(&envelopes).map_err(rename)?;
        let text = serde_json::to_string(&envelopes).map_err(internal)?;
        if state
            .store
            .embedded_set_envelopes(&auth.user.id, &wallet.envelopes, &text)
            .await
            .map_err(internal)?
        {
            return wallet_shares(&state, &auth).await;
        }
    }
    Err(refused(
        StatusCode::CONFLICT,
        "ENVELOPE_CONFLICT",
        "envelope",
        "the envelopes changed meanwhile: try again",
    ))
}

/// `POST /v1/embedded/email/update` body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateEmail {
    /// The new address.
    #[serde(default)]
    new_email: String,
}

/// What the frame asks for next (behaviour 5.17 update-email action).
#[derive(Serialize, ToSchema)]
pub struct UpdateAnswer {
    /// `VERIFY_PRIMARY_OTP` after the codes are sent (then `VERIFY_SECONDARY_OTP` in the frame);
    /// both codes go to `/v1/embedded/email/update/verify` together.
    action: &'static str,
}

/// `POST /v1/embedded/email/update`: mails a code to the current address and one to the new one.
#[utoipa::path(post, path = "/v1/embedded/email/update", tag = "embedded", request_body = UpdateEmail,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = UpdateAnswer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "EMAIL_TAKEN"), (status = 429, body = ErrorBody)))]
pub async fn update_email(
    State(state): State<AppState>,
    auth: Authenticated,
    body: Bytes,
) -> ApiResult<Json<UpdateAnswer>> {
    let request: UpdateEmail = json_body(&body)?;
    let new_email =
        rules::validate_email(&request.new_email).map_err(|e| schema(rules::SchemaError { field: "newEmail", ..e }))?;
    let new_key = rules::email_key(&new_email);
    let user = &auth.user;
    let taken = state
        .store
        .embedded_user_by_email(&auth.caller.project.id, &new_key)
        .await
        .map_err(internal)?;
    if new_key == user.email_key || taken.is_some() {
        return Err(refused(
            StatusCode::CONFLICT,
            "EMAIL_TAKEN",
            "newEmail",
            "this address is already in use",
        ));
    }
    let now = now_ms();
    check_limits(&state, &auth.caller, &user.email_key, &[UPDATE_PRIMARY], now).await?;
    let device = None;
    send_code(
        &state,
        &auth.caller,
        (&user.email, &user.email_key),
        UPDATE_PRIMARY,
        device.clone(),
        Some(new_email.clone()),
        now,
    )
    .await?;
    // Keyed by the current address too: the new one has no user to find it by.
    send_code(
        &state,
        &auth.caller,
        (&new_email, &user.email_key),
        UPDATE_SECONDARY,
        device,
        Some(new_email.clone()),
        now,
    )
    .await?;
    Ok(Json(UpdateAnswer {
        action: "VERIFY_PRIMARY_OTP",
    }))
}

/// `POST /v1/embedded/email/update/verify` body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyUpdate {
    /// The code sent to the current address.
    #[serde(default)]
    primary_otp: String,
    /// The code sent to the new address.
    #[serde(default)]
    secondary_otp: String,
}

/// `POST /v1/embedded/email/update/verify`: with both codes right, the new address replaces the old.
#[utoipa::path(post, path = "/v1/embedded/email/update/verify", tag = "embedded", request_body = VerifyUpdate,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = UserInfo), (status = 400, body = ErrorBody, description = "field primaryOtp or secondaryOtp says which code is wrong"),
        (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn verify_update(
    State(state): State<AppState>,
    auth: Authenticated,
    body: Bytes,
) -> ApiResult<Json<UserInfo>> {
    let request: VerifyUpdate = json_body(&body)?;
    let (project, key) = (&auth.caller.project.id, &auth.user.email_key);
    let now = now_ms();
    let primary = check_code(
        &state,
        project,
        key,
        UPDATE_PRIMARY,
        ("primaryOtp", &request.primary_otp),
        now,
    )
    .await?;
    let secondary = check_code(
        &state,
        project,
        key,
        UPDATE_SECONDARY,
        ("secondaryOtp", &request.secondary_otp),
        now,
    )
    .await?;
    let new_email = match (&primary.payload, &secondary.payload) {
        (Some(a), Some(b)) if a == b => a.clone(),
        // Two updates crossed: neither can be trusted to be the one both codes confirm.
        _ => {
            return Err(refused(
                StatusCode::BAD_REQUEST,
                "OTP_EXPIRED",
                "secondaryOtp",
                "the codes are for different updates: start again",
            ))
        }
    };
    take_code(&state, &primary, "primaryOtp").await?;
    take_code(&state, &secondary, "secondaryOtp").await?;
    let changed = state
        .store
        .embedded_set_email(project, &auth.user.id, &new_email, &rules::email_key(&new_email))
        .await
        .map_err(internal)?;
    if !changed {
        return Err(refused(
            StatusCode::CONFLICT,
            "EMAIL_TAKEN",
            "newEmail",
            "this address is already in use",
        ));
    }
    let user = state
        .store
        .embedded_user(project, &auth.user.id)
        .await
        .map_err(internal)?
        .ok_or_else(|| internal(anyhow::anyhow!("user vanished during an e-mail update")))?;
    Ok(Json(user_info(&state, &user).await?))
}
