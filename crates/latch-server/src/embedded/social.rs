//! Social login: OAuth 2 authorization code with PKCE (S256), plus OpenID
//! Connect's nonce and ID token checks where the provider speaks it.
//!
//! `GET /v1/embedded/social/{provider}/start` answers the provider's URL; the
//! state, the PKCE verifier and the nonce stay here (10 minutes, single use).
//! The provider sends the browser to `GET|POST /v1/embedded/social/callback`,
//! which exchanges the code (server to server, with the client secret), reads
//! who logged in, and redirects to `<vault_origin>/social/callback#loginCode=…&provider=…&projectId=…`:
//! a one-time, 2-minute code in the fragment (never sent to a server, never the
//! session token), which the frame trades at `POST /v1/embedded/social/finish`.
//!
//! The ID token comes straight from the token endpoint over TLS, so (OpenID
//! Connect Core 3.1.3.7, point 6) TLS authenticates its issuer; its `iss`,
//! `aud`, `exp` and `nonce` are checked here.
//!
//! A social user is `<provider>:<subject>`: never merged with an e-mail user of
//! the same address, since not every provider proves the address is theirs.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use super::login::{open_session, LoggedIn};
use super::{internal, refused, EmbeddedCaller};
use crate::config::{ConfigError, Secret};
use crate::error::{json_body, ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::siwx::{random_hex, token_hash};
use crate::store::embedded::{EmbeddedCode, EmbeddedUser};
use crate::{now_ms, AppState};

const STATE: &str = "social";
const LOGIN: &str = "social-login";
const STATE_TTL_MS: i64 = 10 * 60 * 1000;
const LOGIN_TTL_MS: i64 = 2 * 60 * 1000;

/// One `[[embedded.social]]` provider. A preset id (`google`, `apple`, `x`, `discord`,
/// `github`, `facebook`) fills in the provider's documented endpoints and scopes; any
/// other id needs `issuer` (OpenID Connect discovery) or all three endpoints.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SocialProvider {
    /// The name in `/v1/embedded/social/{id}/start` (`a-z 0-9 -`).
    pub id: String,
    /// OpenID Connect issuer; its ID tokens are checked against it.
    #[serde(default)]
    pub issuer: Option<String>,
    /// Where the browser goes to log in.
    #[serde(default)]
    pub authorization_endpoint: Option<String>,
    /// Where the code is exchanged.
    #[serde(default)]
    pub token_endpoint: Option<String>,
    /// Who logged in, when there is no ID token.
    #[serde(default)]
    pub userinfo_endpoint: Option<String>,
    /// The client registered with the provider.
    pub client_id: String,
    /// Its secret.
    #[serde(default)]
    pub client_secret: Option<Secret>,
    /// Scopes asked for (preset default when empty).
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Sends the client secret as HTTP Basic (`true`) or in the form (`false`, default but for `x`).
    #[serde(default)]
    pub basic_auth: Option<bool>,
}

struct Preset {
    issuer: Option<&'static str>,
    authorization: Option<&'static str>,
    token: Option<&'static str>,
    userinfo: Option<&'static str>,
    scopes: &'static str,
    basic_auth: bool,
}

/// The providers' documented endpoints.
fn preset(id: &str) -> Option<Preset> {
    let preset = |issuer, authorization, token, userinfo, scopes, basic_auth| Preset {
        issuer,
        authorization,
        token,
        userinfo,
        scopes,
        basic_auth,
    };
    Some(match id {
        // OpenID Connect: endpoints from discovery.
        "google" => preset(
            Some("https://accounts.google.com"),
            None,
            None,
            None,
            "openid email profile",
            false,
        ),
        // OpenID Connect without a userinfo endpoint: the ID token says who.
        "apple" => preset(
            Some("https://appleid.apple.com"),
            Some("https://appleid.apple.com/auth/authorize"),
            Some("https://appleid.apple.com/auth/token"),
            None,
            "openid email",
            false,
        ),
        "x" => preset(
            None,
            Some("https://x.com/i/oauth2/authorize"),
            Some("https://api.x.com/2/oauth2/token"),
            Some("https://api.x.com/2/users/me"),
            "users.read tweet.read",
            true,
        ),
        "discord" => preset(
            None,
            Some("https://discord.com/oauth2/authorize"),
            Some("https://discord.com/api/oauth2/token"),
            Some("https://discord.com/api/users/@me"),
            "identify email",
            false,
        ),
        "github" => preset(
            None,
            Some("https://github.com/login/oauth/authorize"),
            Some("https://github.com/login/oauth/access_token"),
            Some("https://api.github.com/user"),
            "read:user user:email",
            false,
        ),
        "facebook" => preset(
            None,
            Some("https://www.facebook.com/v21.0/dialog/oauth"),
            Some("https://graph.facebook.com/v21.0/oauth/access_token"),
            Some("https://graph.facebook.com/me?fields=id,name,email"),
            "email public_profile",
            false,
        ),
        _ => return None,
    })
}

fn is_http_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

impl SocialProvider {
    /// Fills in the preset and checks the rules.
    pub fn validate(&mut self) -> Result<(), ConfigError> {
        let invalid = |what: &str| ConfigError::Invalid(format!("embedded.social {:?}: {what}", self.id));
        if !latch_core::embedded::frame::is_social_provider_id(&self.id) {
            return Err(invalid("id must be 1 to 32 of a-z 0-9 -"));
        }
        if self.client_id.is_empty() {
            return Err(invalid("client_id is required"));
        }
        if let Some(preset) = preset(&self.id) {
            let fill = |field: &mut Option<String>, value: Option<&str>| {
                if field.is_none() {
                    *field = value.map(str::to_owned);
                }
            };
            fill(&mut self.issuer, preset.issuer);
            fill(&mut self.authorization_endpoint, preset.authorization);
            fill(&mut self.token_endpoint, preset.token);
            fill(&mut self.userinfo_endpoint, preset.userinfo);
            if self.scopes.is_empty() {
                self.scopes = preset.scopes.split(' ').map(str::to_owned).collect();
            }
            self.basic_auth.get_or_insert(preset.basic_auth);
        }
        if self.issuer.is_none()
            && (self.authorization_endpoint.is_none()
                || self.token_endpoint.is_none()
                || self.userinfo_endpoint.is_none())
        {
            return Err(invalid(
                "give issuer (OpenID Connect) or authorization_endpoint, token_endpoint and userinfo_endpoint",
            ));
        }
        let urls = [
            &self.issuer,
            &self.authorization_endpoint,
            &self.token_endpoint,
            &self.userinfo_endpoint,
        ];
        if urls.iter().filter_map(|u| u.as_deref()).any(|u| !is_http_url(u)) {
            return Err(invalid("endpoints and issuer must be http(s) URLs"));
        }
        if self.scopes.is_empty() {
            self.scopes = vec!["openid".into(), "email".into(), "profile".into()];
        }
        Ok(())
    }
}

/// The endpoints in use, from the configuration or discovery.
#[derive(Clone, Debug)]
pub struct Endpoints {
    authorization: String,
    token: String,
    userinfo: Option<String>,
}

/// What social login shares: an HTTP client and the discovered endpoints.
pub struct Social {
    http: reqwest::Client,
    discovered: std::sync::Mutex<HashMap<String, Endpoints>>,
}

impl Social {
    /// A client that follows no redirects (a token endpoint has none to give).
    pub fn new() -> anyhow::Result<Self> {
        Ok(Self {
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .redirect(reqwest::redirect::Policy::none())
                .build()?,
            discovered: Default::default(),
        })
    }

    async fn endpoints(&self, provider: &SocialProvider) -> ApiResult<Endpoints> {
        if let (Some(authorization), Some(token)) = (&provider.authorization_endpoint, &provider.token_endpoint) {
            return Ok(Endpoints {
                authorization: authorization.clone(),
                token: token.clone(),
                userinfo: provider.userinfo_endpoint.clone(),
            });
        }
        let issuer = provider.issuer.as_deref().unwrap_or_default();
        if let Some(found) = self.discovered.lock().unwrap_or_else(|e| e.into_inner()).get(issuer) {
            return Ok(found.clone());
        }
        let url = format!("{}/.well-known/openid-configuration", issuer.trim_end_matches('/'));
        let document: Value = async { self.http.get(&url).send().await?.error_for_status()?.json().await }
            .await
            .map_err(|e: reqwest::Error| unavailable(&provider.id, e))?;
        let text = |key: &str| document.get(key).and_then(Value::as_str).map(str::to_owned);
        let (Some(authorization), Some(token)) = (text("authorization_endpoint"), text("token_endpoint")) else {
            return Err(unavailable(
                &provider.id,
                "discovery names no authorization or token endpoint",
            ));
        };
        let found = Endpoints {
            authorization,
            token,
            userinfo: text("userinfo_endpoint"),
        };
        self.discovered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(issuer.to_owned(), found.clone());
        Ok(found)
    }
}

fn unavailable(provider: &str, error: impl std::fmt::Display) -> ApiError {
    tracing::warn!(provider, %error, "social login provider failed");
    refused(
        StatusCode::BAD_GATEWAY,
        "SOCIAL_PROVIDER_FAILED",
        "provider",
        format!("{provider} did not answer as expected; try again later"),
    )
}

fn provider<'a>(state: &'a AppState, id: &str) -> ApiResult<&'a SocialProvider> {
    state.config.embedded.social.iter().find(|p| p.id == id).ok_or_else(|| {
        refused(
            StatusCode::NOT_FOUND,
            "UNKNOWN_PROVIDER",
            "provider",
            format!("no social provider {id:?} is configured"),
        )
    })
}

fn redirect_uri(state: &AppState) -> String {
    format!("{}/v1/embedded/social/callback", state.config.public_base_url())
}

fn b64url(bytes: &[u8]) -> String {
    latch_core::base64::encode_url(bytes)
}

/// What the state row keeps until the callback.
#[derive(Serialize, Deserialize)]
struct Pending {
    provider: String,
    verifier: String,
    nonce: String,
}

/// Where to send the browser.
#[derive(Serialize, ToSchema)]
pub struct SocialStart {
    /// The provider's authorization URL.
    url: String,
}

/// `GET /v1/embedded/social/{provider}/start`: the provider's login URL, with state, PKCE and nonce.
#[utoipa::path(get, path = "/v1/embedded/social/{provider}/start", tag = "embedded",
    params(("provider" = String, Path, description = "a configured provider id")),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SocialStart), (status = 404, body = ErrorBody, description = "UNKNOWN_PROVIDER"), (status = 502, body = ErrorBody)))]
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    EmbeddedCaller(caller): EmbeddedCaller,
) -> ApiResult<Json<SocialStart>> {
    let provider = provider(&state, &id)?;
    let endpoints = state.embedded.social.endpoints(provider).await?;
    let (state_token, nonce) = (random_hex(16)?, random_hex(16)?);
    let mut secret = [0u8; 32];
    getrandom::getrandom(&mut secret).map_err(|e| internal(anyhow::anyhow!("no randomness: {e}")))?;
    let verifier = b64url(&secret);
    let challenge = b64url(&Sha256::digest(verifier.as_bytes()));
    let hash = token_hash(&state_token);
    let now = now_ms();
    let pending = Pending {
        provider: id.clone(),
        verifier,
        nonce: nonce.clone(),
    };
    state
        .store
        .embedded_put_code(&EmbeddedCode {
            project_id: caller.project.id.clone(),
            email_key: hash.clone(),
            purpose: STATE.into(),
            code_hash: hash,
            device_hash: None,
            payload: Some(serde_json::to_string(&pending).map_err(internal)?),
            attempts: 0,
            sent_at: now,
            expires_at: now + STATE_TTL_MS,
        })
        .await
        .map_err(internal)?;
    let mut url = url::Url::parse(&endpoints.authorization).map_err(|e| unavailable(&id, e))?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &provider.client_id)
        .append_pair("redirect_uri", &redirect_uri(&state))
        .append_pair("scope", &provider.scopes.join(" "))
        .append_pair("state", &state_token)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    if provider.issuer.is_some() {
        url.query_pairs_mut().append_pair("nonce", &nonce);
    }
    if id == "apple" {
        // Apple sends the name and e-mail scopes' answer only as a form post.
        url.query_pairs_mut().append_pair("response_mode", "form_post");
    }
    Ok(Json(SocialStart { url: url.into() }))
}

/// What the provider sends back (query, or form for `form_post`).
#[derive(Deserialize, IntoParams, ToSchema, Default)]
pub struct CallbackQuery {
    /// The authorization code.
    code: Option<String>,
    /// Our state.
    state: Option<String>,
    /// The provider's refusal (`access_denied`, …).
    error: Option<String>,
}

fn page(text: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::response::Html(format!(
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Login</title><main><h1>{text}</h1></main></html>"
        )),
    )
        .into_response()
}

fn to_vault(state: &AppState, fragment: &str) -> Response {
    let vault = state.config.embedded.vault_origin.as_deref().unwrap_or_default();
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, format!("{vault}/social/callback#{fragment}"))],
    )
        .into_response()
}

/// Who logged in.
struct Identity {
    subject: String,
    email: Option<String>,
    name: Option<String>,
}

fn text_or_number(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The claims of an ID token received from the token endpoint, checked against the
/// issuer, the client and the nonce.
fn id_token_identity(token: &str, issuer: &str, client_id: &str, nonce: &str, now: i64) -> Result<Identity, String> {
    let payload = token.split('.').nth(1).ok_or("the ID token is not a JWT")?;
    let bytes = latch_core::base64::decode_url(payload.trim_end_matches('='))
        .ok_or("the ID token's payload is not base64url")?;
    let claims: Value = serde_json::from_slice(&bytes).map_err(|_| "the ID token's payload is not JSON")?;
    let iss = claims["iss"].as_str().unwrap_or_default();
    if iss.trim_end_matches('/') != issuer.trim_end_matches('/') {
        return Err(format!("the ID token is from {iss}, not {issuer}"));
    }
    let audience_ok = match &claims["aud"] {
        Value::String(aud) => aud == client_id,
        Value::Array(auds) => auds.iter().any(|a| a == client_id),
        _ => false,
    };
    if !audience_ok {
        return Err("the ID token is for another client".into());
    }
    if claims["exp"].as_i64().is_none_or(|exp| exp.saturating_mul(1000) <= now) {
        return Err("the ID token expired".into());
    }
    if claims["nonce"].as_str() != Some(nonce) {
        return Err("the ID token's nonce is not this login's".into());
    }
    let subject = text_or_number(claims.get("sub")).ok_or("the ID token names no subject")?;
    // An address the provider does not vouch for is not shown as the user's.
    let verified = claims["email_verified"] != Value::Bool(false) && claims["email_verified"] != "false";
    Ok(Identity {
        subject,
        email: claims["email"].as_str().filter(|_| verified).map(str::to_owned),
        name: claims["name"].as_str().map(str::to_owned),
    })
}

/// Who logged in, from a userinfo answer (OpenID Connect's, or a provider's own `/me`).
fn userinfo_identity(answer: &Value) -> Option<Identity> {
    // X wraps the user in `data`.
    let user = answer.get("data").filter(|d| d.is_object()).unwrap_or(answer);
    let subject = text_or_number(user.get("sub")).or_else(|| text_or_number(user.get("id")))?;
    let name = ["name", "username", "login"]
        .iter()
        .find_map(|k| user.get(*k).and_then(Value::as_str))
        .map(str::to_owned);
    Some(Identity {
        subject,
        email: user.get("email").and_then(Value::as_str).map(str::to_owned),
        name,
    })
}

async fn identity(state: &AppState, provider: &SocialProvider, pending: &Pending, code: &str) -> ApiResult<Identity> {
    let social = &state.embedded.social;
    let endpoints = social.endpoints(provider).await?;
    let mut form = vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code.to_owned()),
        ("redirect_uri", redirect_uri(state)),
        ("code_verifier", pending.verifier.clone()),
        ("client_id", provider.client_id.clone()),
    ];
    let secret = provider.client_secret.as_ref().map(|s| s.0.clone());
    let basic = provider.basic_auth.unwrap_or(false);
    if let (Some(secret), false) = (&secret, basic) {
        form.push(("client_secret", secret.clone()));
    }
    let mut request = social
        .http
        .post(&endpoints.token)
        .header(header::ACCEPT, "application/json")
        .form(&form);
    if basic {
        request = request.basic_auth(&provider.client_id, secret);
    }
    let tokens: Value = async { request.send().await?.error_for_status()?.json().await }
        .await
        .map_err(|e: reqwest::Error| unavailable(&provider.id, e))?;
    let now = now_ms();
    let from_id_token = match (tokens["id_token"].as_str(), &provider.issuer) {
        (Some(id_token), Some(issuer)) => Some(
            id_token_identity(id_token, issuer, &provider.client_id, &pending.nonce, now)
                .map_err(|e| refused(StatusCode::UNAUTHORIZED, "SOCIAL_LOGIN_REFUSED", "provider", e))?,
        ),
        _ => None,
    };
    let access = tokens["access_token"].as_str();
    let (Some(access), Some(userinfo)) = (access, endpoints.userinfo) else {
        return from_id_token.ok_or_else(|| unavailable(&provider.id, "no ID token and no userinfo endpoint"));
    };
    if from_id_token
        .as_ref()
        .is_some_and(|who| who.email.is_some() && who.name.is_some())
    {
        return from_id_token.ok_or_else(|| unavailable(&provider.id, "no identity"));
    }
    let answer: Value = async {
        social
            .http
            .get(&userinfo)
            .bearer_auth(access)
            .header(header::USER_AGENT, "latch")
            .send()
            .await?
            .error_for_status()?
            .json()
            .await
    }
    .await
    .map_err(|e: reqwest::Error| unavailable(&provider.id, e))?;
    let info = userinfo_identity(&answer).ok_or_else(|| unavailable(&provider.id, "userinfo names no user"))?;
    let Some(who) = from_id_token else { return Ok(info) };
    // OpenID Connect Core 5.3.2: a userinfo answer about another subject is not used.
    if info.subject != who.subject {
        return Err(refused(
            StatusCode::UNAUTHORIZED,
            "SOCIAL_LOGIN_REFUSED",
            "provider",
            "the userinfo answer is about another user than the ID token",
        ));
    }
    // The ID token's claims first; userinfo fills what it left out (providers that keep
    // the ID token small). An address marked unverified there stays out.
    let verified = answer["email_verified"] != Value::Bool(false);
    Ok(Identity {
        subject: who.subject,
        email: who.email.or(info.email.filter(|_| verified)),
        name: who.name.or(info.name),
    })
}

/// `GET /v1/embedded/social/callback` (and `POST`, for form posts): ends the provider's login and
/// redirects to the frame with a one-time login code in the URL fragment.
#[utoipa::path(get, path = "/v1/embedded/social/callback", tag = "embedded", params(CallbackQuery),
    responses((status = 303, description = "to <vault_origin>/social/callback#loginCode=… (or #error=…)"),
        (status = 400, description = "an HTML page: unknown, used or expired state")))]
pub async fn callback(State(state): State<AppState>, ApiQuery(query): ApiQuery<CallbackQuery>) -> ApiResult<Response> {
    finish_callback(state, query).await
}

/// `POST /v1/embedded/social/callback`: the same for `response_mode=form_post`.
#[utoipa::path(post, path = "/v1/embedded/social/callback", tag = "embedded",
    request_body(content = CallbackQuery, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "to <vault_origin>/social/callback#loginCode=… (or #error=…)"),
        (status = 400, description = "an HTML page: unknown, used or expired state")))]
pub async fn callback_form(State(state): State<AppState>, body: Bytes) -> ApiResult<Response> {
    let query: CallbackQuery = serde_urlencoded_form(&body);
    finish_callback(state, query).await
}

fn serde_urlencoded_form(body: &[u8]) -> CallbackQuery {
    let mut query = CallbackQuery::default();
    for (key, value) in url::form_urlencoded::parse(body) {
        match key.as_ref() {
            "code" => query.code = Some(value.into_owned()),
            "state" => query.state = Some(value.into_owned()),
            "error" => query.error = Some(value.into_owned()),
            _ => {}
        }
    }
    query
}

async fn finish_callback(state: AppState, query: CallbackQuery) -> ApiResult<Response> {
    let gone = || page("This login link is invalid, was used already or expired. Start again.");
    let Some(state_token) = query
        .state
        .filter(|s| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit()))
    else {
        return Ok(gone());
    };
    let Some(row) = state
        .store
        .embedded_take_by_hash(STATE, &token_hash(&state_token))
        .await
        .map_err(internal)?
    else {
        return Ok(gone());
    };
    let now = now_ms();
    let pending: Option<Pending> = row.payload.as_deref().and_then(|p| serde_json::from_str(p).ok());
    let (Some(pending), true) = (pending, now < row.expires_at) else {
        return Ok(gone());
    };
    if let Some(error) = query.error {
        let error: String = error
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(64)
            .collect();
        return Ok(to_vault(&state, &format!("error={error}")));
    }
    let Some(code) = query.code.filter(|c| !c.is_empty() && c.len() <= 2048) else {
        return Ok(to_vault(&state, "error=invalid_request"));
    };
    let provider = provider(&state, &pending.provider)?;
    let who = match identity(&state, provider, &pending, &code).await {
        Ok(who) => who,
        Err(error) => {
            tracing::warn!(provider = %provider.id, %error, "social login failed");
            return Ok(to_vault(&state, "error=login_failed"));
        }
    };
    let user = state
        .store
        .embedded_add_user(&EmbeddedUser {
            id: random_hex(16)?,
            project_id: row.project_id.clone(),
            email: who.email.unwrap_or_default(),
            email_key: format!("{}:{}", provider.id, who.subject),
            user_name: who.name,
            created_at: now,
        })
        .await
        .map_err(internal)?;
    let login = random_hex(32)?;
    let hash = token_hash(&login);
    // The callback page finishes the login for this project (project ids are URL-safe).
    let project = row.project_id.clone();
    state
        .store
        .embedded_put_code(&EmbeddedCode {
            project_id: row.project_id,
            email_key: hash.clone(),
            purpose: LOGIN.into(),
            code_hash: hash,
            device_hash: None,
            payload: Some(user.id),
            attempts: 0,
            sent_at: now,
            expires_at: now + LOGIN_TTL_MS,
        })
        .await
        .map_err(internal)?;
    Ok(to_vault(
        &state,
        &format!("loginCode={login}&provider={}&projectId={project}", provider.id),
    ))
}

/// `POST /v1/embedded/social/finish` body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SocialFinish {
    /// The one-time code from the redirect's fragment.
    #[serde(default)]
    login_code: String,
}

/// `POST /v1/embedded/social/finish`: trades the one-time login code for a session.
#[utoipa::path(post, path = "/v1/embedded/social/finish", tag = "embedded", request_body = SocialFinish,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = LoggedIn), (status = 401, body = ErrorBody, description = "LOGIN_CODE_INVALID")))]
pub async fn finish(
    State(state): State<AppState>,
    EmbeddedCaller(caller): EmbeddedCaller,
    body: Bytes,
) -> ApiResult<Json<LoggedIn>> {
    let request: SocialFinish = json_body(&body)?;
    let invalid = || {
        refused(
            StatusCode::UNAUTHORIZED,
            "LOGIN_CODE_INVALID",
            "loginCode",
            "unknown, used or expired login code: log in again",
        )
    };
    if request.login_code.len() != 64 || !request.login_code.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(invalid());
    }
    let row = state
        .store
        .embedded_take_by_hash(LOGIN, &token_hash(&request.login_code))
        .await
        .map_err(internal)?
        .ok_or_else(invalid)?;
    if row.project_id != caller.project.id || now_ms() >= row.expires_at {
        return Err(invalid());
    }
    let user = state
        .store
        .embedded_user(&caller.project.id, row.payload.as_deref().unwrap_or_default())
        .await
        .map_err(internal)?
        .ok_or_else(invalid)?;
    Ok(Json(open_session(&state, &caller, &user).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(claims: Value) -> String {
        format!("e30.{}.sig", b64url(claims.to_string().as_bytes()))
    }

    #[test]
    fn presets_fill_in_documented_endpoints() {
        for id in ["google", "apple", "x", "discord", "github", "facebook"] {
            let mut provider = SocialProvider {
                id: id.into(),
                issuer: None,
                authorization_endpoint: None,
                token_endpoint: None,
                userinfo_endpoint: None,
                client_id: "c".into(),
                client_secret: None,
                scopes: vec![],
                basic_auth: None,
            };
            provider.validate().unwrap();
            assert!(!provider.scopes.is_empty(), "{id}");
        }
        let mut generic = SocialProvider {
            id: "corp".into(),
            issuer: None,
            authorization_endpoint: None,
            token_endpoint: None,
            userinfo_endpoint: None,
            client_id: "c".into(),
            client_secret: None,
            scopes: vec![],
            basic_auth: None,
        };
        assert!(generic.clone().validate().is_err(), "needs an issuer or endpoints");
        generic.issuer = Some("https://id.example.com".into());
        generic.validate().unwrap();
        assert_eq!(generic.scopes, ["openid", "email", "profile"]);
    }

    #[test]
    fn id_tokens_are_checked() {
        let good = json_claims("https://id.example.com", "c", "n", 2_000);
        let who = id_token_identity(&jwt(good.clone()), "https://id.example.com/", "c", "n", 1_000_000).unwrap();
        assert_eq!(
            (who.subject.as_str(), who.email.as_deref()),
            ("u1", Some("u1@example.com"))
        );
        for (claims, why) in [
            (json_claims("https://evil.example.com", "c", "n", 2_000), "from"),
            (
                json_claims("https://id.example.com", "other", "n", 2_000),
                "another client",
            ),
            (json_claims("https://id.example.com", "c", "m", 2_000), "nonce"),
            (json_claims("https://id.example.com", "c", "n", 1), "expired"),
        ] {
            let error = id_token_identity(&jwt(claims), "https://id.example.com", "c", "n", 1_000_000)
                .err()
                .unwrap();
            assert!(error.contains(why), "{error}");
        }
        let mut unverified = good;
        unverified["email_verified"] = Value::Bool(false);
        let who = id_token_identity(&jwt(unverified), "https://id.example.com", "c", "n", 1_000_000).unwrap();
        assert_eq!(who.email, None);
        assert!(id_token_identity("garbage", "https://id.example.com", "c", "n", 0).is_err());
    }

    fn json_claims(iss: &str, aud: &str, nonce: &str, exp: i64) -> Value {
        serde_json::json!({"iss": iss, "aud": aud, "nonce": nonce, "exp": exp, "sub": "u1", "email": "u1@example.com", "email_verified": true})
    }

    #[test]
    fn userinfo_shapes() {
        let x = userinfo_identity(&serde_json::json!({"data": {"id": "42", "username": "kay"}})).unwrap();
        assert_eq!(
            (x.subject.as_str(), x.name.as_deref(), x.email),
            ("42", Some("kay"), None)
        );
        let github =
            userinfo_identity(&serde_json::json!({"id": 7, "login": "octo", "email": "o@example.com"})).unwrap();
        assert_eq!((github.subject.as_str(), github.name.as_deref()), ("7", Some("octo")));
        assert!(userinfo_identity(&serde_json::json!({"name": "no id"})).is_none());
    }
}
