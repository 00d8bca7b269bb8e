//! The one error body every endpoint answers with, compatible with the
//! original service's shape so existing clients read it:
//! `{"status":"FAILED","code":"UNSUPPORTED_CHAIN","reasons":[{"field":"chainId","description":"…"}]}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// An error an API call answers with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// A parameter is missing or malformed (400).
    #[error("{description}")]
    BadRequest {
        /// Which input is wrong (`chainId`, `body`, …).
        field: &'static str,
        /// What is wrong, for a person.
        description: String,
    },
    /// A request the rules refuse, with its status and a code of its own. On-ramp (400):
    /// `AMOUNT_BELOW_MIN`, `AMOUNT_ABOVE_MAX`, `UNSUPPORTED_CURRENCY`, `UNSUPPORTED_PAYMENT_METHOD`,
    /// `UNSUPPORTED_ASSET`, `UNSUPPORTED_NETWORK`, `UNKNOWN_PROVIDER`, `ONRAMP_DISABLED`,
    /// `INVALID_AMOUNT`. Swaps: `UNSUPPORTED_SWAP_NETWORK`, `NO_ROUTE`, `SLIPPAGE_EXCEEDED`,
    /// `INSUFFICIENT_ALLOWANCE`, `INSUFFICIENT_BALANCE`, `SWAP_REVERTED`. Embedded-wallet login
    /// (`crate::embedded`, 400 to 503): `INVALID_INPUT`, `OTP_INVALID`, `OTP_EXPIRED`,
    /// `OTP_ATTEMPTS_EXCEEDED`, `DAILY_LIMIT`, `SESSION_INVALID`, `WALLET_EXISTS`, `NO_WALLET`,
    /// `EMAIL_TAKEN`, `EMAIL_NOT_CONFIGURED`, …
    #[error("{description}")]
    Refused {
        /// The HTTP status.
        status: StatusCode,
        /// Stable machine code.
        code: &'static str,
        /// Which input is refused.
        field: &'static str,
        /// What was wrong, for a person.
        description: String,
    },
    /// The body is not JSON (422).
    #[error("{0}")]
    UnprocessableBody(String),
    /// The chain is not served by this gateway (400).
    #[error("chain {0} is not supported")]
    UnsupportedChain(String),
    /// The project id is missing or unknown (401); clients show `Invalid Project ID`.
    #[error("Invalid Project ID")]
    InvalidProjectId,
    /// The admin token is missing or wrong (401).
    #[error("a valid admin token is required")]
    Unauthorized,
    /// A signature does not prove what the request claims (401).
    #[error("{0}")]
    BadSignature(String),
    /// A sign-in was refused (401); `code` says why: `NONCE_UNKNOWN`, `SESSION_EXPIRED`,
    /// `WRONG_DOMAIN`, `WRONG_URI`, `ISSUED_AT_OUT_OF_WINDOW`, `SESSION_INVALID`,
    /// `REFRESH_INVALID`, `REFRESH_REUSED`.
    #[error("{description}")]
    SignInRefused {
        /// Stable machine code.
        code: &'static str,
        /// What was wrong, for a person.
        description: String,
    },
    /// A sign-in request is for something the caller may not have (403); `code` says
    /// what: `DOMAIN_NOT_ALLOWED` (a nonce for a domain off the project's origins),
    /// `WRONG_ACCOUNT` (another account's sessions).
    #[error("{description}")]
    SignInForbidden {
        /// Stable machine code.
        code: &'static str,
        /// Which input is refused.
        field: &'static str,
        /// What was wrong, for a person.
        description: String,
    },
    /// A sign-in message longer than the server accepts (413).
    #[error("the sign-in message is longer than {0} bytes")]
    SignInTooLarge(usize),
    /// The request's origin is not on the project's allowlist (403); clients show `Invalid App Configuration`.
    #[error("Invalid App Configuration: origin {0} is not allowed for this project")]
    OriginNotAllowed(String),
    /// Too many requests for the project or the client (429); retry after the duration.
    #[error("rate limit exceeded, retry in {} s", retry_after_seconds(*.0))]
    RateLimited(std::time::Duration),
    /// An e-mail code asked for again within the behaviour 7.1 cooldown (429); the text is behaviour 5.16's.
    #[error("Please try again after {0} seconds")]
    EmailCooldown(u64),
    /// No route (404).
    #[error("not found")]
    NotFound,
    /// The path exists but not with this method (405).
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The gateway does not forward this JSON-RPC method (403): node-admin,
    /// test-node and wallet-only methods, and anything the chain's policy does not list.
    #[error("method {0} is not allowed through this gateway")]
    RpcMethodNotAllowed(String),
    /// The request body is larger than the route accepts (413).
    #[error("the body is larger than the {0} bytes this route accepts")]
    PayloadTooLarge(usize),
    /// The client IP holds as many open WebSockets as it may (429).
    #[error("this address holds {0} open WebSockets, the most it may; close one first")]
    TooManySockets(usize),
    /// Every upstream failed (503).
    #[error("all upstreams failed for {0}")]
    UpstreamUnavailable(String),
    /// A fault of ours; details are logged, not sent (500).
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

/// Result of a handler.
pub(crate) type ApiResult<T> = Result<T, ApiError>;

/// The body of every error answer.
#[derive(Serialize, ToSchema)]
pub(crate) struct ErrorBody {
    /// Always `FAILED`.
    #[schema(example = "FAILED")]
    pub status: &'static str,
    /// A stable machine code, e.g. `UNSUPPORTED_CHAIN`.
    #[schema(example = "UNSUPPORTED_CHAIN")]
    pub code: &'static str,
    /// What was wrong (one entry).
    pub reasons: Vec<Reason>,
}

/// One reason an input was refused.
#[derive(Serialize, ToSchema)]
pub(crate) struct Reason {
    /// The input concerned, e.g. `chainId`.
    #[schema(example = "chainId")]
    pub field: &'static str,
    /// For a person.
    #[schema(example = "chain eip155:1 is not supported")]
    pub description: String,
}

impl ApiError {
    /// A 400 for `field` with `description`.
    pub fn bad(field: &'static str, description: impl Into<String>) -> Self {
        ApiError::BadRequest {
            field,
            description: description.into(),
        }
    }

    fn parts(&self) -> (StatusCode, &'static str, &'static str) {
        match self {
            ApiError::BadRequest { field, .. } => (StatusCode::BAD_REQUEST, "BAD_REQUEST", field),
            ApiError::Refused {
                status, code, field, ..
            } => (*status, code, field),
            ApiError::UnprocessableBody(_) => (StatusCode::UNPROCESSABLE_ENTITY, "INVALID_JSON", "body"),
            ApiError::UnsupportedChain(_) => (StatusCode::BAD_REQUEST, "UNSUPPORTED_CHAIN", "chainId"),
            ApiError::InvalidProjectId => (StatusCode::UNAUTHORIZED, "INVALID_PROJECT_ID", "projectId"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "UNAUTHORIZED", "authorization"),
            ApiError::BadSignature(_) => (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE", "signature"),
            ApiError::SignInRefused { code, .. } => (StatusCode::UNAUTHORIZED, code, "message"),
            ApiError::SignInForbidden { code, field, .. } => (StatusCode::FORBIDDEN, code, field),
            ApiError::SignInTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "MESSAGE_TOO_LARGE", "message"),
            ApiError::OriginNotAllowed(_) => (StatusCode::FORBIDDEN, "ORIGIN_NOT_ALLOWED", "origin"),
            ApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED", "projectId"),
            ApiError::EmailCooldown(_) => (StatusCode::TOO_MANY_REQUESTS, "EMAIL_COOLDOWN", "email"),
            ApiError::NotFound => (StatusCode::NOT_FOUND, "NOT_FOUND", "path"),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", "method"),
            ApiError::RpcMethodNotAllowed(_) => (StatusCode::FORBIDDEN, "RPC_METHOD_NOT_ALLOWED", "method"),
            ApiError::PayloadTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE", "body"),
            ApiError::TooManySockets(_) => (StatusCode::TOO_MANY_REQUESTS, "TOO_MANY_SOCKETS", "socket"),
            ApiError::UpstreamUnavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, "UPSTREAM_UNAVAILABLE", "chainId"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL", "server"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(source) = &self {
            tracing::error!(error = ?source, "internal error");
        }
        let (status, code, field) = self.parts();
        let body = ErrorBody {
            status: "FAILED",
            code,
            reasons: vec![Reason {
                field,
                description: self.to_string(),
            }],
        };
        let mut response = (status, axum::Json(body)).into_response();
        let retry_after = match &self {
            ApiError::RateLimited(wait) => Some(retry_after_seconds(*wait)),
            ApiError::UpstreamUnavailable(_) => Some(1),
            ApiError::EmailCooldown(seconds) => Some((*seconds).max(1)),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// A JSON request body read whatever its Content-Type; malformed is a 422 with our body.
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> ApiResult<T> {
    serde_json::from_slice(body).map_err(|e| ApiError::UnprocessableBody(format!("body: {e}")))
}

/// `Query<T>` whose refusal is an [`ApiError`] (our JSON body) rather than axum's plain text.
pub struct ApiQuery<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> axum::extract::FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, ApiError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| ApiQuery(value))
            .map_err(|rejection| ApiError::BadRequest {
                field: "query",
                description: rejection.body_text(),
            })
    }
}

/// `Retry-After` is whole seconds; never tell a client to retry at once.
fn retry_after_seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Internal(e.into())
    }
}
