//! Sign in with X (behaviour 4.5 "Sign-in", behaviour 4.7 sign-in): nonces, verification of
//! signed EIP-4361 / CAIP-122 messages, and sessions a host app can trust.
//!
//! Binding to the app: a nonce is issued only for a domain some allowed origin
//! of the project names (`https://` or `http://` that domain; a project with no
//! allowed origins gets none, as its browser origins are all refused), and, when
//! the request has an `Origin`, only for that origin's domain.
//!
//! `POST /v1/siwx/sessions` checks, in this order, each with its own answer:
//! the body (422), the message's size (413 `MESSAGE_TOO_LARGE`) and grammar
//! (400, latch-core's parser); the chain is one this server serves (400
//! `UNSUPPORTED_CHAIN`); the URI is on the message's domain (401 `WRONG_URI`);
//! `Issued At` is within the configured window of now (401
//! `ISSUED_AT_OUT_OF_WINDOW`); the message counts now (`Expiration Time`,
//! `Not Before`: 401 `SESSION_EXPIRED`, core's `Session Expired` / `Session not
//! yet valid`); the nonce is one this server issued to this project and not used
//! yet (401 `NONCE_UNKNOWN`; it is used up by this attempt whatever follows,
//! atomically in the store, so one nonce opens at most one session across all
//! nodes); the nonce has not expired (401 `SESSION_EXPIRED`); the message's
//! domain is the one the nonce was issued for (401 `WRONG_DOMAIN`); the
//! signature (401 `INVALID_SIGNATURE`): EIP-191 recovery, else ERC-1271
//! (deployed contract wallets) or ERC-6492 (wrapped signatures of accounts not
//! deployed yet) through the gateway for eip155, ed25519 for solana.
//!
//! Tokens: no long-lived credential is ever readable by the page's scripts. A
//! session has a long-lived session token, sent only as the HTTP-only
//! `latch_siwx` cookie (same-site deployments need nothing else); the JSON
//! answer carries a short-lived access token (15 minutes by default), which
//! clients keep in memory, and a one-time refresh token that
//! `POST /v1/siwx/refresh` exchanges for new ones (rotation); presenting a
//! refresh token that was already exchanged revokes the session, since it was
//! copied. Only sha256 hashes of the three are stored. The host's backend
//! checks a token (session or access) with `POST /v1/siwx/verify`.
//!
//! Every answer here is `Cache-Control: no-store`; expired nonces and ended
//! sessions are deleted by a periodic task ([`spawn_pruning`]).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Json;
use latch_core::caip::{CaipAddress, CaipNetworkId};
use latch_core::siwx::SiwxMessage;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::error::{json_body, ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::{SignInStore, SiwxNonce, SiwxRefresh, SiwxRotation, SiwxSession};
use crate::{now_ms, AppState};

/// How long a nonce may wait for its signed message.
pub const NONCE_TTL_MS: i64 = 5 * 60 * 1000;
/// A session's lifetime when the message sets no earlier `Expiration Time`.
pub const SESSION_TTL_MS: i64 = 7 * 24 * 60 * 60 * 1000;
/// The cookie carrying the session token.
pub const COOKIE: &str = "latch_siwx";
/// Sessions listed at most.
const LIST_LIMIT: u32 = 100;
/// Longest domain a nonce is issued for (a DNS name is at most 253 bytes, plus a port).
const MAX_DOMAIN_BYTES: usize = 255;
/// Longest signature accepted: an ERC-6492 wrapper holds a factory call, a few KiB of hex at most.
const MAX_SIGNATURE_BYTES: usize = 32 * 1024;
/// Longest token accepted (ours are 64 hex digits).
const MAX_TOKEN_BYTES: usize = 128;

/// The sign-in routes, each answered `Cache-Control: no-store` (errors included):
/// nonces, tokens and sessions must never sit in a shared or browser cache.
pub fn routes() -> crate::routes::Routes {
    crate::routes::Routes::new()
        .route("/v1/siwx/nonce", post(nonce))
        .route("/v1/siwx/sessions", post(create).get(list))
        .route("/v1/siwx/sessions/{id}/revoke", post(revoke))
        .route("/v1/siwx/session", get(current).delete(sign_out))
        .route("/v1/siwx/refresh", post(refresh))
        .route("/v1/siwx/verify", post(verify))
        .map_router(|router| router.layer(axum::middleware::map_response(no_store)))
}

async fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Deletes expired nonces now, and sessions that ended more than the configured grace ago;
/// how many (nonces, sessions) went.
pub async fn prune(
    store: &dyn SignInStore,
    config: &crate::config::SiwxConfig,
    now_ms: i64,
) -> anyhow::Result<(u64, u64)> {
    let grace_ms = i64::try_from(config.prune_grace_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
    Ok(store.siwx_prune(now_ms, now_ms.saturating_sub(grace_ms)).await?)
}

/// Runs [`prune`] every `prune_every_secs` for the life of the process (every node may:
/// deleting is idempotent).
pub fn spawn_pruning(store: std::sync::Arc<dyn SignInStore>, config: crate::config::SiwxConfig) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(config.prune_every_secs));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(error) = prune(store.as_ref(), &config, now_ms()).await {
                tracing::warn!(%error, "pruning sign-in nonces and sessions failed");
            }
        }
    });
}

/// `bytes` random bytes as hex, from the operating system's generator.
pub(crate) fn random_hex(bytes: usize) -> ApiResult<String> {
    let mut buffer = vec![0u8; bytes];
    getrandom::getrandom(&mut buffer).map_err(|e| ApiError::Internal(anyhow::anyhow!("no randomness: {e}")))?;
    Ok(hex::encode(buffer))
}

pub(crate) fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn refused(code: &'static str, description: impl Into<String>) -> ApiError {
    ApiError::SignInRefused {
        code,
        description: description.into(),
    }
}

fn forbidden(code: &'static str, field: &'static str, description: impl Into<String>) -> ApiError {
    ApiError::SignInForbidden {
        code,
        field,
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
        (Some(domain), Some(origin)) if !domain.eq_ignore_ascii_case(&origin) => {
            return Err(forbidden(
                "DOMAIN_NOT_ALLOWED",
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
    if domain.is_empty() || domain.len() > MAX_DOMAIN_BYTES || domain.contains(['/', ' ', '@']) {
        return Err(ApiError::bad(
            "domain",
            "domain must be an RFC 3986 authority such as app.example.com",
        ));
    }
    // The `Origin` itself was checked by `Caller`; a domain given without one must be too.
    if !latch_core::siwx::domain_allowed(&caller.project.allowed_origins, &domain) {
        return Err(forbidden(
            "DOMAIN_NOT_ALLOWED",
            "domain",
            format!("{domain} is not an allowed origin of this project"),
        ));
    }
    let nonce = SiwxNonce {
        // 16 random bytes as hex: letters and digits, as EIP-4361 requires.
        nonce: random_hex(16)?,
        project_id: caller.project.id.clone(),
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

/// A session just created or refreshed, with its short-lived tokens (the long-lived
/// session token is only in the `latch_siwx` HTTP-only cookie).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionCreated {
    /// Bearer token for `Authorization` or `POST /v1/siwx/verify`, until `accessExpiresAt`; keep it in memory only.
    access_token: String,
    /// Unix milliseconds after which the access token is refused.
    access_expires_at: i64,
    /// One-time token for `POST /v1/siwx/refresh`; keep it in memory only.
    refresh_token: String,
    /// The session (with the message and signature its owner signed).
    session: SiwxSession,
}

/// A session without its message and signature: what others than its owner see.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionSummary {
    /// Public id (used to revoke).
    id: String,
    /// CAIP-10 account.
    account: String,
    /// CAIP-2 chain of the message.
    chain_id: String,
    /// The domain the message was signed for.
    domain: String,
    /// Unix milliseconds.
    created_at: i64,
    /// Unix milliseconds after which it no longer counts.
    expires_at: i64,
}

impl From<SiwxSession> for SessionSummary {
    fn from(session: SiwxSession) -> Self {
        Self {
            id: session.id,
            account: session.account,
            chain_id: session.chain_id,
            domain: session.domain,
            created_at: session.created_at,
            expires_at: session.expires_at,
        }
    }
}

/// Fresh access and refresh tokens, and their hashes for the store.
fn new_tokens(state: &AppState, now: i64, session_expires_at: i64) -> ApiResult<(String, String, SiwxRotation)> {
    let access = random_hex(32)?;
    let refresh = random_hex(32)?;
    let ttl_ms = i64::try_from(state.config.siwx.access_token_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
    let rotation = SiwxRotation {
        access_hash: token_hash(&access),
        access_expires_at: now.saturating_add(ttl_ms).min(session_expires_at),
        refresh_hash: token_hash(&refresh),
    };
    Ok((access, refresh, rotation))
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
    let limit = state.config.siwx.max_message_bytes;
    if request.message.len() > limit {
        return Err(ApiError::SignInTooLarge(limit));
    }
    if request.signature.len() > MAX_SIGNATURE_BYTES {
        return Err(ApiError::bad(
            "signature",
            format!("the signature is longer than {MAX_SIGNATURE_BYTES} bytes"),
        ));
    }
    let message = SiwxMessage::parse(&request.message).map_err(|e| ApiError::bad("message", e.to_string()))?;
    let network = CaipNetworkId::parse(&message.chain_id).map_err(|e| ApiError::bad("message", e.to_string()))?;
    // A session is only for a chain the project is served on here.
    let chain = network.to_string();
    if !state.config.chains.iter().any(|c| c.id == chain) {
        return Err(ApiError::UnsupportedChain(chain));
    }
    let account = CaipAddress {
        network,
        address: message.address.clone(),
    };
    let now = now_ms();
    message
        .check_uri_origin()
        .map_err(|e| refused("WRONG_URI", e.to_string()))?;
    let window_ms = i64::try_from(state.config.siwx.issued_at_window_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
    message
        .check_issued_at(now, window_ms)
        .map_err(|e| refused("ISSUED_AT_OUT_OF_WINDOW", e.to_string()))?;
    message
        .check_times(now)
        .map_err(|e| refused("SESSION_EXPIRED", e.to_string()))?;
    let nonce = state
        .store
        .siwx_take_nonce(&caller.project.id, &message.nonce)
        .await
        .map_err(internal)?
        .ok_or_else(|| refused("NONCE_UNKNOWN", "unknown or already used nonce: ask for a new one"))?;
    if now >= nonce.expires_at {
        return Err(refused(
            "SESSION_EXPIRED",
            "Session Expired: the nonce expired, ask for a new one",
        ));
    }
    if !message.domain.eq_ignore_ascii_case(&nonce.domain) {
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
    let (access_token, refresh_token, rotation) = new_tokens(&state, now, expires_at)?;
    let session = SiwxSession {
        id: random_hex(16)?,
        token_hash: token_hash(&token),
        access_hash: rotation.access_hash,
        access_expires_at: rotation.access_expires_at,
        refresh_hash: rotation.refresh_hash,
        project_id: caller.project.id.clone(),
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
    let mut response = Json(SessionCreated {
        access_token,
        access_expires_at: rotation.access_expires_at,
        refresh_token,
        session,
    })
    .into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    Ok(response)
}

/// `POST /v1/siwx/refresh` body.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RefreshRequest {
    /// The refresh token of the last sign-in or refresh answer.
    refresh_token: String,
}

/// `POST /v1/siwx/refresh`: a new access token and refresh token for the current refresh
/// token, which is used up. A refresh token presented after it was exchanged (a copy)
/// revokes the session: 401 `REFRESH_REUSED`.
#[utoipa::path(post, path = "/v1/siwx/refresh", tag = "sign-in", request_body = RefreshRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SessionCreated), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn refresh(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Json<SessionCreated>> {
    let request: RefreshRequest = json_body(&body)?;
    let invalid = || {
        refused(
            "REFRESH_INVALID",
            "unknown, used or expired refresh token: sign in again",
        )
    };
    if request.refresh_token.is_empty() || request.refresh_token.len() > MAX_TOKEN_BYTES {
        return Err(invalid());
    }
    let now = now_ms();
    // The new access token may not outlive the session; the store keeps the earlier of the two.
    let (access_token, refresh_token, mut rotation) = new_tokens(&state, now, i64::MAX)?;
    let session = match state
        .store
        .siwx_refresh(&caller.project.id, &token_hash(&request.refresh_token), &rotation, now)
        .await
        .map_err(internal)?
    {
        SiwxRefresh::Rotated(session) => *session,
        SiwxRefresh::Reused => {
            tracing::warn!(project = %caller.project.id, "a rotated sign-in refresh token was presented again: session revoked");
            return Err(refused(
                "REFRESH_REUSED",
                "this refresh token was already used: the session is ended, sign in again",
            ));
        }
        SiwxRefresh::Unknown => return Err(invalid()),
    };
    rotation.access_expires_at = rotation.access_expires_at.min(session.expires_at);
    Ok(Json(SessionCreated {
        access_token,
        access_expires_at: rotation.access_expires_at,
        refresh_token,
        session,
    }))
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
    let token = token
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_BYTES)
        .ok_or_else(no_session)?;
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
    /// The token the browser holds (its access token, or the session cookie's value).
    token: String,
    /// The domain the host expects the session to be for (its own); a session signed for another is refused.
    #[serde(default)]
    domain: Option<String>,
}

/// Whose session a token is, and for which domain.
#[derive(Serialize, ToSchema)]
pub struct Verified {
    /// The domain the session's message was signed for: a host that gave none must compare it with its own.
    domain: String,
    /// The session, without message or signature.
    session: SessionSummary,
}

/// `POST /v1/siwx/verify`: for the host's backend — is this token an active session, whose,
/// and for which domain? With `domain`, a session for another domain is 401 `WRONG_DOMAIN`.
#[utoipa::path(post, path = "/v1/siwx/verify", tag = "sign-in", request_body = VerifyRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Verified), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn verify(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Json<Verified>> {
    let request: VerifyRequest = json_body(&body)?;
    let session = session_of(&state, &caller, Some(request.token)).await?;
    if let Some(expected) = request.domain {
        if !expected.eq_ignore_ascii_case(&session.domain) {
            return Err(refused(
                "WRONG_DOMAIN",
                format!("the session was signed for {}, not {expected}", session.domain),
            ));
        }
    }
    Ok(Json(Verified {
        domain: session.domain.clone(),
        session: session.into(),
    }))
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
    sessions: Vec<SessionSummary>,
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

/// `GET /v1/siwx/sessions?account=`: an account's active sessions, as summaries, for a
/// request carrying a session of that account (bearer access token or cookie): 401
/// `SESSION_INVALID` without one, 403 `WRONG_ACCOUNT` for another account's.
#[utoipa::path(get, path = "/v1/siwx/sessions", tag = "sign-in", params(ListQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Sessions), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<Json<Sessions>> {
    let account = normal_account(&query.account)?;
    let own = session_of(&state, &caller, request_token(&headers)).await?;
    if own.account != account {
        return Err(forbidden(
            "WRONG_ACCOUNT",
            "account",
            "a session lists only its own account's sessions",
        ));
    }
    let sessions = state
        .store
        .siwx_sessions(&caller.project.id, Some(&account), now_ms(), LIST_LIMIT)
        .await
        .map_err(internal)?;
    Ok(Json(Sessions {
        sessions: sessions.into_iter().map(SessionSummary::from).collect(),
    }))
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
