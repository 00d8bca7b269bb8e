//! Sign in with X (spec §4 "Sign-in", §8 sign-in): nonces, verification of
//! signed EIP-4361 / CAIP-122 messages, and sessions a host app can trust.
//!
//! `POST /v1/siwx/sessions` checks, in this order, each with its own answer:
//! the body (422) and the message grammar (400, latch-core's parser); the nonce
//! is one this server issued to this project and not used yet (401
//! `NONCE_UNKNOWN`; it is used up by this attempt whatever follows); the nonce
//! has not expired and the message counts now (`Expiration Time`, `Not Before`:
//! 401 `SESSION_EXPIRED`, core's `Session Expired` / `Session not yet valid`);
//! the message's domain is the one the nonce was issued for (401
//! `WRONG_DOMAIN`); the signature (401 `INVALID_SIGNATURE`): EIP-191 recovery,
//! else ERC-1271 (deployed contract wallets) or ERC-6492 (wrapped signatures of
//! accounts not deployed yet) through the gateway for eip155, ed25519 for solana.
//!
//! A session is answered with a bearer token (also set as an HTTP-only
//! cookie); only its sha256 is stored. The host's backend checks a token with
//! `POST /v1/siwx/verify`.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use latch_core::caip::{CaipAddress, CaipNetworkId};
use latch_core::siwx::SiwxMessage;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::error::{json_body, ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::{SiwxNonce, SiwxSession};
use crate::{now_ms, AppState};

/// How long a nonce may wait for its signed message.
pub const NONCE_TTL_MS: i64 = 5 * 60 * 1000;
/// A session's lifetime when the message sets no earlier `Expiration Time`.
pub const SESSION_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The cookie carrying the session token.
pub const COOKIE: &str = "latch_siwx";
/// Sessions listed at most.
const LIST_LIMIT: u32 = 100;

/// `bytes` random bytes as hex, from the operating system's generator.
fn random_hex(bytes: usize) -> ApiResult<String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::getrandom(&mut buffer).map_err(|e| ApiError::Internal(anyhow::anyhow!("no randomness: {e}")))?;
    Ok(hex::encode(buffer))
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn refused(code: &'static str, description: impl Into<String>) -> ApiError {
    ApiError::SignInRefused {
        code,
        description: description.into(),
    }
}

fn internal(error: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(error.into())
}

/// `POST /v1/siwx/nonce` body (optional when the request has an `Origin`).
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NonceRequest {
    /// The RFC 3986 authority the message will name (e.g. `app.example.com`); defaults to the `Origin`'s.
    domain: Option<String>,
}

/// A fresh nonce.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nonce {
    /// Put it in the message's `Nonce:` line.
    nonce: String,
    /// Unix milliseconds after which it is refused.
    expires_at: i64,
}

/// The `Origin` header's authority (`host[:port]`), when there is one.
fn origin_authority(headers: &HeaderMap) -> Option<String> {
    let origin = headers.get(header::ORIGIN)?.to_str().ok()?;
    let (_, rest) = origin.split_once("://")?;
    Some(rest.trim_end_matches('/').to_owned())
}

/// `POST /v1/siwx/nonce`: a single-use nonce bound to the project and the domain.
#[utoipa::path(post, path = "/v1/siwx/nonce", tag = "sign-in", request_body(content = NonceRequest, description = "optional with an Origin header"),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Nonce), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn nonce(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Nonce>> {
    let request: NonceRequest = if body.is_empty() {
        NonceRequest::default()
    } else {
        json_body(&body)?
    };
    let origin = origin_authority(&headers);
    let domain = match (request.domain, origin) {
        (Some(domain), Some(origin)) if domain != origin => {
            return Err(ApiError::bad(
                "domain",
                format!("domain {domain} is not the request's origin {origin}"),
            ))
        }
        (Some(domain), _) | (None, Some(domain)) => domain,
        (None, None) => {
            return Err(ApiError::bad(
                "domain",
                "give the domain the message will name, or send an Origin header",
            ))
        }
    };
    if domain.is_empty() || domain.len() > 255 || domain.contains(['/', ' ', '@']) {
        return Err(ApiError::bad(
            "domain",
            "domain must be an RFC 3986 authority such as app.example.com",
        ));
    }
    let nonce = SiwxNonce {
        // 16 random bytes as hex: letters and digits, as EIP-4361 requires.
        nonce: random_hex(16)?,
        project_id: caller.project.id,
        domain,
        expires_at: now_ms() + NONCE_TTL_MS,
    };
    state.store.siwx_add_nonce(&nonce).await.map_err(internal)?;
    Ok(Json(Nonce {
        nonce: nonce.nonce,
        expires_at: nonce.expires_at,
    }))
}

/// `POST /v1/siwx/sessions` body.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    /// The EIP-4361 / CAIP-122 message, exactly as signed.
    message: String,
    /// `personal_sign` (hex) for eip155 accounts, or the contract wallet's signature (ERC-1271; ERC-6492-wrapped for a wallet not deployed yet); base58 ed25519 for solana.
    signature: String,
    /// A CACAO, when the wallet made one (kept by the client; not needed here).
    #[serde(default)]
    #[allow(dead_code)]
    cacao: Option<serde_json::Value>,
}

/// A session, with its token when just created.
#[derive(Serialize, ToSchema)]
pub struct SessionCreated {
    /// Bearer token for `Authorization` or `POST /v1/siwx/verify` (also set as the `latch_siwx` cookie).
    token: String,
    /// The session.
    session: SiwxSession,
}

/// Whether `signature` over `message` is `account`'s.
async fn signed_by(state: &AppState, account: &CaipAddress, message: &str, signature: &str) -> ApiResult<bool> {
    match account.network.namespace.as_str() {
        "eip155" => {
            let owner = latch_core::address::parse_evm_address(&account.address)
                .map_err(|e| ApiError::bad("message", e.to_string()))?;
            crate::signatures::evm_signed_by(state, &account.network.to_string(), owner, message, signature).await
        }
        "solana" => {
            Ok(latch_core::siwx::verify_solana_signature(message, signature, &account.address).unwrap_or(false))
        }
        other => Err(ApiError::bad(
            "message",
            format!("sign-in is not supported for {other} accounts"),
        )),
    }
}

fn session_cookie(state: &AppState, token: &str, max_age_s: i64) -> HeaderValue {
    // `Secure` everywhere but `--dev`, whose demo is plain http on loopback.
    let secure = if state.config.dev { "" } else { "; Secure" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        max_age_s.max(0)
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// `POST /v1/siwx/sessions`: verifies a signed sign-in message and opens a session.
#[utoipa::path(post, path = "/v1/siwx/sessions", tag = "sign-in", request_body = SignIn,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SessionCreated, description = "also sets the latch_siwx cookie"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn create(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Response> {
    let request: SignIn = json_body(&body)?;
    let message = SiwxMessage::parse(&request.message).map_err(|e| ApiError::bad("message", e.to_string()))?;
    let network = CaipNetworkId::parse(&message.chain_id).map_err(|e| ApiError::bad("message", e.to_string()))?;
    let account = CaipAddress {
        network,
        address: message.address.clone(),
    };
    let now = now_ms();
    let nonce = state
        .store
        .siwx_take_nonce(&message.nonce)
        .await
        .map_err(internal)?
        .filter(|nonce| nonce.project_id == caller.project.id)
        .ok_or_else(|| refused("NONCE_UNKNOWN", "unknown or already used nonce: ask for a new one"))?;
    if now >= nonce.expires_at {
        return Err(refused(
            "SESSION_EXPIRED",
            "Session Expired: the nonce expired, ask for a new one",
        ));
    }
    message
        .check_times(now)
        .map_err(|e| refused("SESSION_EXPIRED", e.to_string()))?;
    if message.domain != nonce.domain {
        return Err(refused(
            "WRONG_DOMAIN",
            format!(
                "the message is for {}, the nonce was issued for {}",
                message.domain, nonce.domain
            ),
        ));
    }
    if !signed_by(&state, &account, &request.message, &request.signature).await? {
        return Err(ApiError::BadSignature(format!(
            "the signature is not {}'s",
            account.address
        )));
    }
    let expires_at = message
        .expiration_time
        .as_deref()
        .and_then(latch_core::siwx::rfc3339_unix_ms)
        .map_or(now + SESSION_TTL_MS, |at| at.min(now + SESSION_TTL_MS));
    let token = random_hex(32)?;
    let session = SiwxSession {
        id: random_hex(16)?,
        token_hash: token_hash(&token),
        project_id: caller.project.id,
        account: account.to_string(),
        chain_id: account.network.to_string(),
        domain: message.domain,
        message: request.message,
        signature: request.signature,
        created_at: now,
        expires_at,
        revoked_at: None,
    };
    state.store.siwx_add_session(&session).await.map_err(internal)?;
    let cookie = session_cookie(&state, &token, (expires_at - now) / 1000);
    let mut response = Json(SessionCreated { token, session }).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(response)
}

/// The token of a request: `Authorization: Bearer …`, else the `latch_siwx` cookie.
fn request_token(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_owned());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('=').map(str::to_owned))
}

async fn session_of(state: &AppState, caller: &Caller, token: Option<String>) -> ApiResult<SiwxSession> {
    let no_session = || refused("SESSION_INVALID", "no active sign-in session for this token");
    let token = token.filter(|t| !t.is_empty()).ok_or_else(no_session)?;
    state
        .store
        .siwx_session_by_token(&token_hash(&token), now_ms())
        .await
        .map_err(internal)?
        .filter(|session| session.project_id == caller.project.id)
        .ok_or_else(no_session)
}

/// One session.
#[derive(Serialize, ToSchema)]
pub struct SessionReply {
    /// The session.
    session: SiwxSession,
}

/// `GET /v1/siwx/session`: the session of the request's token (bearer or cookie).
#[utoipa::path(get, path = "/v1/siwx/session", tag = "sign-in",
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SessionReply), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn current(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
) -> ApiResult<Json<SessionReply>> {
    let session = session_of(&state, &caller, request_token(&headers)).await?;
    Ok(Json(SessionReply { session }))
}

/// Whether a session was ended.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    /// Always true (a session that was not active is a 401 / 404).
    revoked: bool,
}

/// `DELETE /v1/siwx/session`: signs out (revokes the request's session and clears the cookie).
#[utoipa::path(delete, path = "/v1/siwx/session", tag = "sign-in",
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Revoked), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn sign_out(State(state): State<AppState>, caller: Caller, headers: HeaderMap) -> ApiResult<Response> {
    let session = session_of(&state, &caller, request_token(&headers)).await?;
    state
        .store
        .siwx_revoke(&caller.project.id, &session.id, now_ms())
        .await
        .map_err(internal)?;
    let mut response = Json(Revoked { revoked: true }).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, session_cookie(&state, "", 0));
    Ok(response)
}

/// `POST /v1/siwx/verify` body.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The token the browser holds (from the cookie or the sign-in answer).
    token: String,
}

/// `POST /v1/siwx/verify`: for the host's backend — is this token an active session, and whose?
#[utoipa::path(post, path = "/v1/siwx/verify", tag = "sign-in", request_body = VerifyRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SessionReply), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn verify(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Json<SessionReply>> {
    let request: VerifyRequest = json_body(&body)?;
    let session = session_of(&state, &caller, Some(request.token)).await?;
    Ok(Json(SessionReply { session }))
}

/// `GET /v1/siwx/sessions` query.
#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// CAIP-10 account, e.g. `eip155:1:0xAbc…` (EVM addresses in any case).
    account: String,
}

/// Active sessions.
#[derive(Serialize, ToSchema)]
pub struct Sessions {
    /// Newest first.
    sessions: Vec<SiwxSession>,
}

/// The account as sessions store it: EVM addresses checksummed.
fn normal_account(account: &str) -> ApiResult<String> {
    let mut parsed = CaipAddress::parse(account).map_err(|e| ApiError::bad("account", e.to_string()))?;
    if parsed.network.namespace == "eip155" {
        parsed.address = latch_core::address::to_checksum_address(&parsed.address)
            .map_err(|e| ApiError::bad("account", e.to_string()))?;
    }
    Ok(parsed.to_string())
}

/// `GET /v1/siwx/sessions?account=`: an account's active sessions (without tokens).
#[utoipa::path(get, path = "/v1/siwx/sessions", tag = "sign-in", params(ListQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Sessions), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Json<Sessions>> {
    let account = normal_account(&query.account)?;
    let sessions = state
        .store
        .siwx_sessions(&caller.project.id, Some(&account), now_ms(), LIST_LIMIT)
        .await
        .map_err(internal)?;
    Ok(Json(Sessions { sessions }))
}

/// `POST /v1/siwx/sessions/{id}/revoke` body.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RevokeRequest {
    /// The session's account's signature over latch-core's `revoke_message(domain, id)`.
    signature: String,
}

/// `POST /v1/siwx/sessions/{id}/revoke`: ends a session, on its account's signature.
#[utoipa::path(post, path = "/v1/siwx/sessions/{id}/revoke", tag = "sign-in", request_body = RevokeRequest,
    params(("id" = String, Path, description = "session id")),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Revoked), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Revoked>> {
    let request: RevokeRequest = json_body(&body)?;
    let now = now_ms();
    let session = state
        .store
        .siwx_session(&caller.project.id, &id)
        .await
        .map_err(internal)?
        .filter(|s| s.revoked_at.is_none() && s.expires_at > now)
        .ok_or(ApiError::NotFound)?;
    let account = CaipAddress::parse(&session.account).map_err(|e| internal(anyhow::anyhow!("{e}")))?;
    let text = latch_core::siwx::revoke_message(&session.domain, &session.id);
    if !signed_by(&state, &account, &text, &request.signature).await? {
        return Err(ApiError::BadSignature(format!(
            "the signature is not {}'s",
            account.address
        )));
    }
    if !state
        .store
        .siwx_revoke(&caller.project.id, &id, now)
        .await
        .map_err(internal)?
    {
        return Err(ApiError::NotFound);
    }
    Ok(Json(Revoked { revoked: true }))
}
