//! The wallet frame ("vault") on its own origin: `embedded.vault_listen` serves
//! the built `apps/vault` and, on that same origin, the `/v1/embedded/*` routes
//! the frame calls (so its CSP can say `connect-src 'self'` and no CORS is
//! involved), plus `GET /v1/embedded/frame-config`, which tells the frame
//! whether the page that embeds it may.
//!
//! Headers of the frame's page (`/`):
//! - `Content-Security-Policy`: scripts only from the frame's origin (and
//!   `'wasm-unsafe-eval'` for the key module), calls only to its own origin, and
//!   `frame-ancestors` computed per request from `?projectId`: the project's
//!   allowed origin patterns (their syntax is CSP's source syntax), `'none'`
//!   for an unknown project. The frame checks its parent again at the handshake
//!   (`frame-config`), since `frame-ancestors` stops embedding, not messages.
//! - `Cache-Control: no-store` on the HTML (a new build is picked up at once);
//!   hashed assets are immutable.
//! - `Cross-Origin-Opener-Policy: same-origin-allow-popups` on the frame (its
//!   social popup keeps its opener), `unsafe-none` on `/social/callback`, the
//!   popup's last page, which must still reach the frame that opened it after
//!   the provider's pages (the frame sits in a cross-origin top page, so any
//!   stricter value would cut the popup off from it).

use std::path::{Path, PathBuf};

use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{middleware, Json, Router};
use latch_core::origin::{is_valid_origin_pattern, origin_allowed};
use serde::{Deserialize, Serialize};
use tower_http::services::ServeDir;
use utoipa::{IntoParams, ToSchema};

use super::EmbeddedCaller;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::AppState;

/// The frame page's file in `vault_dir`.
const FRAME_PAGE: &str = "index.html";
/// The social popup's last page in `vault_dir`.
const CALLBACK_PAGE: &str = "social-callback.html";

/// `GET /v1/embedded/frame-config` query.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct FrameConfigQuery {
    /// The project (also read by the caller extractor).
    #[serde(default)]
    #[allow(dead_code)]
    project_id: Option<String>,
    /// The origin of the page that embeds the frame (the handshake's `event.origin`).
    #[serde(default)]
    origin: String,
}

/// What the frame needs to know about its project.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameConfig {
    /// The project.
    pub project_id: String,
    /// The name mails and the frame show (the project's id: projects have no other name).
    pub name: String,
    /// Always true: a refused origin answers 403 `ORIGIN_NOT_ALLOWED`.
    pub allowed: bool,
    /// Social providers configured on this server, in configuration order.
    pub socials: Vec<String>,
}

/// `GET /v1/embedded/frame-config?projectId&origin`: whether `origin` may embed the frame
/// for the project (the project's allowed-origin rule), and the project's name.
#[utoipa::path(get, path = "/v1/embedded/frame-config", tag = "embedded", params(FrameConfigQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = FrameConfig),
        (status = 403, body = ErrorBody, description = "ORIGIN_NOT_ALLOWED: the page may not embed the frame")))]
pub async fn frame_config(
    State(state): State<AppState>,
    EmbeddedCaller(caller): EmbeddedCaller,
    Query(query): Query<FrameConfigQuery>,
) -> ApiResult<Json<FrameConfig>> {
    // The vault origin itself is no host page: it never embeds its own frame.
    let vault = state.config.embedded.vault_origin.as_deref();
    if query.origin.is_empty()
        || vault == Some(query.origin.as_str())
        || !origin_allowed(&caller.project.allowed_origins, &query.origin)
    {
        return Err(ApiError::OriginNotAllowed(query.origin));
    }
    Ok(Json(FrameConfig {
        project_id: caller.project.id.clone(),
        name: caller.project.id.clone(),
        allowed: true,
        socials: state.config.embedded.social.iter().map(|p| p.id.clone()).collect(),
    }))
}

/// `frame-ancestors` for a project's allowed origin patterns: the patterns whose every byte is
/// safe in a CSP source expression (validated patterns always are), `'none'` when none remain.
pub fn frame_ancestors(patterns: &[String]) -> String {
    let sources: Vec<&str> = patterns
        .iter()
        .map(String::as_str)
        .filter(|p| {
            is_valid_origin_pattern(p)
                && p.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'/' | b'*' | b'[' | b']'))
        })
        .collect();
    if sources.is_empty() {
        "'none'".into()
    } else {
        sources.join(" ")
    }
}

fn csp(ancestors: &str) -> String {
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {ancestors}"
    )
}

async fn page(dir: &Path, file: &str, csp: String, opener: &'static str) -> Response {
    let Ok(html) = tokio::fs::read(dir.join(file)).await else {
        return ApiError::NotFound.into_response();
    };
    let mut response = (StatusCode::OK, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("cross-origin-opener-policy", HeaderValue::from_static(opener));
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameQuery {
    #[serde(default)]
    project_id: Option<String>,
}

async fn frame_page(State((state, dir)): State<(AppState, PathBuf)>, Query(query): Query<FrameQuery>) -> Response {
    let project = match query.project_id {
        Some(id) if crate::store::is_valid_project_id(&id) => state.projects.get(&id).await.ok().flatten(),
        _ => None,
    };
    let ancestors = project.map_or_else(|| "'none'".to_owned(), |p| frame_ancestors(&p.allowed_origins));
    page(&dir, FRAME_PAGE, csp(&ancestors), "same-origin-allow-popups").await
}

async fn callback_page(State((_, dir)): State<(AppState, PathBuf)>) -> Response {
    page(&dir, CALLBACK_PAGE, csp("'none'"), "unsafe-none").await
}

/// The frame's listener: its pages, its hashed assets, and the embedded routes on its origin.
pub fn vault_app(state: AppState, dir: PathBuf) -> Router {
    let pages = Router::new()
        .route("/", get(frame_page))
        .route("/index.html", get(frame_page))
        .route("/social/callback", get(callback_page))
        .with_state((state.clone(), dir.clone()));
    // Vite names assets by content hash: they never change under one name.
    let assets = Router::new()
        .fallback_service(
            ServeDir::new(dir.join("assets"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(middleware::map_response(|mut response: Response| async move {
            if response.status().is_success() {
                response.headers_mut().insert(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=31536000, immutable"),
                );
            }
            response
        }));
    Router::new()
        .merge(super::routes(state.config.dev))
        .merge(pages)
        .nest_service("/assets", assets)
        .route("/v1/{*rest}", axum::routing::any(|| async { ApiError::NotFound }))
        .fallback(|| async { ApiError::NotFound })
        .layer(middleware::map_response(hardened))
        .layer(axum::extract::DefaultBodyLimit::disable())
        .layer(middleware::from_fn_with_state(state.clone(), crate::body_limit::limit))
        .with_state(state)
}

/// Headers every answer of the frame's origin carries.
async fn hardened(mut response: Response) -> Response {
    let headers: &mut HeaderMap = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_are_the_projects_patterns() {
        let patterns = ["http://127.0.0.1:*", "https://*.example.com", "https://app.example"].map(String::from);
        assert_eq!(
            frame_ancestors(&patterns),
            "http://127.0.0.1:* https://*.example.com https://app.example"
        );
        assert_eq!(frame_ancestors(&[]), "'none'");
        // Anything that could end the directive or add a source is left out.
        let hostile = ["https://a.example; script-src *", "https://b.example 'unsafe-inline'"].map(String::from);
        assert_eq!(frame_ancestors(&hostile), "'none'");
        assert_eq!(frame_ancestors(&["*".to_owned()]), "*");
    }
}
