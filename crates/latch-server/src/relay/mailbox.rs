//! Group commit for the mailbox: publishes and acks from every connection are
//! queued to one writer, which stores whatever has gathered in one transaction,
//! answers each publisher once its message is durable, and only then hands the
//! new messages to this node's subscribers (and the other nodes). One commit per
//! batch instead of one per message is what lets a persisted relay keep up with
//! a socket: under load batches grow, when idle a message waits for no one.
//!
//! Quotas are counted here, from the store (so they hold across nodes sharing
//! it) plus what the batch itself adds. A batch the store refuses is written
//! again message by message, so one unstorable message fails only its own publish.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::fanout::RedisFanout;
use super::metrics::RelayMetrics;
use super::Hub;
use crate::store::{RelayAck, RelayMailbox, RelayMessage};

/// Most operations stored in one transaction.
const BATCH: usize = 2048;

/// Why a publish was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MailboxError {
    /// The topic's or the publisher's quota of held messages is spent.
    #[error("mailbox quota exceeded")]
    Full,
    /// The database refused it (or the writer is gone).
    #[error("storing the message failed")]
    Failed,
}

/// How many unexpired messages the mailbox may hold.
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    /// Per topic.
    pub per_topic: u64,
    /// Per publisher, all topics together.
    pub per_publisher: u64,
}

type Answer = oneshot::Sender<Result<bool, MailboxError>>;

enum Write {
    Publish(RelayMessage, Answer),
    Ack(RelayAck),
}

/// The queue in front of the writer task.
pub struct Mailbox {
    queue: mpsc::UnboundedSender<Write>,
}

/// Where new messages go once stored.
pub struct Outlets {
    /// This node's subscribers.
    pub hub: Arc<Hub>,
    /// The other nodes, when scaled out.
    pub fanout: Option<RedisFanout>,
    /// This node's id on the fan-out channel.
    pub node: String,
    /// Published / duplicate counters.
    pub metrics: Arc<RelayMetrics>,
    /// What the mailbox may hold.
    pub quotas: Quotas,
}

impl Mailbox {
    /// Starts the writer over `store`.
    pub fn start(store: Arc<dyn RelayMailbox>, outlets: Outlets) -> Self {
        let (queue, mut incoming) = mpsc::unbounded_channel::<Write>();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(BATCH);
            while incoming.recv_many(&mut batch, BATCH).await > 0 {
                write(store.as_ref(), &outlets, std::mem::take(&mut batch)).await;
            }
        });
        Self { queue }
    }

    /// Stores `message`; `Ok(false)` when it was already there (a retry or a
    /// duplicate), `Err` when over quota or the database refused it.
    pub async fn publish(&self, message: RelayMessage) -> Result<bool, MailboxError> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Write::Publish(message, answer))
            .map_err(|_| MailboxError::Failed)?;
        answered.await.map_err(|_| MailboxError::Failed)?
    }

    /// Records an ack with the next batch. Not awaited: a lost ack only means
    /// the message is pushed again, which clients tolerate.
    pub fn ack(&self, ack: RelayAck) {
        let _ = self.queue.send(Write::Ack(ack));
    }
}

async fn write(store: &dyn RelayMailbox, outlets: &Outlets, batch: Vec<Write>) {
    let mut publishes = Vec::new();
    let mut acks = Vec::new();
    for write in batch {
        match write {
            Write::Publish(message, answer) => publishes.push((message, answer)),
            Write::Ack(ack) => acks.push(ack),
        }
    }
    let (messages, answers) = within_quotas(store, outlets.quotas, publishes).await;
    match store.relay_write(&messages, &acks).await {
        Ok(fresh) => settle(outlets, messages, answers, fresh),
        Err(error) if messages.len() > 1 => {
            tracing::warn!(%error, messages = messages.len(), "relay: a mailbox batch failed; storing its messages one by one");
            if let Err(error) = store.relay_write(&[], &acks).await {
                tracing::error!(%error, acks = acks.len(), "relay: storing acks failed");
            }
            for (message, answer) in messages.into_iter().zip(answers) {
                match store.relay_write(std::slice::from_ref(&message), &[]).await {
                    Ok(fresh) => settle(outlets, vec![message], vec![answer], fresh),
                    Err(error) => {
                        tracing::warn!(%error, topic = %message.topic, "relay: a message could not be stored");
                        let _ = answer.send(Err(MailboxError::Failed));
                    }
                }
            }
        }
        Err(error) => {
            tracing::error!(%error, messages = messages.len(), acks = acks.len(), "relay: storing a mailbox batch failed");
            for answer in answers {
                let _ = answer.send(Err(MailboxError::Failed));
            }
        }
    }
}

/// The publishes that fit their topic's and publisher's quotas (counting the
/// store and the batch so far); the others are answered `Full` here.
async fn within_quotas(
    store: &dyn RelayMailbox,
    quotas: Quotas,
    publishes: Vec<(RelayMessage, Answer)>,
) -> (Vec<RelayMessage>, Vec<Answer>) {
    let mut topics: HashMap<String, u64> = HashMap::new();
    let mut publishers: HashMap<String, u64> = HashMap::new();
    for (message, _) in &publishes {
        topics.entry(message.topic.clone()).or_default();
        publishers.entry(message.publisher.clone()).or_default();
    }
    let topic_names: Vec<String> = topics.keys().cloned().collect();
    let publisher_names: Vec<String> = publishers.keys().cloned().collect();
    match store
        .relay_counts(&topic_names, &publisher_names, crate::now_ms())
        .await
    {
        Ok((topic_counts, publisher_counts)) => {
            topics.extend(topic_names.into_iter().zip(topic_counts));
            publishers.extend(publisher_names.into_iter().zip(publisher_counts));
        }
        Err(error) => {
            tracing::error!(%error, "relay: counting the mailbox failed");
            for (_, answer) in publishes {
                let _ = answer.send(Err(MailboxError::Failed));
            }
            return (Vec::new(), Vec::new());
        }
    }
    let mut messages = Vec::with_capacity(publishes.len());
    let mut answers = Vec::with_capacity(publishes.len());
    for (message, answer) in publishes {
        let topic = topics.entry(message.topic.clone()).or_default();
        let publisher = publishers.entry(message.publisher.clone()).or_default();
        if *topic >= quotas.per_topic || *publisher >= quotas.per_publisher {
            let _ = answer.send(Err(MailboxError::Full));
            continue;
        }
        *topic = topic.saturating_add(1);
        *publisher = publisher.saturating_add(1);
        messages.push(message);
        answers.push(answer);
    }
    (messages, answers)
}

/// Answers the publishers of stored `messages` and hands the new ones on.
fn settle(outlets: &Outlets, messages: Vec<RelayMessage>, answers: Vec<Answer>, fresh: Vec<Option<i64>>) {
    for ((mut message, answer), stored) in messages.into_iter().zip(answers).zip(fresh) {
        let _ = answer.send(Ok(stored.is_some()));
        let Some(id) = stored else {
            outlets.metrics.duplicates.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        outlets.metrics.published.fetch_add(1, Ordering::Relaxed);
        message.id = id;
        let message = Arc::new(message);
        outlets.hub.deliver(&message);
        if let Some(fanout) = &outlets.fanout {
            fanout.send(&outlets.node, &message);
        }
    }
}
