//! Who is calling: every API call names a project (query `projectId` or header
//! `x-project-id`) and, from a browser, an `Origin` the project allows.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};
use latch_core::origin::origin_allowed;

use crate::error::ApiError;
use crate::store::{is_valid_project_id, Project};
use crate::AppState;

/// The project a request is made for, checked against the store and its allowlist.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The project.
    pub project: Project,
}

fn query_param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

fn project_id(parts: &Parts) -> Option<&str> {
    let from_query = parts.uri.query().and_then(|q| query_param(q, "projectId"));
    from_query.or_else(|| header_str(&parts.headers, "x-project-id"))
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let id = project_id(parts)
            .filter(|id| is_valid_project_id(id))
            .ok_or(ApiError::InvalidProjectId)?;
        let project = state
            .store
            .project(id)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        let project = project.ok_or(ApiError::InvalidProjectId)?;
        if let Some(origin) = header_str(&parts.headers, header::ORIGIN.as_str()) {
            if !origin_allowed(&project.allowed_origins, origin) {
                return Err(ApiError::OriginNotAllowed(origin.to_owned()));
            }
        }
        Ok(Caller { project })
    }
}

#[cfg(test)]
mod tests {
    use super::query_param;

    #[test]
    fn query_params() {
        assert_eq!(
            query_param("chainId=eip155:1&projectId=demo", "projectId"),
            Some("demo")
        );
        assert_eq!(query_param("xprojectId=a", "projectId"), None);
        assert_eq!(query_param("projectIdx=a", "projectId"), None);
        assert_eq!(query_param("", "projectId"), None);
    }
}
