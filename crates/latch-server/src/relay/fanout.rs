//! Fan-out between `latch` nodes sharing one database: every new message is
//! published on a Redis channel, and each node hands what the others publish
//! to its own subscribers. The mailbox (Postgres) stays the source of truth:
//! after losing Redis a node has every connection re-read it, so a message
//! missed on the channel is still delivered.
// Its items are `pub` for the fuzz targets, which see it only with feature `fuzzing`.
#![cfg_attr(not(feature = "fuzzing"), allow(unreachable_pub))]

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use redis::AsyncCommands;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::Hub;
use crate::store::RelayMessage;

/// The channel every node publishes to and listens on.
pub const CHANNEL: &str = "latch:relay:messages";
/// Wait before reconnecting to Redis.
const RECONNECT: Duration = Duration::from_secs(1);

/// Why fan-out could not start.
#[derive(Debug, thiserror::Error)]
pub enum FanoutError {
    /// The URL is not a Redis URL, or the first connection failed.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
}

/// This node's link to the others.
pub struct RedisFanout {
    outgoing: mpsc::UnboundedSender<String>,
}

impl RedisFanout {
    /// Connects (failing fast when Redis is unreachable at start) and starts
    /// the publishing and listening tasks.
    pub async fn start(url: &str, hub: Arc<Hub>, node: String) -> Result<Self, FanoutError> {
        let client = redis::Client::open(url)?;
        let publisher = client.get_multiplexed_async_connection().await?;
        let mut pubsub = client.get_async_pubsub().await?;
        pubsub.subscribe(CHANNEL).await?;
        let (outgoing, mut queue) = mpsc::unbounded_channel::<String>();

        let publish_client = client.clone();
        tokio::spawn(async move {
            let mut connection = Some(publisher);
            while let Some(payload) = queue.recv().await {
                loop {
                    let conn = match &mut connection {
                        Some(conn) => conn,
                        None => match publish_client.get_multiplexed_async_connection().await {
                            Ok(conn) => connection.insert(conn),
                            Err(error) => {
                                tracing::warn!(%error, "relay fan-out: redis unreachable");
                                tokio::time::sleep(RECONNECT).await;
                                continue;
                            }
                        },
                    };
                    match conn.publish::<_, _, i64>(CHANNEL, &payload).await {
                        Ok(_) => break,
                        Err(error) => {
                            tracing::warn!(%error, "relay fan-out: publishing failed");
                            connection = None;
                        }
                    }
                }
            }
        });

        let me = node.clone();
        tokio::spawn(async move {
            let mut pubsub = Some(pubsub);
            loop {
                if let Some(mut live) = pubsub.take() {
                    let mut messages = live.on_message();
                    while let Some(message) = messages.next().await {
                        let Ok(payload) = message.get_payload::<String>() else {
                            continue;
                        };
                        match decode(&payload) {
                            Some((origin, message)) if origin != me => hub.deliver(&Arc::new(message)),
                            Some(_) => {}
                            None => tracing::warn!("relay fan-out: ignoring a malformed message"),
                        }
                    }
                    tracing::warn!("relay fan-out: redis subscription lost");
                }
                tokio::time::sleep(RECONNECT).await;
                match client.get_async_pubsub().await {
                    Ok(mut fresh) => {
                        if fresh.subscribe(CHANNEL).await.is_ok() {
                            pubsub = Some(fresh);
                            // Whatever went by meanwhile is in the mailbox: have everyone re-read it.
                            hub.resync_all();
                        }
                    }
                    Err(error) => tracing::warn!(%error, "relay fan-out: redis unreachable"),
                }
            }
        });
        Ok(Self { outgoing })
    }

    /// Tells the other nodes about a new message (in order, retried until Redis takes it).
    pub fn send(&self, node: &str, message: &RelayMessage) {
        let _ = self.outgoing.send(encode(node, message));
    }
}

/// The channel's JSON for `message` from `node`.
pub fn encode(node: &str, message: &RelayMessage) -> String {
    json!({"node": node, "id": message.id, "topic": message.topic, "hash": message.hash, "message": message.message,
        "tag": message.tag, "publisher": message.publisher, "publishedAt": message.published_at,
        "expiresAt": message.expires_at})
    .to_string()
}

/// The node and message of a channel payload; `None` when it is not one.
pub fn decode(payload: &str) -> Option<(String, RelayMessage)> {
    let value: Value = serde_json::from_str(payload).ok()?;
    let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
    let number = |key: &str| value.get(key)?.as_i64();
    let message = RelayMessage {
        id: number("id")?,
        topic: text("topic")?,
        hash: text("hash")?,
        message: text("message")?,
        tag: number("tag")?,
        publisher: text("publisher")?,
        published_at: number("publishedAt")?,
        expires_at: number("expiresAt")?,
    };
    Some((text("node")?, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn round_trips(node in ".{0,20}", id in any::<i64>(), topic in "[0-9a-f]{64}", message in ".{0,200}", tag in any::<i64>(),
                       publisher in ".{0,60}", at in any::<i64>(), until in any::<i64>()) {
            let original = RelayMessage { id, topic, hash: "h".into(), message, tag, publisher, published_at: at, expires_at: until };
            prop_assert_eq!(decode(&encode(&node, &original)), Some((node, original)));
        }

        #[test]
        fn never_panics(payload in ".{0,300}") {
            let _ = decode(&payload);
        }
    }
}
