//! The relay's counters and gauges, rendered into `/metrics` after the HTTP ones.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counters (`_total`) and gauges of the relay.
#[derive(Debug, Default)]
pub struct RelayMetrics {
    /// Open authenticated connections (gauge).
    pub connections: AtomicU64,
    /// Connections ever authenticated.
    pub connections_total: AtomicU64,
    /// Connections closed with 3000 (credentials or project refused).
    pub refused: AtomicU64,
    /// Topic subscriptions held by open connections (gauge).
    pub subscriptions: AtomicU64,
    /// New messages stored.
    pub published: AtomicU64,
    /// Publishes of a message already stored (client retries).
    pub duplicates: AtomicU64,
    /// `irn_subscription` pushes sent (first attempts).
    pub pushed: AtomicU64,
    /// Pushes sent again for want of an ack.
    pub redelivered: AtomicU64,
    /// Pushes acknowledged.
    pub acked: AtomicU64,
    /// Requests answered with an error.
    pub errors: AtomicU64,
    /// Unexpired messages in the mailbox (gauge, refreshed every 15 s).
    pub mailbox_messages: AtomicU64,
}

impl RelayMetrics {
    /// Appends the Prometheus text of every metric to `out`.
    pub fn render(&self, out: &mut String) {
        let metrics: [(&str, &str, &str, &AtomicU64); 11] = [
            (
                "latch_relay_connections",
                "gauge",
                "Open relay connections.",
                &self.connections,
            ),
            (
                "latch_relay_connections_total",
                "counter",
                "Relay connections authenticated.",
                &self.connections_total,
            ),
            (
                "latch_relay_refused_total",
                "counter",
                "Relay connections refused (close 3000).",
                &self.refused,
            ),
            (
                "latch_relay_subscriptions",
                "gauge",
                "Topic subscriptions of open connections.",
                &self.subscriptions,
            ),
            (
                "latch_relay_published_total",
                "counter",
                "Messages stored.",
                &self.published,
            ),
            (
                "latch_relay_duplicates_total",
                "counter",
                "Publishes of an already stored message.",
                &self.duplicates,
            ),
            (
                "latch_relay_pushed_total",
                "counter",
                "irn_subscription pushes sent.",
                &self.pushed,
            ),
            (
                "latch_relay_redelivered_total",
                "counter",
                "Pushes sent again for want of an ack.",
                &self.redelivered,
            ),
            (
                "latch_relay_acked_total",
                "counter",
                "Pushes acknowledged.",
                &self.acked,
            ),
            (
                "latch_relay_errors_total",
                "counter",
                "Relay requests answered with an error.",
                &self.errors,
            ),
            (
                "latch_relay_mailbox_messages",
                "gauge",
                "Unexpired messages in the mailbox.",
                &self.mailbox_messages,
            ),
        ];
        for (name, kind, help, value) in metrics {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {}",
                value.load(Ordering::Relaxed)
            );
        }
    }
}
