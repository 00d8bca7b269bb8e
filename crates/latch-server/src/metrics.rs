//! Prometheus metrics at `GET /metrics`: requests by route and status, and a
//! latency histogram by route. Hand-rolled: the text format is tiny. Requests
//! are recorded into per-thread shards (each worker thread locks only its own,
//! so recording never waits on another core) and merged when scraped.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Independent request registries: threads beyond this many share them.
const SHARDS: usize = 32;

#[derive(Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// What one route has answered.
#[derive(Default, Clone)]
struct RouteStats {
    by_status: BTreeMap<u16, u64>,
    latency: Histogram,
}

/// A gauge: its help text and its value per label set.
type Gauge = (&'static str, BTreeMap<String, f64>);

/// The process's metrics: requests by route, and gauges set by background work, and the relay's.
/// One `Arc`: every request clones it.
#[derive(Clone, Default)]
pub struct Metrics(Arc<Registry>);

#[derive(Default)]
struct Registry {
    routes: [Shard; SHARDS],
    gauges: Mutex<BTreeMap<&'static str, Gauge>>,
    relay: Arc<crate::relay::metrics::RelayMetrics>,
}

impl Metrics {
    /// The relay's counters and gauges.
    pub fn relay(&self) -> &Arc<crate::relay::metrics::RelayMetrics> {
        &self.0.relay
    }

    /// Sets gauge `name{labels}` (labels already in Prometheus form, e.g. `chain="eip155:1"`).
    pub fn set_gauge(&self, name: &'static str, help: &'static str, labels: &str, value: f64) {
        let mut gauges = self.0.gauges.lock().unwrap_or_else(|e| e.into_inner());
        let (_, values) = gauges.entry(name).or_insert_with(|| (help, BTreeMap::new()));
        if let Some(slot) = values.get_mut(labels) {
            *slot = value;
        } else {
            values.insert(labels.to_owned(), value);
        }
    }

    fn record(&self, route: &str, status: u16, seconds: f64) {
        let mut routes = self.0.routes[thread_shard()]
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // Look up before inserting: after a route's first request, recording allocates nothing.
        if !routes.contains_key(route) {
            routes.insert(route.to_owned(), RouteStats::default());
        }
        let Some(stats) = routes.get_mut(route) else { return };
        *stats.by_status.entry(status).or_default() += 1;
        let histogram = &mut stats.latency;
        for (count, bound) in histogram.counts.iter_mut().zip(BUCKETS) {
            if seconds <= bound {
                *count += 1;
            }
        }
        histogram.count += 1;
        histogram.sum += seconds;
    }

    /// The Prometheus text exposition format.
    pub fn render(&self) -> String {
        let routes = self.merged();
        let mut out = String::new();
        out.push_str("# HELP latch_http_requests_total HTTP requests answered, by route and status.\n");
        out.push_str("# TYPE latch_http_requests_total counter\n");
        for (route, status, count) in routes
            .iter()
            .flat_map(|(r, stats)| stats.by_status.iter().map(move |(s, c)| (r, s, c)))
        {
            let _ = writeln!(
                out,
                "latch_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {count}"
            );
        }
        out.push_str("# HELP latch_http_request_duration_seconds Time to answer, by route.\n");
        out.push_str("# TYPE latch_http_request_duration_seconds histogram\n");
        for (route, h) in routes.iter().map(|(route, stats)| (route, &stats.latency)) {
            for (bound, count) in BUCKETS.iter().zip(h.counts) {
                let _ = writeln!(
                    out,
                    "latch_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {count}"
                );
            }
            let _ = writeln!(
                out,
                "latch_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "latch_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "latch_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count
            );
        }
        for (name, (help, values)) in self.0.gauges.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
            for (labels, value) in values {
                let _ = writeln!(out, "{name}{{{labels}}} {value}");
            }
        }
        self.0.relay.render(&mut out);
        out
    }

    /// Every shard's routes added up.
    fn merged(&self) -> BTreeMap<String, RouteStats> {
        let mut merged: BTreeMap<String, RouteStats> = BTreeMap::new();
        for shard in &self.0.routes {
            let routes = shard.0.lock().unwrap_or_else(|e| e.into_inner());
            for (route, stats) in routes.iter() {
                let Some(total) = merged.get_mut(route) else {
                    merged.insert(route.clone(), stats.clone());
                    continue;
                };
                for (status, count) in &stats.by_status {
                    *total.by_status.entry(*status).or_default() += count;
                }
                for (sum, count) in total.latency.counts.iter_mut().zip(stats.latency.counts) {
                    *sum += count;
                }
                total.latency.count += stats.latency.count;
                total.latency.sum += stats.latency.sum;
            }
        }
        merged
    }
}

/// One thread's routes, on a cache line of its own so shards never share one.
#[derive(Default)]
#[repr(align(128))]
struct Shard(Mutex<BTreeMap<String, RouteStats>>);

/// The shard the calling thread records into.
fn thread_shard() -> usize {
    crate::shard::thread_index() % SHARDS
}

/// Middleware recording every request (around `next`, the rest of the
/// middleware in `crate::app`). Routes are the matched patterns (never raw
/// paths), so the label set stays bounded.
pub(crate) async fn track<F: Future<Output = Response>>(
    metrics: &Metrics,
    request: Request,
    next: impl FnOnce(Request) -> F,
) -> Response {
    // MatchedPath is a shared string: cloning it does not copy the route.
    let route = request.extensions().get::<MatchedPath>().cloned();
    let started = Instant::now();
    let response = next(request).await;
    let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
    metrics.record(route, response.status().as_u16(), started.elapsed().as_secs_f64());
    response
}

/// What `GET /metrics` serves, and the token it requires (if any).
#[derive(Clone)]
pub(crate) struct Access {
    /// The registry rendered.
    pub metrics: Metrics,
    /// `metrics_token`: required as `Authorization: Bearer …` when set.
    pub token: Option<crate::config::Secret>,
}

/// `GET /metrics`.
pub(crate) async fn serve(State(access): State<Access>, headers: HeaderMap) -> Result<impl IntoResponse, ApiError> {
    if let Some(token) = &access.token {
        if !crate::dashboard::bearer_matches(&headers, &token.0) {
            return Err(ApiError::Unauthorized);
        }
    }
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        access.metrics.render(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_cumulative_buckets() {
        let metrics = Metrics::default();
        metrics.record("/v1", 200, 0.0007);
        metrics.record("/v1", 503, 0.003);
        // Other threads record into other shards; the scrape adds them up.
        std::thread::scope(|scope| {
            scope.spawn(|| metrics.record("/v1", 200, 0.2));
        });
        let text = metrics.render();
        assert!(text.contains("latch_http_requests_total{route=\"/v1\",status=\"200\"} 2\n"));
        assert!(text.contains("latch_http_requests_total{route=\"/v1\",status=\"503\"} 1\n"));
        assert!(text.contains("latch_http_request_duration_seconds_bucket{route=\"/v1\",le=\"0.0005\"} 0\n"));
        assert!(text.contains("latch_http_request_duration_seconds_bucket{route=\"/v1\",le=\"0.001\"} 1\n"));
        assert!(text.contains("latch_http_request_duration_seconds_bucket{route=\"/v1\",le=\"0.005\"} 2\n"));
        assert!(text.contains("latch_http_request_duration_seconds_bucket{route=\"/v1\",le=\"+Inf\"} 3\n"));
        assert!(text.contains("latch_http_request_duration_seconds_count{route=\"/v1\"} 3\n"));
        metrics.set_gauge(
            "latch_indexed_block",
            "Highest block indexed.",
            "chain=\"eip155:1\"",
            7.0,
        );
        metrics.set_gauge(
            "latch_indexed_block",
            "Highest block indexed.",
            "chain=\"eip155:1\"",
            9.0,
        );
        let text = metrics.render();
        assert!(
            text.contains("# TYPE latch_indexed_block gauge\nlatch_indexed_block{chain=\"eip155:1\"} 9\n"),
            "{text}"
        );
    }
}
