//! Embedded-wallet sign-up and login (behaviour 5.15 "Embedded-wallet requests", behaviour 6.2
//! message schemas, behaviour 7.1 30 s e-mail cooldown), for the wallet frame ("vault").
//!
//! Every route names its project like the other `/v1` routes; browsers may
//! call from the project's allowed origins or from `embedded.vault_origin`.
//!
//! - `POST /v1/embedded/email/start` sends a six-digit code (`VERIFY_OTP`), or,
//!   for a known user on a device not approved yet, a one-time approval link
//!   (`VERIFY_DEVICE`); one send per address per 30 s, and daily caps per
//!   address and per client address.
//! - `POST /v1/embedded/email/verify` checks the code (10 minutes, 5 guesses,
//!   compared in constant time, single use; stored as an HMAC under the code
//!   secret, `secret`) and opens a session, creating the
//!   user on first success (sign-up).
//! - Sessions are random bearer tokens, stored as sha256 hashes, bound to the
//!   project, pushed forward while used up to a maximum age, ended by sign-out.
//!   No cookies: the frame keeps its token and sends `Authorization: Bearer`.
//! - The wallet's key material (`PUT`/`GET /v1/embedded/wallet`) is the auth
//!   share and the sealed recovery envelopes: the server holds no key that signs.
//!
//! Codes, tokens and device ids are never logged and never appear in errors.

pub mod account;
pub mod config;
pub mod frame;
pub mod login;
pub mod mail;
pub mod secret;
pub mod social;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::project::Caller;
use crate::store::embedded::EmbeddedStore;
use crate::store::embedded::{EmbeddedSession, EmbeddedUser};
use crate::{now_ms, AppState};

/// Longest bearer token accepted (ours are 64 hex digits).
const MAX_TOKEN_BYTES: usize = 128;

/// What the embedded routes share besides the store.
pub struct Embedded {
    /// Where login mails go.
    pub mailer: mail::Mailer,
    /// Social login's HTTP client and discovered endpoints.
    pub social: social::Social,
    /// The key one-time codes are stored under.
    pub code_key: secret::CodeKey,
}

impl Embedded {
    /// The services `config` describes.
    pub fn new(config: &crate::config::Config) -> anyhow::Result<Self> {
        Ok(Self {
            mailer: mail::Mailer::new(&config.embedded, config.dev)?,
            social: social::Social::new()?,
            code_key: secret::CodeKey::load(config.embedded.code_secret.as_ref(), &config.data_dir)?,
        })
    }
}

/// The embedded routes, answered `Cache-Control: no-store` (codes and tokens
/// must never sit in a cache). The outbox exists only in `--dev`.
pub fn routes(dev: bool) -> crate::routes::Routes {
    let router = crate::routes::Routes::new()
        .route("/v1/embedded/frame-config", get(frame::frame_config))
        .route("/v1/embedded/email/start", post(login::start))
        .route("/v1/embedded/email/verify", post(login::verify))
        .route("/v1/embedded/device/approve", get(login::approve_device))
        .route("/v1/embedded/user", get(account::user))
        .route("/v1/embedded/signout", post(account::sign_out))
        .route("/v1/embedded/wallet", get(account::wallet).put(account::put_wallet))
        .route("/v1/embedded/wallet/envelope", post(account::put_envelope))
        .route("/v1/embedded/email/update", post(account::update_email))
        .route("/v1/embedded/email/update/verify", post(account::verify_update))
        .route("/v1/embedded/social/{provider}/start", get(social::start))
        .route(
            "/v1/embedded/social/callback",
            get(social::callback).post(social::callback_form),
        )
        .route("/v1/embedded/social/finish", post(social::finish))
        .route("/v1/embedded/rpc", post(rpc));
    let router = if dev {
        router.route("/v1/embedded/dev/outbox", get(login::outbox))
    } else {
        router
    };
    router.map_router(|router| router.layer(axum::middleware::map_response(no_store)))
}

async fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Deletes expired codes and sessions and past counters every minute, for the life of the process.
pub fn spawn_pruning(store: std::sync::Arc<dyn EmbeddedStore>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(error) = store.embedded_prune(now_ms()).await {
                tracing::warn!(%error, "pruning embedded-wallet codes and sessions failed");
            }
        }
    });
}

/// A refusal with `status` and a stable `code`.
pub(crate) fn refused(
    status: StatusCode,
    code: &'static str,
    field: &'static str,
    description: impl Into<String>,
) -> ApiError {
    ApiError::Refused {
        status,
        code,
        field,
        description: description.into(),
    }
}

/// A behaviour 5.17 schema refusal (`Required` / `Invalid input`) as a 400.
pub(crate) fn schema(error: latch_core::embedded::SchemaError) -> ApiError {
    refused(StatusCode::BAD_REQUEST, "INVALID_INPUT", error.field, error.message)
}

pub(crate) fn internal(error: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(error.into())
}

/// The caller of an embedded route: the project, from its origins or the vault's.
pub struct EmbeddedCaller(pub Caller);

impl FromRequestParts<AppState> for EmbeddedCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let vault = state.config.embedded.vault_origin.as_deref();
        Caller::of(parts, state, vault).await.map(EmbeddedCaller)
    }
}

/// `POST /v1/embedded/rpc?chainId&projectId`: the public gateway (`POST /v1/`) for the wallet
/// frame, whose origin is not the project's: its CSP lets it call only its own origin, and it
/// reads nonces, gas and fees before a transaction is approved (ARCHITECTURE.md "apps/vault").
#[utoipa::path(post, path = "/v1/embedded/rpc", tag = "embedded",
    params(("chainId" = String, Query, description = "CAIP-2 id, e.g. eip155:1")),
    security(("project_id" = [])),
    request_body(content = crate::rpc::JsonRpcBody, description = "A JSON-RPC 2.0 request or a batch"),
    responses((status = 200, description = "The upstream's JSON-RPC answer", body = serde_json::Value),
        (status = 403, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub(crate) async fn rpc(
    axum::extract::State(state): axum::extract::State<AppState>,
    EmbeddedCaller(caller): EmbeddedCaller,
    query: crate::rpc::RpcQuery,
    body: axum::body::Bytes,
) -> crate::error::ApiResult<Response> {
    crate::rpc::answer(&state, &caller, &query, &body).await
}

/// An authenticated embedded-wallet session (`Authorization: Bearer <token>`) of the
/// request's project, and its user.
pub struct Authenticated {
    /// The caller.
    pub caller: Caller,
    /// The session.
    pub session: EmbeddedSession,
    /// Its user.
    pub user: EmbeddedUser,
}

fn session_invalid(description: &str) -> ApiError {
    refused(
        StatusCode::UNAUTHORIZED,
        "SESSION_INVALID",
        "authorization",
        description,
    )
}

impl FromRequestParts<AppState> for Authenticated {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let EmbeddedCaller(caller) = EmbeddedCaller::from_request_parts(parts, state).await?;
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_BYTES)
            .ok_or_else(|| session_invalid("send the session token as Authorization: Bearer <token>"))?;
        let now = now_ms();
        let hash = crate::siwx::token_hash(token);
        let session = state
            .store
            .embedded_session(&hash, now)
            .await
            .map_err(internal)?
            .ok_or_else(|| session_invalid("unknown, expired or signed-out session: log in again"))?;
        // A token copied to another project's page is refused there.
        if session.project_id != caller.project.id {
            return Err(session_invalid("this session belongs to another project"));
        }
        let config = &state.config.embedded;
        let idle_ms = secs_ms(config.session_secs);
        let until = now
            .saturating_add(idle_ms)
            .min(session.created_at.saturating_add(secs_ms(config.session_max_secs)));
        // Written at most once a minute per session: most calls only read.
        if until > session.expires_at.saturating_add(60_000) {
            state
                .store
                .embedded_extend_session(&hash, until)
                .await
                .map_err(internal)?;
        }
        let user = state
            .store
            .embedded_user(&caller.project.id, &session.user_id)
            .await
            .map_err(internal)?
            .ok_or_else(|| session_invalid("the session's user no longer exists"))?;
        Ok(Self { caller, session, user })
    }
}

pub(crate) fn secs_ms(secs: u64) -> i64 {
    i64::try_from(secs.saturating_mul(1000)).unwrap_or(i64::MAX)
}

/// An account of the user (behaviour 5.14 embedded-wallet user).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserAccount {
    /// The address (EIP-55 for eip155, base58 for solana).
    pub address: String,
    /// Always `eoa` (smart accounts are a later issue).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `eip155` or `solana`.
    pub namespace: &'static str,
}

/// The embedded-wallet user (behaviour 5.14).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInfo {
    /// The login e-mail.
    pub email: String,
    /// Public id.
    pub user_id: String,
    /// The wallet's accounts (empty until the frame stores the wallet).
    pub accounts: Vec<UserAccount>,
    /// The name the user chose, if any.
    pub user_name: Option<String>,
}

/// The user as answered, with the accounts of the stored wallet.
pub(crate) async fn user_info(state: &AppState, user: &EmbeddedUser) -> Result<UserInfo, ApiError> {
    let wallet = state.store.embedded_wallet(&user.id).await.map_err(internal)?;
    let mut accounts = Vec::new();
    if let Some(wallet) = wallet {
        if let Some(address) = wallet.evm_address {
            accounts.push(UserAccount {
                address,
                kind: "eoa",
                namespace: "eip155",
            });
        }
        if let Some(address) = wallet.solana_address {
            accounts.push(UserAccount {
                address,
                kind: "eoa",
                namespace: "solana",
            });
        }
    }
    Ok(UserInfo {
        email: user.email.clone(),
        user_id: user.id.clone(),
        accounts,
        user_name: user.user_name.clone(),
    })
}
