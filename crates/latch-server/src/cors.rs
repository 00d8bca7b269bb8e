//! CORS that answers only a project's allowed origins (behaviour 6.2 "Invalid App
//! Configuration"). Preflights name their project in the query (`projectId`)
//! and pass only for an origin on its allowlist. Actual responses carry
//! `Access-Control-Allow-Origin` for allowed origins, and also on the 401/403
//! refusals themselves, so the modal can read the status and show the documented
//! alert instead of an opaque network error.
//!
//! The CCIP-Read gateway (`/ccip`) is the exception: its answers are public and signed, and
//! EIP-3668 has gateways answer any origin, so an ENS library on any page can resolve the zone.

use std::future::Future;

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use latch_core::origin::origin_allowed;

use crate::project::project_id_of;
use crate::AppState;

// DELETE and `authorization`: the modal signs out of a sign-in session with its bearer token.
const ALLOW_METHODS: &str = "GET, POST, DELETE, OPTIONS";
const ALLOW_HEADERS: &str = "authorization, content-type, x-project-id, x-sdk-type, x-sdk-version";
const MAX_AGE_SECONDS: &str = "600";
const CCIP_ALLOW_METHODS: &str = "GET, POST, OPTIONS";

fn is_ccip_gateway(path: &str) -> bool {
    path == "/ccip" || path.starts_with("/ccip/")
}

/// `/ccip` for any origin: a preflight answered here, a call answered with `*`.
async fn ccip_cors<F: Future<Output = Response>>(
    request: Request,
    next: impl FnOnce(Request) -> F,
    is_preflight: bool,
) -> Response {
    let mut response = if is_preflight {
        preflight(CCIP_ALLOW_METHODS, "content-type")
    } else {
        next(request).await
    };
    response
        .headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    response
}

/// A passed preflight's answer: 204 with the allowed methods and headers, cached for a while.
fn preflight(methods: &'static str, headers: &'static str) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let map = response.headers_mut();
    map.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static(methods));
    map.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static(headers));
    map.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(MAX_AGE_SECONDS),
    );
    response
}

async fn origin_allowed_for(state: &AppState, project_id: Option<&str>, origin: &str) -> bool {
    let Some(id) = project_id else { return false };
    match state.projects.get(id).await {
        Ok(Some(project)) => origin_allowed(&project.allowed_origins, origin),
        _ => false,
    }
}

fn allow(response: &mut Response, origin: &HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    headers.append(header::VARY, HeaderValue::from_static("origin"));
}

/// The middleware, around `next` (the rest of the middleware in `crate::app`).
pub(crate) async fn cors<F: Future<Output = Response>>(
    state: &AppState,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response {
    let Some(origin) = request.headers().get(header::ORIGIN).cloned() else {
        return next(request).await;
    };
    let is_preflight =
        request.method() == Method::OPTIONS && request.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if is_ccip_gateway(request.uri().path()) {
        return ccip_cors(request, next, is_preflight).await;
    }
    // Read from the request in place (it is passed on only after this).
    let origin_text = origin.to_str().unwrap_or_default();
    let project = project_id_of(request.uri(), request.headers());
    // The embedded wallet's frame calls its routes for every project from its own origin.
    let vault = request.uri().path().starts_with("/v1/embedded/")
        && state.config.embedded.vault_origin.as_deref() == Some(origin_text)
        && project.is_some();
    let allowed = vault || origin_allowed_for(state, project, origin_text).await;

    if is_preflight {
        if !allowed {
            // No CORS headers: the browser refuses the call before it is made.
            return StatusCode::FORBIDDEN.into_response();
        }
        let mut response = preflight(ALLOW_METHODS, ALLOW_HEADERS);
        allow(&mut response, &origin);
        return response;
    }

    let mut response = next(request).await;
    let readable_refusal = matches!(response.status(), StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
    if allowed || readable_refusal {
        allow(&mut response, &origin);
    }
    response
}
