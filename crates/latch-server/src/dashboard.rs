//! The analytics dashboard: `GET /dashboard` (a self-contained page) and
//! `GET /v1/analytics/summary` (its data), both behind the admin token.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use std::net::IpAddr;
use std::time::Instant;

use crate::config::DEV_ADMIN_TOKEN;
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::ClientIp;
use crate::ratelimit::{IpKey, Limit};
use crate::store::AnalyticsEvent;
use crate::AppState;

/// Most events read for one summary; older ones beyond it are left out (and said so).
const MAX_SUMMARY_EVENTS: u32 = 200_000;
const DAY_MS: i64 = 86_400_000;

/// `GET /dashboard`.
pub(crate) async fn page() -> impl IntoResponse {
    (
        [
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'",
            ),
        ],
        Html(include_str!("dashboard.html")),
    )
}

#[derive(Deserialize)]
pub(crate) struct SummaryQuery {
    /// The project to summarise.
    project: String,
    /// Days back from now (default 14, at most 90).
    days: Option<u32>,
}

/// Per-day and per-category counts of a project's events.
#[derive(Serialize, Debug, PartialEq, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Summary {
    /// The project.
    pub project: String,
    /// `YYYY-MM-DD` (UTC) → counts of opens, connects and errors.
    pub days: Vec<DayCounts>,
    /// Connected wallets by name.
    pub connects_by_wallet: BTreeMap<String, u64>,
    /// Connections by connector type (`ANNOUNCED`, `WALLET_CONNECT`, …).
    pub connects_by_connector: BTreeMap<String, u64>,
    /// Errors by event name.
    pub errors_by_type: BTreeMap<String, u64>,
    /// Modal opens in the period.
    pub opens: u64,
    /// Successful connections in the period.
    pub connects: u64,
    /// `connects / opens`, 0 when nothing was opened.
    pub conversion: f64,
    /// Whether the period held more events than were read.
    pub truncated: bool,
}

/// One day's counts.
#[derive(Serialize, Debug, PartialEq, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DayCounts {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    /// MODAL_OPEN events.
    pub opens: u64,
    /// CONNECT_SUCCESS events.
    pub connects: u64,
    /// Events of type `error`.
    pub errors: u64,
}

/// Failed admin tokens one client IP may send: 10 at once, then one a minute
/// (guessing a 12-character token at that pace takes longer than forever).
pub(crate) const ADMIN_FAILURES: Limit = Limit {
    per_second: 1.0 / 60.0,
    burst: 10.0,
};

/// Whether `headers` carry `Authorization: Bearer <expected>`, compared in
/// constant time (the token is a password).
pub(crate) fn bearer_matches(headers: &HeaderMap, expected: &str) -> bool {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    given.is_some_and(|g| {
        g.len() == expected.len() && g.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    })
}

/// Lets the admin in, or refuses: 404 without an admin token, 429 to a client
/// that failed [`ADMIN_FAILURES`] too often (before its token is even read),
/// 401 otherwise (and the failure is counted).
fn authorize(state: &AppState, ip: IpAddr, headers: &HeaderMap) -> ApiResult<()> {
    let expected = state.config.admin_token.as_ref().ok_or(ApiError::NotFound)?;
    let key = IpKey::of(ip);
    let now = Instant::now();
    state.admin_failures.peek(&key, now).map_err(ApiError::RateLimited)?;
    // The published dev token opens nothing outside --dev (config refuses it too).
    let usable = state.config.dev || expected.0 != DEV_ADMIN_TOKEN;
    if usable && bearer_matches(headers, &expected.0) {
        return Ok(());
    }
    // Charging can only fail if another failure raced this one: refuse either way.
    let _ = state.admin_failures.check(&key, now);
    Err(ApiError::Unauthorized)
}

/// `YYYY-MM-DD` of a unix-millisecond instant (UTC): the date part of its RFC 3339 form.
fn utc_day(ms: i64) -> String {
    let mut day = latch_core::siwx::unix_ms_rfc3339(ms);
    day.truncate("YYYY-MM-DD".len());
    day
}

/// Counts `events` (of one project) into a summary over the days `since_ms..=now_ms`.
pub(crate) fn summarize(
    project: &str,
    events: &[AnalyticsEvent],
    since_ms: i64,
    now_ms: i64,
    truncated: bool,
) -> Summary {
    let mut days: BTreeMap<String, DayCounts> = BTreeMap::new();
    let mut day = since_ms;
    while day <= now_ms {
        days.insert(
            utc_day(day),
            DayCounts {
                day: utc_day(day),
                ..DayCounts::default()
            },
        );
        day += DAY_MS;
    }
    let mut summary = Summary {
        project: project.to_owned(),
        days: Vec::new(),
        connects_by_wallet: BTreeMap::new(),
        connects_by_connector: BTreeMap::new(),
        errors_by_type: BTreeMap::new(),
        opens: 0,
        connects: 0,
        conversion: 0.0,
        truncated,
    };
    for event in events {
        let counts = days.entry(utc_day(event.occurred_at)).or_insert_with(|| DayCounts {
            day: utc_day(event.occurred_at),
            ..DayCounts::default()
        });
        let properties: Value = event
            .properties
            .as_deref()
            .and_then(|p| serde_json::from_str(p).ok())
            .unwrap_or_default();
        let property = |key: &str| {
            properties
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("unknown")
                .to_owned()
        };
        if event.kind == "error" {
            counts.errors += 1;
            *summary.errors_by_type.entry(event.event.clone()).or_default() += 1;
        }
        match event.event.as_str() {
            "MODAL_OPEN" => {
                counts.opens += 1;
                summary.opens += 1;
            }
            "CONNECT_SUCCESS" => {
                counts.connects += 1;
                summary.connects += 1;
                *summary.connects_by_wallet.entry(property("name")).or_default() += 1;
                *summary
                    .connects_by_connector
                    .entry(property("connectorType"))
                    .or_default() += 1;
            }
            _ => {}
        }
    }
    summary.days = days.into_values().collect();
    summary.conversion = if summary.opens == 0 {
        0.0
    } else {
        summary.connects as f64 / summary.opens as f64
    };
    summary
}

/// `GET /v1/analytics/summary?project=…&days=14` with `Authorization: Bearer <admin token>`.
#[utoipa::path(get, path = "/v1/analytics/summary", tag = "dashboard",
    params(("project" = String, Query), ("days" = Option<u32>, Query, description = "1 to 90, default 14")),
    security(("admin_token" = [])),
    responses((status = 200, body = Summary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub(crate) async fn summary(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<SummaryQuery>,
) -> ApiResult<Json<Summary>> {
    authorize(&state, ip, &headers)?;
    let days = i64::from(query.days.unwrap_or(14).clamp(1, 90));
    let now_ms = crate::now_ms();
    let since_ms = (now_ms.div_euclid(DAY_MS) - (days - 1)) * DAY_MS;
    let events = state
        .store
        .events(&query.project, since_ms, MAX_SUMMARY_EVENTS)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let truncated = events.len() == MAX_SUMMARY_EVENTS as usize;
    Ok(Json(summarize(&query.project, &events, since_ms, now_ms, truncated)))
}

/// `GET /v1/analytics/projects`: the project ids, for the dashboard's picker.
#[utoipa::path(get, path = "/v1/analytics/projects", tag = "dashboard", security(("admin_token" = [])),
    responses((status = 200, body = Vec<String>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub(crate) async fn projects(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<String>>> {
    authorize(&state, ip, &headers)?;
    let projects = state.store.projects().await.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Json(projects.into_iter().map(|p| p.id).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_days() {
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400_000), "2000-02-29");
        assert_eq!(utc_day(1_795_305_600_000 - 1), "2026-11-21");
        assert_eq!(utc_day(-1), "1969-12-31");
    }

    #[test]
    fn counts_opens_connects_and_errors_per_day() {
        let event = |event: &str, kind: &str, at: i64, properties: Option<&str>| AnalyticsEvent {
            project_id: "p".into(),
            event_id: format!("{event}{at}"),
            event: event.into(),
            kind: kind.into(),
            address: None,
            domain: "d".into(),
            url: "u".into(),
            occurred_at: at,
            received_at: at,
            properties: properties.map(String::from),
        };
        let day0 = 20_000 * DAY_MS;
        let events = vec![
            event("MODAL_OPEN", "track", day0 + 1, None),
            event("MODAL_OPEN", "track", day0 + 2, None),
            event(
                "CONNECT_SUCCESS",
                "track",
                day0 + 3,
                Some(r#"{"name":"Test","connectorType":"ANNOUNCED"}"#),
            ),
            event("MODAL_OPEN", "track", day0 + DAY_MS, None),
            event("CONNECT_ERROR", "error", day0 + DAY_MS + 5, None),
        ];
        let summary = summarize("p", &events, day0, day0 + DAY_MS + 10, false);
        assert_eq!(summary.days.len(), 2);
        assert_eq!(
            (summary.days[0].opens, summary.days[0].connects, summary.days[0].errors),
            (2, 1, 0)
        );
        assert_eq!(
            (summary.days[1].opens, summary.days[1].connects, summary.days[1].errors),
            (1, 0, 1)
        );
        assert_eq!(summary.connects_by_wallet, BTreeMap::from([("Test".to_owned(), 1)]));
        assert_eq!(
            summary.connects_by_connector,
            BTreeMap::from([("ANNOUNCED".to_owned(), 1)])
        );
        assert_eq!(
            summary.errors_by_type,
            BTreeMap::from([("CONNECT_ERROR".to_owned(), 1)])
        );
        assert_eq!((summary.opens, summary.connects), (3, 1));
        assert!((summary.conversion - 1.0 / 3.0).abs() < 1e-9);
    }
}
