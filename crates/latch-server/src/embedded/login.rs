//! E-mail one-time codes and device approval links: sending, checking, and the
//! session a good code opens.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use latch_core::embedded::{self as rules, OTP_MAX_ATTEMPTS, OTP_TTL_MS};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::{IntoParams, ToSchema};

use super::{internal, refused, schema, user_info, EmbeddedCaller, UserInfo};
use crate::error::{json_body, ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::embedded::{EmbeddedCode, EmbeddedSession, EmbeddedUser};
use crate::{now_ms, AppState};

/// How long a device approval link is good for.
const LINK_TTL_MS: i64 = 30 * 60 * 1000;
const DAY_MS: i64 = 86_400_000;

/// The purposes a code is sent for.
pub(crate) const LOGIN: &str = "login";
pub(crate) const DEVICE: &str = "device";

/// A code as stored: keyed with the server's code secret (`super::secret`).
pub(crate) fn code_hash(state: &AppState, project_id: &str, email_key: &str, purpose: &str, code: &str) -> String {
    state.embedded.code_key.code_hash(project_id, email_key, purpose, code)
}

fn device_hash(device_id: &str) -> String {
    hex::encode(Sha256::digest(format!("latch-device\n{device_id}")))
}

/// The behaviour 7.1 cooldown (30 s since the last code or link to this address, whatever its
/// purpose among `purposes`), then the daily caps per address and per client.
pub(crate) async fn check_limits(
    state: &AppState,
    caller: &Caller,
    email_key: &str,
    purposes: &[&str],
    now: i64,
) -> ApiResult<()> {
    let mut last = None;
    for purpose in purposes {
        if let Some(code) = state
            .store
            .embedded_code(&caller.project.id, email_key, purpose)
            .await
            .map_err(internal)?
        {
            last = last.max(Some(code.sent_at));
        }
    }
    if let Err(latch_core::Error::EmailCooldown { seconds }) = latch_core::validate::check_email_cooldown(last, now) {
        return Err(ApiError::EmailCooldown(seconds));
    }
    let day = now.div_euclid(DAY_MS);
    let limits = &state.config.embedded;
    let by_email = state
        .store
        .embedded_count(&format!("email:{}:{email_key}", caller.project.id), day)
        .await
        .map_err(internal)?;
    if by_email > limits.daily_per_email {
        return Err(refused(
            StatusCode::TOO_MANY_REQUESTS,
            "DAILY_LIMIT",
            "email",
            "too many codes were sent to this address today; try again tomorrow",
        ));
    }
    if let Some(ip) = caller.ip {
        let key = format!("ip:{}", crate::ratelimit::IpKey::of(ip));
        if state.store.embedded_count(&key, day).await.map_err(internal)? > limits.daily_per_ip {
            return Err(refused(
                StatusCode::TOO_MANY_REQUESTS,
                "DAILY_LIMIT",
                "email",
                "too many codes were asked for from this address today; try again tomorrow",
            ));
        }
    }
    Ok(())
}

/// Makes a code for `purpose`, stores its hash and mails it to `to`.
pub(crate) async fn send_code(
    state: &AppState,
    caller: &Caller,
    (to, email_key): (&str, &str),
    purpose: &str,
    device: Option<String>,
    payload: Option<String>,
    now: i64,
) -> ApiResult<()> {
    let mut random = [0u8; 8];
    getrandom::getrandom(&mut random).map_err(|e| internal(anyhow::anyhow!("no randomness: {e}")))?;
    let code = rules::otp_from_random(random);
    let project = &caller.project.id;
    state
        .store
        .embedded_put_code(&EmbeddedCode {
            project_id: project.clone(),
            email_key: email_key.to_owned(),
            purpose: purpose.to_owned(),
            code_hash: code_hash(state, project, email_key, purpose, &code),
            device_hash: device,
            payload,
            attempts: 0,
            sent_at: now,
            expires_at: now + OTP_TTL_MS,
        })
        .await
        .map_err(internal)?;
    let text = format!(
        "Your code for {project}: {code}\n\nIt expires in 10 minutes. If you did not ask for it, ignore this mail.\n"
    );
    state
        .embedded
        .mailer
        .send(to, &format!("{code} is your code for {project}"), text)
        .await
}

/// Checks `otp` against the pending code of `purpose` without using it up: the
/// guess is counted first, then compared in constant time. Answers the code row.
pub(crate) async fn check_code(
    state: &AppState,
    project_id: &str,
    email_key: &str,
    purpose: &str,
    (field, otp): (&'static str, &str),
    now: i64,
) -> ApiResult<EmbeddedCode> {
    rules::validate_otp(field, otp).map_err(schema)?;
    let expired = || {
        refused(
            StatusCode::BAD_REQUEST,
            "OTP_EXPIRED",
            field,
            "no code is pending for this address, or it expired: ask for a new one",
        )
    };
    let store = &state.store;
    let attempts = store
        .embedded_count_attempt(project_id, email_key, purpose)
        .await
        .map_err(internal)?
        .ok_or_else(expired)?;
    let code = store
        .embedded_code(project_id, email_key, purpose)
        .await
        .map_err(internal)?
        .ok_or_else(expired)?;
    let max = i64::from(OTP_MAX_ATTEMPTS);
    let exceeded = || {
        refused(
            StatusCode::BAD_REQUEST,
            "OTP_ATTEMPTS_EXCEEDED",
            field,
            "too many wrong codes: ask for a new one",
        )
    };
    if now >= code.expires_at {
        store
            .embedded_drop_code(project_id, email_key, purpose)
            .await
            .map_err(internal)?;
        return Err(expired());
    }
    if attempts > max {
        store
            .embedded_drop_code(project_id, email_key, purpose)
            .await
            .map_err(internal)?;
        return Err(exceeded());
    }
    let guess = code_hash(state, project_id, email_key, purpose, otp);
    if bool::from(guess.as_bytes().ct_eq(code.code_hash.as_bytes())) {
        return Ok(code);
    }
    if attempts >= max {
        store
            .embedded_drop_code(project_id, email_key, purpose)
            .await
            .map_err(internal)?;
        return Err(exceeded());
    }
    Err(refused(
        StatusCode::BAD_REQUEST,
        "OTP_INVALID",
        field,
        format!("wrong code; {} attempts left", max - attempts),
    ))
}

/// Uses up a checked code (single use, even across nodes racing on it).
pub(crate) async fn take_code(state: &AppState, code: &EmbeddedCode, field: &'static str) -> ApiResult<()> {
    let taken = state
        .store
        .embedded_take_code(&code.project_id, &code.email_key, &code.purpose, &code.code_hash)
        .await
        .map_err(internal)?;
    if taken {
        Ok(())
    } else {
        Err(refused(
            StatusCode::BAD_REQUEST,
            "OTP_EXPIRED",
            field,
            "this code was already used: ask for a new one",
        ))
    }
}

/// `POST /v1/embedded/email/start` body (behaviour 5.17 connect e-mail).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StartRequest {
    /// The address to log in with.
    #[serde(default)]
    email: String,
    /// The frame's device id (16 to 128 of `A-Z a-z 0-9 - _`).
    #[serde(default)]
    device_id: String,
}

/// What the frame does next (behaviour 5.17 connect action).
#[derive(Serialize, ToSchema)]
pub struct StartAnswer {
    /// `VERIFY_OTP`: a code was mailed. `VERIFY_DEVICE`: a known user on a new device; an
    /// approval link was mailed, and starting again once it is opened mails a code.
    action: &'static str,
}

/// `POST /v1/embedded/email/start`: mails a login code, or a device approval link.
#[utoipa::path(post, path = "/v1/embedded/email/start", tag = "embedded", request_body = StartRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = StartAnswer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 429, body = ErrorBody, description = "EMAIL_COOLDOWN (Please try again after {n} seconds) or DAILY_LIMIT"),
        (status = 503, body = ErrorBody)))]
pub async fn start(
    State(state): State<AppState>,
    EmbeddedCaller(caller): EmbeddedCaller,
    body: Bytes,
) -> ApiResult<Json<StartAnswer>> {
    let request: StartRequest = json_body(&body)?;
    let email = rules::validate_email(&request.email).map_err(schema)?;
    rules::validate_device_id(&request.device_id).map_err(schema)?;
    let email_key = rules::email_key(&email);
    let now = now_ms();
    check_limits(&state, &caller, &email_key, &[LOGIN, DEVICE], now).await?;
    let device = device_hash(&request.device_id);
    let user = state
        .store
        .embedded_user_by_email(&caller.project.id, &email_key)
        .await
        .map_err(internal)?;
    let known_device = match &user {
        Some(user) => state
            .store
            .embedded_device_known(&user.id, &device)
            .await
            .map_err(internal)?,
        None => true,
    };
    if known_device {
        send_code(&state, &caller, (&email, &email_key), LOGIN, Some(device), None, now).await?;
        return Ok(Json(StartAnswer { action: "VERIFY_OTP" }));
    }
    let token = crate::siwx::random_hex(32)?;
    state
        .store
        .embedded_put_code(&EmbeddedCode {
            project_id: caller.project.id.clone(),
            email_key: email_key.clone(),
            purpose: DEVICE.into(),
            code_hash: crate::siwx::token_hash(&token),
            device_hash: Some(device),
            payload: None,
            attempts: 0,
            sent_at: now,
            expires_at: now + LINK_TTL_MS,
        })
        .await
        .map_err(internal)?;
    let link = format!(
        "{}/v1/embedded/device/approve?token={token}",
        state.config.public_base_url()
    );
    let text = format!(
        "Someone is logging in to {} with this address on a new device.\n\nIf it is you, open this link to approve the device, then log in again:\n{link}\n\nIt expires in 30 minutes. If it is not you, ignore this mail.\n",
        caller.project.id
    );
    state
        .embedded
        .mailer
        .send(&email, "Approve your new device", text)
        .await?;
    Ok(Json(StartAnswer {
        action: "VERIFY_DEVICE",
    }))
}

/// `POST /v1/embedded/email/verify` body (behaviour 5.17 connect OTP).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyRequest {
    /// The address the code was sent to.
    #[serde(default)]
    email: String,
    /// The six digits.
    #[serde(default)]
    otp: String,
    /// The device id the code was asked for from.
    #[serde(default)]
    device_id: String,
}

/// A session opened.
#[derive(Serialize, ToSchema)]
pub struct LoggedIn {
    /// Bearer token for `Authorization` on the other embedded routes (the frame keeps it).
    token: String,
    /// The user.
    user: UserInfo,
}

/// Opens a session for `user` and answers it.
pub(crate) async fn open_session(state: &AppState, caller: &Caller, user: &EmbeddedUser) -> ApiResult<LoggedIn> {
    let token = crate::siwx::random_hex(32)?;
    let now = now_ms();
    state
        .store
        .embedded_add_session(&EmbeddedSession {
            token_hash: crate::siwx::token_hash(&token),
            project_id: caller.project.id.clone(),
            user_id: user.id.clone(),
            created_at: now,
            expires_at: now.saturating_add(super::secs_ms(state.config.embedded.session_secs)),
        })
        .await
        .map_err(internal)?;
    Ok(LoggedIn {
        token,
        user: user_info(state, user).await?,
    })
}

/// `POST /v1/embedded/email/verify`: checks the code and opens a session (signing up on first login).
#[utoipa::path(post, path = "/v1/embedded/email/verify", tag = "embedded", request_body = VerifyRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = LoggedIn), (status = 400, body = ErrorBody, description = "INVALID_INPUT, OTP_INVALID, OTP_EXPIRED, OTP_ATTEMPTS_EXCEEDED"),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn verify(
    State(state): State<AppState>,
    EmbeddedCaller(caller): EmbeddedCaller,
    body: Bytes,
) -> ApiResult<Json<LoggedIn>> {
    let request: VerifyRequest = json_body(&body)?;
    let email = rules::validate_email(&request.email).map_err(schema)?;
    rules::validate_otp("otp", &request.otp).map_err(schema)?;
    rules::validate_device_id(&request.device_id).map_err(schema)?;
    let email_key = rules::email_key(&email);
    let now = now_ms();
    let project = &caller.project.id;
    let code = check_code(&state, project, &email_key, LOGIN, ("otp", &request.otp), now).await?;
    let device = device_hash(&request.device_id);
    // A code is good on the device that asked for it only.
    if code.device_hash.as_deref() != Some(device.as_str()) {
        return Err(refused(
            StatusCode::BAD_REQUEST,
            "OTP_INVALID",
            "deviceId",
            "this code was asked for on another device",
        ));
    }
    take_code(&state, &code, "otp").await?;
    let user = state
        .store
        .embedded_add_user(&EmbeddedUser {
            id: crate::siwx::random_hex(16)?,
            project_id: project.clone(),
            email,
            email_key,
            user_name: None,
            created_at: now,
        })
        .await
        .map_err(internal)?;
    // Whoever reads the mailbox on this device is the user: the device is now known.
    state
        .store
        .embedded_add_device(&user.id, &device, now)
        .await
        .map_err(internal)?;
    Ok(Json(open_session(&state, &caller, &user).await?))
}

/// `GET /v1/embedded/device/approve` query.
#[derive(Deserialize, IntoParams)]
pub struct ApproveQuery {
    /// The link's one-time token.
    token: String,
}

fn page(status: StatusCode, text: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Device approval</title><main><h1>{text}</h1></main></html>"
    );
    (status, Html(html)).into_response()
}

/// `GET /v1/embedded/device/approve`: the mailed link; approves the device that asked.
#[utoipa::path(get, path = "/v1/embedded/device/approve", tag = "embedded", params(ApproveQuery),
    responses((status = 200, description = "an HTML page saying the device is approved"),
        (status = 400, description = "an HTML page saying the link is invalid, used or expired")))]
pub async fn approve_device(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ApproveQuery>,
) -> ApiResult<Response> {
    let gone = || {
        page(
            StatusCode::BAD_REQUEST,
            "This link is invalid, was used already or expired.",
        )
    };
    if query.token.len() != 64 || !query.token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(gone());
    }
    let Some(link) = state
        .store
        .embedded_take_by_hash(DEVICE, &crate::siwx::token_hash(&query.token))
        .await
        .map_err(internal)?
    else {
        return Ok(gone());
    };
    let now = now_ms();
    let user = state
        .store
        .embedded_user_by_email(&link.project_id, &link.email_key)
        .await
        .map_err(internal)?;
    let (Some(user), Some(device), true) = (user, link.device_hash, now < link.expires_at) else {
        return Ok(gone());
    };
    state
        .store
        .embedded_add_device(&user.id, &device, now)
        .await
        .map_err(internal)?;
    Ok(page(
        StatusCode::OK,
        "Device approved. Go back to the app and log in again.",
    ))
}

/// The `--dev` outbox.
#[derive(Serialize, ToSchema)]
pub struct Outbox {
    /// Mails sent, oldest first.
    mails: Vec<super::mail::OutboxMail>,
}

/// `GET /v1/embedded/dev/outbox` (`--dev` only): the mails that would have been sent.
#[utoipa::path(get, path = "/v1/embedded/dev/outbox", tag = "embedded",
    responses((status = 200, body = Outbox), (status = 404, body = ErrorBody, description = "not --dev, or mails go out over SMTP")))]
pub async fn outbox(State(state): State<AppState>) -> ApiResult<Json<Outbox>> {
    let mails = state.embedded.mailer.outbox().ok_or(ApiError::NotFound)?;
    Ok(Json(Outbox { mails }))
}
