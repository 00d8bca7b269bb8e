//! Analytics ingestion (behaviour 6.14 "Analytics"): `POST /e` (one event),
//! `POST /batch` (an array, as `sendBeacon` sends it, often `text/plain`),
//! and `GET /getAnalyticsConfig`. Events are validated by latch-core's rules
//! and stored once per event id; a project with analytics off stores nothing.

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use latch_core::analytics::{event_problem, EVENT_KINDS, EVENT_NAMES, MAX_BATCH_EVENTS, MAX_PROPERTIES_BYTES};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::AnalyticsEvent;
use crate::AppState;

/// The event body clients send.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IncomingEvent {
    #[schema(min_length = 1, max_length = 128)]
    event_id: String,
    #[schema(max_length = 2048)]
    url: String,
    #[schema(max_length = 2048)]
    domain: String,
    /// Unix milliseconds on the client (a JSON number with no fraction; `1.7e12` counts).
    #[serde(deserialize_with = "whole_number")]
    timestamp: i64,
    props: IncomingProps,
}

/// A JSON number that is a whole number within `i64`, however it is written
/// (JSON does not tell `5` from `5.0`, and some clients serialize doubles).
fn whole_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    if let Some(whole) = number.as_i64() {
        return Ok(whole);
    }
    match number.as_f64() {
        // 2^63 is exactly representable; everything below it that has no fraction fits.
        Some(float) if float.fract() == 0.0 && float >= -(2f64.powi(63)) && float < 2f64.powi(63) => Ok(float as i64),
        _ => Err(serde::de::Error::custom(format!(
            "timestamp must be a whole number of milliseconds, not {number}"
        ))),
    }
}

/// The documented values of a string field, from the list the server enforces.
fn one_of(values: &'static [&'static str]) -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(values.iter().copied()))
        .build()
}

fn event_kinds() -> utoipa::openapi::schema::Object {
    one_of(&EVENT_KINDS)
}

fn event_names() -> utoipa::openapi::schema::Object {
    one_of(&EVENT_NAMES)
}

/// The body of `POST /batch` as documented: 1 to [`MAX_BATCH_EVENTS`] events.
pub(crate) struct EventBatch;

impl utoipa::PartialSchema for EventBatch {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::openapi::bounded_list("IncomingEvent", MAX_BATCH_EVENTS)
    }
}

impl ToSchema for EventBatch {}

/// What happened.
#[derive(Deserialize, ToSchema)]
pub(crate) struct IncomingProps {
    #[serde(rename = "type")]
    #[schema(schema_with = event_kinds)]
    kind: String,
    #[schema(schema_with = event_names)]
    event: String,
    address: Option<String>,
    properties: Option<Value>,
}

fn to_stored(project_id: &str, index: Option<usize>, value: Value, received_at: i64) -> ApiResult<AnalyticsEvent> {
    let at = |what: String| match index {
        Some(i) => format!("event {i}: {what}"),
        None => what,
    };
    let event: IncomingEvent = serde_json::from_value(value).map_err(|e| ApiError::bad("body", at(e.to_string())))?;
    if let Some(problem) = event_problem(
        &event.event_id,
        &event.url,
        &event.domain,
        &event.props.kind,
        &event.props.event,
    ) {
        return Err(ApiError::bad("body", at(problem)));
    }
    let properties = match event.props.properties {
        None | Some(Value::Null) => None,
        Some(object @ Value::Object(_)) => Some(object.to_string()),
        Some(_) => return Err(ApiError::bad("body", at("props.properties must be an object".into()))),
    };
    if properties.as_ref().is_some_and(|p| p.len() > MAX_PROPERTIES_BYTES) {
        return Err(ApiError::bad(
            "body",
            at(format!("props.properties exceeds {MAX_PROPERTIES_BYTES} bytes")),
        ));
    }
    Ok(AnalyticsEvent {
        project_id: project_id.to_owned(),
        event_id: event.event_id,
        event: event.props.event,
        kind: event.props.kind,
        address: event.props.address.filter(|a| !a.is_empty()),
        domain: event.domain,
        url: event.url,
        occurred_at: event.timestamp,
        received_at,
        properties,
    })
}

fn parse_json(body: &Bytes) -> ApiResult<Value> {
    serde_json::from_slice(body).map_err(|e| ApiError::UnprocessableBody(format!("body is not JSON: {e}")))
}

async fn store(state: &AppState, caller: &Caller, values: Vec<(Option<usize>, Value)>) -> ApiResult<Json<Ingested>> {
    if !caller.project.analytics_enabled {
        return Ok(Json(Ingested {
            accepted: 0,
            stored: 0,
            analytics_enabled: false,
        }));
    }
    let received_at = crate::now_ms();
    // Validate everything first: a batch is stored whole or not at all.
    let events = values
        .into_iter()
        .map(|(index, value)| to_stored(&caller.project.id, index, value, received_at))
        .collect::<ApiResult<Vec<_>>>()?;
    let stored = state
        .store
        .add_events(&events)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Json(Ingested {
        accepted: events.len(),
        stored,
        analytics_enabled: true,
    }))
}

/// What an ingestion stored.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Ingested {
    /// Events that passed validation (0 when analytics is off).
    pub accepted: usize,
    /// Events newly stored (resends of a known eventId are not).
    pub stored: u64,
    /// Whether the project records analytics.
    pub analytics_enabled: bool,
}

/// `{isAnalyticsEnabled}`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AnalyticsConfig {
    /// Whether the modal should send events for this project.
    pub is_analytics_enabled: bool,
}

/// `POST /e`: one event.
#[utoipa::path(post, path = "/e", tag = "analytics", security(("project_id" = []), ("project_header" = [])),
    request_body(content = IncomingEvent),
    responses((status = 200, body = Ingested), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn event(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Json<Ingested>> {
    let value = parse_json(&body)?;
    store(&state, &caller, vec![(None, value)]).await
}

/// `POST /batch`: an array of events.
#[utoipa::path(post, path = "/batch", tag = "analytics", security(("project_id" = []), ("project_header" = [])),
    request_body(content = EventBatch),
    responses((status = 200, body = Ingested), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub(crate) async fn batch(State(state): State<AppState>, caller: Caller, body: Bytes) -> ApiResult<Json<Ingested>> {
    let Value::Array(values) = parse_json(&body)? else {
        return Err(ApiError::bad("body", "a batch is a JSON array of events"));
    };
    if values.is_empty() || values.len() > MAX_BATCH_EVENTS {
        return Err(ApiError::bad(
            "body",
            format!("a batch holds 1 to {MAX_BATCH_EVENTS} events, not {}", values.len()),
        ));
    }
    store(
        &state,
        &caller,
        values.into_iter().enumerate().map(|(i, v)| (Some(i), v)).collect(),
    )
    .await
}

/// `GET /getAnalyticsConfig`: `{isAnalyticsEnabled}` for the caller's project.
#[utoipa::path(get, path = "/getAnalyticsConfig", tag = "analytics", security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = AnalyticsConfig), (status = 401, body = ErrorBody)))]
pub(crate) async fn config(caller: Caller) -> Json<AnalyticsConfig> {
    Json(AnalyticsConfig {
        is_analytics_enabled: caller.project.analytics_enabled,
    })
}
